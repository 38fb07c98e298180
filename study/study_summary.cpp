#include "study/study_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "analysis/entry_analysis.h"
#include "analysis/mlperf_facts.h"
#include "analysis/run_counting.h"
#include "analysis/run_decisions.h"
#include "analysis/sequential_decision.h"
#include "analysis/variance_sources.h"
#include "common/error.h"
#include "common/figure_format.h"
#include "reports/given_sections.h"
#include "reports/variance_section.h"
#include "stats/entry_verdict.h"
#include "stats/stability.h"
#include "stats/stability_statistics.h"
#include "store/analysis_entries.h"
#include "store/entry_extra_json.h"
#include "study/execution/run_execution.h"
#include "study/execution/sequential_stopping.h"
#include "study/hardware/builtin_hardware.h"
#include "study/hardware/external_hardware.h"
#include "study/plans/stored_plan.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {
namespace {

// The last line with text: what a failing process says last is its error ("ModuleNotFoundError: ...",
// argparse's "error: unrecognized arguments: --log ..."), where its first line is "Traceback ..." or "usage: ...".
std::string LastLine(const std::string& text) {
  const std::size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  const std::size_t newline = text.find_last_of("\r\n", end);
  const std::size_t start = text.find_first_not_of(" \t", newline == std::string::npos ? 0 : newline + 1);
  return text.substr(start, end + 1 - start);
}

std::string Percent(double fraction) {
  if (!std::isfinite(fraction)) return "inf";
  return FormatShareAsPercent(fraction);
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
      return fmt::format("{} {}{}", FormatFigure(*v.value), unit, v.basis == "Kaplan-Meier" ? " (KM)" : "");
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
      return v.value ? FormatFigure(*v.value) + " " + unit : "-";
    case stats::StatisticForm::kGridInProgress:
      return v.value ? FormatFigure(*v.value) : "-";
  }
  return "-";
}

// The statistics `study show` has a column for, in its column order.
std::vector<const stats::StabilityStatistic*> SummaryStatistics() {
  std::vector<const stats::StabilityStatistic*> shown;
  for (const stats::StabilityStatistic& statistic : stats::StabilityStatistics()) {
    if (!statistic.summary_heading.empty()) shown.push_back(&statistic);
  }
  std::stable_sort(shown.begin(), shown.end(),
                   [](const auto* a, const auto* b) { return a->summary_order < b->summary_order; });
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

}  // namespace

reports::StabilityReportInput BuildReportInput(store::RunStore& store, const std::vector<store::StudyInfo>& studies,
                                               StoreHardwareRows hardware) {
  reports::StabilityReportInput input;
  if (studies.empty()) return input;
  const bool several = studies.size() > 1;
  std::string names;
  for (const auto& s : studies) names += (names.empty() ? "" : ", ") + s.name;
  input.title = "evalsuite stability report: " + names;
  input.environment = studies.front().environment;
  std::vector<StoredPlan> plans;
  plans.reserve(studies.size());
  for (const store::StudyInfo& s : studies) plans.push_back(DecodeStoredPlan(s.plan));
  if (several) {
    // Each study's compare pairs and sequential question are its own: a report of several asks none of them, and
    // judges every entry by the first study's rule.
    input.settings.rule = plans.front().Settings().rule;
    input.plan = {{"studies", nlohmann::json::object()}};
    for (std::size_t k = 0; k < studies.size(); ++k) input.plan["studies"][studies[k].name] = plans[k].AsRecorded();
  } else {
    input.settings = plans.front().Settings();
    input.cost_per_hour = plans.front().CostPerHour();
    input.plan = plans.front().AsRecorded();
  }
  std::vector<std::vector<store::RunRecord>> records_of;
  std::vector<std::vector<analysis::Entry>> entries_of;
  std::map<std::string, int> studies_with;
  for (const store::StudyInfo& study : studies) {
    records_of.push_back(store.LoadRuns(study.id));
    entries_of.push_back(store::AnalysisEntriesOf(store, study, records_of.back()));
    for (const analysis::Entry& e : entries_of.back()) ++studies_with[e.name];
  }
  // An entry is named after its study only where two studies have an entry of that name: a report of several
  // imports keeps its entry column short ("CIFAR10/basenet", not "import basenet.tsv 2026-11-26T.../CIFAR10/...").
  auto shown_name = [&](const store::StudyInfo& study, const std::string& name) {
    return several && studies_with[name] > 1 ? study.name + "/" + name : name;
  };
  for (std::size_t k = 0; k < studies.size(); ++k) {
    const store::StudyInfo& study = studies[k];
    std::map<std::string, std::vector<store::RunRecord>> records;
    for (store::RunRecord& run : records_of[k]) records[run.entry].push_back(std::move(run));
    for (const auto& [name, entry_runs] : records) {
      // External entries that declare their FLOPs get a row in the report's hardware section.
      const std::string shown = shown_name(study, name);
      if (auto hardware = ExternalHardwareEntry(shown, entry_runs)) {
        input.hardware_given["entries"].push_back(std::move(*hardware));
      } else if (auto builtin = BuiltinHardwareEntry(shown, entry_runs)) {  // its logs' measured FLOP/s
        input.hardware_given["entries"].push_back(std::move(*builtin));
      }
    }
    for (analysis::Entry& e : entries_of[k]) {
      e.name = shown_name(study, e.name);
      input.entries.push_back(std::move(e));
    }
  }
  if (hardware == StoreHardwareRows::kDecode) reports::DecodeHardwareSection(input);
  return input;
}

