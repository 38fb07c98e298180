// ToJson: the report model's fields under report.json's keys (shape documented in report.h).
#include "reports/report_json.h"

#include "common/json_number.h"
#include "reports/comparison_section.h"
#include "reports/cost_section.h"
#include "reports/machine_noise.h"
#include "reports/run_curves.h"
#include "reports/sensitivity_grid.h"
#include "reports/stats_json.h"
#include "reports/variance_section.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

json StringOrNull(const std::string& text) { return text.empty() ? json(nullptr) : json(text); }

json NumbersJson(const std::vector<double>& values) {
  json out = json::array();
  for (double value : values) out.push_back(JsonNumber(value));
  return out;
}

json ThresholdNoiseJson(const ThresholdNoiseModel& noise) {
  return {{"validation_size", noise.validation_size},
          {"standard_error", JsonNumber(noise.standard_error)},
          {"formula", "sqrt(p (1 - p) / n) at p = the target, n = the validation split's size (binomial)"},
          {"thresholds_within", NumbersJson(noise.thresholds_within)},
          {"target_within_noise_of_grid", noise.target_within_noise_of_grid},
          {"runs_fell_back", noise.runs_fell_back}};
}

json SensitivityJson(const SensitivityModel& sensitivity) {
  json rows = json::array();
  for (const SensitivityRowModel& row : sensitivity.thresholds) {
    json out = StabilityStatsJson(row.stats, KaplanMeierDetail::kMedianOnly);
    out["within_noise_of_target"] = row.within_noise_of_target;
    out["is_target"] = row.is_target;
    rows.push_back(std::move(out));
  }
  return {{"grid",
           {{"step", sensitivity.step},
            {"steps_below", sensitivity.steps_below},
            {"steps_above", sensitivity.steps_above},
            {"extra_thresholds", sensitivity.extra_thresholds},
            {"rule", kSensitivityGridRule}}},
          {"thresholds", std::move(rows)}};
}

json ExpectedBestJson(const std::vector<stats::ExpectedBest>& rows) {
  json out = json::array();
  for (const stats::ExpectedBest& best : rows) {
    out.push_back({{"n", best.n}, {"expected_tta", JsonNumber(best.expected_tta)}, {"none_reach", best.none_reach}});
  }
  return out;
}

json ComparisonJson(const EntryComparisonModel& c) {
  const stats::ImprovementProbability& poi = c.probability;
  return {{"a", c.a},
          {"b", c.b},
          {"runs_a", c.runs_a},
          {"runs_b", c.runs_b},
          {"probability_a_faster", JsonNumber(poi.probability)},
          {"interval", poi.interval ? IntervalJson(*poi.interval) : json(nullptr)},
          {"interval_withheld", StringOrNull(poi.withheld)}};
}

json MeanMaxJson(const std::optional<MeanMaxModel>& figure) {
  return figure ? json{{"mean", figure->mean}, {"max", figure->max}} : json(nullptr);
}

json ContentionJson(const std::optional<ContentionSummaryModel>& summary) {
  if (!summary) return nullptr;
  return {{"runs_measured", summary->runs_measured},
          {"busy_runs", summary->busy_runs},
          {"other_busy_cores", MeanMaxJson(summary->other_busy_cores)},
          {"steal_fraction", MeanMaxJson(summary->steal_fraction)},
          {"load_average_1m", MeanMaxJson(summary->load_average_1m)},
          {"cpu_pressure_some", MeanMaxJson(summary->cpu_pressure_some)},
          {"cores", summary->cores ? json(*summary->cores) : json(nullptr)},
          {"rule", BusyRule()}};
}

}  // namespace

json ToJson(const CurvesModel& curves) {
  json drawn = json::array();
  for (const DrawnRunModel& run : curves.drawn) {
    json points = json::array();
    for (const stats::CurvePoint& p : run.points) points.push_back({JsonNumber(p.time), JsonNumber(p.metric)});
    drawn.push_back({{"index", run.index},
                     {"status", run.status},
                     {"counted", run.counted},
                     {"tta", JsonNumber(run.tta)},
                     {"role", StringOrNull(run.role)},
                     {"points", std::move(points)}});
  }
  json band = nullptr;
  if (curves.banded) {
    json rows = json::array();
    for (const BandRowModel& row : curves.band) {
      rows.push_back({JsonNumber(row.time), row.runs, JsonNumber(row.q10), JsonNumber(row.q25), JsonNumber(row.median),
                      JsonNumber(row.q75), JsonNumber(row.q90)});
    }
    band = {{"runs", curves.band_runs},
            {"rule", kBandRule},
            {"columns", {"time", "runs", "q10", "q25", "median", "q75", "q90"}},
            {"rows", std::move(rows)}};
  }
  return {{"runs", curves.runs},
          {"max_time", JsonNumber(curves.max_time)},
          {"metric_min", JsonNumber(curves.metric_min)},
          {"metric_max", JsonNumber(curves.metric_max)},
          {"drawn", std::move(drawn)},
          {"drawn_rule", curves.drawn_rule},
          {"band", std::move(band)}};
}

