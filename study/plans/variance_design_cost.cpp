#include "study/plans/variance_design_cost.h"

#include <fmt/format.h>

#include <algorithm>

namespace evalsuite::study {

nlohmann::json VarianceDesignCost(const StudyPlan& plan, const RunPlanning& planning) {
  const VarianceDesign& design = *plan.analysis.variance;
  const int runs = DesignRuns(design);
  nlohmann::json out = analysis::VarianceSettingsToJson(design);
  out["cells"] = runs / design.repeats;
  out["runs_per_entry"] = runs;
  out["description"] = DescribeVarianceDesign(design);
  out["warnings"] = VarianceDesignWarnings(design);
  out["entries"] = nlohmann::json::array();
  double machine_seconds = 0;
  bool all_measured = true;
  for (const PlannedEntry& entry : plan.entries) {
    nlohmann::json row = {
        {"entry", entry.name}, {"runs", runs}, {"mean_wall_seconds", nullptr}, {"machine_hours", nullptr}};
    for (const EntryRunPlan& e : planning.entries) {
      if (e.entry != entry.name || !e.Planned()) continue;
      const double wall = e.mean_wall_seconds;
      if (e.pilot_runs < 1) break;  // the planner names it: no pilot run measured its time
      row["mean_wall_seconds"] = wall;
      row["machine_hours"] = runs * wall / 3600;
      machine_seconds += runs * wall;
    }
    all_measured = all_measured && row["machine_hours"].is_number();
    out["entries"].push_back(std::move(row));
  }
  const auto total = [&](double value) { return all_measured ? nlohmann::json(value) : nlohmann::json(nullptr); };
  out["machine_hours"] = total(machine_seconds / 3600);
  out["elapsed_hours_at_jobs"] = total(machine_seconds / 3600 / std::max(1, plan.jobs));
  out["cost"] = plan.cost_per_hour ? total(machine_seconds / 3600 / std::max(1, plan.jobs) * *plan.cost_per_hour)
                                   : nlohmann::json(nullptr);
  return out;
}

std::string FormatVarianceDesignCost(const nlohmann::json& cost) {
  std::string out = "variance design: " + cost["description"].get<std::string>() + "\n";
  for (const auto& w : cost["warnings"]) out += "  warning: " + w.get<std::string>() + "\n";
  for (const auto& e : cost["entries"]) {
    if (e["machine_hours"].is_number()) {
      out += fmt::format("  {}: {} runs x {:.3g} s per run (pilot mean) = {:.3g} machine hours\n",
                         e["entry"].get<std::string>(), e["runs"].get<int>(), e["mean_wall_seconds"].get<double>(),
                         e["machine_hours"].get<double>());
    } else {
      out += fmt::format("  {}: {} runs; no pilot run measured its time per run, so no cost\n",
                         e["entry"].get<std::string>(), e["runs"].get<int>());
    }
  }
  if (cost["machine_hours"].is_number()) {
    out += fmt::format("  design in all: {:.3g} machine hours, {:.3g} hours at the plan's jobs",
                       cost["machine_hours"].get<double>(), cost["elapsed_hours_at_jobs"].get<double>());
    if (cost["cost"].is_number())
      out += fmt::format(", {:.2f} at the plan's cost_per_hour", cost["cost"].get<double>());
    out += "\n";
  }
  return out;
}

}  // namespace evalsuite::study
