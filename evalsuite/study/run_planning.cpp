#include "evalsuite/study/run_planning.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <vector>

#include "evalsuite/common/error.h"
#include "reports/comparison_section.h"
#include "reports/counted_runs.h"
#include "reports/entry_statistics.h"
#include "stats/comparison_power.h"
#include "stats/entry_verdict.h"
#include "stats/stability.h"

namespace evalsuite::study {
namespace {

const reports::EntryInput* FindPilot(const reports::StabilityReportInput& pilot, const std::string& name) {
  for (const auto& e : pilot.entries) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

}  // namespace

nlohmann::json PlanRunsFromPilot(const StudyPlan& plan, const reports::StabilityReportInput& pilot,
                                 const RunPlanningOptions& options) {
  if (!(options.ratio > 0 && options.ratio < 1)) throw UsageError("--ratio", "must lie in (0, 1), e.g. 0.9");
  if (!(options.power > 0 && options.power < 1)) throw UsageError("--power", "must lie in (0, 1)");
  nlohmann::json out = {{"ratio", options.ratio},
                        {"power", options.power},
                        {"alpha", options.alpha},
                        {"simulations", options.simulations},
                        {"entries", nlohmann::json::array()},
                        {"comparisons", nlohmann::json::array()}};
  std::map<std::string, int> needed;
  std::map<std::string, double> wall;
  const std::size_t consecutive = plan.rule.consecutive_evaluations;
  for (const PlannedEntry& entry : plan.entries) {
    const reports::EntryInput* p = FindPilot(pilot, entry.name);
    if (!p) continue;
    std::vector<stats::RunCurve> curves;
    std::optional<std::vector<stats::RunCurve>> epoch_curves(std::in_place);  // nullopt once a run has no epochs
    double wall_sum = 0;
    for (const auto& run : p->runs) {
      if (!reports::CountsInStatistics(run, p->source)) continue;
      curves.push_back(reports::ToRunCurve(run));
      wall_sum += run.wall_seconds > 0 ? run.wall_seconds : curves.back().time_spent;
      if (epoch_curves && reports::HasEpochs(run)) {
        epoch_curves->push_back(reports::ToEpochCurve(run));
      } else {
        epoch_curves.reset();
      }
    }
    if (curves.empty()) continue;
    wall[entry.name] = wall_sum / static_cast<double>(curves.size());
    const stats::EntryStatistics statistics =
        reports::AnalyzeEntryRuns(entry.name, curves, epoch_curves, p->threshold, consecutive);
    stats::StabilityRule rule = plan.rule;
    rule.assurance = options.power;
    // The pilot judged on the basis the report will judge the study on (stats/entry_verdict.h).
    const stats::EntryVerdict judged = stats::JudgeEntryStability(statistics, rule);
    const stats::StabilityStats& s = *judged.judged;
    const stats::StabilityVerdict& v = judged.verdict;
    nlohmann::json row = {{"entry", entry.name},
                          {"pilot_runs", s.runs},
                          {"pilot_reached", s.reached},
                          {"pilot_verdict", v.result},
                          {"basis", judged.basis},
                          {"mean_wall_seconds", wall[entry.name]},
                          {"stability_runs", nullptr}};
    if (v.result != "INCONCLUSIVE") {
      row["stability_runs"] = s.runs;
      row["stability_note"] = "the pilot's " + std::to_string(s.runs) + " runs already give " + v.result;
    } else if (v.reached_runs_needed && s.hit_rate > 0) {
      const int runs = static_cast<int>(std::ceil(static_cast<double>(*v.reached_runs_needed) / s.hit_rate));
      row["stability_runs"] = runs;
      row["stability_note"] = fmt::format(
          "{} runs reaching the target bring the CoV's upper bound within {:.0f}% with {:.0f}% assurance if the "
          "true CoV{} is the pilot's {:.1f}%; at the pilot's hit rate {:.0f}% that is {} runs",
          *v.reached_runs_needed, 100 * plan.rule.max_cov_upper, 100 * options.power,
          judged.basis == stats::kBasisEpochs ? " of epochs to target" : "", 100 * s.cov.value_or(0),
          100 * s.hit_rate, runs);
    } else {
      row["stability_note"] = v.reasons.empty() ? "no number of runs would tell" : v.reasons.back();
    }
    if (row["stability_runs"].is_number()) needed[entry.name] = row["stability_runs"].get<int>();
    out["entries"].push_back(row);
  }
  if (out["entries"].empty()) {
    throw UsageError("--pilot", "none of the plan's entries has counted runs in the pilot study");
  }

  std::vector<std::pair<std::string, std::string>> pairs = plan.compare;
  if (plan.sequential && !plan.sequential->stability &&
      std::find(pairs.begin(), pairs.end(), std::make_pair(plan.sequential->a, plan.sequential->b)) == pairs.end()) {
    pairs.emplace_back(plan.sequential->a, plan.sequential->b);
  }
  if (pairs.empty()) {
    for (const auto& e : plan.entries) pairs.emplace_back(e.name, e.name);
  }
  for (const auto& [a, b] : pairs) {
    const reports::EntryInput* reference = FindPilot(pilot, b);
    if (!reference) continue;
    const stats::ComparedRuns runs = reports::ComparedRunsOf(*reference, consecutive);
    nlohmann::json row = {{"a", a}, {"b", b}, {"reference_pilot_runs", runs.tta.size()}};
    const bool any_reached = std::any_of(runs.tta.begin(), runs.tta.end(), [](const auto& o) { return o.event; });
    if (!any_reached) {
      row["note"] = "no pilot run of " + b + " reached the target: nothing to simulate from";
      out["comparisons"].push_back(row);
      continue;
    }
    const stats::RunsForPower found = stats::FindRunsForPower(runs.tta, options.ratio, options.power, options.alpha,
                                                              options.max_runs, options.simulations);
    if (found.needed) {
      row["runs_per_entry"] = found.needed->runs_per_entry;
      row["simulated_power"] = found.needed->power;
      row["simulation_se"] = found.needed->standard_error;
      for (const std::string& name : {a, b}) needed[name] = std::max(needed[name], found.needed->runs_per_entry);
    } else {
      row["runs_per_entry"] = nullptr;
      row["simulated_power"] = found.at_max.power;
      row["simulation_se"] = found.at_max.standard_error;
      row["note"] =
          fmt::format("even {} runs per entry give only {:.0f}% power", options.max_runs, 100 * found.at_max.power);
    }
    out["comparisons"].push_back(row);
  }
  double machine_seconds = 0;
  out["runs_per_entry"] = nlohmann::json::object();
  for (const auto& [name, n] : needed) {
    out["runs_per_entry"][name] = n;
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
    const bool on_epochs = e.value("basis", std::string(stats::kBasisTime)) == stats::kBasisEpochs;
    out += fmt::format("  {}: pilot {} runs ({} reached, {}{}); {}\n", e["entry"].get<std::string>(),
                       e["pilot_runs"].get<int>(), e["pilot_reached"].get<int>(), e["pilot_verdict"].get<std::string>(),
                       on_epochs ? " on epochs to target" : "", e.value("stability_note", std::string("-")));
  }
  out += fmt::format(
      "comparison (detect a TTA ratio of {:.2f} with {:.0f}% power at alpha {:g}, {} simulated studies "
      "per size from the reference entry's pilot runs, censoring kept):\n",
      planning["ratio"].get<double>(), 100 * planning["power"].get<double>(), planning["alpha"].get<double>(),
      planning["simulations"].get<int>());
  for (const auto& c : planning["comparisons"]) {
    const std::string pair = c["a"] == c["b"] ? c["a"].get<std::string>() + " against a copy of itself"
                                              : c["a"].get<std::string>() + " vs " + c["b"].get<std::string>();
    if (c.contains("runs_per_entry") && c["runs_per_entry"].is_number()) {
      out += fmt::format("  {}: {} runs per entry (simulated power {:.3f} +- {:.3f})\n", pair,
                         c["runs_per_entry"].get<int>(), c["simulated_power"].get<double>(),
                         c["simulation_se"].get<double>());
    } else {
      out += "  " + pair + ": " + c.value("note", std::string("-")) + "\n";
    }
  }
  out += "runs per entry to plan:";
  for (const auto& [name, n] : planning["runs_per_entry"].items()) out += fmt::format(" {} {}", name, n.get<int>());
  out += fmt::format("\ncost: {:.3g} machine hours of runs ({:.3g} h elapsed at {} job(s))",
                     planning["machine_hours"].get<double>(), planning["elapsed_hours_at_jobs"].get<double>(),
                     planning["jobs"].get<int>());
  if (planning["cost"].is_number())
    out += fmt::format(", {:.2f} at the plan's cost_per_hour", planning["cost"].get<double>());
  return out + "\n";
}

}  // namespace evalsuite::study
