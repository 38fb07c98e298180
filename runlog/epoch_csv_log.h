// An epoch-indexed CSV of metrics, the shape most training scripts write beside Keras' and Lightning's loggers:
// Ultralytics YOLO's results.csv ("epoch,time,train/box_loss,...,metrics/mAP50(B),..."; epochs from 1, "time" the
// cumulative training seconds) and YOLOv5's (every field space-padded, epochs from 0, no clock). One row per epoch end,
// every column but "epoch" and "time" a metric. The basis is seconds where a "time" column holds the cumulative clock,
// else epochs trained: the epoch column as written when the first row counts from 1, + 1 when it counts from 0.
#pragma once

#include <filesystem>
#include <string>

#include "runlog/framework_log.h"

namespace evalsuite::runlog {

// Throws IoError (unreadable) or InputError naming the file and line: a header without an "epoch" column (a CSV
// evalsuite cannot place, told apart from every other format), an epoch or time that is not a number, a row
// longer than the header.
FrameworkRun ReadEpochCsv(const std::filesystem::path& file);

// True when a CSV header names an "epoch" column (blanks and case aside) and at least one other column.
bool LooksLikeEpochCsvHeader(const std::string& header_line);

}  // namespace evalsuite::runlog
