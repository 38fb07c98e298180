// A study plan's stored form: the JSON the run store, the array manifests and `study show` keep (PlanToJson), read
// back strictly (PlanFromJson: a plan this evalsuite did not write is an InputError naming the key) inside the one
// decode every reader asks (DecodeStoredPlan, stored_plan.h), and the part of it that decides results
// (PlanFingerprint). Declared in study_plan.h.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/json_access.h"
#include "common/json_fields.h"
#include "study/plans/comparison_plan_keys.h"
#include "study/plans/regex_log_keys.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {

nlohmann::json PlanToJson(const StudyPlan& plan) {
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& e : plan.entries) {
    nlohmann::json j = {{"name", e.name},
                        {"builtin", e.builtin},
                        {"description", e.description},
                        {"metric", e.metric},
                        {"threshold", e.threshold},
                        {"extra_thresholds", e.extra_thresholds},
                        {"epochs", e.epochs},
                        {"train_subset", JsonOrNull(e.train_subset)},
                        {"validation_size", JsonOrNull(e.validation_size)},
                        {"timeout_seconds", e.timeout_seconds}};
    if (!e.builtin) {
      j["command"] = e.command;
      j["log_format"] = e.log_format;
      if (e.log_format == "regex") j["regex_log"] = RegexLogOptionsToJson(e.regex_log);
    }
    entries.push_back(std::move(j));
  }
  nlohmann::json schedule = nlohmann::json::array();
  for (const auto& r : plan.schedule) {
    nlohmann::json run = {{"entry", r.entry}, {"index", r.index}, {"seed", r.seed}};
    if (r.sources) {  // only in a [variance] design, so plans without one keep their stored form
      run["init_seed"] = r.sources->init;
      run["data_seed"] = r.sources->data_order;
      run["aug_seed"] = r.sources->augmentation;
    }
    schedule.push_back(std::move(run));
  }
  nlohmann::json plan_json = {{"plan_version", 1},
                              {"name", plan.name},
                              {"description", plan.description},
                              {"study_file", plan.study_file},
                              {"study_dir", plan.study_dir},
                              {"out_dir", plan.out_dir},
                              {"runs", plan.runs},
                              {"seed", plan.seed},
                              {"jobs", plan.jobs},
                              {"threads", plan.threads},
                              {"keep_models", plan.keep_models},
                              {"stop_at_target", plan.stop_at_target},
                              {"evals_per_epoch", plan.evals_per_epoch},
                              {"onednn_isa_cap", plan.onednn_isa_cap},
                              {"precision", plan.precision},
                              {"executor", plan.executor},
                              {"slurm", SlurmOptionsToJson(plan.slurm)},
                              {"devices", plan.devices},
                              {"devices_per_run", plan.devices_per_run},
                              {"cpus_per_run", plan.cpus_per_run},
                              {"cost_per_hour", JsonOrNull(plan.cost_per_hour)},
                              {"machine_ceilings", plan.machine_ceilings},
                              {"gpu_sample_seconds", plan.gpu_sample_seconds},
                              {"entries", entries},
                              {"schedule", schedule}};
  plan_json.update(analysis::AnalysisSettingsToJson(plan.analysis));  // [stability], compare, [sequential]
  return plan_json;
}

namespace {

// An integer of a stored plan (or an array manifest's copy of it) within T's range; anything else is an InputError
// naming the key, never nlohmann's get<int>() of a float out of range (undefined behaviour).
template <typename T>
T StoredInteger(const nlohmann::json& value, const std::string& key) {
  if (std::optional<T> integer = IntegerAs<T>(value)) return *integer;
  throw InputError("plan." + key, "the stored plan is not one this evalsuite reads: not an integer in range");
}

}  // namespace

