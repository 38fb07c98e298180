// One training run of a built-in entry on Fashion-MNIST: trains on the train split, evaluates top-1 on the
// validation split after every epoch (or several times per epoch), and records the run as evaluation
// points (JSON Lines log optional). TTA follows DAWNBench: training seconds, evaluation excluded, until the
// first evaluation at or above the target. The holdout split is never touched here. LibTorch stays inside the .cpp
// files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "datasets/fashion_mnist/fashion_mnist.h"
#include "entries/builtin_entries.h"
#include "entries/precision_choice.h"
#include "runlog/jsonl_run_log.h"
#include "runlog/run_log.h"

namespace evalsuite::training {

// Separate seeds for each source of randomness of one run, derived from its run seed with SplitMix64
// (common/seeds.h): stream 1 = weight initialization, 2 = data order, 3 = augmentation. (The run seed
// itself comes from the study's seed: study::DeriveSeedPerRun.)
struct RunSeeds {
  uint64_t run = 0;
  uint64_t init = 0;
  uint64_t data_order = 0;
  uint64_t augmentation = 0;
  bool given = false;  // a [variance] design gave one or more of the streams (TrainOptions), not all derived
};
RunSeeds DeriveStreamSeeds(uint64_t run_seed);
nlohmann::json RunSeedsToJson(const RunSeeds& seeds);

struct TrainOptions {
  uint64_t seed = 0;
  // A study's [variance] design gives a source its seed; an unset one derives from `seed` (DeriveStreamSeeds), so a
  // run given none has the seeds, and the curve, it always had.
  std::optional<uint64_t> init_seed;
  std::optional<uint64_t> data_order_seed;
  std::optional<uint64_t> augmentation_seed;
  int threads = 0;                     // LibTorch intra-op threads; 0 = every core
  std::optional<double> target;        // default: the entry's threshold
  std::optional<int> epochs;           // default: the entry's epoch budget; the LR schedule spans these
  std::optional<size_t> train_subset;  // train on the first N training images only (quick runs, tests)
  bool stop_at_target = false;         // stop after the first evaluation at or above the target
  // Validation evaluations per epoch, evenly spaced by steps, the last at the epoch's end. 1 is DAWNBench's
  // grid; more make TTA finer (a run's TTA can only be one of the evaluation times). At most the epoch's steps.
  int evals_per_epoch = 1;
  // Where to write the JSON Lines log; nullptr = no log. Opened by the caller, so an unwritable path is
  // reported before any data is loaded or any training starts.
  runlog::JsonlRunLogWriter* log = nullptr;
  // When set: DIR/at_target.pt (the model at the first evaluation at or above the target), DIR/final.pt
  // (the model at the end) as TorchScript, and DIR/model.json (preprocessing spec, accuracies).
  std::optional<std::filesystem::path> model_dir;
  // Called after every evaluation (progress output).
  std::function<void(const runlog::EvalPoint&)> on_eval;
  // The precision to train in, decided by the caller from the entry's timed steps (entries/precision_choice.h) and
  // recorded in the log header ("precision": "fp32" | "bf16", "precision_choice": {..., reason, measured}). Unset:
  // ChoosePrecision(entry, "auto", nothing measured), i.e. fp32.
  std::optional<entries::PrecisionChoice> precision;
  // Facts the caller adds to the log header (e.g. the data folder).
  nlohmann::json extra_header = nlohmann::json::object();
};

struct TrainResult {
  runlog::RunLog run;  // header, one point per evaluation, status, total times
  std::optional<double> tta_seconds;
  int epochs_run = 0;       // epochs begun (the last may be partial when the run stopped at the target)
  int evals_per_epoch = 1;  // as used: the option, capped at the steps of an epoch
  double target = 0;
  int threads = 0;
  RunSeeds seeds;
  entries::PrecisionChoice precision;  // what it trained in, and why
  entries::Recipe recipe;              // the recipe as it ran (entries::RecipeForPrecision)
  // FLOPs and bytes per sample, achieved FLOP/s per phase, time and memory breakdowns (step_accounting.h); the
  // log's end record carries it as "hardware".
  nlohmann::json hardware = nlohmann::json::object();
};

// Throws UsageError naming the option (--threads, --epochs, --target, --train-subset, --evals-per-epoch) that is
// out of range. Train calls it; the CLI calls it first, before any data is loaded.
void ValidateTrainOptions(const entries::BuiltinEntry& entry, const TrainOptions& options);

// Runs `entry` on `data` (train and validation splits). Never throws for a failure of training itself
// (a LibTorch error, a loss that turned NaN): the run ends with status "failed" and RunLog::error, as the
// log's end record says. Throws evalsuite::Error for bad options (UsageError naming the option) and for
// files it cannot write (IoError).
TrainResult Train(const entries::BuiltinEntry& entry, const datasets::FashionMnist& data, const TrainOptions& options);

// LibTorch's version ("1.13.0") and the facts of the LibTorch build the run used.
nlohmann::json TrainingLibraryVersions();

}  // namespace evalsuite::training
