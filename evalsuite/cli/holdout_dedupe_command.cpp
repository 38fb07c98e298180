// `evalsuite holdout dedupe DIR [--reference FOLDER]... [--threshold 8]`: flags near-duplicate candidates
// (within DIR/candidates.json and against reference folders) by perceptual hash and writes the flags back
// into the manifest. Nothing is deleted; the labeling tool shows the flags. Exit 3 when some images could not
// be hashed.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "common/exit_codes.h"
#include "datasets/images/candidate_manifest.h"
#include "datasets/images/near_duplicates.h"
#include "datasets/images/preprocess.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/option_checks.h"
#include "generalization/classifier.h"
#include "generalization/feature_duplicates.h"

namespace evalsuite::cli {
namespace {

struct DedupeArgs {
  std::string candidates;
  std::vector<std::string> references;
  int threshold = datasets::kDefaultNearDuplicateThreshold;
  int threads = 0;
  std::string reference_cache;
  bool no_reference_cache = false;
  std::string features;  // TorchScript feature extractor: the second signal
  std::string feature_preprocess = "imagenet";
  float feature_similarity = 0.92f;
};

void RunDedupe(const DedupeArgs& args) {
  namespace fs = std::filesystem;
  const fs::path input(args.candidates);
  const fs::path manifest_file = fs::is_directory(input) ? input / datasets::kCandidateManifestFile : input;
  datasets::CandidateManifest manifest = datasets::ReadCandidateManifest(manifest_file);
  datasets::DedupeOptions options;
  options.threshold = args.threshold;
  options.threads = args.threads > 0 ? args.threads : std::max(1u, std::thread::hardware_concurrency());
  for (const std::string& reference : args.references) options.references.emplace_back(reference);
  // Reference hashes are kept beside the manifest by default: the second dedupe against ImageNet's 50,000
  // validation images reads them instead of decoding every image again.
  if (!args.no_reference_cache) {
    options.reference_cache = args.reference_cache.empty() ? manifest_file.parent_path() / "reference-hashes.db"
                                                           : fs::path(args.reference_cache);
  }
  const datasets::DedupeSummary s = datasets::AnnotateNearDuplicates(manifest, manifest_file.parent_path(), options);
  std::optional<generalization::FeatureDedupeSummary> features;
  if (!args.features.empty()) {
    generalization::SetInferenceThreads(options.threads);
    generalization::FeatureDedupeOptions feature_options;
    feature_options.preprocess = args.feature_preprocess;
    feature_options.min_similarity = args.feature_similarity;
    feature_options.references = options.references;
    const datasets::PreprocessSpec spec = datasets::ResolvePreprocessSpec(args.feature_preprocess);
    auto extractor = generalization::LoadTorchScriptFeatureExtractor(args.features, spec.OutputShape());
    features = generalization::AnnotateFeatureNeighbours(manifest, manifest_file.parent_path(), *extractor,
                                                         fs::path(args.features).filename().string(), feature_options);
  }
  datasets::WriteCandidateManifest(manifest, manifest_file);

  std::cout << fmt::format("{} candidates hashed of {}; threshold {} bits of 64\n", s.hashed, s.candidates,
                           args.threshold);
  std::cout << fmt::format("near-duplicates within the candidates: {} candidates flagged\n", s.flagged_within);
  if (!args.references.empty()) {
    std::cout << fmt::format("near-duplicates of the {} reference images: {} candidates flagged\n", s.references_hashed,
                             s.flagged_reference);
    if (!options.reference_cache.empty()) {
      std::cout << fmt::format("reference hashes: {} read from {}, {} computed\n", s.references_from_cache,
                               options.reference_cache.string(), s.references_hashed - s.references_from_cache);
    }
  }
  for (const auto& failure : s.candidate_failures) {
    std::cerr << "warning: " << failure.path << ": not hashed: " << failure.reason << "\n";
  }
  for (const auto& failure : s.reference_failures) {
    std::cerr << "warning: reference " << failure.path << ": not hashed: " << failure.reason << "\n";
  }
  if (features) {
    std::cout << fmt::format(
        "feature neighbours (cosine >= {}): {} candidates flagged within, {} against the {} "
        "reference images\n",
        args.feature_similarity, features->flagged_within, features->flagged_reference, features->references_embedded);
    for (const auto& failure : features->failures) {
      std::cerr << "warning: " << failure.path << ": not embedded: " << failure.reason << "\n";
    }
  }
  std::cout << "flags written to " << manifest_file.string() << " (nothing deleted)\n";
  if (!s.candidate_failures.empty() || !s.reference_failures.empty()) SetExitCode(kExitWithWarnings);
}

}  // namespace

void RegisterHoldoutDedupeCommand(CLI::App& holdout) {
  auto args = std::make_shared<DedupeArgs>();
  CLI::App* c = holdout.add_subcommand(
      "dedupe", "Flag near-duplicate candidates (perceptual hash) within the crawl and against reference folders");
  c->add_option("candidates", args->candidates, "Crawl folder or its candidates.json")->required();
  c->add_option("--reference", args->references,
                "Folder of images to compare against (training set, ImageNet val); repeatable");
  c->add_option("--threshold", args->threshold, "Flag pairs at Hamming distance <= N of 64 PHash bits")
      ->capture_default_str()
      ->check(WholeNumber(0, 64));
  c->add_option("--threads", args->threads, "Hashing threads (default: all cores)")->check(WholeNumber(0, 1024));
  c->add_option("--reference-cache", args->reference_cache,
                "SQLite file keeping reference hashes between runs (default: reference-hashes.db beside the manifest)");
  c->add_flag("--no-reference-cache", args->no_reference_cache, "Hash every reference image again, keep nothing");
  c->add_option("--features", args->features,
                "TorchScript feature extractor (e.g. a ResNet with fc = Identity): flags pairs by cosine similarity "
                "of its features as well (catches larger crops than the hash)");
  c->add_option("--feature-preprocess", args->feature_preprocess, "Preset or spec file for the feature extractor")
      ->capture_default_str();
  c->add_option("--feature-similarity", args->feature_similarity, "Flag pairs with cosine similarity >= this")
      ->capture_default_str()
      ->check(FiniteNumber(-1, 1));
  c->callback([args] { RunDedupe(*args); });
}

}  // namespace evalsuite::cli
