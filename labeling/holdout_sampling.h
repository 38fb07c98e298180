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
  nlohmann::json description = nlohmann::json::object();  // what it was made from, for the manifest
};

// From a labeled reference set (e.g. the original validation images served as candidates in the same tool):
// the selection frequencies of its non-control items with at least `min_votes` labelers.
ReferenceHistogram HistogramFromAgreement(const datasets::CandidateManifest& reference,
                                          const AgreementReport& agreement, std::size_t min_votes);
// From a JSON file {"bins": [0, 0.2, 0.4, 0.6, 0.8, 1] (optional), "pooled": [5 counts or shares] (optional),
// "classes": {"<wnid>": [5 counts], ...} (optional)}; at least one histogram. Throws InputError naming the
// file and field.
ReferenceHistogram ReadReferenceHistogram(const std::filesystem::path& file);
nlohmann::json HistogramToJson(const ReferenceHistogram& histogram);

// How many of `per_class` images each bin gets: the shares times per_class, rounded by largest remainder
// (ties to the lower bin), so the counts add up to per_class. All zero for an empty histogram.
std::array<std::size_t, kFrequencyBins> BinTargets(const BinCounts& histogram, std::size_t per_class);

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

struct SamplingOutcome {
  std::vector<std::size_t> chosen;  // manifest indices, by class index then rank
  std::vector<ClassShortfall> short_classes;
  std::vector<std::string> pooled_reference_classes;  // classes matched against the pooled histogram
  std::array<std::size_t, kFrequencyBins> chosen_by_bin{};
};

// Samples among the items with eligible[i] true (the caller leaves out controls, near-duplicates and items
// with fewer than min_votes labelers). Every class of the manifest is sampled, in class-index order.
SamplingOutcome SampleHoldout(const datasets::CandidateManifest& manifest, const AgreementReport& agreement,
                              const std::vector<bool>& eligible, const SamplingPlan& plan);

// The manifest's record: variant, parameters, seed, reference, bins, counts per bin, short classes.
nlohmann::json SamplingToJson(const SamplingPlan& plan, const SamplingOutcome& outcome);

}  // namespace evalsuite::labeling
