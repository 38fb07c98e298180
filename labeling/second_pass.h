// The debiasing pass of Engstrom et al. 2020 ("Identifying statistical bias in dataset replication"): the
// frozen images are served again to labelers who did not see them in pass 1, so their selection frequency
// is measured afresh, independently of the noise that got them selected. Selecting on a noisy frequency
// overstates it (regression to the mean): the pass-2 frequencies show by how much. A model's accuracy is
// corrected to the distribution the selection aimed at by their binomial-mixture model of each image's pass-2
// votes (stats/selection_frequency_correction.h): the target is the per-class aim of matched-frequency sampling
// (labeling/holdout_sampling.h SamplingAim), or the holdout's own pass-1 histogram for other freezes.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "datasets/images/candidate_manifest.h"
#include "datasets/images/holdout_manifest.h"
#include "labeling/label_store.h"
#include "stats/frequency_bins.h"
#include "stats/selection_frequency_correction.h"

namespace evalsuite::labeling {

constexpr const char* kSecondPassStoreFile = "labels-pass2.sqlite";  // in the holdout folder unless told

// The frozen images as candidates (ids, classes and SHA-256 of pass 1, paths inside the holdout folder).
// Throws InputError naming the holdout when an item is not among the pass-1 candidates.
datasets::CandidateManifest SecondPassManifest(const datasets::CandidateManifest& pass1,
                                               const datasets::Holdout& holdout, const std::string& where);

// LabelerKey(labeler) -> the item ids they saw in pass 1: every event of the log, a decision they later undid included
// (she has seen the image, so her pass-2 vote would not be independent of pass 1). What pass 2 must not give them.
std::map<std::string, std::set<std::string>> ItemsSeenBy(const std::vector<LabelEvent>& events);

struct FrequencyPair {
  double pass1 = 0;     // the frequency the image was frozen with
  double pass2 = 0;     // NaN when nobody judged it in pass 2
  int pass2_votes = 0;  // labelers who judged it in pass 2
  int pass2_yes = 0;    // of them, "correct" (pass2 = pass2_yes / pass2_votes)
};

// One model's per-image outcomes on the holdout (1 right, 0 wrong, -1 not evaluated), in holdout order; top5
// may be shorter (older predictions files have no top5_correct): the missing images count as not evaluated.
struct ModelOutcome {
  std::string name;
  std::string group;
  std::vector<int> top1;
  std::vector<int> top5;
};

// One accuracy (top-1 or top-5) before and after the correction.
struct CorrectedAccuracy {
  double observed = 0;  // on the images with pass-2 votes; NaN without any
  // The corrected accuracy (NaN and a reason when withheld), the naive bin-reweighted figure (biased, kept for
  // comparison) and the fitted shares and accuracies per bin of true frequency.
  stats::SelectionCorrection correction;
  double bias = 0;  // observed - corrected: what the noisy pass-1 frequencies added to (or took from) the accuracy
  std::size_t images = 0;
};

struct ModelCorrection {
  std::string name;
  std::string group;
  CorrectedAccuracy top1, top5;
};

struct SecondPassReport {
  std::size_t images = 0;
  std::size_t images_with_pass2 = 0;
  double mean_pass1 = 0, mean_pass2 = 0;  // over the images with pass-2 votes
  double shift = 0;                       // mean_pass2 - mean_pass1
  // Per pass-1 bin: images, mean pass-1, mean pass-2 frequency.
  std::array<std::size_t, stats::kFrequencyBins> bin_images{};
  std::array<double, stats::kFrequencyBins> bin_mean_pass1{}, bin_mean_pass2{};
  std::array<double, stats::kFrequencyBins> target{};  // shares the selection aimed at (sums to 1)
  std::string target_source;                           // "the sampling's per-class aim" or "pass-1 frequencies"
  std::vector<ModelCorrection> models;
};

// `target`: the bin shares the selection aimed at (nullopt: the pass-1 histogram of the images themselves),
// `target_source` what they are.
SecondPassReport CompareSecondPass(const std::vector<FrequencyPair>& frequencies,
                                   const std::vector<ModelOutcome>& models,
                                   const std::optional<std::array<double, stats::kFrequencyBins>>& target,
                                   const std::string& target_source = "the sampling's per-class aim");

// The target `label debias` reweights to, from the holdout's manifest: matched-frequency's recorded aim
// (aim_by_bin), or for a manifest written before it was recorded, the aim recomputed from the recorded reference
// histogram over `classes` (the pass-1 candidates' classes); nullopt for a freeze that aimed at no histogram.
std::optional<std::array<double, stats::kFrequencyBins>> SamplingTarget(const nlohmann::json& holdout_rule,
                                                                        const std::vector<std::string>& classes,
                                                                        const std::string& where);

nlohmann::json ToJson(const SecondPassReport& report);
std::string RenderSecondPassText(const SecondPassReport& report);

}  // namespace evalsuite::labeling
