#include "importer/rcp_check.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "common/error.h"
#include "common/json_access.h"
#include "common/json_guard.h"
#include "importer/rcp_embedded.h"

namespace evalsuite::importer {
namespace {

// The checker's stand-in for a run that did not converge: it sorts to the slow end.
constexpr double kNotConvergedEpochs = 1e9;
// rcp_checker._eval_submission_record: from 5.0.0 llama31_405b's max speedup uses min epochs less 46080 samples.
constexpr double kLlama405bSampleAllowance = 46080;

const char* ConvergenceKey(const std::string& benchmark) {
  return benchmark == "llama2_70b_lora" || benchmark == "flux1" ? "samples to converge" : "Epochs to converge";
}

}  // namespace

std::vector<RcpRecord> ParseRcpRecords(std::string_view text, const std::string& where_file) {
  if (JsonNestingDepth(text) > kMaxJsonDepth) {
    throw InputError(where_file, "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  // File order matters: the checker breaks ties between records in the order it read them.
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) throw InputError(where_file, "not a JSON object of RCP records");
  std::vector<RcpRecord> records;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    const std::string where = where_file + " record \"" + it.key() + "\"";
    const nlohmann::ordered_json& r = it.value();
    if (!r.is_object()) throw InputError(where, "not an object");
    auto bench = r.find("Benchmark");
    auto bs = r.find("BS");
    if (bench == r.end() || !bench->is_string() || bs == r.end() || !bs->is_number()) {
      throw InputError(where, "needs \"Benchmark\" (string) and \"BS\" (number)");
    }
    const std::string benchmark = bench->get<std::string>();
    const char* key = ConvergenceKey(benchmark);
    auto epochs = r.find(key);
    if (epochs == r.end()) {
      epochs = r.find(std::string(key) == "Epochs to converge" ? "samples to converge" : "Epochs to converge");
    }
    if (epochs == r.end() || !epochs->is_array()) {
      throw InputError(where, std::string("needs \"") + key + "\" (an array)");
    }
    RcpRecord record;
    record.name = it.key();
    record.benchmark = benchmark;
    record.batch_size = bs->get<double>();
    for (const auto& e : *epochs) {
      if (!e.is_number()) throw InputError(where, "a convergence value that is not a number");
      record.epochs.push_back(e.get<double>());
    }
    if (record.epochs.empty()) throw InputError(where, "no reference runs");
    records.push_back(std::move(record));
  }
  return records;
}

std::vector<RcpRecord> ReadRcpFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot open the RCP file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return ParseRcpRecords(buffer.str(), file.string());
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

std::optional<std::string_view> EmbeddedRcp(const std::string& ruleset, const std::string& benchmark) {
  const std::string path = "training_" + ruleset + "/rcps_" + benchmark + ".json";
  for (std::size_t i = 0; i < kEmbeddedRcpFiles_count; ++i) {
    if (path == kEmbeddedRcpFiles[i].path) return std::string_view(kEmbeddedRcpFiles[i].text);
  }
  return std::nullopt;
}

RcpOutcome NoRcpRule(const std::string& why) {
  RcpOutcome outcome;
  outcome.message = why;
  return outcome;
}

std::vector<stats::RcpPoint> RcpReferencePoints(const std::vector<RcpRecord>& records, const BenchmarkRule& rule,
                                                RcpPass pass) {
  if (!rule.rcp_runs) return {};
  const std::size_t submission_runs = *rule.rcp_runs;
  const std::size_t drop = rule.drop_each_side;
  std::vector<stats::RcpPoint> all;
  all.reserve(records.size());
  // Every record of the file counts, whatever its "Benchmark" says (3.1.0's stable diffusion records say "sd"):
  // the checker picks the file by benchmark and reads all of it.
  for (const RcpRecord& record : records) {
    all.push_back(stats::MakeRcpPoint(record.name, record.batch_size, record.epochs, drop, submission_runs));
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const stats::RcpPoint& a, const stats::RcpPoint& b) { return a.batch_size < b.batch_size; });
  if (pass != RcpPass::kPruned || all.empty()) return all;
  // The checker keeps every record whose batch size survived pruning (two records may share one).
  std::set<double> kept;
  for (const stats::RcpPoint& p : stats::PruneRcps(all, submission_runs, rule.name)) kept.insert(p.batch_size);
  std::vector<stats::RcpPoint> points;
  for (const stats::RcpPoint& p : all) {
    if (kept.count(p.batch_size) != 0) points.push_back(p);
  }
  return points;
}

