// evalsuite holdout freeze: the candidates judged correct under a rule become a frozen holdout folder with a
// manifest and a version hash (labeling/holdout_freeze.h); with --sampling, each class gets --per-class images
// drawn as ImageNetV2 drew them (labeling/holdout_sampling.h).
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "common/error.h"
#include "common/exit_codes.h"
#include "common/sha256.h"
#include "datasets/images/candidate_manifest.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/option_checks.h"
#include "labeling/holdout_freeze.h"
#include "labeling/holdout_sampling.h"
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
  std::string sampling;
  std::optional<std::size_t> per_class;
  std::size_t min_votes = 10;
  uint64_t seed = 0;
  std::string reference;            // a labeled candidate folder (or its candidates.json)
  std::string reference_store;      // its label store; default labels.sqlite beside it
  std::string reference_histogram;  // or a histogram file
};

fs::path FolderOf(const fs::path& candidates) {
  return fs::is_directory(candidates) ? candidates : (candidates.has_parent_path() ? candidates.parent_path() : ".");
}

using Decisions = std::map<std::pair<std::string, std::string>, labeling::Decision>;

// The decisions of a label store, with what identifies the state they were read from.
struct DecisionsRead {
  Decisions decisions;
  std::size_t events = 0;  // events in the log when it was read
  int64_t last_seq = 0;    // the last of them (0 for an empty log)
  // SHA-256 of the decisions, one "item TAB labeler TAB label TAB seq" line each in key order: what a histogram was
  // computed from. A hash of the store's file would miss what a running label server has committed to the WAL
  // but not yet checkpointed into it, and would change when only the checkpoint does.
  std::string sha256;
};

DecisionsRead ReadDecisions(const fs::path& store_file) {
  if (!fs::exists(store_file)) {
    throw InputError(store_file.string(), "no label store here: label with `evalsuite label serve` first");
  }
  labeling::LabelStore store(store_file);
  const std::vector<labeling::LabelEvent> events = store.Events();
  DecisionsRead read;
  read.decisions = labeling::CurrentDecisions(events);
  read.events = events.size();
  read.last_seq = events.empty() ? 0 : events.back().seq;
  std::string lines;
  for (const auto& [key, decision] : read.decisions) {
    lines += key.first + "\t" + key.second + "\t" + std::string(labeling::LabelName(decision.label)) + "\t" +
             std::to_string(decision.seq) + "\n";
  }
  read.sha256 = Sha256Hex(lines);
  return read;
}

labeling::SamplingPlan MakeSamplingPlan(const FreezeArgs& args) {
  labeling::SamplingPlan plan = labeling::ParseSamplingPlan(args.sampling, args.per_class, args.min_votes, args.seed);
  const bool matched = plan.variant == labeling::SamplingPlan::Variant::kMatchedFrequency;
  if (matched && args.reference.empty() == args.reference_histogram.empty()) {
    throw UsageError("--reference",
                     "matched-frequency needs exactly one of --reference (a labeled candidate folder, "
                     "e.g. your validation images) and --reference-histogram FILE");
  }
  if (!matched && !(args.reference.empty() && args.reference_histogram.empty())) {
    throw UsageError("--reference", "only matched-frequency uses a reference");
  }
  if (!args.reference_histogram.empty()) plan.reference = labeling::ReadReferenceHistogram(args.reference_histogram);
  if (!args.reference.empty()) {
    const fs::path dir = FolderOf(args.reference);
    const fs::path store =
        args.reference_store.empty() ? dir / labeling::kDefaultStoreFile : fs::path(args.reference_store);
    const datasets::CandidateManifest reference = datasets::ReadCandidateManifest(args.reference);
    const DecisionsRead read = ReadDecisions(store);
    const labeling::AgreementReport agreement = labeling::ComputeAgreement(reference, read.decisions);
    plan.reference = labeling::HistogramFromAgreement(reference, agreement, args.min_votes);
    plan.reference->description["candidates"] = args.reference;
    plan.reference->description["store"] = store.string();
    plan.reference->description["store_events"] = read.events;
    plan.reference->description["store_last_seq"] = read.last_seq;
    plan.reference->description["decisions_sha256"] = read.sha256;
    if (plan.reference->description["images"] == 0) {
      throw InputError(store.string(), "no reference image has " + std::to_string(args.min_votes) +
                                           " or more votes: nothing to match (lower --min-votes or label more)");
    }
  }
  return plan;
}

