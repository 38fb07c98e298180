// Freezing a holdout from labels: the candidates judged correct under a rule ("majority", "frequency>=X" or
// "dawid-skene>=P",
// with at least M labelers) are copied into a new folder with a manifest and a version hash
// (datasets/images/holdout_manifest.h). Hidden controls never enter the holdout. The folder appears whole or not
// at all: it is built beside the target and renamed into place, then verified.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "datasets/images/candidate_manifest.h"
#include "datasets/images/holdout_manifest.h"
#include "labeling/agreement.h"
#include "labeling/holdout_sampling.h"
#include "labeling/label_store.h"

namespace evalsuite::labeling {

struct FreezeRule {
  enum class Kind { kMajority, kFrequencyAtLeast, kDawidSkeneAtLeast };
  Kind kind = Kind::kMajority;
  double min_frequency = 0.5;  // kFrequencyAtLeast: selection frequency; kDawidSkeneAtLeast: the posterior
  std::size_t min_labelers = 1;
  std::string text;  // as the user wrote it: "majority", "frequency>=0.7"
  // Candidates `holdout dedupe` flagged (near_duplicates not empty: a copy of a reference image such as an
  // ImageNet validation picture, or of another candidate) stay out unless this is set.
  bool keep_near_duplicates = false;
  // Per-class sampling (holdout_sampling.h) instead of the rule: among the items with at least
  // sampling->min_votes labelers, each class gets per_class images by the variant.
  std::optional<SamplingPlan> sampling;

  // Whether an item with these labels enters the holdout: enough labelers, then the rule. "majority" is a
  // strict majority of the labelers who judged it ("unsure" counts against).
  bool Accepts(const ItemAgreement& item) const;
};

// Parses "majority", "frequency>=X" or "dawid-skene>=P" (X, P in [0, 1]); throws UsageError naming --rule.
FreezeRule ParseFreezeRule(const std::string& text, std::size_t min_labelers);

struct FreezeSummary {
  std::size_t candidates = 0;
  std::size_t controls_left_out = 0;
  std::size_t near_duplicates_left_out = 0;
  std::size_t too_few_labelers = 0;
  std::size_t rejected_by_rule = 0;
  std::size_t selected = 0;
  std::optional<SamplingOutcome> sampling;  // when sampled: short classes, counts per bin
  datasets::Holdout holdout;                // as written, with its version hash
};

// Builds the holdout in `out_dir` (which must not exist or be empty). Checks every chosen image against its
// manifest SHA-256 before copying; throws InputError naming the file when one differs, and IoError on I/O.
FreezeSummary FreezeHoldout(const datasets::CandidateManifest& manifest, const std::filesystem::path& candidates_dir,
                            const std::map<std::pair<std::string, std::string>, Decision>& decisions,
                            const FreezeRule& rule, const std::filesystem::path& out_dir, const std::string& name);

}  // namespace evalsuite::labeling
