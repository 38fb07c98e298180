#include "evalsuite/study/plans/run_planning.h"

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
namespace {

const analysis::Entry* FindPilot(const reports::StabilityReportInput& pilot, const std::string& name) {
  for (const auto& e : pilot.entries) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

}  // namespace

// A run's wall time as the store measured it: the study's own measure of the run's process (execution.usage,
// local runs), else the end record's (Slurm runs, imports that give one), else its training time.
WallTime WallTimeOf(const analysis::Run& run) {
  if (run.usage && run.usage->wall_seconds > 0) return {run.usage->wall_seconds, kWallMeasured};
  if (run.wall_seconds > 0) return {run.wall_seconds, kWallFromLog};
  return {run.time_spent, kWallTraining};
}

nlohmann::json PlanRunsFromPilot(const StudyPlan& plan, const reports::StabilityReportInput& pilot,
                                 const RunPlanningOptions& options) {
  if (!(options.ratio > 0 && options.ratio < 1)) throw UsageError("--ratio", "must lie in (0, 1), e.g. 0.9");
  if (!(options.power > 0 && options.power < 1)) throw UsageError("--power", "must lie in (0, 1)");
  if (!(options.assurance > 0 && options.assurance < 1)) throw UsageError("--assurance", "must lie in (0, 1)");
  CheckTestLevel(options.alpha);
  nlohmann::json out = {{"ratio", options.ratio},
                        {"power", options.power},
                        {"assurance", options.assurance},
                        {"alpha", options.alpha},
                        {"simulations", options.simulations},
                        {"entries", nlohmann::json::array()},
                        {"comparisons", nlohmann::json::array()}};
  std::map<std::string, int> needed;  // the larger of what the stability and the comparisons need
  std::map<std::string, int> for_stability, for_comparison;
  std::map<std::string, double> wall;
  std::map<std::string, std::string> unusable;  // entry: why its pilot gives nothing to plan from
  const std::size_t consecutive = plan.analysis.rule.consecutive_evaluations;
  for (const PlannedEntry& entry : plan.entries) {
    const analysis::Entry* p = FindPilot(pilot, entry.name);
    // The pilot's counted runs (analysis/run_counting.h), as the report will count the study's.
    const analysis::CountedCurves counted = p ? analysis::CountedCurvesOf(*p) : analysis::CountedCurves{};
    const std::vector<stats::RunCurve>& curves = counted.time;
    double wall_sum = 0;
    std::map<std::string, int> wall_sources;
    for (const analysis::Run* run : counted.runs) {
      const WallTime w = WallTimeOf(*run);
      wall_sum += w.seconds;
      ++wall_sources[w.source];
    }
    if (curves.empty()) {
      // Named, never left out: no runs at all, or runs that all died before their first evaluation.
      const std::size_t attempts = p ? p->runs.size() : 0;
      unusable[entry.name] =
          attempts == 0
              ? "it has no runs in the pilot study"
              : fmt::format("its {} pilot run(s) all died before their first evaluation (did not run)", attempts);
      out["entries"].push_back({{"entry", entry.name},
                                {"pilot_runs", 0},
                                {"pilot_attempts", attempts},
                                {"pilot_reached", 0},
                                {"stability_runs", nullptr},
                                {"stability_note", "nothing to plan from: " + unusable[entry.name]}});
      continue;
    }
    wall[entry.name] = wall_sum / static_cast<double>(curves.size());
    const stats::EntryStatistics statistics =
        analysis::AnalyzeEntryRuns(entry.name, curves, counted.epochs, p->threshold, consecutive);
    stats::StabilityRule rule = plan.analysis.rule;
    rule.assurance = options.power;
    // The pilot judged on the basis the report will judge the study on (stats/entry_verdict.h).
    const stats::EntryVerdict judged = stats::JudgeEntryStability(statistics, rule);
    const stats::StabilityStats& s = *judged.judged;
    const stats::StabilityVerdict& v = judged.verdict;
    nlohmann::json sources = nlohmann::json::object();
    for (const auto& [source, count] : wall_sources) sources[source] = count;
    nlohmann::json row = {{"entry", entry.name},        {"pilot_runs", s.runs},
                          {"pilot_reached", s.reached}, {"pilot_verdict", v.result},
                          {"basis", judged.basis},      {"mean_wall_seconds", wall[entry.name]},
                          {"wall_sources", sources},    {"stability_runs", nullptr}};
    if (v.result != "INCONCLUSIVE") {
      row["stability_runs"] = s.runs;
      row["stability_note"] = "the pilot's " + std::to_string(s.runs) + " runs already give " + v.result;
    } else if (v.reached_runs_needed && s.hit_rate > 0) {
      const int runs = static_cast<int>(std::ceil(static_cast<double>(*v.reached_runs_needed) / s.hit_rate));
      row["stability_runs"] = runs;
      row["stability_note"] = fmt::format(
          "{} runs reaching the target bring the CoV's upper bound within {:.0f}% with {:.0f}% assurance if the "
          "true CoV{} is the pilot's {:.1f}%; at the pilot's hit rate {:.0f}% that is {} runs",
          *v.reached_runs_needed, 100 * plan.analysis.rule.max_cov_upper, 100 * options.power,
          judged.basis == stats::kBasisEpochs ? " of epochs to target" : "", 100 * s.cov.value_or(0), 100 * s.hit_rate,
          runs);
    } else {
      row["stability_note"] = v.reasons.empty() ? "no number of runs would tell" : v.reasons.back();
    }
    if (row["stability_runs"].is_number()) {
      needed[entry.name] = row["stability_runs"].get<int>();
      for_stability[entry.name] = needed[entry.name];
    }
    out["entries"].push_back(row);
  }
  if (unusable.size() == plan.entries.size()) {
    std::string why;
    for (const auto& [name, reason] : unusable) why += (why.empty() ? "" : "; ") + name + ": " + reason;
    throw UsageError("--pilot", "no entry of the plan has counted runs in the pilot study (" + why + ")");
  }

  std::vector<analysis::EntryPair> pairs = analysis::ComparedPairs(plan.analysis);
  if (pairs.empty() && plan.entries.size() == 2) {
    // No pair named, two entries: the question a user with two entries asks (said in the output, `pair_from`).
    pairs.emplace_back(plan.entries[0].name, plan.entries[1].name);
    out["pair_from"] = "the plan's two entries (no compare key; name another pair with --compare A B)";
  } else if (pairs.empty()) {
    for (const auto& e : plan.entries) pairs.emplace_back(e.name, e.name);
    if (plan.entries.size() > 2) {
      out["pair_from"] = "no pair named: each entry against a copy of itself (name the pair with --compare A B)";
    }
  }
  stats::PowerPlanOptions power_options;
  power_options.ratio = options.ratio;
  power_options.power = options.power;
  power_options.assurance = options.assurance;
  power_options.alpha = options.alpha;
  power_options.max_runs = options.max_runs;
  power_options.simulations = options.simulations;
  for (const auto& [a, b] : pairs) {
    nlohmann::json row = {{"a", a}, {"b", b}, {"runs_per_entry", nullptr}};
    std::string missing;
    for (const std::string& name : {a, b}) {
      if (unusable.count(name) && missing.find(name + ":") == std::string::npos) {
        missing += (missing.empty() ? "" : "; ") + name + ": " + unusable[name];
      }
    }
    if (!missing.empty()) {
      row["note"] = "nothing to plan from: " + missing;
      out["comparisons"].push_back(row);
      continue;
    }
    // Each entry's own pilot runs, whichever way the pair is written (stats/comparison_power.h).
    const stats::ComparedRuns runs_a = analysis::ComparedRunsOf(*FindPilot(pilot, a), consecutive);
    const stats::ComparedRuns runs_b = analysis::ComparedRunsOf(*FindPilot(pilot, b), consecutive);
    row["pilot_runs"] = {{a, runs_a.tta.size()}, {b, runs_b.tta.size()}};
    const stats::ComparisonRunPlan found = StatsOnUserData(
        "--pilot", [&] { return stats::PlanComparisonRuns(runs_a.tta, runs_b.tta, power_options, a, b, a == b); });
    if (!found.withheld.empty()) {
      const std::string& why = found.withheld;
      row["note"] = "withheld: " + why;
      if (found.pilot_runs_needed) row["pilot_runs_needed"] = *found.pilot_runs_needed;
      row["simulated_power_at_max"] = found.at_max.power;
      out["comparisons"].push_back(row);
      continue;
    }
    row["runs_per_entry"] = found.needed->runs_per_entry;
    row["simulated_power"] = found.needed->power;
    row["simulation_se"] = found.needed->standard_error;
    row["spread_widening"] = {{a, found.widening_a}, {b, found.widening_b}};
    for (const std::string& name : {a, b}) {
      needed[name] = std::max(needed[name], found.needed->runs_per_entry);
      for_comparison[name] = std::max(for_comparison[name], found.needed->runs_per_entry);
    }
    out["comparisons"].push_back(row);
  }
  double machine_seconds = 0;
  out["runs_per_entry"] = nlohmann::json::object();
  out["runs_per_entry_for"] = nlohmann::json::object();
  for (const auto& [name, n] : needed) {
    out["runs_per_entry"][name] = n;
    out["runs_per_entry_for"][name] = {
        {"stability", for_stability.count(name) ? nlohmann::json(for_stability[name]) : nlohmann::json(nullptr)},
        {"comparison", for_comparison.count(name) ? nlohmann::json(for_comparison[name]) : nlohmann::json(nullptr)}};
    machine_seconds += n * wall[name];
  }
  out["machine_hours"] = machine_seconds / 3600;
  out["elapsed_hours_at_jobs"] = machine_seconds / 3600 / std::max(1, plan.jobs);
  out["jobs"] = plan.jobs;
  out["cost"] = plan.cost_per_hour
                    ? nlohmann::json(machine_seconds / 3600 / std::max(1, plan.jobs) * *plan.cost_per_hour)
                    : nlohmann::json(nullptr);
  return out;
}

std::string FormatRunPlanning(const nlohmann::json& planning) {
  std::string out =
      "stability (CoV bound with " + fmt::format("{:.0f}% assurance):\n", 100 * planning["power"].get<double>());
  for (const auto& e : planning["entries"]) {
    if (!e.contains("pilot_verdict")) {
      out += fmt::format("  {}: {}\n", e["entry"].get<std::string>(), e["stability_note"].get<std::string>());
      continue;
    }
    const bool on_epochs = e.value("basis", std::string(stats::kBasisTime)) == stats::kBasisEpochs;
    out += fmt::format("  {}: pilot {} runs ({} reached, {}{}); {}\n", e["entry"].get<std::string>(),
                       e["pilot_runs"].get<int>(), e["pilot_reached"].get<int>(), e["pilot_verdict"].get<std::string>(),
                       on_epochs ? " on epochs to target" : "", e.value("stability_note", std::string("-")));
  }
  out += fmt::format(
      "comparison (detect a TTA ratio of {:.2f} with {:.0f}% power at alpha {:g} by the test that decides "
      "`compare`'s verdict, the Brunner-Munzel test of P(A faster), whichever entry is the faster, "
      "with {:.0f}% assurance over the pilot's own uncertainty; {} simulated studies per size from each entry's "
      "own pilot runs, censoring kept, their spread widened to its {:.0f}% upper bound):\n",
      planning["ratio"].get<double>(), 100 * planning["power"].get<double>(), planning["alpha"].get<double>(),
      100 * planning.value("assurance", 0.8), planning["simulations"].get<int>(),
      100 * planning.value("assurance", 0.8));
  if (planning.contains("pair_from")) out += "  (" + planning["pair_from"].get<std::string>() + ")\n";
  for (const auto& c : planning["comparisons"]) {
    const std::string pair = c["a"] == c["b"] ? c["a"].get<std::string>() + " against a copy of itself"
                                              : c["a"].get<std::string>() + " vs " + c["b"].get<std::string>();
    if (c.contains("runs_per_entry") && c["runs_per_entry"].is_number()) {
      out += fmt::format(
          "  {}: {} runs per entry (power at least {:.0f}% with {:.0f}% assurance; simulated {:.3f} "
          "+- {:.3f} at the widened spread)\n",
          pair, c["runs_per_entry"].get<int>(), 100 * planning["power"].get<double>(),
          100 * planning.value("assurance", 0.8), c["simulated_power"].get<double>(), c["simulation_se"].get<double>());
    } else {
      out += "  " + pair + ": " + c.value("note", std::string("-")) + "\n";
    }
  }
  out += "runs per entry to plan:";
  if (planning["runs_per_entry"].empty()) out += " none (no figure above gives one)";
  for (const auto& [name, n] : planning["runs_per_entry"].items()) {
    out += fmt::format(" {} {}", name, n.get<int>());
    // Which question asks for the number, so that a comparison's few runs are not hidden behind a CoV bound's many.
    const nlohmann::json& why =
        planning.contains("runs_per_entry_for") ? planning["runs_per_entry_for"][name] : nlohmann::json();
    if (why.is_object() && why["stability"].is_number() && why["comparison"].is_number()) {
      out += fmt::format(" (stability {}, comparison {})", why["stability"].get<int>(), why["comparison"].get<int>());
    } else if (why.is_object() && why["stability"].is_number()) {
      out += " (stability)";
    } else if (why.is_object() && why["comparison"].is_number()) {
      out += " (comparison)";
    }
  }
  std::string left_out;  // a withheld comparison adds no runs: say so beside the total, not only above it
  for (const auto& c : planning["comparisons"]) {
    if (c["runs_per_entry"].is_number()) continue;
    left_out += (left_out.empty() ? "" : ", ") + c["a"].get<std::string>() + " vs " + c["b"].get<std::string>();
  }
  if (!left_out.empty()) out += " (without the comparisons that could not be planned: " + left_out + ")";
  out += fmt::format("\ncost: {:.3g} machine hours of runs ({:.3g} h elapsed at {} job(s))",
                     planning["machine_hours"].get<double>(), planning["elapsed_hours_at_jobs"].get<double>(),
                     planning["jobs"].get<int>());
  if (planning["cost"].is_number())
    out += fmt::format(", {:.2f} at the plan's cost_per_hour", planning["cost"].get<double>());
  out += "\n  mean wall time per run:";
  for (const auto& e : planning["entries"]) {
    if (!e.contains("mean_wall_seconds")) continue;
    std::string sources;
    for (const auto& [source, count] : e["wall_sources"].items()) {
      const std::string how = source == kWallMeasured  ? "measured by the study"
                              : source == kWallFromLog ? "from the run log"
                                                       : "training time, no wall time recorded";
      sources += (sources.empty() ? "" : ", ") + std::to_string(count.get<int>()) + " " + how;
    }
    out +=
        fmt::format(" {} {:.3g} s ({});", e["entry"].get<std::string>(), e["mean_wall_seconds"].get<double>(), sources);
  }
  if (out.back() == ';') out.pop_back();
  return out + "\n";
}

}  // namespace evalsuite::study