void RunFreeze(const FreezeArgs& args) {
  labeling::FreezeRule rule = labeling::ParseFreezeRule(args.rule, args.min_labelers);
  rule.keep_near_duplicates = args.keep_near_duplicates;
  if (!args.sampling.empty()) {
    rule.sampling = MakeSamplingPlan(args);
    rule.text = "sampling:" + args.sampling;
    rule.min_labelers = rule.sampling->min_votes;
  }
  const fs::path candidates_dir = FolderOf(args.candidates);
  const fs::path store_file = args.store.empty() ? candidates_dir / labeling::kDefaultStoreFile : fs::path(args.store);
  const Decisions decisions = ReadDecisions(store_file).decisions;
  const datasets::CandidateManifest manifest = datasets::ReadCandidateManifest(args.candidates);
  const labeling::FreezeSummary summary =
      labeling::FreezeHoldout(manifest, candidates_dir, decisions, rule, args.out, args.name);
  std::cout << "Frozen holdout " << args.out << ": " << summary.selected << " images (" << rule.text << ", at least "
            << rule.min_labelers << " labeler" << (rule.min_labelers == 1 ? "" : "s") << ")\n"
            << "Version: " << summary.holdout.version_hash << "\n";
  if (summary.sampling) {
    const auto& by_bin = summary.sampling->chosen_by_bin;
    std::cout << "Seed " << rule.sampling->seed << "; images per selection-frequency bin [0,.2) [.2,.4) [.4,.6) "
              << "[.6,.8) [.8,1]: " << by_bin[0] << " " << by_bin[1] << " " << by_bin[2] << " " << by_bin[3] << " "
              << by_bin[4] << "\n";
    if (!summary.sampling->thin_reference_classes.empty()) {
      std::cout << "Warning: " << summary.sampling->thin_reference_classes.size()
                << " class(es) matched against a histogram of fewer than " << labeling::kMinReferenceImagesPerClass
                << " reference images (ImageNetV2's minimum; class: images):";
      for (const auto& t : summary.sampling->thin_reference_classes) std::cout << " " << t.wnid << ":" << t.images;
      std::cout << "; their targets rest on so few votes that they are mostly noise (recorded in the manifest as "
                   "thin_reference_classes)\n";
      SetExitCode(kExitWithWarnings);
    }
    if (!summary.sampling->short_classes.empty()) {
      std::cout << summary.sampling->short_classes.size() << " classes could not be filled (class: images lacking):";
      for (const auto& s : summary.sampling->short_classes) std::cout << " " << s.wnid << ":" << s.lacking;
      std::cout << "\n";
      SetExitCode(kExitWithWarnings);
    }
  }
  std::cout << "Left out of " << summary.candidates << " candidates: " << summary.too_few_labelers
            << " with too few labelers, " << summary.rejected_by_rule
            << (summary.sampling ? " eligible but not drawn, " : " rejected by the rule, ") << summary.controls_left_out
            << " hidden controls, " << summary.near_duplicates_left_out
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
                   "majority (more than half of an item's labelers said correct), frequency>=X (0..1), or "
                   "dawid-skene>=P (Dawid-Skene's probability that the image is correct, 0..1)")
      ->capture_default_str();
  freeze->add_option("--min-labelers", args->min_labelers, "Leave out items judged by fewer labelers")
      ->capture_default_str()
      ->check(WholeNumber(0, 1000000));
  freeze->add_option("--out", args->out, "The new holdout folder (must not exist, or be empty)")->required();
  freeze->add_option("--name", args->name, "Holdout name in the manifest (default: the folder name)");
  CLI::Option* sampling =
      freeze->add_option("--sampling", args->sampling,
                         "Per-class sampling as ImageNetV2: matched-frequency (against --reference or "
                         "--reference-histogram), threshold:X (random among frequency >= X) or top[:N] (highest "
                         "frequency); replaces --rule");
  freeze->add_option("--per-class", args->per_class, "Images per class when sampling (default 10)")
      ->check(WholeNumber(1, 1000000));
  freeze->add_option("--min-votes", args->min_votes, "Sampling: only items with at least K labelers")
      ->capture_default_str()
      ->check(WholeNumber(0, 1000000));
  freeze->add_option("--seed", args->seed, "Sampling: the seed of the random draws (recorded in the manifest)")
      ->capture_default_str()
      ->check(SeedNumber());
  freeze->add_option("--reference", args->reference,
                     "matched-frequency: a candidate folder labeled in this tool (e.g. your original validation "
                     "images) whose selection frequencies per class give the histogram");
  freeze->add_option("--reference-store", args->reference_store, "The reference's label store (default: beside it)");
  freeze->add_option("--reference-histogram", args->reference_histogram,
                     "matched-frequency: a JSON file {\"pooled\": [5 counts], \"classes\": {wnid: [5 counts]}}");
  for (const char* name :
       {"--per-class", "--min-votes", "--seed", "--reference", "--reference-store", "--reference-histogram"}) {
    freeze->get_option(name)->needs(sampling);
  }
  freeze->get_option("--rule")->excludes(sampling);
  freeze->add_flag("--keep-near-duplicates", args->keep_near_duplicates,
                   "Keep candidates holdout dedupe flagged as near-duplicates (left out by default)");
  freeze->callback([args] { RunFreeze(*args); });
}

}  // namespace evalsuite::cli
