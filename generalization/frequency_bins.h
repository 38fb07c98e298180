// Accuracy by selection-frequency bin (ImageNetV2, Recht et al. 2019, Figure 3): the images of a labeled
// holdout split by the share of labelers who judged them correct, and each model's top-1/top-5 with
// Clopper-Pearson intervals in each bin, with the groups' means side by side, and the gap to ONE reference: the
// verdict's reference model (group_verdict.h), so that the bins and the verdict never measure from different
// places (the mean of all pretrained models sat 44 points below the best one when one checkpoint was poor).
// A drop that is the same in every bin comes from the models; one concentrated in the low bins comes from hard
// (or doubtful) images. Pure: outcomes and frequencies in, JSON out.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "generalization/metrics.h"

namespace evalsuite::generalization {

// `frequency[i]` is image i's selection frequency (NaN when unknown: left out of every bin). The object:
// {"bins": [edges], "images_without_frequency": n, "by_bin": [{"bin": "[0.0, 0.2)", "lower", "upper",
//  "images", "models": [{"name", "group", "top1": AccuracyJson, "top5": ...}], "groups": GroupsJson,
//  "reference": the reference model's name, "gap_of": the gap in words,
//  "gap_top1", "gap_top5": candidate group's mean minus the reference model's accuracy in the bin (null when the
//  group has no model with images there, or there is no reference)}]}
// `reference` is the verdict's reference model ("" when there is no verdict: no gap).
nlohmann::json FrequencyBinsJson(const std::vector<ModelOutcomes>& outcomes, const std::vector<double>& frequency,
                                 const std::string& candidate_group, const std::string& reference);

// The text table under the summary: per bin, images and each model's top-1, and the groups' gap.
std::string SummarizeFrequencyBins(const nlohmann::json& frequency_bins);

}  // namespace evalsuite::generalization
