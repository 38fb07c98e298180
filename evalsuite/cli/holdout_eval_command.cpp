// `evalsuite holdout eval`: every model on every frozen image set, with intervals, pairwise exact McNemar
// tests and the group verdict; prints a compact Table-4 style summary and writes the report's
// "generalization" section (a JSON array, one object per image set; see reports/generalization_section.h).
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "common/allocator_tuning.h"
#include "common/atomic_file.h"
#include "common/environment.h"
#include "common/error.h"
#include "common/exit_codes.h"
#include "common/openmp_wait_policy.h"
#include "datasets/images/holdout_manifest.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/option_checks.h"
#include "generalization/holdout_evaluation.h"
#include "generalization/model_spec.h"
#include "generalization/predictions.h"
#include "store/run_models.h"
#include "store/run_store.h"
#include "store/study_choice.h"

namespace evalsuite::cli {
namespace {
using nlohmann::json;

struct HoldoutEvalArgs {
  std::vector<std::string> holdouts;
  std::vector<std::string> models;
  std::string store;
  std::string study;
  std::string which = "at_target";
  std::string preprocess;
  std::string json_file;
  std::string predictions_file;  // default: beside --json, <stem>.predictions.jsonl
  std::string compare;
  int threads = 2;
  int batch = 0;  // 0: measured at start-up (batch_size_probe.h)
  int depth = 2;
  double margin = 0.01;
  std::string metric = "top1";
  std::string basis = "accuracy";
  std::string reference;
  std::string pair_metrics;
  bool tolerate_missing = false;
  int64_t max_pixels = datasets::kDefaultMaxImagePixels;
  bool no_optimize = false;
};

// The TTA-optimized models of a study: <run_dir>/model/<which>.pt of each run the report counts, named
// <entry>-run<index> (store/run_models.h chooses them).
std::vector<generalization::ModelSpec> ModelsFromStore(const HoldoutEvalArgs& args) {
  std::unique_ptr<store::RunStore> store = store::RunStore::OpenForReading(args.store);
  // Without --study, the only study the store ran (imports leave no models): evaluating the latest of several
  // would be a guess.
  const store::StudyInfo info =
      store::ChooseStudy(*store, args.study, args.store, {/*kind=*/"study", /*only_one=*/true, "--study"});
  const store::RunModelSelection selection = store::SelectRunModels(*store, info, args.which);
  std::vector<generalization::ModelSpec> models;
  for (const store::RunModelFile& run : selection.models) {
    generalization::ModelSpec spec;
    spec.name = fmt::format("{}-run{}", run.entry, run.run_index);
    spec.group = generalization::kGroupTtaOptimized;
    spec.file = run.file;
    generalization::ApplySidecar(&spec);
    models.push_back(std::move(spec));
  }
  const int without_model = selection.counted_without_model;
  std::cerr << fmt::format("study {}: {} run model{} ({}.pt){}\n", info.name, models.size(),
                           models.size() == 1 ? "" : "s", args.which,
                           without_model ? fmt::format("; {} counted run{} without one (not reached, or models not "
                                                       "kept)",
                                                       without_model, without_model == 1 ? "" : "s")
                                         : "");
  return models;
}

void Run(const HoldoutEvalArgs& args) {
  if (args.threads < 1) throw UsageError("--threads", "must be at least 1");
  if (args.batch < 0) throw UsageError("--batch", "must be at least 1 (0 = measured at start-up)");
  if (args.depth < 0) throw UsageError("--depth", "must be at least 0");
  if (!(args.margin >= 0 && args.margin < 1)) throw UsageError("--margin", "must be a proportion in [0, 1), e.g. 0.01");
  if (args.metric != "top1" && args.metric != "top5") throw UsageError("--metric", "must be top1 or top5");
  if (args.basis != "accuracy" && args.basis != "gap") throw UsageError("--verdict-basis", "must be accuracy or gap");
  if (args.basis == "gap" && args.metric != "top1") {
    throw UsageError("--verdict-basis", "gap compares with validation top-1; use it with --metric top1");
  }
  if (args.which != "at_target" && args.which != "final") throw UsageError("--which", "must be at_target or final");
  if (args.max_pixels < 1) throw UsageError("--max-pixels", "must be positive");
  std::filesystem::path predictions_file = args.predictions_file;
  if (predictions_file.empty() && !args.json_file.empty()) {
    predictions_file = std::filesystem::path(args.json_file).replace_extension(".predictions.jsonl");
  }
  if (!args.compare.empty() && predictions_file.empty()) {
    throw UsageError("--compare", "needs --json (the predictions are written beside it) or --predictions FILE");
  }
  if (!args.compare.empty() && !std::filesystem::is_regular_file(args.compare)) {
    throw UsageError("--compare", "\"" + args.compare + "\" is not a readable file");
  }
  // Every holdout must at least be readable before any model is loaded.
  std::vector<datasets::Holdout> holdouts;
  for (const std::string& dir : args.holdouts) holdouts.push_back(datasets::ReadHoldout(dir));

  std::vector<generalization::ModelSpec> models;
  for (const std::string& argument : args.models) {
    generalization::ModelSpec spec = generalization::ParseModelArgument(argument);
    generalization::ApplySidecar(&spec);
    models.push_back(std::move(spec));
  }
  if (!args.store.empty()) {
    for (auto& spec : ModelsFromStore(args)) models.push_back(std::move(spec));
  } else if (!args.study.empty()) {
    throw UsageError("--study", "needs --models-from-store STORE");
  }
  if (models.empty())
    throw UsageError("--model", "no model to evaluate: give --model NAME=FILE or --models-from-store");

  generalization::EvaluationOptions options;
  options.default_preprocess = args.preprocess.empty()
                                   ? generalization::DefaultPreprocessFor(holdouts.front().class_list)
                                   : datasets::ResolvePreprocessSpec(args.preprocess);
  if (!args.preprocess.empty()) {
    // An explicit --preprocess wins over what the sidecars say.
    for (auto& spec : models) spec.preprocess.reset();
  }
  options.pipeline.threads = args.threads;
  const int fallback_batch = generalization::DefaultBatchFor(options.default_preprocess);
  options.pipeline.batch = args.batch > 0 ? args.batch : fallback_batch;
  options.pipeline.depth = args.depth;
  options.pipeline.decode.max_pixels = args.max_pixels;
  options.verdict.metric = args.metric;
  options.verdict.margin = args.margin;
  options.verdict.basis = args.basis;
  options.verdict.reference = args.reference;
  options.pair_metrics = {args.metric};
  if (args.pair_metrics == "both") options.pair_metrics = {"top1", "top5"};
  options.tolerate_missing = args.tolerate_missing;
  options.classifier.optimize = !args.no_optimize;
  generalization::SetInferenceThreads(args.threads);
  const json allocator = TuneAllocatorForTensors();

  generalization::HoldoutEvaluator evaluator(std::move(models), options);
  for (const std::string& note : evaluator.notes()) std::cerr << "model " << note << "\n";
  for (const generalization::ModelFailure& f : evaluator.load_failures()) {
    std::cerr << fmt::format("error: model {} ({}) left out: {}\n", f.name, f.file, f.reason);
  }
  if (args.batch == 0) {  // measured on the loaded models, bounded by the images this run will classify
    generalization::BatchProbeOptions probe;
    probe.fallback = fallback_batch;
    for (const datasets::Holdout& h : holdouts) {
      probe.images += h.items.size();
      probe.largest_set = std::max(probe.largest_set, h.items.size());
    }
    std::cerr << generalization::DescribeBatchProbe(evaluator.ChooseBatchSize(probe)) << "\n";
  }
  std::ofstream predictions;
  if (!predictions_file.empty()) {
    predictions.open(predictions_file, std::ios::binary | std::ios::trunc);
    if (!predictions) throw IoError(predictions_file.string(), "cannot write the predictions file");
  }
  json sections = json::array();
  size_t unreadable = 0;
  std::set<std::string> failed;
  for (const std::string& dir : args.holdouts) {
    json set = evaluator.Evaluate(dir, predictions.is_open() ? &predictions : nullptr);
    set["pipeline"]["allocator"] = allocator;
    set["pipeline"]["openmp_wait"] = OpenMpWaitPolicy();
    if (predictions.is_open()) {
      predictions.flush();
      if (!predictions) throw IoError(predictions_file.string(), "cannot write the predictions file");
      set["predictions_file"] = predictions_file.string();
    }
    for (const json& f : set["failed_models"]) {
      if (failed.insert(f["name"].get<std::string>()).second && f["stage"] != "load") {
        std::cerr << fmt::format("error: model {} ({}) left out: {}\n", f["name"].get<std::string>(),
                                 f["file"].get<std::string>(), f["reason"].get<std::string>());
      }
    }
    for (const json& warning : set["warnings"]) std::cerr << "warning: " << warning.get<std::string>() << "\n";
    for (const json& w : set["decoder_warnings"]) {  // damaged but decodable files, named
      std::cerr << "warning: " << (std::filesystem::path(dir) / w["path"].get<std::string>()).string() << ": "
                << w["warning"].get<std::string>() << "\n";
    }
    unreadable += set["unreadable"].get<size_t>();
    std::cout << generalization::SummarizeImageSet(set) << "\n";
    std::cerr << fmt::format("{}: {:.1f} s, {:.0f} images/s\n", set["image_set"].get<std::string>(),
                             set["pipeline"]["seconds"].get<double>(),
                             set["pipeline"]["images_per_second"].get<double>());
    sections.push_back(std::move(set));
    if (!args.json_file.empty()) {  // rewritten after every image set: a later failure loses nothing
      WriteFileAtomically(args.json_file, sections.dump(1) + "\n");
    }
  }
  if (!args.compare.empty()) {
    predictions.close();
    const json comparison = generalization::ComparePredictions(predictions_file, args.compare);
    std::cout << generalization::SummarizeComparison(comparison);
    const std::filesystem::path out =
        std::filesystem::path(args.json_file.empty() ? predictions_file : std::filesystem::path(args.json_file))
            .replace_extension(".comparison.json");
    WriteFileAtomically(out, comparison.dump(1) + "\n");
    std::cerr << "comparison written to " << out.string() << "\n";
  }
  if (unreadable > 0) {
    std::cerr << fmt::format("warning: {} image{} could not be read (see \"failures\" in the JSON)\n", unreadable,
                             unreadable == 1 ? "" : "s");
    SetExitCode(kExitWithWarnings);
  }
  if (!failed.empty()) {
    std::cerr << fmt::format(
        "error: {} model{} failed and {} left out (see \"failed_models\" in the JSON); the "
        "others were evaluated\n",
        failed.size(), failed.size() == 1 ? "" : "s", failed.size() == 1 ? "was" : "were");
    SetExitCode(kExitSomeFailed);
  }
}

}  // namespace

void RegisterHoldoutEvalCommand(CLI::App& holdout) {
  auto args = std::make_shared<HoldoutEvalArgs>();
  CLI::App* command = holdout.add_subcommand(
      "eval", "Evaluate TorchScript models on frozen holdouts: accuracy with intervals, McNemar tests, verdict");
  command->add_option("--holdout", args->holdouts, "Frozen holdout folder (repeat for shifted variants)")->required();
  command->add_option("--model", args->models,
                      "NAME=FILE[:group] (TorchScript; group defaults to pretrained; a sidecar beside it, the first of "
                      "FILE.json, STEM.json and model.json (m.pt: m.pt.json, m.json), may give validation_accuracy, "
                      "preprocess, classes)");
  command->add_option("--models-from-store", args->store,
                      "Also evaluate the run models of a study store (tta-optimized)");
  command->add_option("--study", args->study, "The study in the store (needed when it holds several)");
  command->add_option("--which", args->which, "Which run model: at_target or final")->capture_default_str();
  command->add_option("--preprocess", args->preprocess,
                      "Preset (imagenet, fashion-mnist) or JSON spec file; default: from the model's sidecar, else "
                      "by the holdout's class list");
  command->add_option("--json", args->json_file,
                      "Write the generalization section (JSON array) here, and per-image predictions beside it "
                      "(<stem>.predictions.jsonl)");
  command->add_option("--predictions", args->predictions_file,
                      "Write the per-image predictions (JSON Lines: image, label, kind, model, top5, scores) here");
  command->add_option("--compare", args->compare,
                      "A torchvision run's predictions in the same format (image, model, top5): report agreement "
                      "per model and image kind");
  command->add_option("--threads", args->threads, "Decode threads and LibTorch threads")
      ->capture_default_str()
      ->check(WholeNumber(1, 1024));
  command
      ->add_option(
          "--batch", args->batch,
          "Images per inference batch (default: the fastest of 8..256 measured at start-up on the loaded models, "
          "within a time budget; 256 for inputs up to 64x64, else 32, when the holdout is too small to "
          "measure)")
      ->check(WholeNumber(0, 1 << 16));
  command->add_option("--depth", args->depth, "Batches prepared ahead of inference (memory: (depth+1) batches)")
      ->capture_default_str()
      ->check(WholeNumber(0, 64));
  command->add_option("--margin", args->margin, "Accuracy loss tolerated in the verdict (proportion)")
      ->capture_default_str()
      ->check(FiniteNumber(0, 1));
  command->add_option("--metric", args->metric, "Verdict metric: top1 or top5")->capture_default_str();
  command
      ->add_option("--verdict-basis", args->basis,
                   "accuracy: holdout accuracy against the reference's; gap: the holdout difference beyond what the "
                   "validation accuracies predict (for models stopped at different accuracies)")
      ->capture_default_str();
  command->add_option("--reference", args->reference, "Pretrained model to compare against (default: the best)");
  command->add_option("--pair-metrics", args->pair_metrics, "\"both\": test every pair on top-1 and top-5");
  command->add_flag("--tolerate-missing", args->tolerate_missing,
                    "Record missing image files per image instead of refusing the holdout");
  command->add_option("--max-pixels", args->max_pixels, "Refuse images declaring more pixels than this")
      ->capture_default_str()
      ->check(WholeNumber(1));
  command->add_flag("--no-optimize", args->no_optimize, "Skip torch.jit.optimize_for_inference");
  command->callback([args] { Run(*args); });
}

}  // namespace evalsuite::cli