reports::StabilityReportInput BuildReportInputFor(store::RunStore& store,
                                                  const std::vector<store::EntryLocation>& located,
                                                  std::vector<std::string>& shown) {
  const std::vector<store::StudyInfo> studies = store::StudiesOf(located);
  reports::StabilityReportInput input = BuildReportInput(store, studies);
  shown.clear();
  for (const store::EntryLocation& l : located) {
    const std::string qualified = l.study.name + "/" + l.entry;
    const bool renamed =
        studies.size() > 1 && std::any_of(input.entries.begin(), input.entries.end(),
                                          [&](const analysis::Entry& e) { return e.name == qualified; });
    shown.push_back(renamed ? qualified : l.entry);
  }
  return input;
}

std::string FormatStudyList(store::RunStore& store) {
  std::vector<store::StudyInfo> studies = store.ListStudies();
  if (studies.empty()) return "no studies in " + store.file().string() + "\n";
  std::size_t width = 4;
  for (const auto& s : studies) width = std::max(width, s.name.size());
  std::string out =
      fmt::format("{:>3}  {:<{}}  {:<6}  {:<20}  {:>9}  {}\n", "id", "name", width, "kind", "created", "runs", "state");
  for (const auto& s : studies) {
    std::string runs = std::to_string(s.runs_recorded), state = "-";
    if (s.kind == "study") {
      const StoredPlan plan = DecodeStoredPlan(s.plan);
      const int planned = plan.Schedule().planned_runs;
      runs += "/" + std::to_string(planned);
      state = s.runs_recorded >= planned ? "complete" : "unfinished (evalsuite study resume " + s.name + ")";
      if (s.runs_recorded < planned && plan.Schedule().sequential) {
        // A sequential study that answered its question is done with fewer runs than planned.
        if (auto d = DecideSequentialStop(store, plan.Plan()); d && d->stop) state = "answered: " + d->result;
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
std::string ThresholdAsWritten(const store::EntryRecord& entry) {
  const store::ThresholdAsLogged notes = store::ThresholdAsLoggedFromJson(entry.extra);
  if (notes.shown) return *notes.shown;
  if (notes.in_column_units) return fmt::format("{} >= {:g}", entry.metric, *notes.in_column_units);  // DAWNBench
  // A framework log's metric as logged, lower-is-better ones stored negated (importer/framework_import.h).
  if (notes.as_logged) {
    return fmt::format("{} {} {:g}", notes.metric_as_logged.value_or(entry.metric),
                       notes.lower_is_better ? "<=" : ">=", *notes.as_logged);
  }
  return fmt::format("{:g}", entry.threshold);
}

// One line per imported MLPerf entry: division and ruleset, official score (or why there is none), RCP verdict.
std::string ImportedFacts(const store::EntryRecord& entry) {
  if (!entry.extra.is_object() || entry.source != "mlperf") return "";
  const analysis::MlperfFacts x = analysis::MlperfFactsFromJson(entry.extra);
  std::string line = entry.name + ": division " + x.division.value_or("?") + ", ruleset " + x.ruleset.value_or("?");
  const analysis::MlperfOfficialFacts official = x.official.value_or(analysis::MlperfOfficialFacts{});
  if (official.official_minutes) {
    line += fmt::format("; official score {:.6g} min", *official.official_minutes);
  } else {
    line += "; no official score";
    if (official.note) line += " (" + *official.note + ")";
  }
  const analysis::MlperfRcpFacts rcp = x.rcp.value_or(analysis::MlperfRcpFacts{});
  line += "; RCP " + rcp.verdict.value_or("?");
  if (rcp.message && !rcp.message->empty()) line += " (" + *rcp.message + ")";
  return line + "\n";
}

// First cause of an entry's attempts that did not run, with the last line of its stderr (where a process says its
// error) and where the whole of it is.
std::string FirstCauseOfNotRun(const std::vector<const store::RunRecord*>& records, bool resumable) {
  for (const store::RunRecord* run : records) {
    if (analysis::CountOf(StatusOf(*run, resumable)) != analysis::RunCount::kDidNotRun) continue;
    std::string cause = analysis::CauseOfNotRun(run->log.error);
    const std::string line = LastLine(run->stderr_tail);
    if (!line.empty() && cause.find(line) == std::string::npos) cause += "; stderr: " + line;
    if (!line.empty() && !run->run_dir.empty()) {
      cause += " (all of it: " + (std::filesystem::path(run->run_dir) / kRunStderrFile).string() + ")";
    }
    return cause;
  }
  return "";
}

// What the reader said about a study's run logs (a skipped line, no end record, a header's own target), which
// nothing else shows: how many runs' logs drew a warning, and the first.
std::string LogWarningsLine(const std::string& entry, const std::vector<const store::RunRecord*>& records) {
  int warned = 0;
  std::string first;
  for (const store::RunRecord* run : records) {
    if (run->log.warnings.empty()) continue;
    if (++warned == 1) first = run->log.warnings.front();
  }
  if (warned == 0) return "";
  return fmt::format("{}: {} of its runs' logs drew a warning; the first: {}\n", entry, warned, first);
}

// Counted runs that failed without reaching the target (analysis::CountsAsFailed, as the study's summary line
// counts): reached + failed + not reached = runs.
int FailedRuns(const analysis::EntryAnalysis& analysed, double threshold, std::size_t consecutive) {
  int failed = 0;
  for (const analysis::Run* run : analysed.counted.runs) {
    if (analysis::CountsAsFailed(*run, threshold, consecutive)) ++failed;
  }
  return failed;
}

// One entry's row of `study show`, and what is said about it before the table (it did not run here) and under it
// (where its sequential verdict was judged).
struct EntrySummary {
  std::vector<std::string> row;
  std::string could_not_run;
  std::string sequential_line;
};

EntrySummary SummarizeEntry(const store::StudyInfo& study, const StoredPlan& plan, const store::EntryRecord& entry,
                            const analysis::EntryAnalysis& analysed,
                            const std::vector<const store::RunRecord*>& records, const stats::StabilityRule& rule,
                            const std::optional<analysis::SequentialOutcome>& sequential_stability) {
  EntrySummary summary;
  const int failed = FailedRuns(analysed, entry.threshold, rule.consecutive_evaluations);
  const stats::EntryStatistics& statistics_of_entry = analysed.statistics;
  const stats::StabilityStats& s = statistics_of_entry.at_target;
  std::optional<int> planned = study.kind == "study" ? plan.PlannedRunsOf(entry.name) : std::nullopt;
  std::string unit = entry.time_unit == "seconds" ? "s" : entry.time_unit;
  const std::size_t counted = analysed.counted.runs.size();
  if (analysed.none_ran) {
    summary.could_not_run =
        fmt::format("{} DID NOT RUN here: {} of its runs left no evaluation that could be read; {}\n", entry.name,
                    analysed.tally.did_not_run, FirstCauseOfNotRun(records, study.kind == "study"));
  } else if (study.kind == "study") {
    summary.could_not_run = LogWarningsLine(entry.name, records);
  }
  std::vector<std::string>& row = summary.row;
  row = {entry.name,
         ThresholdAsWritten(entry),
         std::to_string(counted) + (planned ? "/" + std::to_string(*planned) : ""),
         std::to_string(s.reached),
         std::to_string(failed),
         std::to_string(analysed.tally.interrupted),
         std::to_string(analysed.tally.did_not_run)};
  for (const stats::StabilityStatistic* statistic : SummaryStatistics()) {
    row.push_back(SummaryCellText(*statistic, statistics_of_entry, unit));
  }
  const bool judged = !analysed.none_ran && s.runs > 0;
  std::string result = analysed.verdict.result;
  if (analysed.decided_by_sequential_look && judged) {
    result += fmt::format(" (look {}, {:.4g}%)", sequential_stability->looks, 100 * sequential_stability->level);
    summary.sequential_line = entry.name + ": " + analysed.verdict.reasons.front() + "\n";
  }
  row.push_back(analysed.none_ran ? "DID NOT RUN" : !judged ? "no runs yet" : result);
  const bool clockless = !analysis::IsClockTimeUnit(entry.time_unit) && analysed.on_basis.basis != stats::kBasisEpochs;
  row.push_back(!judged ? "-"
                        : std::string(stats::JudgedOnName(analysed.on_basis.basis)) +
                              (clockless ? " in " + entry.time_unit : "") +
                              (analysed.on_basis.epochs_unavailable ? " (no epochs logged)" : ""));
  return summary;
}

}  // namespace

std::string FormatStudySummary(store::RunStore& store, const store::StudyInfo& study) {
  const StoredPlan plan = DecodeStoredPlan(study.plan);
  const analysis::AnalysisSettings& settings = plan.Settings();
  const stats::StabilityRule& rule = settings.rule;
  std::string out =
      fmt::format("study {} (id {}, {}), created {}\n", study.name, study.id, study.kind, study.created_at);
  if (study.kind == "study" && plan.Schedule().listed) {
    const PlanFigures& figures = plan.Figures();
    out += fmt::format("plan: {} entries x {} runs, seed {}, {} thread(s) per run, {} job(s); runs in {}\n",
                       figures.entries, figures.runs, figures.seed, figures.threads, figures.jobs, figures.out_dir);
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

  std::vector<store::RunRecord> records = store.LoadRuns(study.id);
  const std::vector<analysis::Entry> entries = store::AnalysisEntriesOf(store, study, records);
  std::map<std::string, std::vector<const store::RunRecord*>> records_of;
  for (const store::RunRecord& run : records) records_of[run.entry].push_back(&run);
  const std::vector<const stats::StabilityStatistic*> statistics = SummaryStatistics();
  std::vector<std::vector<std::string>> rows = {
      {"entry", "threshold", "runs", "reached", "failed", "interrupted", "did not run"}};
  for (const stats::StabilityStatistic* statistic : statistics) rows.front().push_back(statistic->summary_heading);
  rows.front().push_back("verdict");
  rows.front().push_back("judged on");
  std::string could_not_run;  // said before the table: entries none of whose runs trained here, log warnings
  // A sequential stability study's verdicts are its decision's, at the look's level (analysis/sequential_decision.h).
  const std::optional<analysis::SequentialOutcome> sequential_stability =
      analysis::SequentialStabilityOutcome(entries, settings);
  std::string sequential_lines;  // under the table: where each sequential verdict was judged
  const std::vector<store::EntryRecord> entry_records = store.LoadEntries(study.id);
  std::set<std::string> clockless_units;  // units of entries whose logs record no clock
  for (const store::EntryRecord& entry : entry_records) {
    if (!analysis::IsClockTimeUnit(entry.time_unit)) clockless_units.insert(entry.time_unit);
  }
  if (!clockless_units.empty()) {
    std::string units;
    for (const std::string& unit : clockless_units) units += (units.empty() ? "" : ", ") + unit;
    out += "note: some logs record no clock; their TTA is in their progress unit (" + units +
           "), and CoV of time per epoch is undefined for them\n\n";
  }
  for (const store::EntryRecord& entry : entry_records) {
    const analysis::EntryAnalysis analysed = analysis::AnalyzeEntry(
        analysis::FindEntry(entries, entry.name), rule, sequential_stability ? &*sequential_stability : nullptr);
    EntrySummary summary =
        SummarizeEntry(study, plan, entry, analysed, records_of[entry.name], rule, sequential_stability);
    could_not_run += summary.could_not_run;
    sequential_lines += summary.sequential_line;
    rows.push_back(std::move(summary.row));
  }
  out += could_not_run.empty() ? "" : could_not_run + "\n";
  std::string imported;  // what an import knows beyond the runs: the official score, the RCP verdict, the division
  if (study.kind == "import") {
    for (const store::EntryRecord& entry : entry_records) imported += ImportedFacts(entry);
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
  if (settings.variance) {  // a [variance] design: each entry's split of TTA's variance (reports/variance_section.h)
    out += "\nsources of variance (shares of ln TTA's variance, 95% intervals; the report has every response):\n";
    for (const store::EntryRecord& entry : entry_records) {
      const analysis::Entry& analysed = analysis::FindEntry(entries, entry.name);
      const analysis::VarianceSources sources = analysis::AnalyzeVarianceSources(
          analysis::DesignRunsOf(analysed, analysed.threshold, rule.consecutive_evaluations), settings.variance->vary);
      out += "  " + entry.name + ": " + reports::VarianceSummaryLine(sources) + "\n";
    }
  }
  return out + sequential_lines;
}

}  // namespace evalsuite::study
