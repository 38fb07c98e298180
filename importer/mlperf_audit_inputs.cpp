#include "importer/mlperf_audit_inputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "importer/mlperf_rules.h"
#include "importer/rcp_embedded.h"
#include "stats/rcp.h"

namespace evalsuite::importer {
namespace {

using nlohmann::json;

// The checker's allowance for llama31_405b from 5.0.0 (rcp_check.cpp): its smallest passing mean is min epochs less
// 46080 samples.
constexpr double kAuditLlama405bAllowance = 46080;

const RcpRecord* RecordNamed(const std::vector<RcpRecord>& records, const std::string& name) {
  for (const RcpRecord& r : records) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

std::string AuditBatch(double batch) {
  return batch == std::floor(batch) && std::fabs(batch) < 1e15 ? fmt::format("{}", static_cast<long long>(batch))
                                                               : fmt::format("{}", batch);
}

// A log whose convergence point is not in the RCP's unit (NVIDIA's v1.0 bert logs epoch_num 1 where the RCPs count
// samples: the checker reads 1.0 and fails it) would give a rerun of nonsense: more than a factor of 5 from the
// reference mean is taken for another unit, and said.
std::string UnitMismatch(const std::vector<std::optional<double>>& convergence, double reference_mean) {
  std::vector<double> points;
  for (const std::optional<double>& c : convergence) {
    if (c) points.push_back(*c);
  }
  if (points.empty()) return {};
  std::sort(points.begin(), points.end());
  const double median = points.size() % 2 == 1 ? points[points.size() / 2]
                                               : (points[points.size() / 2 - 1] + points[points.size() / 2]) / 2;
  if (median >= reference_mean / 5 && median <= reference_mean * 5) return {};
  return fmt::format(
      "the logs' convergence points (median {:.6g}) are not in the RCP's unit (reference mean {:.6g} at the batch "
      "size)",
      median, reference_mean);
}

}  // namespace

const std::vector<RcpRecord>& AuditRcpFiles::Records(const std::string& rcp_file) {
  auto found = records_.find(rcp_file);
  if (found != records_.end()) return found->second;
  auto failed = errors_.find(rcp_file);
  if (failed != errors_.end()) throw InputError(rcp_file, failed->second);
  const std::string prefix = "built-in training_";
  try {
    std::vector<RcpRecord> records;
    if (rcp_file.rfind(prefix, 0) == 0) {
      // "built-in training_<ruleset>/rcps_<benchmark>.json"
      const std::string rest = rcp_file.substr(prefix.size());
      const std::size_t slash = rest.find("/rcps_");
      const std::string ruleset = rest.substr(0, slash);
      std::string benchmark = slash == std::string::npos ? std::string() : rest.substr(slash + 6);
      if (benchmark.size() > 5) benchmark.resize(benchmark.size() - 5);  // ".json"
      const std::optional<std::string_view> text = EmbeddedRcp(ruleset, benchmark);
      if (!text) throw InputError(rcp_file, "no such built-in RCP file");
      records = ParseRcpRecords(*text, rcp_file);
    } else {
      records = ReadRcpFile(rcp_file);
    }
    return records_.emplace(rcp_file, std::move(records)).first->second;
  } catch (const Error& e) {
    errors_[rcp_file] = e.what();
    throw;
  }
}

std::optional<analysis::RerunReference> ReferenceAtBatch(const std::vector<RcpRecord>& records,
                                                         const BenchmarkRule& rule, const std::string& ruleset,
                                                         double batch_size, RcpPass pass, std::string& why) {
  const std::vector<stats::RcpPoint> points = RcpReferencePoints(records, rule, pass);
  const stats::RcpPoint* exact = nullptr;
  const stats::RcpPoint* below = nullptr;
  const stats::RcpPoint* above = nullptr;
  for (const stats::RcpPoint& p : points) {
    if (p.batch_size == batch_size && exact == nullptr) exact = &p;
    if (p.batch_size < batch_size && (below == nullptr || p.batch_size > below->batch_size)) below = &p;
    if (p.batch_size > batch_size && (above == nullptr || p.batch_size < above->batch_size)) above = &p;
  }
  analysis::RerunReference ref;
  ref.normalize = true;
  stats::RcpPoint used;
  if (exact != nullptr) {
    const RcpRecord* record = RecordNamed(records, exact->name);
    if (record == nullptr) {
      why = "RCP record " + exact->name + " not found";
      return std::nullopt;
    }
    used = *exact;
    ref.pool = record->epochs;
    ref.how = fmt::format("the {} reference runs at batch size {} (RCP record {})", record->epochs.size(),
                          AuditBatch(batch_size), record->name);
  } else if (below != nullptr && above != nullptr) {
    used = stats::InterpolateRcp(batch_size, *below, *above, *rule.rcp_runs, rule.name);
    for (const stats::RcpPoint* side : {below, above}) {
      const RcpRecord* record = RecordNamed(records, side->name);
      if (record == nullptr) continue;
      for (double x : record->epochs) {
        const double z = side->stdev > 0 ? (x - side->mean) / side->stdev : 0.0;
        ref.pool.push_back(used.mean + used.stdev * z);
      }
    }
    ref.how = fmt::format(
        "the reference runs at batch sizes {} and {} (RCP records {}, {}), each moved to the checker's interpolated "
        "mean {:.6g} and spread {:.6g} at batch size {}",
        AuditBatch(below->batch_size), AuditBatch(above->batch_size), below->name, above->name, used.mean, used.stdev,
        AuditBatch(batch_size));
  } else if (below != nullptr) {
    why = fmt::format("no RCP at batch size {} (the largest reference is {}): the checker says Missing RCP",
                      AuditBatch(batch_size), AuditBatch(below->batch_size));
    return std::nullopt;
  } else if (above != nullptr) {
    why = fmt::format(
        "no RCP at batch size {}, below every reference (smallest {}): the checker compares with that one, whose "
        "convergence is not this batch size's",
        AuditBatch(batch_size), AuditBatch(above->batch_size));
    return std::nullopt;
  } else {
    why = "the RCP file has no reference points";
    return std::nullopt;
  }
  ref.name = used.name;
  ref.mean = used.mean;
  ref.min_epochs = used.min_epochs;
  if (rule.name == "llama31_405b" && ruleset >= std::string("5.0.0")) ref.min_epochs -= kAuditLlama405bAllowance;
  if (ref.pool.empty()) {
    why = "the RCP records hold no runs";
    return std::nullopt;
  }
  return ref;
}

analysis::AuditInput AuditInputOf(const json& extra, AuditRcpFiles& rcp_files) {
  return AuditInputOf(analysis::MlperfFactsFromJson(extra), rcp_files);
}

analysis::AuditInput AuditInputOf(const analysis::MlperfFacts& facts, AuditRcpFiles& rcp_files) {
  const analysis::MlperfStoredEntryFacts stored = facts.stored.value_or(analysis::MlperfStoredEntryFacts{});
  analysis::AuditInput in;
  in.ruleset = facts.ruleset.value_or("");
  in.benchmark = stored.benchmark.value_or("");
  in.division = facts.division.value_or("");
  analysis::RerunSubmission& s = in.submission;
  s.source = stored.source.value_or("");
  s.system = stored.system.value_or("");
  const analysis::MlperfOfficialFacts official = facts.official.value_or(analysis::MlperfOfficialFacts{});
  s.official_minutes = official.official_minutes;
  s.raw_minutes = official.raw_minutes;
  if (!s.official_minutes) {
    const std::string note = official.note.value_or("");
    in.notes.push_back("no official score" + (note.empty() ? std::string(" (too few runs converged)") : ": " + note));
  }
  const Ruleset* ruleset = FindRuleset(in.ruleset);
  const BenchmarkRule* rule = ruleset != nullptr ? ruleset->Find(in.benchmark) : nullptr;
  // The checker's rule where the round's table leaves the benchmark out (as the import does).
  const Ruleset* newest = NewestRulesetWith(in.benchmark);
  const BenchmarkRule* rcp_rule = rule != nullptr ? rule : newest != nullptr ? newest->Find(in.benchmark) : nullptr;
  const std::optional<std::int64_t> rules_runs = facts.target ? facts.target->runs_per_submission : std::nullopt;
  s.runs_required = rule != nullptr ? rule->runs : static_cast<std::size_t>(rules_runs.value_or(5));
  s.drop_each_side = static_cast<std::size_t>(facts.drop_each_side.value_or(1));
  std::size_t counted = 0;
  for (const analysis::MlperfRunFacts& run : facts.run_details) {
    if (run.status != "success") continue;
    ++counted;
    if (!run.time_to_train_minutes) continue;
    s.run_minutes.push_back(*run.time_to_train_minutes);
    s.convergence.push_back(run.convergence);
  }
  if (counted < s.runs_required) {
    in.notes.push_back(fmt::format("{} counted run(s), the rules ask for {}", counted, s.runs_required));
  }
  const analysis::MlperfRcpFacts rcp = facts.rcp.value_or(analysis::MlperfRcpFacts{});
  const std::optional<double> batch = facts.global_batch_size;
  const std::string rcp_file = rcp.rcp_file.value_or("");
  if (!facts.official_target.value_or(false)) {
    s.no_reference = "imported at a target other than the rules': the RCPs are for the rules' target";
  } else if (in.division != "closed") {
    s.no_reference = "division \"" + in.division + "\": the RCPs are the closed division's reference models";
  } else if (rcp_rule == nullptr || !rcp_rule->rcp_runs) {
    s.no_reference = "the official RCP checker has no rule for " + in.benchmark;
  } else if (rcp_file.empty()) {
    s.no_reference = "no RCP file was used at import: " + rcp.message.value_or("");
  } else if (!batch) {
    s.no_reference = "the logs give no global_batch_size";
  } else {
    try {
      const std::vector<RcpRecord>& records = rcp_files.Records(rcp_file);
      const RcpPass pass = rcp.rcp_pass == "full" ? RcpPass::kFull : RcpPass::kPruned;
      std::string why;
      s.reference = ReferenceAtBatch(records, *rcp_rule, in.ruleset, *batch, pass, why);
      if (!s.reference) s.no_reference = why;
      if (s.reference) s.no_reference = UnitMismatch(s.convergence, s.reference->mean);
      if (!s.no_reference.empty()) s.reference.reset();
    } catch (const Error& e) {
      s.no_reference = std::string("the RCP file cannot be read: ") + e.what();
    }
  }
  return in;
}

}  // namespace evalsuite::importer
