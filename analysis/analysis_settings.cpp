#include "analysis/analysis_settings.h"

#include <algorithm>

#include "common/error.h"
#include "common/json_fields.h"

namespace evalsuite::analysis {
namespace {

using nlohmann::json;

[[noreturn]] void Malformed(const std::string& key, const std::string& why) {
  throw InputError("plan." + key, "the stored plan is not one this evalsuite reads: " + why);
}

template <typename T>
T IntegerAt(const json& table, const char* name, const std::string& key, T fallback) {
  auto it = table.find(name);
  if (it == table.end()) return fallback;
  if (std::optional<T> value = IntegerAs<T>(*it)) return *value;
  Malformed(key + "." + name, "not an integer in range");
}

double NumberAt(const json& table, const char* name, const std::string& key, double fallback) {
  auto it = table.find(name);
  if (it == table.end()) return fallback;
  if (!it->is_number()) Malformed(key + "." + name, "not a number");
  return it->get<double>();
}

std::string TextAt(const json& table, const char* name, const std::string& key, const std::string& fallback) {
  auto it = table.find(name);
  if (it == table.end()) return fallback;
  if (!it->is_string()) Malformed(key + "." + name, "not a string");
  return it->get<std::string>();
}

EntryPair PairAt(const json& pair, const std::string& key) {
  if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string()) {
    Malformed(key, "not a pair of entry names");
  }
  return {pair[0].get<std::string>(), pair[1].get<std::string>()};
}

}  // namespace

std::vector<EntryPair> ComparedPairs(const AnalysisSettings& settings) {
  std::vector<EntryPair> pairs = settings.compare;
  if (const auto& q = settings.sequential; q && !q->stability) {
    if (std::find(pairs.begin(), pairs.end(), EntryPair(q->a, q->b)) == pairs.end()) pairs.emplace_back(q->a, q->b);
  }
  return pairs;
}

json AnalysisSettingsToJson(const AnalysisSettings& settings) {
  const stats::StabilityRule& rule = settings.rule;
  json compare = json::array();
  for (const auto& [a, b] : settings.compare) compare.push_back({a, b});
  json sequential = nullptr;
  if (const auto& s = settings.sequential) {
    sequential = {{"min_runs", s->min_runs},
                  {"max_runs", s->max_runs},
                  {"alpha", s->alpha},
                  {"question", s->stability ? json("stability") : json::array({s->a, s->b})}};
  }
  json out = {{"stability",
               {{"max_cov_upper", rule.max_cov_upper},
                {"min_hit_rate", rule.min_hit_rate},
                {"min_reached", rule.min_reached},
                {"consecutive_evaluations", rule.consecutive_evaluations},
                {"basis", rule.basis}}},
              {"compare", std::move(compare)},
              {"sequential", std::move(sequential)}};
  // Only a variance design writes its key, so that every other study's stored plan stays as it was.
  if (settings.variance) out["variance"] = VarianceSettingsToJson(*settings.variance);
  return out;
}

json VarianceSettingsToJson(const VarianceSettings& design) {
  return {{"vary", design.vary}, {"levels", design.levels}, {"repeats", design.repeats}};
}

VarianceSettings VarianceSettingsFromJson(const json& stored, const std::string& key) {
  if (!stored.is_object()) Malformed(key, "not a table");
  VarianceSettings v;
  v.levels = IntegerAt<int>(stored, "levels", key, v.levels);
  v.repeats = IntegerAt<int>(stored, "repeats", key, v.repeats);
  const auto vary = stored.find("vary");
  if (vary == stored.end() || !vary->is_array() || vary->empty()) Malformed(key + ".vary", "not a list of sources");
  for (const json& source : *vary) {
    // The seed sources a design can vary (analysis/variance_sources.h kSeedSources, study/plans/variance_design.h).
    if (!source.is_string() || (source != "init" && source != "data_order" && source != "augmentation")) {
      Malformed(key + ".vary", "unknown source " + source.dump());
    }
    v.vary.push_back(source.get<std::string>());
  }
  if (v.levels < 2 || v.repeats < 1) Malformed(key, "levels must be at least 2 and repeats at least 1");
  return v;
}

AnalysisSettings AnalysisSettingsFromPlanJson(const json& plan) {
  AnalysisSettings settings;
  if (!plan.is_object()) return settings;
  if (auto it = plan.find("stability"); it != plan.end() && !it->is_null()) {
    if (!it->is_object()) Malformed("stability", "not a table");
    stats::StabilityRule& rule = settings.rule;
    rule.max_cov_upper = NumberAt(*it, "max_cov_upper", "stability", rule.max_cov_upper);
    rule.min_hit_rate = NumberAt(*it, "min_hit_rate", "stability", rule.min_hit_rate);
    rule.min_reached = IntegerAt<std::size_t>(*it, "min_reached", "stability", rule.min_reached);
    // Absent from plans stored before the key existed: the first crossing.
    rule.consecutive_evaluations =
        IntegerAt<std::size_t>(*it, "consecutive_evaluations", "stability", rule.consecutive_evaluations);
    rule.basis = TextAt(*it, "basis", "stability", rule.basis);
  }
  if (auto it = plan.find("compare"); it != plan.end() && !it->is_null()) {
    if (!it->is_array()) Malformed("compare", "not a list of pairs");
    for (const json& pair : *it) settings.compare.push_back(PairAt(pair, "compare"));
  }
  if (auto it = plan.find("sequential"); it != plan.end() && !it->is_null()) {
    if (!it->is_object()) Malformed("sequential", "not a table");
    SequentialSettings s;
    s.min_runs = IntegerAt<int>(*it, "min_runs", "sequential", s.min_runs);
    s.max_runs = IntegerAt<int>(*it, "max_runs", "sequential", s.max_runs);
    s.alpha = NumberAt(*it, "alpha", "sequential", s.alpha);
    if (s.min_runs < 1 || s.max_runs < s.min_runs) Malformed("sequential", "min_runs must lie in [1, max_runs]");
    const auto question = it->find("question");
    if (question == it->end() || question->is_string()) {
      s.stability = true;
    } else {
      std::tie(s.a, s.b) = PairAt(*question, "sequential.question");
    }
    settings.sequential = s;
  }
  if (auto it = plan.find("variance"); it != plan.end() && !it->is_null()) {
    settings.variance = VarianceSettingsFromJson(*it, "variance");
  }
  return settings;
}

}  // namespace evalsuite::analysis
