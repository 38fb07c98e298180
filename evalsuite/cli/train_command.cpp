// `evalsuite train ENTRY`: one training run of a built-in entry on Fashion-MNIST, with a JSON Lines log of
// every evaluation and a human summary (TTA first) on stdout.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>

#include "common/error.h"
#include "datasets/fashion_mnist/fashion_mnist.h"
#include "entries/builtin_entries.h"
#include "entries/precision_choice.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/option_checks.h"
#include "runlog/jsonl_run_log.h"
#include "study/plans/ceilings_record.h"
#include "training/machine_ceilings.h"
#include "training/trainer.h"

namespace evalsuite::cli {
namespace {

struct TrainArgs {
  std::string entry;
  uint64_t seed = 0;
  std::optional<uint64_t> init_seed, data_seed, aug_seed;  // a [variance] design's: taken instead of derived
  int threads = 0;
  std::optional<double> target;
  std::optional<int> epochs;
  std::optional<size_t> train_subset;
  bool stop_at_target = false;
  int evals_per_epoch = 1;
  std::string log;
  std::string data = datasets::kDefaultFashionMnistDir;
  std::string model_dir;
  std::string precision = entries::kPrecisionAuto;
  std::string precision_ceilings;  // an `evalsuite machine --json` file, "none", or empty: measure now
};

// The ceilings the precision choice reads: a file (a study writes its own for its runs, with its step timings), none,
// or a few steps of each of the entry's forms timed now (about a second). Asked for every bf16 recipe, forced too, so
// that the run's record shows what the choice was worth.
nlohmann::json PrecisionCeilings(const TrainArgs& args, const entries::BuiltinEntry& entry) {
  if (args.precision_ceilings == "none") return nullptr;
  if (!args.precision_ceilings.empty()) {
    return study::ReadCeilingsFileOrNull(args.precision_ceilings);
  }
  return training::MeasurePrecisionProbes(entry, args.threads);
}

void RunTrain(const TrainArgs& args) {
  const entries::BuiltinEntry& entry = entries::BuiltinEntryOrThrow(args.entry);
  training::TrainOptions options;
  options.seed = args.seed;
  options.init_seed = args.init_seed;
  options.data_order_seed = args.data_seed;
  options.augmentation_seed = args.aug_seed;
  options.threads = args.threads;
  options.target = args.target;
  options.epochs = args.epochs;
  options.train_subset = args.train_subset;
  options.stop_at_target = args.stop_at_target;
  options.evals_per_epoch = args.evals_per_epoch;
  if (!args.model_dir.empty()) options.model_dir = args.model_dir;
  const int epochs = args.epochs.value_or(entry.epoch_budget);
  const double target = args.target.value_or(entry.threshold);
  // Checks the option's value before anything is measured.
  entries::ChoosePrecision(entry, args.precision, nullptr, {target}, "--precision");
  // Everything that can be checked cheaply is checked before the data is loaded and training starts.
  training::ValidateTrainOptions(entry, options);
  // Read (a bad file is refused) or measured before the log is opened, so that a refused file leaves no empty log.
  const nlohmann::json machine =
      entry.recipe.precision == "bf16" ? PrecisionCeilings(args, entry) : nlohmann::json(nullptr);
  std::unique_ptr<runlog::JsonlRunLogWriter> log;
  if (!args.log.empty()) log = std::make_unique<runlog::JsonlRunLogWriter>(args.log);
  options.log = log.get();
  const datasets::FashionMnist data = datasets::LoadFashionMnist(args.data);
  const entries::RunGoal goal{target, std::min(data.train.size(), args.train_subset.value_or(data.train.size()))};
  options.precision = entries::ChoosePrecision(entry, args.precision, machine, goal, "--precision");
  options.on_eval = [epochs, target](const runlog::EvalPoint& p) {
    std::cout << fmt::format("epoch {:>5}/{}  val_top1 {:.4f}{}  train_loss {:.4f}  train {:7.1f} s  wall {:7.1f} s\n",
                             runlog::FormatEpoch(p.epoch), epochs, p.metric, p.metric >= target ? "*" : " ",
                             p.train_loss.value_or(0.0), p.train_seconds, p.wall_seconds)
              << std::flush;
  };
  std::cout << fmt::format("evalsuite train {}: seed {}, {} epochs, target {} {}, data {}{}\n", entry.name, args.seed,
                           epochs, entry.metric, target, args.data,
                           args.train_subset ? fmt::format(" (first {} training images)", *args.train_subset) : "")
            << std::flush;

  const training::TrainResult result = training::Train(entry, data, options);

  double best = 0;
  for (const auto& p : result.run.points) best = std::max(best, p.metric);
  std::cout << fmt::format("precision {}: {}\n", result.precision.precision, result.precision.reason);
  std::cout << fmt::format("threads {}; seeds init {} data_order {} augmentation {}\n", result.threads,
                           result.seeds.init, result.seeds.data_order, result.seeds.augmentation);
  if (result.tta_seconds) {
    const auto reached = std::find_if(result.run.points.begin(), result.run.points.end(),
                                      [&](const runlog::EvalPoint& p) { return p.metric >= target; });
    std::cout << fmt::format("TTA {:.1f} s: {} reached {} >= {} at epoch {} (training time, evaluation excluded)\n",
                             *result.tta_seconds, entry.name, entry.metric, target,
                             runlog::FormatEpoch(reached->epoch));
  } else if (result.run.status == analysis::EndedAs::kNotReached) {
    std::cout << fmt::format("TTA none: {} did not reach {} >= {} in {} epochs (best {:.4f})\n", entry.name,
                             entry.metric, target, result.epochs_run, best);
  }
  std::cout << fmt::format("status {}; {} epochs, best {} {:.4f}, training {:.1f} s, wall {:.1f} s\n",
                           runlog::LogEndName(result.run.status), result.epochs_run, entry.metric, best,
                           result.run.train_seconds, result.run.wall_seconds);
  if (!args.log.empty()) std::cout << "log: " << args.log << "\n";
  if (!args.model_dir.empty()) std::cout << "models: " << args.model_dir << "\n";
  if (result.run.status == analysis::EndedAs::kFailed) {
    throw ExternalError(entry.name, "training failed: " + result.run.error);
  }
}

}  // namespace

void RegisterTrainCommand(CLI::App& app) {
  auto args = std::make_shared<TrainArgs>();
  CLI::App* command = app.add_subcommand(
      "train", "Train one built-in entry once on Fashion-MNIST and report its time-to-accuracy (TTA)");
  command->add_option("ENTRY", args->entry, "Built-in entry (see `evalsuite entries`)")->required();
  command->add_option("--seed", args->seed, "Run seed; init, data-order and augmentation seeds derive from it")
      ->capture_default_str()
      ->check(SeedNumber());
  // A study's [variance] design gives each source's seed itself (study/plans/variance_design.h).
  command->add_option("--init-seed", args->init_seed, "Weight initialization's seed (default: derived from --seed)")
      ->check(SeedNumber());
  command->add_option("--data-seed", args->data_seed, "Data order's seed (default: derived from --seed)")
      ->check(SeedNumber());
  command->add_option("--aug-seed", args->aug_seed, "Augmentation's seed (default: derived from --seed)")
      ->check(SeedNumber());
  command
      ->add_option("--threads", args->threads,
                   "LibTorch threads (default 0 = every core: one run has the machine to itself; a study divides the "
                   "cores among its concurrent runs)")
      ->capture_default_str()
      ->check(WholeNumber(0, 1024));
  command->add_option("--target", args->target, "Target validation top-1 (default: the entry's threshold)")
      ->check(PositiveNumber(1));
  command->add_option("--epochs", args->epochs, "Epochs to run (default: the entry's budget)")
      ->check(WholeNumber(1, 100000));
  command->add_option("--train-subset", args->train_subset, "Train on the first N training images only")
      ->check(WholeNumber(1, 1000000000));
  command->add_flag("--stop-at-target", args->stop_at_target, "Stop after the first evaluation at the target");
  command
      ->add_option("--evals-per-epoch", args->evals_per_epoch,
                   "Validation evaluations per epoch, evenly spaced (finer TTA; evaluation time is excluded)")
      ->capture_default_str()
      ->check(WholeNumber(1, 10000));
  command->add_option("--log", args->log, "Write the JSON Lines run log to FILE");
  command->add_option("--data", args->data, "Folder with the Fashion-MNIST IDX files (gzipped or plain)")
      ->capture_default_str();
  command->add_option("--model-dir", args->model_dir,
                      "Save at_target.pt and final.pt (TorchScript) and model.json in DIR");
  command
      ->add_option("--precision", args->precision,
                   "auto: bf16 only where a few timed steps of each form of the entry, times its epochs to the "
                   "target, show bf16 reaching it sooner (else fp32); fp32 or bf16 force it")
      ->capture_default_str();
  command->add_option("--precision-ceilings", args->precision_ceilings,
                      "An `evalsuite machine --json` file whose step_probes the auto choice reads (none: nothing "
                      "measured, fp32); default: time a few steps of each form of the entry now (about a second)");
  command->callback([args] { RunTrain(*args); });
}

}  // namespace evalsuite::cli
