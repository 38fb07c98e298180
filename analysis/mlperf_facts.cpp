#include "analysis/mlperf_facts.h"

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

}  // namespace

MlperfFacts MlperfFactsFromJson(const json& extra) {
  MlperfFacts facts;
  facts.ruleset = MlperfTextOf(extra, "ruleset");
  facts.ruleset_source = MlperfTextOf(extra, "ruleset_source");
  facts.division = MlperfTextOf(extra, "division");
  facts.global_batch_size = MlperfNumberOf(extra, "global_batch_size");
  if (const json& t = MlperfFieldOf(extra, "throughput"); t.is_object()) {
    MlperfThroughputFacts throughput;
    throughput.median_samples_per_second = MlperfNumberOf(t, "median_samples_per_second");
    throughput.runs = MlperfCountOf(t, "runs");
    throughput.method = MlperfTextOf(t, "method");
    throughput.interval = MlperfTextOf(t, "interval");
    throughput.withheld_runs = MlperfCountOf(t, "withheld_runs");
    throughput.withheld = MlperfTextOf(t, "withheld");
    facts.throughput = throughput;
  }
  if (const json& r = MlperfFieldOf(extra, "rcp"); r.is_object()) {
    MlperfRcpFacts rcp;
    rcp.verdict = MlperfTextOf(r, "verdict");
    rcp.message = MlperfTextOf(r, "message");
    rcp.reference = MlperfTextOf(r, "reference");
    rcp.rcp_mean = MlperfNumberOf(r, "rcp_mean");
    rcp.rcp_stdev = MlperfNumberOf(r, "rcp_stdev");
    rcp.min_epochs = MlperfNumberOf(r, "min_epochs");
    rcp.submission_mean_epochs = MlperfNumberOf(r, "submission_mean_epochs");
    rcp.norm_factor = MlperfNumberOf(r, "norm_factor");
    facts.rcp = rcp;
  }
  if (const json& o = MlperfFieldOf(extra, "official"); o.is_object()) {
    MlperfOfficialFacts official;
    official.raw_minutes = MlperfNumberOf(o, "raw_minutes");
    official.published_scaling_factor = MlperfNumberOf(o, "published_scaling_factor");
    official.official_minutes = MlperfNumberOf(o, "official_minutes");
    official.checker_minutes = MlperfNumberOf(o, "checker_minutes");
    official.unapplied_rules_minutes = MlperfNumberOf(o, "unapplied_rules_minutes");
    official.note = MlperfTextOf(o, "note");
    facts.official = official;
  }
  if (const json& runs = MlperfFieldOf(extra, "run_details"); runs.is_array()) {
    for (const json& run : runs) {
      facts.run_details.push_back(
          {MlperfTextOf(run, "file"), MlperfTextOf(run, "status"), MlperfTextOf(run, "reason")});
    }
  }
  return facts;
}

}  // namespace evalsuite::analysis
