// The "generalization" section of the report model: one object per evaluated image set (the frozen holdout,
// and shifted variants of it), produced by `evalsuite holdout eval` (generalization/) and rendered by
// reports/ as the paper's Table 4. This header fixes the JSON shape both sides use:
//
// "generalization": [ {
//   "image_set": "fashion-mnist-holdout",        // holdout name or variant ("...:noise")
//   "holdout_version": "<sha256 of the manifest items>",
//   "images": 5000, "unreadable": 0,             // images in the set; images that failed to load (with reasons)
//   "failures": [{"path": "...", "reason": "..."}],  // at most the first 50
//   "models": [ {
//       "name": "fast-run3", "group": "tta-optimized" | "pretrained" | user's own,
//       "evaluated": 5000,                         // images with a class the model covers
//       "uncovered": 0,                            // images of classes the model does not cover
//       "top1": {"correct": 4600, "accuracy": 0.92, "lower": 0.91, "upper": 0.93},
//       "top5": {"correct": 4990, "accuracy": 0.998, "lower": ..., "upper": ...},
//       "validation_accuracy": 0.93 | null,        // on its own validation data, where known
//       "gap": 0.01 | null,                        // validation_accuracy - top1.accuracy
//       "per_class": [{"class": "T-shirt/top", "n": 500, "correct": 450}] } ],
//   "pairs": [ {"a": "m1", "b": "m2", "metric": "top1", "n": 5000, "only_a": 12, "only_b": 4,
//               "p_value": 0.0768, "difference": 0.0016, "lower": ..., "upper": ...} ],
//   "groups": [ {"group": "tta-optimized", "models": 5, "mean_top1": 0.91, "mean_top5": 0.99} ],
//   "verdict": {"generalizes": true, "statement": "TTA-optimized models are within ... of pretrained ...",
//               "test": "exact McNemar, pooled over the group's models, p = ..."}
// } ]
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace evalsuite::reports {

constexpr const char* kGeneralizationSectionKey = "generalization";

// The section as the renderers read it: ParseGeneralizationSection reads the JSON above once; report.json shows the
// section as it was given. Text fields hold what the producer wrote (a non-string value as its JSON text); none or
// empty: not given.
struct AccuracyModel {
  std::optional<double> accuracy, lower, upper;
};

struct HoldoutModelRow {
  std::string name;
  std::optional<std::string> group;
  AccuracyModel top1, top5;
  std::optional<double> validation_accuracy, gap;
  std::optional<long long> evaluated, uncovered;
};

struct HoldoutPairRow {
  std::string a, b, metric;
  std::optional<long long> n, only_a, only_b;
  std::optional<double> p_value, p_holm, difference, lower, upper;
};

struct HoldoutGroupRow {
  std::string group;
  std::optional<long long> models;
  std::optional<double> mean_top1, mean_top5;
};

struct HoldoutFailureRow {
  std::string path, reason;
};

// One selection-frequency bin: the models' top-1 in it and the groups' means.
struct FrequencyBinRow {
  std::string bin;
  std::optional<long long> images;
  std::vector<std::pair<std::string, AccuracyModel>> models;          // name, top-1
  std::vector<std::pair<std::string, std::optional<double>>> groups;  // group, mean top-1
  std::string candidate_group, reference_group;
  std::string reference;  // the verdict's reference model the gap is measured from ("": a section from before it)
  std::optional<double> gap_top1;
};

struct HoldoutVerdictModel {
  std::optional<std::string> label;  // the question answered ("LOSES NO MORE THAN THE REFERENCE")
  std::optional<bool> generalizes, passed;
  std::string statement, test;
  std::string error_rates;  // the decision's simulated error rates, where the producer gives them
};

struct ImageSetModel {
  std::string image_set;
  std::optional<long long> images, unreadable;
  std::string holdout_version;
  std::string selection_variant, selection_rule;
  std::vector<HoldoutFailureRow> failures;
  std::vector<HoldoutModelRow> models;
  std::vector<HoldoutPairRow> pairs;
  std::vector<HoldoutGroupRow> groups;
  std::vector<FrequencyBinRow> frequency_bins;
  std::optional<HoldoutVerdictModel> verdict;
};

// The image sets of a "generalization" section (its array, or a lone image-set object as an array of one). Throws an
// InputError at `source` (the file, or "extra_sections.generalization") naming the field path ("[1].models[0].name")
// when a required field (an image set's "image_set" name, its "models" array, a model's "name") is missing or of the
// wrong kind, or a count is not a whole number.
std::vector<ImageSetModel> ParseGeneralizationSection(const nlohmann::json& section, const std::string& source);

}  // namespace evalsuite::reports
