#include "runlog/mlflow_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "common/error.h"
#include "common/json_guard.h"
#include "runlog/lightning_csv_log.h"

namespace evalsuite::runlog {
namespace fs = std::filesystem;

namespace mlflow_detail {

struct RawPoint {
  double timestamp_ms = 0;
  double value = 0;
  double step = 0;
  long line = 0;
};

std::vector<RawPoint> ReadMetricFile(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot open the file");
  std::vector<RawPoint> points;
  std::string line;
  long line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty()) continue;
    std::istringstream fields(line);
    std::vector<std::string> parts;
    for (std::string part; fields >> part;) parts.push_back(part);
    std::vector<std::optional<double>> numbers;
    for (const std::string& p : parts) numbers.push_back(CsvNumber(p));
    const bool ok = (parts.size() == 2 || parts.size() == 3) &&
                    std::all_of(numbers.begin(), numbers.end(), [](const auto& n) { return n.has_value(); });
    if (!ok) {
      throw InputError(
          FileLine(file.string(), line_no),
          "an MLflow metric line is \"timestamp value step\" (numbers), got \"" + ToValidUtf8(line) + "\"");
    }
    points.push_back({*numbers[0], *numbers[1], parts.size() == 3 ? *numbers[2] : 0.0, line_no});
  }
  return points;
}

std::optional<std::string> ReadSmallFile(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string s = buffer.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return ToValidUtf8(s);
}

std::optional<double> YamlNumber(const fs::path& meta, const std::string& key) {
  const std::optional<std::string> text = TopLevelYamlValue(meta, key);
  return text ? CsvNumber(*text) : std::nullopt;
}

}  // namespace mlflow_detail

bool IsMlflowRunFolder(const fs::path& folder) {
  std::error_code ec;
  return fs::is_regular_file(folder / "meta.yaml", ec) && fs::is_directory(folder / "metrics", ec);
}

FrameworkRun ReadMlflowRun(const fs::path& folder) {
  const fs::path meta = folder / "meta.yaml";
  std::error_code ec;
  if (!fs::is_regular_file(meta, ec)) throw IoError(meta.string(), "no meta.yaml in the MLflow run folder");
  FrameworkRun run;
  run.format = "mlflow";
  run.source = folder;
  run.label = folder.string();
  run.basis = TimeBasis::kSeconds;
  run.run_name = TopLevelYamlValue(meta, "run_name").value_or("");
  if (run.run_name.empty())
    run.run_name = mlflow_detail::ReadSmallFile(folder / "tags" / "mlflow.runName").value_or("");
  if (run.run_name.empty()) run.run_name = folder.filename().string();
  const fs::path experiment_meta = folder.parent_path() / "meta.yaml";
  run.experiment = TopLevelYamlValue(experiment_meta, "name").value_or("");
  if (run.experiment.empty()) run.experiment = TopLevelYamlValue(meta, "experiment_id").value_or("");

  // Every metric file below metrics/, named by its path there ("val/acc" for metrics/val/acc).
  std::map<std::string, std::vector<mlflow_detail::RawPoint>> raw;
  std::vector<fs::path> files;
  for (fs::recursive_directory_iterator it(folder / "metrics", ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) files.push_back(it->path());
  }
  if (ec) throw IoError((folder / "metrics").string(), "cannot list the folder: " + ec.message());
  std::sort(files.begin(), files.end());
  double earliest = std::numeric_limits<double>::infinity();
  double latest = -std::numeric_limits<double>::infinity();
  for (const fs::path& f : files) {
    std::vector<mlflow_detail::RawPoint> points = mlflow_detail::ReadMetricFile(f);
    for (const auto& p : points) {
      earliest = std::min(earliest, p.timestamp_ms);
      latest = std::max(latest, p.timestamp_ms);
    }
    raw[ToValidUtf8(f.lexically_relative(folder / "metrics").generic_string())] = std::move(points);
  }

  const std::optional<double> start = mlflow_detail::YamlNumber(meta, "start_time");
  const std::optional<double> end = mlflow_detail::YamlNumber(meta, "end_time");
  const double origin = start ? *start : earliest;
  run.basis_rule = start ? "seconds from meta.yaml's start_time to each point's timestamp"
                         : "seconds from the run's earliest metric timestamp (meta.yaml has no start_time)";
  for (auto& [name, points] : raw) {
    // MLflow keeps a metric's points in the order they were logged; the file store appends, so file order is it.
    auto& series = run.series[name];
    for (const auto& p : points) series.push_back({(p.timestamp_ms - origin) / 1000.0, p.step, p.value, p.line});
    (void)name;
  }
  if (end && start && *end >= *start) {
    run.progress_spent = (*end - *start) / 1000.0;
  } else if (std::isfinite(latest)) {
    run.progress_spent = (latest - origin) / 1000.0;
  }
  if (start) run.facts["start_time_ms"] = *start;
  if (end) run.facts["end_time_ms"] = *end;

  const std::optional<std::string> status = TopLevelYamlValue(meta, "status");
  run.facts["status"] = status.value_or("");
  const std::string s = status.value_or("3");
  if (s == "4" || s == "5" || s == "FAILED" || s == "KILLED") {
    run.status = analysis::EndedAs::kFailed;
    run.status_note = "meta.yaml status " + s + " (FAILED or KILLED)";
  } else if (s == "1" || s == "2" || s == "RUNNING" || s == "SCHEDULED") {
    run.status = analysis::EndedAs::kNoEnd;
    run.status_note = "meta.yaml status " + s + " (RUNNING or SCHEDULED: the run had not ended)";
  }
  for (const char* key : {"seed", "random_seed"}) {
    if (const std::optional<std::string> seed = mlflow_detail::ReadSmallFile(folder / "params" / key)) {
      const std::optional<double> v = CsvNumber(*seed);
      run.seed = v && std::isfinite(*v) && *v == std::floor(*v) ? nlohmann::json(static_cast<long long>(*v))
                                                                : nlohmann::json(*seed);
      run.seed_source = std::string("params/") + key;
      break;
    }
  }
  // Every param as MLflow's file store writes it: params/<key> holding the value (a key with "/" in a subfolder).
  for (fs::recursive_directory_iterator it(folder / "params", ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string key = ToValidUtf8(it->path().lexically_relative(folder / "params").generic_string());
    run.hyperparameters[key] = mlflow_detail::ReadSmallFile(it->path()).value_or("");
  }
  ec.clear();
  if (!run.hyperparameters.empty()) run.hyperparameter_source = "params/";
  const std::string stage = TopLevelYamlValue(meta, "lifecycle_stage").value_or("active");
  run.facts["lifecycle_stage"] = stage;
  run.marked_deleted = stage == "deleted";
  return run;
}

}  // namespace evalsuite::runlog
