// Per-class sampling at freeze, as ImageNetV2 built its three test sets (Recht et al. 2019, section 3):
// among the candidates with at least K votes, each class gets N images
//   matched-frequency  drawn bin by bin so that the class's selection frequencies follow a reference
//                      histogram (bins [0, .2), [.2, .4), [.4, .6), [.6, .8), [.8, 1]), such as that of the
//                      original validation images labeled in the same tool;
//   threshold:X        drawn at random among those with selection frequency >= X (Threshold0.7);
//   top                the N with the highest selection frequency (TopImages).
// Random draws use the recorded seed (a class's draw depends only on the seed and its wnid), and a bin or class
// that cannot be filled is reported with what it lacks: images are never borrowed from another bin, which
// would change the distribution the variant promises. Pure: no I/O except reading a histogram file.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "datasets/images/candidate_manifest.h"
#include "labeling/agreement.h"
#include "stats/frequency_bins.h"

namespace evalsuite::labeling {

using stats::FrequencyBin;  // ImageNetV2's bins (stats/frequency_bins.h)
using stats::kFrequencyBinEdges;
using stats::kFrequencyBins;

using BinCounts = std::array<double, kFrequencyBins>;

// The histogram matched-frequency follows: per class (by wnid), and pooled over all classes for classes the
// reference does not have.
struct ReferenceHistogram {
  BinCounts pooled{};
  std::map<std::string, BinCounts> by_class;
  // Reference images behind each class's histogram, where known (a labeled set, or a file's whole-number counts).
  std::map<std::string, std::size_t> images_by_class;
  nlohmann::json description = nlohmann::json::object();  // what it was made from, for the manifest
};

// ImageNetV2 matched a class only against a histogram of at least 20 reference images with 10 or more votes
// (Recht et al. 2019, appendix C); a histogram of fewer is mostly noise (one image sends all ten targets to its
// bin). A class below this is sampled all the same, with a warning, and listed in the manifest.
constexpr std::size_t kMinReferenceImagesPerClass = 20;

// From a labeled reference set (e.g. the original validation images served as candidates in the same tool):
// the selection frequencies of its non-control items with at least `min_votes` labelers.
ReferenceHistogram HistogramFromAgreement(const datasets::CandidateManifest& reference,
                                          const AgreementReport& agreement, std::size_t min_votes);
// From a JSON file {"bins": [0, 0.2, 0.4, 0.6, 0.8, 1] (optional), "pooled": [5 counts or shares] (optional),
// "classes": {"<wnid>": [5 counts], ...} (optional)}; at least one histogram. Throws InputError naming the
// file and field.
ReferenceHistogram ReadReferenceHistogram(const std::filesystem::path& file);
// The same from JSON already read (a file's, or a manifest's record of HistogramToJson); `where` names it.
ReferenceHistogram HistogramFromJson(const nlohmann::json& j, const std::string& where);
nlohmann::json HistogramToJson(const ReferenceHistogram& histogram);

// How many of `per_class` images each bin gets: the shares times per_class, rounded by largest remainder
// (ties to the lower bin), so the counts add up to per_class. All zero for an empty histogram.
std::array<std::size_t, kFrequencyBins> BinTargets(const BinCounts& histogram, std::size_t per_class);
// A class's targets under matched-frequency: its own histogram, or the pooled one when the reference lacks the
// class (`pooled` says which).
std::array<std::size_t, kFrequencyBins> ClassBinTargets(const ReferenceHistogram& reference, const std::string& wnid,
                                                        std::size_t per_class, bool* pooled = nullptr);
// What matched-frequency aims at over these classes: the sum of their targets per bin. This, not the pooled
// histogram (which weights classes by their reference size), is the distribution a debiased accuracy is
// reweighted to.
std::array<std::size_t, kFrequencyBins> SamplingAim(const ReferenceHistogram& reference,
                                                    const std::vector<std::string>& wnids, std::size_t per_class);

struct SamplingPlan {
  enum class Variant { kMatchedFrequency, kThreshold, kTopImages };
  Variant variant = Variant::kMatchedFrequency;
  double threshold = 0.7;  // kThreshold
  std::size_t per_class = 10;
  std::size_t min_votes = 10;
  uint64_t seed = 0;
  std::optional<ReferenceHistogram> reference;  // kMatchedFrequency
  std::string text;                             // as written: "matched-frequency", "threshold:0.7", "top"
};

// "matched-frequency", "threshold:X" (X in [0, 1]), "top" or "top:N" (N images per class, which must agree
// with per_class when that was given). Throws UsageError naming --sampling.
SamplingPlan ParseSamplingPlan(const std::string& text, std::optional<std::size_t> per_class, std::size_t min_votes,
                               uint64_t seed);

struct ClassShortfall {
  std::string wnid;
  int class_index = -1;
  std::size_t chosen = 0;
  std::size_t lacking = 0;                                   // per_class - chosen
  std::array<std::size_t, kFrequencyBins> lacking_by_bin{};  // matched-frequency only
  bool pooled_reference = false;  // matched-frequency: the class was not in the reference, the pooled one was used
};

struct ThinReferenceClass {
  std::string wnid;
  std::size_t images = 0;  // reference images behind its histogram (< kMinReferenceImagesPerClass)
};

struct SamplingOutcome {
  std::vector<std::size_t> chosen;  // manifest indices, by class index then rank
  std::vector<ClassShortfall> short_classes;
  std::vector<std::string> pooled_reference_classes;       // classes matched against the pooled histogram
  std::vector<ThinReferenceClass> thin_reference_classes;  // matched against too few reference images
  std::array<std::size_t, kFrequencyBins> chosen_by_bin{};
  std::array<std::size_t, kFrequencyBins> aim_by_bin{};  // matched-frequency: the targets summed over classes
};

// Samples among the items with eligible[i] true (the caller leaves out controls, near-duplicates and items
// with fewer than min_votes labelers). Every class of the manifest is sampled, in class-index order.
SamplingOutcome SampleHoldout(const datasets::CandidateManifest& manifest, const AgreementReport& agreement,
                              const std::vector<bool>& eligible, const SamplingPlan& plan);

// The manifest's record: variant, parameters, seed, reference, bins, counts per bin, short classes.
nlohmann::json SamplingToJson(const SamplingPlan& plan, const SamplingOutcome& outcome);

}  // namespace evalsuite::labeling
