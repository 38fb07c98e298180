// PyTorch Lightning's CSVLogger metrics.csv (lightning.fabric.loggers.csv_logs: one row per log_metrics call, a
// "step" column the logger adds, an "epoch" column the trainer logs, every other column a metric; a row leaves
// empty the metrics it did not log). Each non-empty metric cell is a point at the row's step. The logger writes no
// clock, so the basis is steps: the "step" column as written (the global step when the row was logged); the
// point's epoch is the "epoch" column + 1 (the epoch the row was logged in, counted from 1). The seed comes from
// hparams.yaml beside the file ("seed" or "random_seed" at the top level) when present, and the
// run's hyperparameters from the same file.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "runlog/framework_log.h"

namespace evalsuite::runlog {

// Throws IoError (unreadable) or InputError naming the file (no "step" column, a step that is not a number).
FrameworkRun ReadLightningMetricsCsv(const std::filesystem::path& file);

// True when a CSV header is Lightning's: it has both a "step" and an "epoch" column.
bool LooksLikeLightningHeader(const std::string& header_line);

// Every scalar of a small YAML file (hparams.yaml) by its key: nested mappings flattened with "." ("model.lr"),
// a list as its items joined by ", ", quotes removed. What is not a `key: value` line is passed over.
std::map<std::string, std::string> YamlScalars(const std::filesystem::path& file);

// The value of a top-level `key: value` line of a small YAML file (hparams.yaml, meta.yaml), quotes removed;
// nullopt when absent. Nested keys (indented lines) are not read.
std::optional<std::string> TopLevelYamlValue(const std::filesystem::path& file, const std::string& key);

}  // namespace evalsuite::runlog
