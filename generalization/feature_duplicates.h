// The near-duplicate search's second signal: candidates and reference images embedded by a TorchScript
// feature extractor the user supplies (a torchvision ResNet's penultimate layer, exported), compared by cosine
// similarity (ImageNetV2 compared candidates with their nearest ImageNet neighbours in CNN feature space as one
// of three metrics). Catches what a perceptual hash misses (crops past 10%, crops of mirror images). Flags are
// added beside the hash flags; nothing is deleted.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "datasets/images/candidate_manifest.h"
#include "datasets/images/near_duplicates.h"
#include "generalization/feature_extractor.h"

namespace evalsuite::generalization {

struct FeatureDedupeOptions {
  std::string preprocess = "imagenet";  // preset or spec file (datasets/images/preprocess.h)
  // Cosine similarity at or above which a pair is flagged. A crop, rescale or recompression of the same photo
  // stays above ~0.9 with a trained ResNet; unrelated photos of one class sit around 0.5-0.8. Calibrate with
  // bench/near_duplicate_bench for your extractor.
  float min_similarity = 0.92f;
  int max_matches_per_kind = 5;
  int batch = 16;
  std::vector<std::filesystem::path> references;
};

struct FeatureDedupeSummary {
  int candidates_embedded = 0;
  int references_embedded = 0;
  int flagged_within = 0;
  int flagged_reference = 0;
  std::vector<datasets::HashFailure> failures;  // images that did not decode
};

// Appends {"kind": "within"|"reference", "signal": "features", "match": ..., "similarity": 0.97} flags to each
// item's near_duplicates (after running AnnotateNearDuplicates, whose flags it keeps) and records the method in
// manifest.source["dedupe"]["features"].
FeatureDedupeSummary AnnotateFeatureNeighbours(datasets::CandidateManifest& manifest,
                                               const std::filesystem::path& manifest_dir, FeatureExtractor& extractor,
                                               const std::string& model_name, const FeatureDedupeOptions& options);

}  // namespace evalsuite::generalization
