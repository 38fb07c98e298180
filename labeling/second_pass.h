// The debiasing pass of Engstrom et al. 2020 ("Identifying statistical bias in dataset replication"): the
// frozen images are served again to labelers who did not judge them in pass 1, so their selection frequency
// is measured afresh, independently of the noise that got them selected. Selecting on a noisy frequency
// overstates it (regression to the mean): the pass-2 frequencies show by how much, and a model's accuracy
// reweighted from pass-2 frequency bins to the distribution the selection aimed at corrects for it.
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
#include "stats/stratified_bootstrap.h"

namespace evalsuite::labeling {

constexpr const char* kSecondPassStoreFile = "labels-pass2.sqlite";  // in the holdout folder unless told

// The frozen images as candidates (ids, classes and SHA-256 of pass 1, paths inside the holdout folder).
// Throws InputError naming the holdout when an item is not among the pass-1 candidates.
datasets::CandidateManifest SecondPassManifest(const datasets::CandidateManifest& pass1,
                                               const datasets::Holdout& holdout, const std::string& where);

// labeler -> the item ids they decided in pass 1 (any label): what pass 2 must not give them again.
std::map<std::string, std::set<std::string>> ItemsJudgedBy(
    const std::map<std::pair<std::string, std::string>, Decision>& decisions);

struct FrequencyPair {
  double pass1 = 0;  // the frequency the image was frozen with
  double pass2 = 0;  // NaN when nobody judged it in pass 2
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
  double observed = 0;  // on the images with a pass-2 frequency; NaN without any
  // Sum over pass-2 bins of target share x accuracy in that bin (shares renormalized over bins with images),
  // with its stratified bootstrap interval (images resampled within each pass-2 bin).
  stats::StratifiedEstimate corrected;
  double bias = 0;  // observed - corrected: what the noisy pass-1 frequencies added to (or took from) the accuracy
  std::size_t images = 0;
  std::size_t smallest_bin = SIZE_MAX;  // fewest images in a pass-2 bin that carries weight (SIZE_MAX: none)
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
  std::string target_source;                           // "reference histogram" or "pass-1 frequencies"
  std::vector<std::size_t> empty_target_bins;          // bins with a target share but no pass-2 image
  std::vector<ModelCorrection> models;
  std::size_t resamples = 0;  // of the intervals' bootstrap
  std::uint64_t seed = 0;
};

// `target`: the bin shares the selection aimed at (nullopt: the pass-1 histogram of the images themselves).
// The intervals use `resamples` bootstrap resamples from `seed` (the same for every model and accuracy).
SecondPassReport CompareSecondPass(const std::vector<FrequencyPair>& frequencies,
                                   const std::vector<ModelOutcome>& models,
                                   const std::optional<std::array<double, stats::kFrequencyBins>>& target,
                                   std::size_t resamples = stats::kStratifiedBootstrapResamples,
                                   std::uint64_t seed = stats::kStratifiedBootstrapSeed);

nlohmann::json ToJson(const SecondPassReport& report);
std::string RenderSecondPassText(const SecondPassReport& report);

}  // namespace evalsuite::labeling
