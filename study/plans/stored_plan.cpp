#include "study/plans/stored_plan.h"

namespace evalsuite::study {

const StudyPlan& StoredPlan::Plan() const {
  if (plan_error_) std::rethrow_exception(plan_error_);
  return *plan_;
}

const analysis::AnalysisSettings& StoredPlan::Settings() const {
  if (settings_error_) std::rethrow_exception(settings_error_);
  return settings_;
}

const PlanFigures& StoredPlan::Figures() const {
  if (figures_error_) std::rethrow_exception(figures_error_);
  return figures_;
}

std::optional<int> StoredPlan::PlannedRunsOf(const std::string& entry) const {
  if (scheduled_entries_error_) std::rethrow_exception(scheduled_entries_error_);
  if (!scheduled_entries_) return std::nullopt;
  int count = 0;
  for (const std::string& e : *scheduled_entries_) count += e == entry;
  return count;
}

StoredPlan DecodeStoredPlan(const nlohmann::json& stored) {
  StoredPlan decoded;
  decoded.recorded_ = stored;
  try {
    decoded.plan_ = PlanFromJson(stored);
  } catch (...) {
    decoded.plan_error_ = std::current_exception();
  }
  try {
    // Tolerant where the strict plan is not: an import's record gives the defaults.
    decoded.settings_ = decoded.plan_ ? decoded.plan_->analysis : analysis::AnalysisSettingsFromPlanJson(stored);
  } catch (...) {
    decoded.settings_error_ = std::current_exception();
  }
  // As the report always read it: a number, whether or not the rest of the plan decodes strictly.
  if (stored.is_object() && stored.contains("cost_per_hour") && stored["cost_per_hour"].is_number()) {
    decoded.cost_per_hour_ = stored["cost_per_hour"].get<double>();
  }
  PlanSchedule& schedule = decoded.schedule_;
  schedule.listed = stored.contains("schedule");
  schedule.planned_runs = schedule.listed ? static_cast<int>(stored["schedule"].size()) : 0;
  schedule.sequential = stored.contains("sequential") && stored["sequential"].is_object();
  if (!schedule.listed) return decoded;
  try {
    PlanFigures& figures = decoded.figures_;
    figures.entries = stored.value("entries", nlohmann::json::array()).size();
    figures.runs = stored.value("runs", 0);
    figures.seed = stored.value("seed", uint64_t{0});
    figures.threads = stored.value("threads", 0);
    figures.jobs = stored.value("jobs", 0);
    figures.out_dir = stored.value("out_dir", std::string("?"));
  } catch (...) {
    decoded.figures_error_ = std::current_exception();
  }
  try {
    if (const nlohmann::json& runs = stored["schedule"]; runs.is_array()) {
      std::vector<std::string> entries;
      for (const nlohmann::json& run : runs) entries.push_back(run.value("entry", ""));
      decoded.scheduled_entries_ = std::move(entries);
    }
  } catch (...) {
    decoded.scheduled_entries_error_ = std::current_exception();
  }
  return decoded;
}

}  // namespace evalsuite::study
