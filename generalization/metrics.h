// Per-model and per-pair holdout metrics from per-image outcomes: top-1/top-5 accuracy with Clopper-Pearson
// intervals, per-class accuracy, the gap to validation accuracy, and for every pair of models on the images
// both evaluated: the exact McNemar test and the Newcombe interval of the accuracy difference. Pure numerics
// on vectors (no LibTorch, no OpenCV), so they are tested on hand-made outcomes.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "generalization/class_mapping.h"

namespace evalsuite::generalization {

constexpr int8_t kNotEvaluated = -1;  // unreadable image, or a class the model does not cover

struct ModelOutcomes {
  std::string name;
  std::string group;
  std::optional<double> validation_accuracy;
  std::optional<size_t> validation_size;  // images validation_accuracy was measured on, where known
  std::vector<int8_t> top1;               // per image: 1 right, 0 wrong, kNotEvaluated
  std::vector<int8_t> top5;
  size_t uncovered = 0;  // readable images of classes the model does not cover
  const std::vector<int8_t>& Metric(const std::string& metric) const { return metric == "top5" ? top5 : top1; }
};

// Scores one model: `top` holds kTopK output indices per image (-1 for images that failed to load), `labels`
// the holdout class index per image, `readable` whether the image loaded.
ModelOutcomes ScoreModel(const std::string& name, const std::string& group, std::optional<double> validation_accuracy,
                         const std::vector<int32_t>& top, const std::vector<int>& labels,
                         const std::vector<bool>& readable, const ClassMapping& mapping);

struct AccuracyCount {
  size_t n = 0;
  size_t correct = 0;
  double accuracy() const { return n == 0 ? 0.0 : static_cast<double>(correct) / n; }
};
AccuracyCount CountAccuracy(const std::vector<int8_t>& outcomes);

// {"correct", "accuracy", "lower", "upper"} with the Clopper-Pearson 95% interval (accuracy null when n = 0).
nlohmann::json AccuracyJson(const AccuracyCount& count);

// One entry of the section's "models" array (see reports/generalization_section.h).
nlohmann::json ModelJson(const ModelOutcomes& model, const std::vector<int>& labels,
                         const std::vector<std::string>& class_names);

struct PairComparison {
  std::string a, b, metric;
  size_t n = 0, both = 0, only_a = 0, only_b = 0, neither = 0;
  double p_value = 1;
  double difference = 0;  // accuracy(a) - accuracy(b) on the n shared images
  double lower = 0, upper = 0;
};

// A and B on the images both evaluated.
PairComparison ComparePair(const ModelOutcomes& a, const ModelOutcomes& b, const std::string& metric);
nlohmann::json PairJson(const PairComparison& pair);

}  // namespace evalsuite::generalization
