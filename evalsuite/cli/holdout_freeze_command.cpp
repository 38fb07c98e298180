// evalsuite holdout freeze: the candidates judged correct under a rule become a frozen holdout folder with a
// manifest and a version hash (labeling/holdout_freeze.h).
#include <filesystem>
#include <iostream>
#include <memory>

#include "datasets/images/candidate_manifest.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/common/error.h"
#include "labeling/holdout_freeze.h"
#include "labeling/label_store.h"

namespace evalsuite::cli {
namespace {
namespace fs = std::filesystem;

struct FreezeArgs {
  std::string candidates;
  std::string store;
  std::string rule = "majority";
  std::size_t min_labelers = 1;
  std::string out;
  std::string name;
  bool keep_near_duplicates = false;
};

void RunFreeze(const FreezeArgs& args) {
  labeling::FreezeRule rule = labeling::ParseFreezeRule(args.rule, args.min_labelers);
  rule.keep_near_duplicates = args.keep_near_duplicates;
  const fs::path candidates_path(args.candidates);
  const fs::path candidates_dir = fs::is_directory(candidates_path)
                                      ? candidates_path
                                      : (candidates_path.has_parent_path() ? candidates_path.parent_path() : ".");
  const fs::path store_file = args.store.empty() ? candidates_dir / labeling::kDefaultStoreFile : fs::path(args.store);
  if (!fs::exists(store_file)) {
    throw InputError(store_file.string(), "no label store here: label with `evalsuite label serve` first");
  }
  const datasets::CandidateManifest manifest = datasets::ReadCandidateManifest(args.candidates);
  labeling::LabelStore store(store_file);
  const labeling::FreezeSummary summary = labeling::FreezeHoldout(
      manifest, candidates_dir, labeling::CurrentDecisions(store.Events()), rule, args.out, args.name);
  std::cout << "Frozen holdout " << args.out << ": " << summary.selected << " images (rule " << rule.text
            << ", at least " << rule.min_labelers << " labeler" << (rule.min_labelers == 1 ? "" : "s") << ")\n"
            << "Version: " << summary.holdout.version_hash << "\n"
            << "Left out of " << summary.candidates << " candidates: " << summary.too_few_labelers
            << " with too few labelers, " << summary.rejected_by_rule << " rejected by the rule, "
            << summary.controls_left_out << " hidden controls, " << summary.near_duplicates_left_out
            << " flagged as near-duplicates by holdout dedupe"
            << (rule.keep_near_duplicates ? " (--keep-near-duplicates: none left out)" : "") << std::endl;
}

}  // namespace

void RegisterHoldoutFreezeCommand(CLI::App& holdout) {
  auto args = std::make_shared<FreezeArgs>();
  CLI::App* freeze = holdout.add_subcommand(
      "freeze", "Copy the images judged correct under a rule into a new holdout folder with a versioned manifest");
  freeze->add_option("--candidates", args->candidates, "The candidate manifest (DIR/candidates.json or DIR)")
      ->required();
  freeze->add_option("--store", args->store, "The label store; default: labels.sqlite beside the manifest");
  freeze
      ->add_option("--rule", args->rule,
                   "majority (more than half of an item's labelers said correct) or frequency>=X (0..1)")
      ->capture_default_str();
  freeze->add_option("--min-labelers", args->min_labelers, "Leave out items judged by fewer labelers")
      ->capture_default_str();
  freeze->add_option("--out", args->out, "The new holdout folder (must not exist, or be empty)")->required();
  freeze->add_option("--name", args->name, "Holdout name in the manifest (default: the folder name)");
  freeze->add_flag("--keep-near-duplicates", args->keep_near_duplicates,
                   "Keep candidates holdout dedupe flagged as near-duplicates (left out by default)");
  freeze->callback([args] { RunFreeze(*args); });
}

}  // namespace evalsuite::cli
