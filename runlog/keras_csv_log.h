// Keras' CSVLogger history file (keras.callbacks.CSVLogger: a header "epoch,<the logs' keys, sorted>", one row per
// epoch end, "NA" for a key missing that epoch, `separator` ',' by default). The logger writes no clock, so the basis
// is epochs: the epoch column + 1 (epochs trained when the row was written; Keras counts epochs from 0).
// CSVLogger(append=True) adds later fits to the same file: an epoch column that restarts at 0 (or a repeated header
// line) begins a new run, and each becomes a run of its own ("file (run 2 of 4, lines 7-10)"). A resumed fit
// (initial_epoch > 0) continues its run; rows whose epoch goes back to a value above 0 stay in it, where the run-log
// checks skip them with a warning.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "runlog/framework_log.h"

namespace evalsuite::runlog {

// Throws IoError (unreadable) or InputError naming the file and line (no epoch column first, an epoch that is not
// a number, a row longer than the header).
std::vector<FrameworkRun> ReadKerasCsv(const std::filesystem::path& file);

// True when a header line is CSVLogger's: "epoch" first, then at least one key, the keys in sorted order.
bool LooksLikeKerasHeader(const std::string& header_line);

}  // namespace evalsuite::runlog