json ToJson(const RunModel& run) {
  return {{"index", run.index},
          {"seeds", analysis::RunSeedsToJson(run.seeds)},
          {"status", run.status},
          {"counted", run.counted},
          {"tta", JsonNumber(run.tta)},
          {"epochs_to_target", JsonNumber(run.epochs_to_target)},
          {"time_spent", JsonNumber(run.time_spent)},
          {"wall_seconds", JsonNumber(run.wall_seconds)},
          {"threads", run.threads},
          {"error", StringOrNull(run.error)},
          {"contention", run.contention ? analysis::ContentionToJson(*run.contention) : json(nullptr)},
          {"precision", run.precision ? run.precision->recorded : json(nullptr)},
          {"evaluations", run.evaluations}};
}

json ToJson(const VerdictModel& verdict) {
  json out = VerdictJson(verdict.verdict);
  out["entry"] = verdict.entry;
  out["basis"] = verdict.basis;
  out["first_line"] = StringOrNull(verdict.first_line);
  out["result_on_epochs"] = StringOrNull(verdict.result_on_epochs);
  out["runs"] = verdict.runs;
  out["reached"] = verdict.reached;
  out["threshold"] = JsonNumber(verdict.threshold);
  out["cov"] = JsonNumber(verdict.cov);
  out["cov_interval"] = verdict.cov_interval ? IntervalJson(*verdict.cov_interval) : json(nullptr);
  return out;
}

json ToJson(const TableRowModel& row) {
  json out = StatisticsRowJson(row.statistics);
  out["entry"] = row.entry;
  out["metric"] = row.metric;
  out["threshold"] = JsonNumber(row.threshold);
  out["time_unit"] = row.time_unit;
  out["progress_unit"] = row.progress_unit;
  out["busy_runs"] = row.busy_runs ? json(*row.busy_runs) : json(nullptr);
  return out;
}

json ToJson(const EntryModel& entry) {
  json runs = json::array();
  for (const RunModel& run : entry.runs) runs.push_back(ToJson(run));
  return {{"name", entry.name},
          {"description", entry.description},
          {"source", entry.source},
          {"metric", entry.metric},
          {"threshold", JsonNumber(entry.threshold)},
          {"time_unit", entry.time_unit},
          {"progress_unit", entry.progress_unit},
          {"extra", entry.extra},
          {"runs", std::move(runs)},
          {"curves", ToJson(entry.curves)},
          {"stats", StabilityStatsJson(entry.stats)},
          {"epochs_to_target", entry.epochs_to_target ? StabilityStatsJson(*entry.epochs_to_target) : json(nullptr)},
          {"threshold_noise", ThresholdNoiseJson(entry.threshold_noise)},
          {"variation", VariationJson(entry.variation)},
          {"contention", ContentionJson(entry.contention)},
          {"expected_best", ExpectedBestJson(entry.expected_best)},
          {"sensitivity", SensitivityJson(entry.sensitivity)}};
}

json ToJson(const ReportModel& model) {
  json out = json::object();
  out["schema_version"] = model.schema_version;
  out["title"] = model.title;
  out["generated_at"] = model.generated_at;
  out["environment"] = model.environment;
  out["plan"] = model.plan;
  out["rule"] = RuleJson(model.rule);
  out["points_file"] = model.points_file;
  json verdicts = json::array(), table = json::array(), entries = json::array(), comparisons = json::array(),
       methods = json::array();
  for (const VerdictModel& verdict : model.verdicts) verdicts.push_back(ToJson(verdict));
  for (const TableRowModel& row : model.table) table.push_back(ToJson(row));
  for (const EntryModel& entry : model.entries) entries.push_back(ToJson(entry));
  for (const EntryComparisonModel& c : model.comparisons) comparisons.push_back(ComparisonJson(c));
  for (const MethodModel& m : model.methods) {
    methods.push_back({{"name", m.name}, {"formula", m.formula}, {"source", m.source}});
  }
  out["verdicts"] = std::move(verdicts);
  out["table"] = std::move(table);
  out["entries"] = std::move(entries);
  out["comparisons"] = std::move(comparisons);
  out["methods"] = std::move(methods);
  if (model.compare) out["compare"] = CompareSectionJson(*model.compare);
  if (model.cost) out[kCostSectionKey] = CostSectionJson(*model.cost);
  if (!model.variance_sources.empty()) out[kVarianceSectionKey] = VarianceSectionJson(model.variance_sources);
  for (const auto& [key, section] : model.sections.items()) out[key] = section;
  return out;
}

}  // namespace evalsuite::reports