RcpOutcome CheckRunsAgainstRcp(const std::vector<stats::RcpPoint>& reference, const BenchmarkRule& rule,
                               const std::string& ruleset, const std::vector<RcpRun>& runs) {
  if (!rule.rcp_runs) return NoRcpRule("the official RCP checker has no rule for " + rule.name);
  const std::size_t submission_runs = *rule.rcp_runs;
  const std::size_t drop = rule.drop_each_side;
  RcpOutcome outcome;
  auto fail = [&](const std::string& message, const std::string& verdict) {
    outcome.pass = false;
    outcome.message = message;
    outcome.verdict = verdict;
    return outcome;
  };

  // Batch size and convergence points as get_submission_epochs reads them.
  std::vector<double> epochs;
  std::size_t not_converged = 0;
  for (const RcpRun& run : runs) {
    if (!run.global_batch_size) return fail("Could not detect global_batch_size in " + run.file, "Unknown state");
    if (!outcome.batch_size) {
      outcome.batch_size = run.global_batch_size;
    } else if (*outcome.batch_size != *run.global_batch_size) {
      outcome.batch_size.reset();
      return fail("Batch sizes in files do not match", "Unknown state");
    }
    if (run.epochs) {
      epochs.push_back(*run.epochs);
    } else {
      epochs.push_back(kNotConvergedEpochs);
      ++not_converged;
    }
  }
  if (runs.empty()) return fail("No runs", "Unknown state");
  if (not_converged > drop) return fail("Insufficient convergence", "Unknown state");

  std::vector<stats::RcpPoint> points = reference;
  const bool llama_quirk = rule.name == "llama31_405b" && ruleset >= std::string("5.0.0");
  if (llama_quirk) {
    for (stats::RcpPoint& p : points) p.max_speedup = p.mean / (p.min_epochs - kLlama405bSampleAllowance);
  }
  stats::RcpCheck check = stats::CheckRcp(points, *outcome.batch_size, epochs, drop, submission_runs, rule.name);
  if (llama_quirk && check.used && check.used->name.find("_interp_") != std::string::npos) {
    // An interpolated point gets the same allowance before it is compared.
    check.used->max_speedup = check.used->mean / (check.used->min_epochs - kLlama405bSampleAllowance);
    check.verdict = stats::EvaluateRcp(*check.used, epochs, drop);
    check.pass = check.verdict->pass;
  }
  outcome.pass = check.pass;
  outcome.message = check.message;
  outcome.reference = check.used;
  outcome.result = check.verdict;
  if (check.pass) {
    outcome.verdict = "Pass";
  } else if (check.message == "RCP found") {
    outcome.verdict = "Fail";
  } else if (check.message == "RCP Interpolation") {
    outcome.verdict = "Interp. Fail";
  } else if (check.message.find("Missing") != std::string::npos) {
    outcome.verdict = "Missing";
  } else if (check.message == "Cannot find any RCPs") {
    outcome.verdict = "No RCP";
  } else {
    outcome.verdict = "Unknown state";
  }
  return outcome;
}

RcpOutcome CheckRunsAgainstRcp(const std::vector<RcpRecord>& records, const BenchmarkRule& rule,
                               const std::string& ruleset, const std::vector<RcpRun>& runs, RcpPass pass) {
  return CheckRunsAgainstRcp(RcpReferencePoints(records, rule, pass), rule, ruleset, runs);
}

}  // namespace evalsuite::importer
