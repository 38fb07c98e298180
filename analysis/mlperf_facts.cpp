#include "analysis/mlperf_facts.h"

#include <cmath>

namespace evalsuite::analysis {
namespace {

using nlohmann::json;

const json& MlperfFieldOf(const json& object, const char* key) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  const auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::optional<double> MlperfNumberOf(const json& object, const char* key) {
  const json& value = MlperfFieldOf(object, key);
  return value.is_number() ? std::optional<double>(value.get<double>()) : std::nullopt;
}

std::optional<std::int64_t> MlperfCountOf(const json& object, const char* key) {
  const json& value = MlperfFieldOf(object, key);
  return value.is_number_integer() ? std::optional<std::int64_t>(value.get<std::int64_t>()) : std::nullopt;
}

std::optional<std::string> MlperfTextOf(const json& object, const char* key) {
  const json& value = MlperfFieldOf(object, key);
  return value.is_string() ? std::optional<std::string>(value.get<std::string>()) : std::nullopt;
}

std::optional<bool> MlperfFlagOf(const json& object, const char* key) {
  const json& value = MlperfFieldOf(object, key);
  return value.is_boolean() ? std::optional<bool>(value.get<bool>()) : std::nullopt;
}

// The one way an absent fact is written: null.
template <typename T>
json MlperfJsonOrNull(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

// A batch size as the importer writes it: an integer when it is whole, so 256 stays "256", not "256.0".
json MlperfBatchJson(const std::optional<double>& value) {
  if (!value) return nullptr;
  if (*value == std::floor(*value) && std::fabs(*value) < 9e15) return static_cast<std::int64_t>(*value);
  return *value;
}

MlperfThroughputFacts MlperfThroughputFromJson(const json& t) {
  MlperfThroughputFacts throughput;
  throughput.median_samples_per_second = MlperfNumberOf(t, "median_samples_per_second");
  throughput.runs = MlperfCountOf(t, "runs");
  throughput.method = MlperfTextOf(t, "method");
  throughput.interval = MlperfTextOf(t, "interval");
  throughput.withheld_runs = MlperfCountOf(t, "withheld_runs");
  throughput.withheld = MlperfTextOf(t, "withheld");
  return throughput;
}

MlperfTargetFacts MlperfTargetFromJson(const json& t) {
  MlperfTargetFacts target;
  target.metric = MlperfTextOf(t, "metric");
  target.value = MlperfNumberOf(t, "value");
  target.direction = MlperfTextOf(t, "direction");
  target.convergence_unit = MlperfTextOf(t, "convergence_unit");
  target.runs_per_submission = MlperfCountOf(t, "runs_per_submission");
  return target;
}

MlperfRcpFacts MlperfRcpFromJson(const json& r) {
  MlperfRcpFacts rcp;
  rcp.pass = MlperfFlagOf(r, "pass");
  rcp.verdict = MlperfTextOf(r, "verdict");
  rcp.message = MlperfTextOf(r, "message");
  rcp.batch_size = MlperfNumberOf(r, "batch_size");
  rcp.reference = MlperfTextOf(r, "reference");
  rcp.rcp_mean = MlperfNumberOf(r, "rcp_mean");
  rcp.rcp_stdev = MlperfNumberOf(r, "rcp_stdev");
  rcp.min_epochs = MlperfNumberOf(r, "min_epochs");
  rcp.max_speedup = MlperfNumberOf(r, "max_speedup");
  rcp.submission_mean_epochs = MlperfNumberOf(r, "submission_mean_epochs");
  rcp.norm_factor = MlperfNumberOf(r, "norm_factor");
  rcp.rcp_file = MlperfTextOf(r, "rcp_file");
  rcp.rcp_pass = MlperfTextOf(r, "rcp_pass");
  return rcp;
}

MlperfOfficialFacts MlperfOfficialFromJson(const json& o) {
  MlperfOfficialFacts official;
  official.raw_minutes = MlperfNumberOf(o, "raw_minutes");
  official.published_scaling_factor = MlperfNumberOf(o, "published_scaling_factor");
  official.checker_scaling_factor = MlperfNumberOf(o, "checker_scaling_factor");
  official.official_minutes = MlperfNumberOf(o, "official_minutes");
  official.checker_minutes = MlperfNumberOf(o, "checker_minutes");
  official.rules_unapplied = o.contains("unapplied_rules_minutes");
  official.unapplied_rules_minutes = MlperfNumberOf(o, "unapplied_rules_minutes");
  official.note = MlperfTextOf(o, "note");
  return official;
}

MlperfEnergyFacts MlperfEnergyFromJson(const json& e) {
  MlperfEnergyFacts energy;
  energy.score = MlperfNumberOf(e, "score");
  energy.unit = MlperfTextOf(e, "unit");
  if (const json& runs = MlperfFieldOf(e, "runs"); runs.is_object()) {
    for (auto it = runs.begin(); it != runs.end(); ++it) {
      if (it.value().is_number()) energy.runs[it.key()] = it.value().get<double>();
    }
  }
  energy.scaling_factor = MlperfNumberOf(e, "scaling_factor");
  return energy;
}

MlperfRunFacts MlperfRunFromJson(const json& run) {
  MlperfRunFacts r;
  r.file = MlperfTextOf(run, "file");
  r.status = MlperfTextOf(run, "status");
  r.time_to_train_minutes = MlperfNumberOf(run, "time_to_train_minutes");
  r.convergence = MlperfNumberOf(run, "convergence");
  r.samples_trained = MlperfNumberOf(run, "samples_trained");
  r.samples_per_second = MlperfNumberOf(run, "samples_per_second");
  r.throughput_method = MlperfTextOf(run, "throughput_method");
  r.reason = MlperfTextOf(run, "reason");
  return r;
}

MlperfComplianceFacts MlperfComplianceFromJson(const json& finding) {
  MlperfComplianceFacts f;
  f.file = MlperfTextOf(finding, "file");
  f.line = MlperfCountOf(finding, "line");
  f.rule = MlperfTextOf(finding, "rule");
  f.message = MlperfTextOf(finding, "message");
  f.drops_run = MlperfFlagOf(finding, "drops_run");
  return f;
}

json MlperfRcpToJson(const MlperfRcpFacts& rcp) {
  json out = {{"pass", MlperfJsonOrNull(rcp.pass)},         {"verdict", MlperfJsonOrNull(rcp.verdict)},
              {"message", MlperfJsonOrNull(rcp.message)},   {"batch_size", MlperfBatchJson(rcp.batch_size)},
              {"rcp_file", MlperfJsonOrNull(rcp.rcp_file)}, {"rcp_pass", MlperfJsonOrNull(rcp.rcp_pass)}};
  if (rcp.reference || rcp.rcp_mean || rcp.rcp_stdev || rcp.min_epochs || rcp.max_speedup) {
    out["reference"] = MlperfJsonOrNull(rcp.reference);
    out["rcp_mean"] = MlperfJsonOrNull(rcp.rcp_mean);
    out["rcp_stdev"] = MlperfJsonOrNull(rcp.rcp_stdev);
    out["min_epochs"] = MlperfJsonOrNull(rcp.min_epochs);
    out["max_speedup"] = MlperfJsonOrNull(rcp.max_speedup);
  }
  if (rcp.submission_mean_epochs || rcp.norm_factor) {
    out["submission_mean_epochs"] = MlperfJsonOrNull(rcp.submission_mean_epochs);
    out["norm_factor"] = MlperfJsonOrNull(rcp.norm_factor);
  }
  return out;
}

json MlperfOfficialToJson(const MlperfOfficialFacts& o) {
  json out = {{"raw_minutes", MlperfJsonOrNull(o.raw_minutes)},
              {"published_scaling_factor", MlperfJsonOrNull(o.published_scaling_factor)},
              {"checker_scaling_factor", MlperfJsonOrNull(o.checker_scaling_factor)},
              {"official_minutes", MlperfJsonOrNull(o.official_minutes)},
              {"checker_minutes", MlperfJsonOrNull(o.checker_minutes)}};
  if (o.rules_unapplied) out["unapplied_rules_minutes"] = MlperfJsonOrNull(o.unapplied_rules_minutes);
  if (o.note) out["note"] = *o.note;
  return out;
}

}  // namespace

MlperfFacts MlperfFactsFromJson(const json& extra) {
  MlperfFacts facts;
  facts.ruleset = MlperfTextOf(extra, "ruleset");
  facts.ruleset_source = MlperfTextOf(extra, "ruleset_source");
  facts.division = MlperfTextOf(extra, "division");
  facts.log_format = MlperfTextOf(extra, "log_format");
  facts.system_description = MlperfTextOf(extra, "system_description");
  if (const json& files = MlperfFieldOf(extra, "files"); files.is_array()) {
    for (const json& file : files) {
      if (file.is_string()) facts.files.push_back(file.get<std::string>());
    }
  }
  facts.global_batch_size = MlperfNumberOf(extra, "global_batch_size");
  facts.drop_each_side = MlperfCountOf(extra, "drop_each_side");
  facts.threshold_shown = MlperfTextOf(extra, "threshold_shown");
  facts.official_target = MlperfFlagOf(extra, "official_target");
  facts.threshold_source = MlperfTextOf(extra, "threshold_source");
  facts.progress_unit = MlperfTextOf(extra, "progress_unit");
  facts.compliance_applied = MlperfFlagOf(extra, "compliance_applied");
  if (const json& t = MlperfFieldOf(extra, "target"); t.is_object()) facts.target = MlperfTargetFromJson(t);
  if (const json& t = MlperfFieldOf(extra, "throughput"); t.is_object()) facts.throughput = MlperfThroughputFromJson(t);
  if (const json& r = MlperfFieldOf(extra, "rcp"); r.is_object()) facts.rcp = MlperfRcpFromJson(r);
  if (const json& o = MlperfFieldOf(extra, "official"); o.is_object()) facts.official = MlperfOfficialFromJson(o);
  if (const json& e = MlperfFieldOf(extra, "energy"); e.is_object()) facts.energy = MlperfEnergyFromJson(e);
  if (const json& runs = MlperfFieldOf(extra, "run_details"); runs.is_array()) {
    for (const json& run : runs) facts.run_details.push_back(MlperfRunFromJson(run));
  }
  if (const json& findings = MlperfFieldOf(extra, "compliance"); findings.is_array()) {
    for (const json& finding : findings) facts.compliance.push_back(MlperfComplianceFromJson(finding));
  }
  // The store's copy names its source; the group's details as the importer holds them do not.
  if (MlperfFieldOf(extra, "source").is_string()) {
    facts.stored = MlperfStoredEntryFacts{MlperfTextOf(extra, "source"), MlperfTextOf(extra, "benchmark"),
                                          MlperfTextOf(extra, "system"), MlperfNumberOf(extra, "olympic_minutes")};
  }
  return facts;
}

json MlperfFactsToJson(const MlperfFacts& facts) {
  json out = json::object();
  out["ruleset"] = MlperfJsonOrNull(facts.ruleset);
  out["ruleset_source"] = MlperfJsonOrNull(facts.ruleset_source);
  out["division"] = MlperfJsonOrNull(facts.division);
  out["log_format"] = MlperfJsonOrNull(facts.log_format);
  out["system_description"] = MlperfJsonOrNull(facts.system_description);
  out["files"] = facts.files;
  out["global_batch_size"] = MlperfBatchJson(facts.global_batch_size);
  out["drop_each_side"] = MlperfJsonOrNull(facts.drop_each_side);
  out["threshold_shown"] = MlperfJsonOrNull(facts.threshold_shown);
  out["official_target"] = MlperfJsonOrNull(facts.official_target);
  out["threshold_source"] = MlperfJsonOrNull(facts.threshold_source);
  out["progress_unit"] = MlperfJsonOrNull(facts.progress_unit);
  out["compliance_applied"] = MlperfJsonOrNull(facts.compliance_applied);
  if (const auto& t = facts.target) {
    out["target"] = {{"metric", MlperfJsonOrNull(t->metric)},
                     {"value", MlperfJsonOrNull(t->value)},
                     {"direction", MlperfJsonOrNull(t->direction)},
                     {"convergence_unit", MlperfJsonOrNull(t->convergence_unit)},
                     {"runs_per_submission", MlperfJsonOrNull(t->runs_per_submission)}};
  }
  if (const auto& t = facts.throughput) {
    out["throughput"] = {{"median_samples_per_second", MlperfJsonOrNull(t->median_samples_per_second)},
                         {"runs", MlperfJsonOrNull(t->runs)},
                         {"method", MlperfJsonOrNull(t->method)},
                         {"withheld_runs", MlperfJsonOrNull(t->withheld_runs)},
                         {"withheld", MlperfJsonOrNull(t->withheld)},
                         {"interval", MlperfJsonOrNull(t->interval)}};
  }
  if (facts.rcp) out["rcp"] = MlperfRcpToJson(*facts.rcp);
  if (facts.official) out["official"] = MlperfOfficialToJson(*facts.official);
  if (const auto& e = facts.energy) {
    out["energy"] = {{"score", MlperfJsonOrNull(e->score)},
                     {"unit", MlperfJsonOrNull(e->unit)},
                     {"runs", e->runs},
                     {"scaling_factor", MlperfJsonOrNull(e->scaling_factor)}};
  }
  json runs = json::array();
  for (const MlperfRunFacts& r : facts.run_details) {
    runs.push_back({{"file", MlperfJsonOrNull(r.file)},
                    {"status", MlperfJsonOrNull(r.status)},
                    {"time_to_train_minutes", MlperfJsonOrNull(r.time_to_train_minutes)},
                    {"convergence", MlperfJsonOrNull(r.convergence)},
                    {"samples_trained", MlperfJsonOrNull(r.samples_trained)},
                    {"samples_per_second", MlperfJsonOrNull(r.samples_per_second)},
                    {"throughput_method", MlperfJsonOrNull(r.throughput_method)},
                    {"reason", MlperfJsonOrNull(r.reason)}});
  }
  out["run_details"] = std::move(runs);
  json findings = json::array();
  for (const MlperfComplianceFacts& f : facts.compliance) {
    findings.push_back({{"file", MlperfJsonOrNull(f.file)},
                        {"line", MlperfJsonOrNull(f.line)},
                        {"rule", MlperfJsonOrNull(f.rule)},
                        {"message", MlperfJsonOrNull(f.message)},
                        {"drops_run", MlperfJsonOrNull(f.drops_run)}});
  }
  out["compliance"] = std::move(findings);
  if (const auto& e = facts.stored) {
    out["source"] = MlperfJsonOrNull(e->source);
    out["benchmark"] = MlperfJsonOrNull(e->benchmark);
    out["system"] = MlperfJsonOrNull(e->system);
    out["olympic_minutes"] = MlperfJsonOrNull(e->olympic_minutes);
  }
  return out;
}

}  // namespace evalsuite::analysis
