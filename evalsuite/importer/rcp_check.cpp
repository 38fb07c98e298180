#include "evalsuite/importer/rcp_check.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "evalsuite/common/error.h"
#include "evalsuite/common/json_guard.h"
#include "evalsuite/importer/mlperf_rules.h"

namespace evalsuite::importer {
namespace {

// The checker's stand-in for a run that did not converge: it sorts to the slow end.
constexpr double kNotConvergedEpochs = 1e9;

}  // namespace

std::vector<RcpRecord> ReadRcpFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot open the RCP file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (JsonNestingDepth(buffer.str()) > kMaxJsonDepth) {
    throw InputError(file.string(), "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  // File order matters: the checker breaks ties between records in the order it read them.
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(buffer.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) throw InputError(file.string(), "not a JSON object of RCP records");
  std::vector<RcpRecord> records;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    const std::string where = file.string() + " record \"" + it.key() + "\"";
    const nlohmann::ordered_json& r = it.value();
    if (!r.is_object()) throw InputError(where, "not an object");
    auto bench = r.find("Benchmark");
    auto bs = r.find("BS");
    auto epochs = r.find("Epochs to converge");
    if (bench == r.end() || !bench->is_string() || bs == r.end() || !bs->is_number() || epochs == r.end() ||
        !epochs->is_array()) {
      throw InputError(where, "needs \"Benchmark\" (string), \"BS\" (number) and \"Epochs to converge\" (array)");
    }
    RcpRecord record;
    record.name = it.key();
    record.benchmark = bench->get<std::string>();
    record.batch_size = bs->get<double>();
    for (const auto& e : *epochs) {
      if (!e.is_number()) throw InputError(where, "\"Epochs to converge\" holds a value that is not a number");
      record.epochs.push_back(e.get<double>());
    }
    records.push_back(std::move(record));
  }
  return records;
}

std::optional<std::filesystem::path> FindRcpFile(const std::filesystem::path& rcp, const std::string& benchmark) {
  std::error_code ec;
  if (std::filesystem::is_directory(rcp, ec)) {
    const std::filesystem::path candidate = rcp / ("rcps_" + benchmark + ".json");
    if (std::filesystem::exists(candidate, ec)) return candidate;
    return std::nullopt;
  }
  return rcp;
}

nlohmann::json RcpOutcome::ToJson() const {
  nlohmann::json out = {{"pass", pass}, {"message", message}};
  if (batch_size && *batch_size == std::floor(*batch_size) && std::fabs(*batch_size) < 9e15) {
    out["batch_size"] = static_cast<int64_t>(*batch_size);
  } else {
    out["batch_size"] = batch_size ? nlohmann::json(*batch_size) : nlohmann::json(nullptr);
  }
  if (reference) {
    out["reference"] = reference->name;
    out["rcp_mean"] = reference->mean;
    out["rcp_stdev"] = reference->stdev;
    out["min_epochs"] = reference->min_epochs;
    out["max_speedup"] = reference->max_speedup;
  }
  if (verdict) {
    out["submission_mean_epochs"] = verdict->submission_mean;
    out["norm_factor"] = verdict->norm_factor;
  }
  return out;
}

RcpOutcome CheckRunsAgainstRcp(const std::vector<RcpRecord>& records, const std::string& benchmark,
                               const std::vector<RcpRun>& runs, RcpPass pass) {
  RcpOutcome outcome;
  const std::optional<std::size_t> submission_runs = RcpSubmissionRuns(benchmark);
  if (!submission_runs) {
    outcome.message = "No RCP rules for benchmark \"" + benchmark + "\"";
    return outcome;
  }
  const std::size_t drop = OlympicDropEachSide(benchmark);

  // Batch size and epochs as get_submission_epochs reads them.
  std::vector<double> epochs;
  std::size_t not_converged = 0;
  for (const RcpRun& run : runs) {
    if (!run.global_batch_size) {
      outcome.message = "Could not detect global_batch_size in " + run.file;
      return outcome;
    }
    if (!outcome.batch_size) {
      outcome.batch_size = run.global_batch_size;
    } else if (*outcome.batch_size != *run.global_batch_size) {
      outcome.message = "Batch sizes in files do not match";
      return outcome;
    }
    if (run.epochs) {
      epochs.push_back(*run.epochs);
    } else {
      epochs.push_back(kNotConvergedEpochs);
      ++not_converged;
    }
  }
  if (runs.empty()) {
    outcome.message = "No runs";
    return outcome;
  }
  if (not_converged > drop) {
    outcome.message = "Insufficient convergence";
    return outcome;
  }

  std::vector<stats::RcpPoint> points;
  for (const RcpRecord& record : records) {
    if (record.benchmark != benchmark) continue;
    points.push_back(stats::MakeRcpPoint(record.name, record.batch_size, record.epochs,
                                         OlympicDropEachSide(record.benchmark), *submission_runs));
  }
  std::stable_sort(points.begin(), points.end(),
                   [](const stats::RcpPoint& a, const stats::RcpPoint& b) { return a.batch_size < b.batch_size; });
  if (pass == RcpPass::kPruned) points = stats::PruneRcps(std::move(points), *submission_runs, benchmark);

  const stats::RcpCheck check = stats::CheckRcp(points, *outcome.batch_size, epochs, drop, *submission_runs, benchmark);
  outcome.pass = check.pass;
  outcome.message = check.message;
  outcome.reference = check.used;
  outcome.verdict = check.verdict;
  return outcome;
}

}  // namespace evalsuite::importer
