// Which framework's log a file is, from its name and first bytes: what the search for an import's sources
// (import_sources.h) asks of each file, before any reading (framework_import.h).
#pragma once

#include <filesystem>
#include <optional>

#include "importer/import_format.h"

namespace evalsuite::importer {

bool IsFrameworkFormat(ImportFormat format);

// The framework format of `file` found by its name and content (`forced`: only that format, or kAuto for any):
// a *trainer_state.json or any .json with a "log_history" key near its start -> Hugging Face; a .csv (or .log)
// whose header has "step" and "epoch" -> Lightning; a .csv or .log whose header is "epoch" then sorted keys -> Keras;
// any other .csv with an "epoch" column -> an epoch-indexed CSV (YOLO's results.csv, runlog/epoch_csv_log.h);
// meta.yaml in a folder with metrics/ -> MLflow (the run folder); *tfevents* -> TensorBoard. nullopt otherwise.
std::optional<ImportFormat> ProbeFrameworkFile(const std::filesystem::path& file, ImportFormat forced);

}  // namespace evalsuite::importer
