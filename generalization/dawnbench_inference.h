// DAWNBench's inference entries (dawn-bench-entries' */inference/*.json): model, hardware, latency in ms at batch 1,
// cost in USD per image (DAWNBench ranks by the cost of 10,000 images), top-1 or top-5 accuracy in percent, so a
// model measured by `evalsuite latency` can be placed among them.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::generalization {

struct InferenceEntry {
  std::string file;
  std::string task;  // the folder above inference/: "ImageNet", "CIFAR10", "SQuAD" ("" when not in that layout)
  std::string model;
  std::string hardware;
  double latency_ms = 0;
  std::optional<double> cost_per_10k;  // USD
  std::optional<double> top1;          // fractions
  std::optional<double> top5;
};

// A file or every *.json under a folder (sorted). Throws InputError naming the file and field at fault.
std::vector<InferenceEntry> ReadDawnbenchInference(const std::filesystem::path& path);
nlohmann::json InferenceEntryToJson(const InferenceEntry& entry);

// DAWNBench's entries that a model evaluated on a holdout of `class_list` may be ranked among: only those of the
// same task (imagenet-1k: ImageNet; cifar-10: CIFAR10), judged on one metric (ImageNet's entries report top-5, as
// its inference target is 93% top-5; CIFAR10's top-1). Rows of other tasks are never mixed in: `left_out` counts
// them by task and `note` says why in words.
struct DawnbenchComparison {
  std::string task;    // "" when no DAWNBench task matches the holdout's classes
  std::string metric;  // "top1" or "top5"
  std::vector<InferenceEntry> comparable;
  std::map<std::string, std::size_t> left_out;  // task ("other" when unknown) -> entries
  std::string note;
};
DawnbenchComparison CompareWithDawnbench(const std::vector<InferenceEntry>& entries, const std::string& class_list);

}  // namespace evalsuite::generalization