StudyPlan PlanFromJson(const nlohmann::json& json) {
  StudyPlan plan;
  std::string key;
  try {
    auto get = [&](const nlohmann::json& j, const std::string& name) -> const nlohmann::json& {
      key = name;
      return j.at(name);
    };
    auto integer = [&](const nlohmann::json& j, const std::string& name) {
      return StoredInteger<int>(get(j, name), name);
    };
    auto seed = [&](const nlohmann::json& j, const std::string& name) {
      return StoredInteger<uint64_t>(get(j, name), name);
    };
    if (integer(json, "plan_version") != 1) throw InputError("plan_version", "unknown plan version");
    plan.name = get(json, "name").get<std::string>();
    plan.description = get(json, "description").get<std::string>();
    plan.study_file = get(json, "study_file").get<std::string>();
    plan.study_dir = get(json, "study_dir").get<std::string>();
    plan.out_dir = get(json, "out_dir").get<std::string>();
    plan.runs = integer(json, "runs");
    plan.seed = seed(json, "seed");
    plan.jobs = integer(json, "jobs");
    plan.threads = integer(json, "threads");
    plan.keep_models = get(json, "keep_models").get<bool>();
    plan.stop_at_target = get(json, "stop_at_target").get<bool>();
    // Absent from plans stored before the key existed: those evaluated once per epoch.
    plan.evals_per_epoch = json.contains("evals_per_epoch") ? integer(json, "evals_per_epoch") : 1;
    plan.onednn_isa_cap = json.contains("onednn_isa_cap") ? get(json, "onednn_isa_cap").get<bool>() : true;
    // Absent from plans stored before the key existed: those trained each recipe's own precision ("auto" decides
    // the same for fp32 recipes).
    plan.precision = json.value("precision", std::string("auto"));
    // Absent from plans stored before executors existed: those ran locally.
    plan.executor = json.value("executor", std::string(kLocalExecutor));
    if (json.contains("slurm")) plan.slurm = SlurmOptionsFromJson(json["slurm"]);
    plan.devices = json.value("devices", std::vector<std::string>{});
    plan.devices_per_run = json.contains("devices_per_run") ? integer(json, "devices_per_run") : 1;
    plan.cpus_per_run = json.contains("cpus_per_run") ? integer(json, "cpus_per_run") : 0;
    if (json.contains("cost_per_hour") && json["cost_per_hour"].is_number()) {
      plan.cost_per_hour = json["cost_per_hour"].get<double>();
    }
    // Absent from plans stored before studies recorded their ceilings: measured once when such a study resumes.
    if (json.contains("machine_ceilings")) plan.machine_ceilings = get(json, "machine_ceilings").get<std::string>();
    plan.gpu_sample_seconds = json.value("gpu_sample_seconds", plan.gpu_sample_seconds);
    key = "stability";
    plan.analysis = analysis::AnalysisSettingsFromPlanJson(json);  // [stability], compare, [sequential]
    for (const auto& j : get(json, "entries")) {
      PlannedEntry e;
      e.name = get(j, "name").get<std::string>();
      e.builtin = get(j, "builtin").get<bool>();
      e.description = get(j, "description").get<std::string>();
      e.metric = get(j, "metric").get<std::string>();
      e.threshold = get(j, "threshold").get<double>();
      e.extra_thresholds = get(j, "extra_thresholds").get<std::vector<double>>();
      e.epochs = integer(j, "epochs");
      if (!get(j, "train_subset").is_null()) e.train_subset = integer(j, "train_subset");
      if (j.contains("validation_size") && !j["validation_size"].is_null()) {
        e.validation_size = integer(j, "validation_size");
      }
      e.timeout_seconds = get(j, "timeout_seconds").get<double>();
      if (!e.builtin) {
        e.command = get(j, "command").get<std::string>();
        e.log_format = get(j, "log_format").get<std::string>();
        if (j.contains("regex_log")) e.regex_log = RegexLogOptionsFromJson(get(j, "regex_log"));
      }
      plan.entries.push_back(std::move(e));
    }
    for (const auto& j : get(json, "schedule")) {
      PlannedRun run{get(j, "entry").get<std::string>(), integer(j, "index"), seed(j, "seed"), std::nullopt};
      if (j.contains("init_seed")) {
        run.sources = SourceSeeds{seed(j, "init_seed"), seed(j, "data_seed"), seed(j, "aug_seed")};
      }
      plan.schedule.push_back(std::move(run));
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError("plan." + key, std::string("the stored plan is not one this evalsuite reads: ") + e.what());
  }
  return plan;
}

namespace {

std::string Shown(const nlohmann::json& value) {
  if (value.is_null()) return "(none)";
  std::string text = value.dump();
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

// Walks both values alike; arrays of objects with a "name" are matched by name, other arrays element by element.
void Differences(const nlohmann::json& old_value, const nlohmann::json& new_value, const std::string& path,
                 std::vector<std::string>& out) {
  if (old_value == new_value) return;
  if (old_value.is_object() && new_value.is_object()) {
    std::vector<std::string> keys;
    for (auto it = old_value.begin(); it != old_value.end(); ++it) keys.push_back(it.key());
    for (auto it = new_value.begin(); it != new_value.end(); ++it) {
      if (!old_value.contains(it.key())) keys.push_back(it.key());
    }
    for (const std::string& key : keys) {
      static const nlohmann::json kNone;
      const auto o = old_value.find(key);
      const auto n = new_value.find(key);
      Differences(o == old_value.end() ? kNone : *o, n == new_value.end() ? kNone : *n,
                  path.empty() ? key : path + "." + key, out);
    }
    return;
  }
  auto named = [](const nlohmann::json& a) {
    if (!a.is_array()) return false;
    for (const auto& e : a) {
      if (!e.is_object() || !e.contains("name") || !e["name"].is_string()) return false;
    }
    return true;
  };
  if (named(old_value) && named(new_value)) {
    auto find = [](const nlohmann::json& a, const std::string& name) -> const nlohmann::json* {
      for (const auto& e : a) {
        if (e["name"] == name) return &e;
      }
      return nullptr;
    };
    for (const auto& e : old_value) {
      const std::string name = e["name"];
      const nlohmann::json* other = find(new_value, name);
      if (other == nullptr) {
        out.push_back(path + "[" + name + "] removed");
      } else {
        Differences(e, *other, path + "[" + name + "]", out);
      }
    }
    for (const auto& e : new_value) {
      if (find(old_value, e["name"]) == nullptr) out.push_back(path + "[" + e["name"].get<std::string>() + "] added");
    }
    return;
  }
  if (old_value.is_string() && new_value.is_string()) {
    // Two long strings (commands) that differ near their end would both show the same cut prefix: show each from a
    // little before where they part.
    const std::string a = old_value.get<std::string>(), b = new_value.get<std::string>();
    std::size_t common = 0;
    while (common < a.size() && common < b.size() && a[common] == b[common]) ++common;
    if (common > 20 && (a.size() > 60 || b.size() > 60)) {
      const std::size_t from = common - 12;
      out.push_back(path + " \"..." + a.substr(from, 48) + (a.size() > from + 48 ? "...\"" : "\"") + " -> \"..." +
                    b.substr(from, 48) + (b.size() > from + 48 ? "...\"" : "\""));
      return;
    }
  }
  out.push_back(path + " " + Shown(old_value) + " -> " + Shown(new_value));
}

}  // namespace

std::string DescribePlanDifferences(const nlohmann::json& old_fingerprint, const nlohmann::json& new_fingerprint) {
  std::vector<std::string> differences;
  nlohmann::json old_rest = old_fingerprint, new_rest = new_fingerprint;
  if (old_rest.is_object()) old_rest.erase("schedule");
  if (new_rest.is_object()) new_rest.erase("schedule");
  Differences(old_rest, new_rest, "", differences);
  if (differences.empty()) {
    Differences(old_fingerprint.value("schedule", nlohmann::json()),
                new_fingerprint.value("schedule", nlohmann::json()), "schedule", differences);
  }
  std::string text;
  for (const std::string& d : differences) text += (text.empty() ? "" : ", ") + d;
  return text.empty() ? "its layout" : text;
}

nlohmann::json PlanFingerprint(const StudyPlan& plan) {
  nlohmann::json json = PlanToJson(plan);
  json.erase("jobs");
  json.erase("executor");
  json.erase("slurm");
  json.erase("cost_per_hour");
  json.erase("machine_ceilings");
  json.erase("devices");
  json.erase("devices_per_run");
  json.erase("cpus_per_run");
  json.erase("gpu_sample_seconds");
  json.erase("out_dir");
  json.erase("study_file");
  json.erase("study_dir");
  return json;
}

}  // namespace evalsuite::study
