// evalsuite's run-log format, JSON Lines, one record per line, written as the run goes so a killed run
// keeps every evaluation it finished. External entries (a PyTorch script, say) write the same format:
//   {"type":"header","schema_version":1,"entry":"baseline","hyperparameters":{...},"seeds":{"run":7,"init":..,
//    "data_order":..,"augmentation":..},"threads":2,"metric":"val_top1","threshold":0.91,"environment":{...},
//    "start_time":"2026-11-21T23:46:04Z"}
//   {"type":"eval","epoch":1,"train_seconds":12.5,"wall_seconds":14.1,"metric":0.86,"train_loss":0.41}
//   {"type":"end","status":"reached","tta_seconds":37.2,"epochs":3,"train_seconds":37.2,"wall_seconds":41.9}
// Only "type", and for eval records "epoch", "train_seconds" and "metric", are required; unknown keys are kept
// in the header and ignored elsewhere, so the format can grow. The header's hardware declarations
// (flops_per_sample, device, peak_flops...) are checked as the log is read: runlog/declared_hardware.h.
// The metric is a fraction in [0, 1] unless the header declares "metric_range": [low, high]; evaluations are then
// checked by the rules every format shares (runlog/run_log_checks.h).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "runlog/run_log.h"

namespace evalsuite::runlog {

constexpr int kJsonlSchemaVersion = 1;

// Reads a JSON Lines run log. A malformed line is skipped with a warning "file:line: why" in RunLog::warnings;
// a truncated final line (a run killed mid-write) is a warning too. Throws IoError when the file can't be read.
// `scale_error` (when given) is set when every evaluation lies off the scale the header declares ("metric_range",
// a fraction without it): a log that cannot be read, not a run that missed its target; it names the metric and the
// header field. The evaluations are still skipped with their warnings as before.
RunLog ReadJsonlRunLog(const std::filesystem::path& file, std::string* scale_error = nullptr);
RunLog ParseJsonlRunLog(const std::string& text, const std::string& source_name, std::string* scale_error = nullptr);

// Appends records, flushing each line so that a killed run keeps what it wrote.
class JsonlRunLogWriter {
 public:
  // Throws IoError naming the file when it can't be opened for writing (checked before any training starts).
  explicit JsonlRunLogWriter(const std::filesystem::path& file);
  void WriteHeader(const nlohmann::json& header);  // adds "type" and "schema_version"
  void WriteEval(const EvalPoint& point, const nlohmann::json& extra = nlohmann::json::object());
  // `extra`'s keys are added to the end record (e.g. "hardware": FLOP/s, time and memory breakdowns).
  void WriteEnd(analysis::EndedAs status, std::optional<double> tta_seconds, double epochs, double train_seconds,
                double wall_seconds, const std::string& error = "",
                const nlohmann::json& extra = nlohmann::json::object());

 private:
  void WriteLine(const nlohmann::json& record);
  std::filesystem::path file_;
  std::ofstream out_;
};

}  // namespace evalsuite::runlog
