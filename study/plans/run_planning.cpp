#include "study/plans/run_planning.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <vector>

#include "analysis/compared_runs.h"
#include "analysis/entry_analysis.h"
#include "analysis/run_counting.h"
#include "common/error.h"
#include "common/stats_boundary.h"
#include "common/test_level.h"
#include "stats/comparison_power.h"
#include "stats/entry_verdict.h"
#include "stats/stability.h"

namespace evalsuite::study {
// A run's wall time as the store measured it: the study's own measure of the run's process (execution.usage,
// local runs), else the end record's (Slurm runs, imports that give one), else its training time.
WallTime WallTimeOf(const analysis::Run& run) {
  if (run.usage && run.usage->wall_seconds > 0) return {run.usage->wall_seconds, kWallMeasured};
  if (run.wall_seconds > 0) return {run.wall_seconds, kWallFromLog};
  return {run.time_spent, kWallTraining};
}

namespace {

const analysis::Entry* FindPilot(const reports::StabilityReportInput& pilot, const std::string& name) {
  for (const auto& e : pilot.entries) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

// One entry's stability figures from its counted pilot runs; `unusable` gets the reason where there is nothing to
// plan from (no runs, or all died before their first evaluation), and the row says it.
EntryRunPlan PlanEntryFromPilot(const StudyPlan& plan, const analysis::Entry* p, const std::string& name,
                                const RunPlanningOptions& options, std::string& unusable) {
  // The pilot's counted runs (analysis/run_counting.h), as the report will count the study's.
  const analysis::CountedCurves counted = p ? analysis::CountedCurvesOf(*p) : analysis::CountedCurves{};
  const std::vector<stats::RunCurve>& curves = counted.time;
  EntryRunPlan row;
  row.entry = name;
  if (p == nullptr || curves.empty()) {
    // Named, never left out: no runs at all, or runs that all died before their first evaluation.
    const std::size_t attempts = p ? p->runs.size() : 0;
    unusable = attempts == 0
                   ? "it has no runs in the pilot study"
                   : fmt::format("its {} pilot run(s) all died before their first evaluation (did not run)", attempts);
    row.pilot_attempts = attempts;
    row.stability_note = "nothing to plan from: " + unusable;
    return row;
  }
  double wall_sum = 0;
  for (const analysis::Run* run : counted.runs) {
    const WallTime w = WallTimeOf(*run);
    wall_sum += w.seconds;
    ++row.wall_sources[w.source];
  }
  row.mean_wall_seconds = wall_sum / static_cast<double>(curves.size());
  const stats::EntryStatistics statistics = analysis::AnalyzeEntryRuns(name, curves, counted.epochs, p->threshold,
                                                                       plan.analysis.rule.consecutive_evaluations);
  stats::StabilityRule rule = plan.analysis.rule;
  rule.assurance = options.power;
  // The pilot judged on the basis the report will judge the study on (stats/entry_verdict.h).
  const stats::EntryVerdict judged = stats::JudgeEntryStability(statistics, rule);
  const stats::StabilityStats& s = *judged.judged;
  const stats::StabilityVerdict& v = judged.verdict;
  row.pilot_runs = s.runs;
  row.pilot_reached = s.reached;
  row.pilot_verdict = v.result;
  row.basis = judged.basis;
  if (v.result != "INCONCLUSIVE") {
    row.stability_runs = static_cast<int>(s.runs);
    row.stability_note = "the pilot's " + std::to_string(s.runs) + " runs already give " + v.result;
  } else if (v.reached_runs_needed && s.hit_rate > 0) {
    const int runs = static_cast<int>(std::ceil(static_cast<double>(*v.reached_runs_needed) / s.hit_rate));
    row.stability_runs = runs;
    row.stability_note = fmt::format(
        "{} runs reaching the target bring the CoV's upper bound within {:.0f}% with {:.0f}% assurance if the "
        "true CoV{} is the pilot's {:.1f}%; at the pilot's hit rate {:.0f}% that is {} runs",
        *v.reached_runs_needed, 100 * plan.analysis.rule.max_cov_upper, 100 * options.power,
        judged.basis == stats::kBasisEpochs ? " of epochs to target" : "", 100 * s.cov.value_or(0), 100 * s.hit_rate,
        runs);
  } else {
    row.stability_note = v.reasons.empty() ? "no number of runs would tell" : v.reasons.back();
  }
  return row;
}

// The pairs the plan asks about, and (in `pair_from`) how they were chosen where it names none.
std::vector<analysis::EntryPair> PairsToPlan(const StudyPlan& plan, std::string& pair_from) {
  std::vector<analysis::EntryPair> pairs = analysis::ComparedPairs(plan.analysis);
  if (pairs.empty() && plan.entries.size() == 2) {
    // No pair named, two entries: the question a user with two entries asks (said in the output, `pair_from`).
    pairs.emplace_back(plan.entries[0].name, plan.entries[1].name);
    pair_from = "the plan's two entries (no compare key; name another pair with --compare A B)";
  } else if (pairs.empty()) {
    for (const auto& e : plan.entries) pairs.emplace_back(e.name, e.name);
    if (plan.entries.size() > 2) {
      pair_from = "no pair named: each entry against a copy of itself (name the pair with --compare A B)";
    }
  }
  return pairs;
}

// The runs per entry that answer one pair, withheld with the reason where the pilot cannot promise them.
PairRunPlan PlanPairFromPilot(const reports::StabilityReportInput& pilot, const analysis::EntryPair& pair,
                              std::size_t consecutive, const stats::PowerPlanOptions& power_options,
                              const std::map<std::string, std::string>& unusable) {
  const std::string& a = pair.first;
  const std::string& b = pair.second;
  PairRunPlan row;
  row.a = a;
  row.b = b;
  std::string missing;
  for (const std::string& name : {a, b}) {
    const auto it = unusable.find(name);
    if (it != unusable.end() && missing.find(name + ":") == std::string::npos) {
      missing += (missing.empty() ? "" : "; ") + name + ": " + it->second;
    }
  }
  if (!missing.empty()) {
    row.note = "nothing to plan from: " + missing;
    return row;
  }
  // Each entry's own pilot runs, whichever way the pair is written (stats/comparison_power.h).
  const stats::ComparedRuns runs_a = analysis::ComparedRunsOf(*FindPilot(pilot, a), consecutive);
  const stats::ComparedRuns runs_b = analysis::ComparedRunsOf(*FindPilot(pilot, b), consecutive);
  row.pilot_runs = std::make_pair(runs_a.tta.size(), runs_b.tta.size());
  const stats::ComparisonRunPlan found = StatsOnUserData(
      "--pilot", [&] { return stats::PlanComparisonRuns(runs_a.tta, runs_b.tta, power_options, a, b, a == b); });
  if (!found.withheld.empty()) {
    row.note = "withheld: " + found.withheld;
    row.pilot_runs_needed = found.pilot_runs_needed;
    row.simulated_power_at_max = found.at_max.power;
    return row;
  }
  row.runs_per_entry = found.needed->runs_per_entry;
  row.simulated_power = found.needed->power;
  row.simulation_se = found.needed->standard_error;
  row.widening_a = found.widening_a;
  row.widening_b = found.widening_b;
  return row;
}

}  // namespace

RunsAskedFor RunPlanning::AskedFor(const std::string& entry) const {
  const auto it = runs_per_entry_for.find(entry);
  return it == runs_per_entry_for.end() ? RunsAskedFor{} : it->second;
}

RunPlanning PlanRunsFromPilot(const StudyPlan& plan, const reports::StabilityReportInput& pilot,
                              const RunPlanningOptions& options) {
  if (!(options.ratio > 0 && options.ratio < 1)) throw UsageError("--ratio", "must lie in (0, 1), e.g. 0.9");
  if (!(options.power > 0 && options.power < 1)) throw UsageError("--power", "must lie in (0, 1)");
  if (!(options.assurance > 0 && options.assurance < 1)) throw UsageError("--assurance", "must lie in (0, 1)");
  CheckTestLevel(options.alpha);
  RunPlanning out;
  out.options = options;
  std::map<std::string, double> wall;
  std::map<std::string, std::string> unusable;  // entry: why its pilot gives nothing to plan from
  for (const PlannedEntry& entry : plan.entries) {
    std::string why;
    EntryRunPlan row = PlanEntryFromPilot(plan, FindPilot(pilot, entry.name), entry.name, options, why);
    if (row.Planned()) {
      wall[entry.name] = row.mean_wall_seconds;
    } else {
      unusable[entry.name] = why;
    }
    if (row.stability_runs) {
      out.runs_per_entry[entry.name] = *row.stability_runs;
      out.runs_per_entry_for[entry.name].stability = row.stability_runs;
    }
    out.entries.push_back(std::move(row));
  }
  if (unusable.size() == plan.entries.size()) {
    std::string why;
    for (const auto& [name, reason] : unusable) why += (why.empty() ? "" : "; ") + name + ": " + reason;
    throw UsageError("--pilot", "no entry of the plan has counted runs in the pilot study (" + why + ")");
  }
  stats::PowerPlanOptions power_options;
  power_options.ratio = options.ratio;
  power_options.power = options.power;
  power_options.assurance = options.assurance;
  power_options.alpha = options.alpha;
  power_options.max_runs = options.max_runs;
  power_options.simulations = options.simulations;
  for (const analysis::EntryPair& pair : PairsToPlan(plan, out.pair_from)) {
    PairRunPlan row =
        PlanPairFromPilot(pilot, pair, plan.analysis.rule.consecutive_evaluations, power_options, unusable);
    if (row.runs_per_entry) {
      for (const std::string& name : {pair.first, pair.second}) {
        out.runs_per_entry[name] = std::max(out.runs_per_entry[name], *row.runs_per_entry);
        std::optional<int>& asked = out.runs_per_entry_for[name].comparison;
        asked = std::max(asked.value_or(0), *row.runs_per_entry);
      }
    }
    out.comparisons.push_back(std::move(row));
  }
  double machine_seconds = 0;
  for (const auto& [name, n] : out.runs_per_entry) machine_seconds += n * wall[name];
  out.machine_hours = machine_seconds / 3600;
  out.elapsed_hours_at_jobs = machine_seconds / 3600 / std::max(1, plan.jobs);
  out.jobs = plan.jobs;
  if (plan.cost_per_hour) out.cost = machine_seconds / 3600 / std::max(1, plan.jobs) * *plan.cost_per_hour;
  return out;
}

nlohmann::json RunPlanningToJson(const RunPlanning& planning) {
  using nlohmann::json;
  const auto or_null = [](const auto& value) { return value ? json(*value) : json(nullptr); };
  json out = {{"ratio", planning.options.ratio},
              {"power", planning.options.power},
              {"assurance", planning.options.assurance},
              {"alpha", planning.options.alpha},
              {"simulations", planning.options.simulations},
              {"entries", json::array()},
              {"comparisons", json::array()}};
  for (const EntryRunPlan& e : planning.entries) {
    if (!e.Planned()) {
      out["entries"].push_back({{"entry", e.entry},
                                {"pilot_runs", 0},
                                {"pilot_attempts", *e.pilot_attempts},
                                {"pilot_reached", 0},
                                {"stability_runs", nullptr},
                                {"stability_note", e.stability_note}});
      continue;
    }
    json sources = json::object();
    for (const auto& [source, count] : e.wall_sources) sources[source] = count;
    out["entries"].push_back({{"entry", e.entry},
                              {"pilot_runs", e.pilot_runs},
                              {"pilot_reached", e.pilot_reached},
                              {"pilot_verdict", e.pilot_verdict},
                              {"basis", e.basis},
                              {"mean_wall_seconds", e.mean_wall_seconds},
                              {"wall_sources", sources},
                              {"stability_runs", or_null(e.stability_runs)},
                              {"stability_note", e.stability_note}});
  }
  for (const PairRunPlan& c : planning.comparisons) {
    json row = {{"a", c.a}, {"b", c.b}, {"runs_per_entry", or_null(c.runs_per_entry)}};
    // One key where the pair is an entry against itself (its first figure), as the object always held it.
    const auto per_entry = [&c](const auto& of_a, const auto& of_b) { return json{{c.a, of_a}, {c.b, of_b}}; };
    if (c.pilot_runs) row["pilot_runs"] = per_entry(c.pilot_runs->first, c.pilot_runs->second);
    if (!c.note.empty()) row["note"] = c.note;
    if (c.pilot_runs_needed) row["pilot_runs_needed"] = *c.pilot_runs_needed;
    if (c.simulated_power_at_max) row["simulated_power_at_max"] = *c.simulated_power_at_max;
    if (c.runs_per_entry) {
      row["simulated_power"] = c.simulated_power;
      row["simulation_se"] = c.simulation_se;
      row["spread_widening"] = per_entry(c.widening_a, c.widening_b);
    }
    out["comparisons"].push_back(std::move(row));
  }
  if (!planning.pair_from.empty()) out["pair_from"] = planning.pair_from;
  out["runs_per_entry"] = json::object();
  out["runs_per_entry_for"] = json::object();
  for (const auto& [name, n] : planning.runs_per_entry) {
    out["runs_per_entry"][name] = n;
    const RunsAskedFor asked = planning.AskedFor(name);
    out["runs_per_entry_for"][name] = {{"stability", or_null(asked.stability)},
                                       {"comparison", or_null(asked.comparison)}};
  }
  out["machine_hours"] = planning.machine_hours;
  out["elapsed_hours_at_jobs"] = planning.elapsed_hours_at_jobs;
  out["jobs"] = planning.jobs;
  out["cost"] = or_null(planning.cost);
  return out;
}

std::string FormatRunPlanning(const RunPlanning& planning) {
  const RunPlanningOptions& o = planning.options;
  std::string out = "stability (CoV bound with " + fmt::format("{:.0f}% assurance):\n", 100 * o.power);
  for (const EntryRunPlan& e : planning.entries) {
    if (!e.Planned()) {
      out += fmt::format("  {}: {}\n", e.entry, e.stability_note);
      continue;
    }
    const bool on_epochs = e.basis == stats::kBasisEpochs;
    out += fmt::format("  {}: pilot {} runs ({} reached, {}{}); {}\n", e.entry, e.pilot_runs, e.pilot_reached,
                       e.pilot_verdict, on_epochs ? " on epochs to target" : "", e.stability_note);
  }
  out += fmt::format(
      "comparison (detect a TTA ratio of {:.2f} with {:.0f}% power at alpha {:g} by the test that decides "
      "`compare`'s verdict, the Brunner-Munzel test of P(A faster), whichever entry is the faster, "
      "with {:.0f}% assurance over the pilot's own uncertainty; {} simulated studies per size from each entry's "
      "own pilot runs, censoring kept, their spread widened to its {:.0f}% upper bound):\n",
      o.ratio, 100 * o.power, o.alpha, 100 * o.assurance, o.simulations, 100 * o.assurance);
  if (!planning.pair_from.empty()) out += "  (" + planning.pair_from + ")\n";
  for (const PairRunPlan& c : planning.comparisons) {
    const std::string pair = c.a == c.b ? c.a + " against a copy of itself" : c.a + " vs " + c.b;
    if (c.runs_per_entry) {
      out += fmt::format(
          "  {}: {} runs per entry (power at least {:.0f}% with {:.0f}% assurance; simulated {:.3f} "
          "+- {:.3f} at the widened spread)\n",
          pair, *c.runs_per_entry, 100 * o.power, 100 * o.assurance, c.simulated_power, c.simulation_se);
    } else {
      out += "  " + pair + ": " + (c.note.empty() ? "-" : c.note) + "\n";
    }
  }
  out += "runs per entry to plan:";
  if (planning.runs_per_entry.empty()) out += " none (no figure above gives one)";
  for (const auto& [name, n] : planning.runs_per_entry) {
    out += fmt::format(" {} {}", name, n);
    // Which question asks for the number, so that a comparison's few runs are not hidden behind a CoV bound's many.
    const RunsAskedFor why = planning.AskedFor(name);
    if (why.stability && why.comparison) {
      out += fmt::format(" (stability {}, comparison {})", *why.stability, *why.comparison);
    } else if (why.stability) {
      out += " (stability)";
    } else if (why.comparison) {
      out += " (comparison)";
    }
  }
  std::string left_out;  // a withheld comparison adds no runs: say so beside the total, not only above it
  for (const PairRunPlan& c : planning.comparisons) {
    if (c.runs_per_entry) continue;
    left_out += (left_out.empty() ? "" : ", ") + c.a + " vs " + c.b;
  }
  if (!left_out.empty()) out += " (without the comparisons that could not be planned: " + left_out + ")";
  out += fmt::format("\ncost: {:.3g} machine hours of runs ({:.3g} h elapsed at {} job(s))", planning.machine_hours,
                     planning.elapsed_hours_at_jobs, planning.jobs);
  if (planning.cost) out += fmt::format(", {:.2f} at the plan's cost_per_hour", *planning.cost);
  out += "\n  mean wall time per run:";
  for (const EntryRunPlan& e : planning.entries) {
    if (!e.Planned()) continue;
    std::string sources;
    for (const auto& [source, count] : e.wall_sources) {
      const std::string how = source == kWallMeasured  ? "measured by the study"
                              : source == kWallFromLog ? "from the run log"
                                                       : "training time, no wall time recorded";
      sources += (sources.empty() ? "" : ", ") + std::to_string(count) + " " + how;
    }
    out += fmt::format(" {} {:.3g} s ({});", e.entry, e.mean_wall_seconds, sources);
  }
  if (out.back() == ';') out.pop_back();
  return out + "\n";
}

}  // namespace evalsuite::study
