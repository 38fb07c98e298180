#include "evalsuite/study/study_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "evalsuite/common/error.h"
#include "evalsuite/common/stats_boundary.h"
#include "evalsuite/study/builtin_hardware.h"
#include "evalsuite/study/external_hardware.h"
#include "evalsuite/study/failure_cause.h"
#include "evalsuite/study/sequential_stopping.h"
#include "evalsuite/study/study_plan.h"
#include "reports/counted_runs.h"
#include "reports/entry_statistics.h"
#include "reports/json_access.h"
#include "stats/curve.h"
#include "reports/comparison_section.h"
#include "stats/entry_verdict.h"
#include "stats/stability.h"
#include "stats/stability_statistics.h"

namespace evalsuite::study {
namespace {

stats::StabilityRule RuleFromPlan(const nlohmann::json& plan) {
  stats::StabilityRule rule;
  auto it = plan.find("stability");
  if (it == plan.end() || !it->is_object()) return rule;
  rule.max_cov_upper = it->value("max_cov_upper", rule.max_cov_upper);
  rule.min_hit_rate = it->value("min_hit_rate", rule.min_hit_rate);
  rule.min_reached = it->value("min_reached", rule.min_reached);
  rule.consecutive_evaluations = it->value("consecutive_evaluations", rule.consecutive_evaluations);
  rule.basis = it->value("basis", rule.basis);
  return rule;
}

std::string FirstLine(const std::string& text) {
  std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return "";
  std::size_t end = text.find_first_of("\r\n", start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::string LastLines(const std::string& text, int lines) {
  std::size_t pos = text.size();
  for (int i = 0; i < lines && pos != std::string::npos && pos > 0; ++i) pos = text.rfind('\n', pos - 1);
  return pos == std::string::npos || pos == 0 ? text : text.substr(pos + 1);
}

// RunRecord::execution["gpu"] as gpu_sampler.h writes it; a field of another shape counts as absent.
reports::RunGpuUse GpuUseOf(const nlohmann::json& gpu) {
  using reports::Field;
  using reports::NumberOf;
  auto count = [](const nlohmann::json& value) { return static_cast<int>(NumberOf(value).value_or(0)); };
  reports::RunGpuUse use;
  use.sampled = Field(gpu, "sampled") == true;
  use.reason = reports::StringOf(Field(gpu, "reason"));
  use.interval_seconds = NumberOf(Field(gpu, "interval_seconds")).value_or(0);
  use.samples = count(Field(gpu, "samples"));
  use.failed_samples = count(Field(gpu, "failed_samples"));
  for (const nlohmann::json& d : reports::ArrayOf(Field(gpu, "devices"))) {
    reports::GpuDeviceUse device;
    device.index = reports::StringOf(Field(d, "index"));
    device.uuid = reports::StringOf(Field(d, "uuid"));
    device.samples = count(Field(d, "samples"));
    device.memory_total_mib = NumberOf(Field(d, "memory_total_mib"));
    device.peak_memory_used_mib = NumberOf(Field(d, "peak_memory_used_mib"));
    device.mean_utilization_percent = NumberOf(Field(d, "mean_utilization_percent"));
    device.utilization_samples = count(Field(d, "utilization_samples"));
    use.devices.push_back(std::move(device));
  }
  return use;
}

reports::RunInput ToRunInput(const RunRecord& run) {
  reports::RunInput input;
  input.index = run.run_index;
  input.seeds = run.seeds;
  input.status = store::StatusOf(run);
  for (const runlog::EvalPoint& p : run.log.points) {
    input.points.push_back({p.train_seconds, p.metric});
    input.epochs.push_back(p.epoch);
  }
  input.time_spent = run.log.train_seconds;
  input.wall_seconds = run.log.wall_seconds;
  input.threads = run.threads;
  input.error = run.log.error;
  if (auto usage = run.execution.find("usage"); usage != run.execution.end() && usage->is_object()) {
    reports::RunUsage used;
    used.wall_seconds = usage->value("wall_seconds", 0.0);
    used.user_seconds = usage->value("user_seconds", 0.0);
    used.system_seconds = usage->value("system_seconds", 0.0);
    used.max_rss_kb = usage->value("max_rss_kb", 0L);
    input.usage = used;
  }
  if (auto gpu = run.execution.find("gpu"); gpu != run.execution.end() && gpu->is_object()) {
    input.gpu = GpuUseOf(*gpu);
  }
  if (auto c = run.execution.find("contention"); c != run.execution.end() && c->is_object()) input.contention = *c;
  if (auto p = run.log.header.find("precision_choice"); p != run.log.header.end() && p->is_object()) {
    input.precision = *p;
  }
  if (run.log.status != runlog::RunStatus::kReached && run.log.status != runlog::RunStatus::kNotReached &&
      !run.stderr_tail.empty()) {
    input.error += (input.error.empty() ? "" : "; ") + std::string("stderr: ") + LastLines(run.stderr_tail, 3);
  }
  return input;
}

std::string Percent(double fraction) {
  if (!std::isfinite(fraction)) return "inf";
  return fmt::format("{:.1f}%", 100 * fraction);
}

// One statistic's cell in `study show` (stats/stability_statistics.h): "-" where undefined or no run counted; medians
// say "(KM)" when Kaplan-Meier's, and "not reached" when fewer than half the runs reached; an unbounded interval says
// so rather than printing "inf".
std::string SummaryCellText(const stats::StabilityStatistic& statistic, const stats::EntryStatistics& entry,
                            const std::string& unit) {
  if (entry.at_target.runs == 0) return "-";
  const stats::StatisticValue v = statistic.compute(entry);
  switch (statistic.form) {
    case stats::StatisticForm::kMedianOfAllRuns:
      if (v.basis.rfind("not reached", 0) == 0) return "not reached";
      if (!v.value) return "-";
      return fmt::format("{:.1f} {}{}", *v.value, unit, v.basis == "Kaplan-Meier" ? " (KM)" : "");
    case stats::StatisticForm::kShare: {
      if (!v.value) return "-";
      std::string text = Percent(*v.value);
      if (v.interval) {
        text += " [" + Percent(v.interval->lower) + ", " +
                (std::isfinite(v.interval->upper) ? Percent(v.interval->upper) + "]" : std::string("unbounded)"));
      }
      return text;
    }
    case stats::StatisticForm::kCount:
      return v.value ? fmt::format("{:.0f}", *v.value) : "-";
    case stats::StatisticForm::kMagnitude:
    case stats::StatisticForm::kGridInTime:
      return v.value ? fmt::format("{:.1f} {}", *v.value, unit) : "-";
    case stats::StatisticForm::kGridInProgress:
      return v.value ? fmt::format("{:.3g}", *v.value) : "-";
  }
  return "-";
}

// The statistics `study show` has a column for, in its column order.
std::vector<const stats::StabilityStatistic*> SummaryStatistics() {
  std::vector<const stats::StabilityStatistic*> shown;
  for (const stats::StabilityStatistic& statistic : stats::StabilityStatistics()) {
    if (!statistic.summary_heading.empty()) shown.push_back(&statistic);
  }
  std::stable_sort(shown.begin(), shown.end(), [](const auto* a, const auto* b) {
    return a->summary_order < b->summary_order;
  });
  return shown;
}

// The basis the verdicts judge, named as the report's rule statement names it (reports/stats_json.cpp).
std::string BasisLine(const stats::StabilityRule& rule) {
  if (rule.basis == stats::kBasisEpochs) {
    return "basis: epochs to target ([stability] basis = \"epochs\"): the verdict judges the CoV of epochs to "
           "target, which leaves the machine's speed out (the CoV column is of TTA)";
  }
  return "basis: time (TTA, DAWNBench's definition; [stability] basis = \"epochs\" judges epochs to target instead)";
}

std::optional<int> PlannedRunsOf(const nlohmann::json& plan, const std::string& entry) {
  auto schedule = plan.find("schedule");
  if (schedule == plan.end() || !schedule->is_array()) return std::nullopt;
  int count = 0;
  for (const auto& run : *schedule) count += run.value("entry", "") == entry;
  return count;
}

}  // namespace

reports::StabilityReportInput BuildReportInput(RunStore& store, const std::vector<StudyInfo>& studies) {
  reports::StabilityReportInput input;
  if (studies.empty()) return input;
  const bool several = studies.size() > 1;
  std::string names;
  for (const auto& s : studies) names += (names.empty() ? "" : ", ") + s.name;
  input.title = "evalsuite stability report: " + names;
  input.environment = studies.front().environment;
  input.rule = RuleFromPlan(studies.front().plan);
  if (several) {
    input.plan = {{"studies", nlohmann::json::object()}};
    for (const auto& s : studies) input.plan["studies"][s.name] = s.plan;
  } else {
    input.plan = studies.front().plan;
  }
  // An entry is named after its study only where two studies have an entry of that name: a report of several
  // imports keeps its entry column short ("CIFAR10/basenet", not "import basenet.tsv 2026-11-26T.../CIFAR10/...").
  std::map<std::string, int> studies_with;
  if (several) {
    for (const StudyInfo& study : studies) {
      for (const EntryRecord& entry : store.LoadEntries(study.id)) ++studies_with[entry.name];
    }
  }
  auto shown_name = [&](const StudyInfo& study, const std::string& name) {
    return studies_with[name] > 1 ? study.name + "/" + name : name;
  };
  for (const StudyInfo& study : studies) {
    std::map<std::string, std::vector<reports::RunInput>> runs;
    std::map<std::string, std::vector<RunRecord>> records;
    for (RunRecord& run : store.LoadRuns(study.id)) {
      runs[run.entry].push_back(ToRunInput(run));
      records[run.entry].push_back(std::move(run));
    }
    for (const auto& [name, entry_runs] : records) {
      // External entries that declare their FLOPs get a row in the report's hardware section.
      const std::string shown = shown_name(study, name);
      if (auto hardware = ExternalHardwareEntry(shown, entry_runs)) {
        input.extra_sections["hardware"]["entries"].push_back(std::move(*hardware));
      } else if (auto builtin = BuiltinHardwareEntry(shown, entry_runs)) {  // its logs' measured FLOP/s
        input.extra_sections["hardware"]["entries"].push_back(std::move(*builtin));
      }
    }
    for (const EntryRecord& entry : store.LoadEntries(study.id)) {
      reports::EntryInput e;
      e.name = shown_name(study, entry.name);
      e.description = entry.description;
      e.source = entry.source;
      e.metric = entry.metric;
      e.time_unit = entry.time_unit;
      e.threshold = entry.threshold;
      e.extra_thresholds = entry.extra_thresholds;
      e.extra = entry.extra;
      e.extra["study"] = study.name;
      e.runs = std::move(runs[entry.name]);
      runs.erase(entry.name);
      input.entries.push_back(std::move(e));
    }
    for (auto& [name, orphan_runs] : runs) {  // runs of an entry the store has no row for (should not happen)
      reports::EntryInput e;
      e.name = shown_name(study, name);
      e.runs = std::move(orphan_runs);
      input.entries.push_back(std::move(e));
    }
  }
  return input;
}

std::string FormatStudyList(RunStore& store) {
  std::vector<StudyInfo> studies = store.ListStudies();
  if (studies.empty()) return "no studies in " + store.file().string() + "\n";
  std::size_t width = 4;
  for (const auto& s : studies) width = std::max(width, s.name.size());
  std::string out =
      fmt::format("{:>3}  {:<{}}  {:<6}  {:<20}  {:>9}  {}\n", "id", "name", width, "kind", "created", "runs", "state");
  for (const auto& s : studies) {
    std::string runs = std::to_string(s.runs_recorded), state = "-";
    if (s.kind == "study") {
      int planned = s.plan.contains("schedule") ? static_cast<int>(s.plan["schedule"].size()) : 0;
      runs += "/" + std::to_string(planned);
      state = s.runs_recorded >= planned ? "complete" : "unfinished (evalsuite study resume " + s.name + ")";
      if (s.runs_recorded < planned && s.plan.contains("sequential") && s.plan["sequential"].is_object()) {
        // A sequential study that answered its question is done with fewer runs than planned.
        if (auto d = DecideSequentialStop(store, PlanFromJson(s.plan)); d && d->stop) state = "answered: " + d->result;
      }
    }
    out += fmt::format("{:>3}  {:<{}}  {:<6}  {:<20}  {:>9}  {}\n", s.id, s.name, width, s.kind, s.created_at, runs,
                       state);
  }
  return out;
}

namespace {

// The target as its source writes it (an import's "eval_loss <= 0.925", "FID <= 90 and CLIP >= 0.15"), not the
// store's higher-is-better form; a study's own entries: the stored threshold.
std::string ThresholdAsWritten(const EntryRecord& entry) {
  const nlohmann::json shown = entry.extra.is_object() ? entry.extra.value("threshold_shown", nlohmann::json())
                                                       : nlohmann::json();
  if (shown.is_string()) return shown.get<std::string>();
  const nlohmann::json column = entry.extra.is_object() ? entry.extra.value("threshold_in_column_units", nlohmann::json())
                                                        : nlohmann::json();
  if (column.is_number()) return fmt::format("{} >= {:g}", entry.metric, column.get<double>());  // DAWNBench
  return fmt::format("{:g}", entry.threshold);
}

std::string TextOf(const nlohmann::json& v) {
  return v.is_string() ? v.get<std::string>() : v.is_number() ? fmt::format("{:.6g}", v.get<double>()) : "?";
}

// One line per imported MLPerf entry: division and ruleset, official score (or why there is none), RCP verdict.
std::string ImportedFacts(const EntryRecord& entry) {
  const nlohmann::json& x = entry.extra;
  if (!x.is_object() || entry.source != "mlperf") return "";
  std::string line = entry.name + ": division " + TextOf(x.value("division", nlohmann::json())) + ", ruleset " +
                     TextOf(x.value("ruleset", nlohmann::json()));
  const nlohmann::json official = x.value("official", nlohmann::json::object());
  if (official.value("official_minutes", nlohmann::json()).is_number()) {
    line += fmt::format("; official score {:.6g} min", official["official_minutes"].get<double>());
  } else {
    line += "; no official score";
    if (official.value("note", nlohmann::json()).is_string()) line += " (" + official["note"].get<std::string>() + ")";
  }
  const nlohmann::json rcp = x.value("rcp", nlohmann::json::object());
  line += "; RCP " + TextOf(rcp.value("verdict", nlohmann::json()));
  if (rcp.value("message", nlohmann::json()).is_string() && !rcp["message"].get<std::string>().empty()) {
    line += " (" + rcp["message"].get<std::string>() + ")";
  }
  return line + "\n";
}

}  // namespace

std::string FormatStudySummary(RunStore& store, const StudyInfo& study) {
  stats::StabilityRule rule = RuleFromPlan(study.plan);
  std::string out =
      fmt::format("study {} (id {}, {}), created {}\n", study.name, study.id, study.kind, study.created_at);
  if (study.kind == "study" && study.plan.contains("schedule")) {
    out += fmt::format("plan: {} entries x {} runs, seed {}, {} thread(s) per run, {} job(s); runs in {}\n",
                       study.plan.value("entries", nlohmann::json::array()).size(), study.plan.value("runs", 0),
                       study.plan.value("seed", uint64_t{0}), study.plan.value("threads", 0),
                       study.plan.value("jobs", 0), study.plan.value("out_dir", std::string("?")));
  }
  out += fmt::format(
      "rule: stable when the CoV interval's upper bound <= {}, hit rate (point estimate) >= {}, at least {} reached{}\n"
      "{}\n"
      "median TTA: of all runs (Kaplan-Meier when some did not reach; 'not reached' when fewer than half did)\n\n",
      Percent(rule.max_cov_upper), Percent(rule.min_hit_rate), rule.min_reached,
      rule.consecutive_evaluations > 1
          ? fmt::format("; TTA at the first of {} consecutive evaluations at or above the target",
                        rule.consecutive_evaluations)
          : "",
      BasisLine(rule));

  std::map<std::string, std::vector<RunRecord>> runs;
  for (RunRecord& run : store.LoadRuns(study.id)) runs[run.entry].push_back(std::move(run));
  const std::vector<const stats::StabilityStatistic*> statistics = SummaryStatistics();
  std::vector<std::vector<std::string>> rows = {
      {"entry", "threshold", "runs", "reached", "failed", "interrupted", "did not run"}};
  for (const stats::StabilityStatistic* statistic : statistics) rows.front().push_back(statistic->summary_heading);
  rows.front().push_back("verdict");
  rows.front().push_back("judged on");
  std::string could_not_run;  // said before the table: entries none of whose runs trained here
  // A sequential stability study's verdicts are its decision's, at the look's level (reports/comparison_section.h).
  std::optional<reports::SequentialOutcome> sequential_stability;
  if (const auto q = reports::SequentialQuestionOf(study.plan); q && q->stability) {
    sequential_stability = reports::SequentialStabilityOutcome(BuildReportInput(store, {study}));
  }
  std::string sequential_lines;  // under the table: where each sequential verdict was judged
  for (const EntryRecord& entry : store.LoadEntries(study.id)) {
    std::vector<stats::RunCurve> curves;
    std::optional<std::vector<stats::RunCurve>> epoch_curves(std::in_place);  // nullopt once a run has no epochs
    int failed = 0, interrupted = 0, did_not_run = 0;
    std::string first_cause;
    for (const RunRecord& run : runs[entry.name]) {
      switch (store::CountOf(run, study)) {
        case store::RunCount::kInterrupted:
          ++interrupted;
          continue;
        case store::RunCount::kDidNotRun:
          ++did_not_run;
          if (first_cause.empty()) {
            first_cause = CauseOfNotRun(run.log.error);
            // The line a user needs ("can't open file ...") is usually the process's first word on stderr.
            const std::string line = FirstLine(run.stderr_tail);
            if (!line.empty() && first_cause.find(line) == std::string::npos) first_cause += "; stderr: " + line;
          }
          continue;
        case store::RunCount::kCounted:
          break;
      }
      curves.push_back(store::RunCurveOf(run.log));
      if (const reports::RunInput input = ToRunInput(run); epoch_curves && reports::HasEpochs(input)) {
        epoch_curves->push_back(reports::ToEpochCurve(input));
      } else {
        epoch_curves.reset();
      }
      // reached + failed + not reached = runs (run_store.h's rule, as the study's summary line counts).
      if (CountsAsFailed(run, entry.threshold, rule.consecutive_evaluations)) ++failed;
    }
    const stats::EntryStatistics statistics_of_entry = reports::AnalyzeEntryRuns(
        entry.name, curves, epoch_curves, entry.threshold, rule.consecutive_evaluations);
    const stats::StabilityStats& s = statistics_of_entry.at_target;
    // The basis and the verdict on it, decided where the report asks too (stats/entry_verdict.h).
    const stats::EntryVerdict verdict = stats::JudgeEntryStability(statistics_of_entry, rule);
    std::optional<int> planned = study.kind == "study" ? PlannedRunsOf(study.plan, entry.name) : std::nullopt;
    std::string unit = entry.time_unit == "seconds" ? "s" : entry.time_unit;
    const bool none_ran = curves.empty() && did_not_run > 0;
    if (none_ran) {
      could_not_run += fmt::format("{} DID NOT RUN here: {} of its runs died before their first evaluation; {}\n",
                                   entry.name, did_not_run, first_cause);
    }
    std::vector<std::string> row = {entry.name,
                                    ThresholdAsWritten(entry),
                                    std::to_string(curves.size()) + (planned ? "/" + std::to_string(*planned) : ""),
                                    std::to_string(s.reached),
                                    std::to_string(failed),
                                    std::to_string(interrupted),
                                    std::to_string(did_not_run)};
    for (const stats::StabilityStatistic* statistic : statistics) {
      row.push_back(SummaryCellText(*statistic, statistics_of_entry, unit));
    }
    const bool judged = !none_ran && s.runs > 0;
    std::string result = verdict.verdict.result;
    if (sequential_stability && judged && !none_ran) {
      if (auto decided = reports::SequentialVerdictOf(*sequential_stability, entry.name, curves.size(), result)) {
        result = decided->result + fmt::format(" (look {}, {:.4g}%)", sequential_stability->looks,
                                               100 * sequential_stability->level);
        sequential_lines += entry.name + ": " + decided->reasons.front() + "\n";
      }
    }
    row.push_back(none_ran ? "DID NOT RUN" : !judged ? "no runs yet" : result);
    row.push_back(!judged ? "-"
                          : std::string(stats::JudgedOnName(verdict.basis)) +
                                (verdict.epochs_unavailable ? " (no epochs logged)" : ""));
    rows.push_back(std::move(row));
  }
  out += could_not_run.empty() ? "" : could_not_run + "\n";
  std::string imported;  // what an import knows beyond the runs: the official score, the RCP verdict, the division
  if (study.kind == "import") {
    for (const EntryRecord& entry : store.LoadEntries(study.id)) imported += ImportedFacts(entry);
  }
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      line += (c == 0 ? "" : "  ") + row[c] + (c + 1 < row.size() ? std::string(widths[c] - row[c].size(), ' ') : "");
    }
    out += line + "\n";
  }
  if (!imported.empty()) out += "\n" + imported;
  return out + sequential_lines;
}

}  // namespace evalsuite::study
