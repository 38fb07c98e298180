// DAWNBench's inference entries (dawn-bench-entries' */inference/*.json): model, hardware, latency in ms at batch 1,
// cost in USD per image (DAWNBench ranks by the cost of 10,000 images), top-1 or top-5 accuracy in percent, so a
// model measured by `evalsuite latency` can be placed among them.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::generalization {

struct InferenceEntry {
  std::string file;
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

}  // namespace evalsuite::generalization
