#include "generalization/dawnbench_inference.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/json_access.h"
#include "common/json_fields.h"
#include "common/json_guard.h"

namespace evalsuite::generalization {
namespace fs = std::filesystem;
namespace {

std::optional<double> OptionalNumber(const nlohmann::json& j, const char* key, const std::string& file) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  if (!j[key].is_number()) throw InputError(file, std::string("field \"") + key + "\" is not a number");
  return j[key].get<double>();
}

InferenceEntry ReadOne(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot read the DAWNBench inference entry");
  std::stringstream text;
  text << in.rdbuf();
  std::string content = text.str();
  if (content.rfind("\xEF\xBB\xBF", 0) == 0) content.erase(0, 3);  // a byte-order mark, as some entries have
  const nlohmann::json j = ParseUserJson(content, file.string());
  if (!j.is_object()) throw InputError(file.string(), "not a JSON object");
  InferenceEntry e;
  e.file = file.string();
  if (file.parent_path().filename() == "inference") e.task = file.parent_path().parent_path().filename().string();
  e.model = OptionalString(j, "model", file.string()).value_or("");
  e.hardware = OptionalString(j, "hardware", file.string()).value_or("");
  const std::optional<double> latency = OptionalNumber(j, "latency", file.string());
  if (!latency) throw InputError(file.string(), "field \"latency\" (ms) is missing");
  e.latency_ms = *latency;
  if (auto cost = OptionalNumber(j, "cost", file.string())) e.cost_per_10k = *cost * 10000;
  if (auto top1 = OptionalNumber(j, "top1Accuracy", file.string())) e.top1 = *top1 / 100;
  if (auto top5 = OptionalNumber(j, "top5Accuracy", file.string())) e.top5 = *top5 / 100;
  return e;
}

}  // namespace

std::vector<InferenceEntry> ReadDawnbenchInference(const fs::path& path) {
  std::vector<InferenceEntry> entries;
  if (!fs::is_directory(path)) {
    entries.push_back(ReadOne(path));
    return entries;
  }
  std::vector<fs::path> files;
  for (const auto& item : fs::recursive_directory_iterator(path)) {
    if (item.is_regular_file() && item.path().extension() == ".json" &&
        item.path().parent_path().filename() == "inference") {
      files.push_back(item.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) entries.push_back(ReadOne(file));
  return entries;
}

nlohmann::json InferenceEntryToJson(const InferenceEntry& e) {
  return {{"file", e.file},
          {"task", e.task},
          {"model", e.model},
          {"hardware", e.hardware},
          {"latency_ms", e.latency_ms},
          {"cost_per_10k_images", JsonOrNull(e.cost_per_10k)},
          {"top1", JsonOrNull(e.top1)},
          {"top5", JsonOrNull(e.top5)}};
}

DawnbenchComparison CompareWithDawnbench(const std::vector<InferenceEntry>& entries, const std::string& class_list) {
  DawnbenchComparison out;
  if (class_list == "imagenet-1k") out.task = "ImageNet", out.metric = "top5";
  if (class_list == "cifar-10" || class_list == "cifar10") out.task = "CIFAR10", out.metric = "top1";
  for (const InferenceEntry& e : entries) {
    if (!out.task.empty() && e.task == out.task) {
      out.comparable.push_back(e);
    } else {
      ++out.left_out[e.task.empty() ? "other" : e.task];
    }
  }
  std::string others;
  for (const auto& [task, count] : out.left_out) {
    others += (others.empty() ? "" : ", ") + task + " (" + std::to_string(count) + ")";
  }
  if (out.task.empty()) {
    out.note = "no DAWNBench inference entry is on this holdout's task (" + class_list + "): DAWNBench's entries are " +
               (others.empty() ? std::string("none") : others) +
               ", other data and other metrics, so the model is not ranked among them";
  } else if (out.comparable.empty()) {
    out.note = "no DAWNBench inference entry of " + out.task + " was given (" +
               (others.empty() ? std::string("none at all") : "only " + others) +
               "), so there is nothing to rank among";
  } else {
    out.note = out.task + " entries only, by " + (out.metric == "top5" ? "top-5" : "top-1") +
               " as DAWNBench reports them (" + (others.empty() ? "no other task given" : "left out: " + others) +
               "); theirs are measured on " + out.task + "'s validation images on their own hardware, this model on " +
               "this holdout here: latency and cost compare as kinds, accuracy only roughly";
  }
  return out;
}

}  // namespace evalsuite::generalization
