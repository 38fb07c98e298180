#include "study/plans/log_formats.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>

#include "common/error.h"
#include "runlog/dawnbench_log.h"
#include "runlog/jsonl_run_log.h"
#include "runlog/mlperf_log.h"
#include "runlog/regex_log.h"

namespace evalsuite::study {
namespace {

// An MLPerf result log (":::MLLOG" lines) as written by a reference implementation run as an entry: the
// eval_accuracy values are the metric (objects, e.g. maskrcnn's, are skipped), times from run_start.
runlog::RunLog ReadMlperfAsRunLog(const std::filesystem::path& file) {
  runlog::MlperfRun run = runlog::ReadMlperfLog(file);
  runlog::RunLog log = runlog::ToRunLog(run, [](const runlog::MlperfEval& eval) {
    return eval.value.is_number() ? eval.value.get<double>() : std::numeric_limits<double>::quiet_NaN();
  });
  // A run still going has no run_stop: incomplete, not failed (the scheduler decides from the exit).
  if (!run.run_stop_ms) log.status = analysis::EndedAs::kNoEnd;
  return log;
}

// A DAWNBench-style per-epoch TSV (epoch, hours, top1Accuracy / top5Accuracy in percent, or f1Score as a
// fraction) written by an entry as its log: metric = top-1 (else top-5, else F1) as a fraction, time = hours.
// A malformed row is a warning naming file:line; the status is decided from the points, as for any log.
runlog::RunLog ReadDawnbenchTsvAsRunLog(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot read the log");
  std::ostringstream text;
  text << in.rdbuf();
  runlog::DawnbenchEntry entry = runlog::ParseDawnbenchTsv(text.str(), file.string());
  std::string column = "f1Score";
  double scale = 1;
  for (const char* accuracy : {"top1Accuracy", "top5Accuracy"}) {
    if (std::find(entry.columns.begin(), entry.columns.end(), accuracy) != entry.columns.end()) {
      column = accuracy;
      scale = 0.01;
      break;
    }
  }
  runlog::RunLog log = runlog::ToRunLog(entry, column, std::numeric_limits<double>::infinity(), scale);
  return log;
}

// The script's standard output read with the entry's patterns (checked when the plan was read).
runlog::RunLog ReadStdoutByRegex(const std::filesystem::path& file, const PlannedEntry& entry) {
  return runlog::RegexLogReader(entry.regex_log).Read(file);
}

template <typename FileReader>
RunLogFormat FileFormat(FileReader reader) {
  RunLogFormat format;
  format.read = [reader](const std::filesystem::path& file, const PlannedEntry&) { return reader(file); };
  return format;
}

RunLogFormat RegexFormat() {
  RunLogFormat format;
  format.read = ReadStdoutByRegex;
  format.source = LogSource::kStdout;
  format.has_end_record = [](const PlannedEntry& entry) { return !entry.regex_log.end_pattern.empty(); };
  return format;
}

// A log wholly off its declared scale (percent where a fraction is declared): the reader's reason and remedy lead
// the run's warnings, so the run's error says it rather than one skipped line.
runlog::RunLog ReadJsonlWithScaleReason(const std::filesystem::path& file) {
  std::string scale_error;
  runlog::RunLog log = runlog::ReadJsonlRunLog(file, &scale_error);
  if (!scale_error.empty()) log.warnings.insert(log.warnings.begin(), scale_error);
  return log;
}

struct Registry {
  std::mutex mutex;
  std::map<std::string, RunLogFormat> formats{{kDefaultLogFormat, FileFormat(ReadJsonlWithScaleReason)},
                                              {"mlperf", FileFormat(ReadMlperfAsRunLog)},
                                              {"dawnbench", FileFormat(ReadDawnbenchTsvAsRunLog)},
                                              {"regex", RegexFormat()}};
};

Registry& TheRegistry() {
  static Registry registry;
  return registry;
}

}  // namespace

void RegisterRunLogFormat(const std::string& name, RunLogFormat format) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.formats[name] = std::move(format);
}

std::optional<RunLogFormat> FindRunLogFormat(const std::string& name) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = registry.formats.find(name);
  if (it == registry.formats.end()) return std::nullopt;
  return it->second;
}

std::optional<RunLogFormat> FormatOfEntry(const PlannedEntry& entry) {
  return FindRunLogFormat(entry.builtin ? kDefaultLogFormat : entry.log_format);
}

std::vector<std::string> RunLogFormatNames() {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  std::vector<std::string> names;
  for (const auto& [name, format] : registry.formats) names.push_back(name);
  return names;
}

}  // namespace evalsuite::study
