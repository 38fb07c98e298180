// The catalog of evalsuite's built-in Fashion-MNIST entries: each entry's name, description, metric, default
// threshold, epoch budget and its whole recipe as data. No LibTorch here, so the study code can validate
// entry names and read budgets without linking it; training/ turns a recipe into a training run.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::entries {

// Every built-in model sees pixels as (x / 255 - mean) / std with Fashion-MNIST's training-set statistics.
constexpr double kInputMean = 0.2860;
constexpr double kInputStd = 0.3530;
constexpr int kInputSide = 28;
constexpr int kNumClasses = 10;
constexpr const char* kMetricName = "val_top1";  // top-1 accuracy on the validation split, a fraction
constexpr double kDefaultThreshold = 0.91;
// The validation split every built-in entry is evaluated on: half of Fashion-MNIST's 10,000 test images
// (datasets/fashion_mnist). Reports use it for the metric's binomial standard error at the target.
constexpr int kValidationImages = 5000;

// The one model family: conv3x3(c1)-BN-ReLU-maxpool2, conv3x3(c2)-BN-ReLU-maxpool2, then a "dense" 7x7
// convolution over the 7x7 feature grid (head_units outputs, ReLU) and a linear layer to 10 logits. Inputs
// smaller than 28x28 (progressive resizing) have their feature grid resampled to 7x7 by adaptive average
// pooling first. The 7x7 convolution instead of flatten+linear keeps the heavy layer in oneDNN, which is
// several times faster on CPU than the reference BLAS Debian's LibTorch falls back to for matrix products.
struct ModelSpec {
  int conv1_channels = 16;
  int conv2_channels = 32;
  int head_units = 128;
};

// The first `until_fraction` of the run's epochs train at side x side pixels (area-downscaled), in order;
// epochs after the last stage train at 28x28.
struct ResizeStage {
  double until_fraction = 0;
  int side = kInputSide;
};

// A training recipe: SGD (Nesterov momentum) with a per-step learning-rate schedule, all as data.
struct Recipe {
  ModelSpec model;
  int batch_size = 128;
  double learning_rate = 0.05;  // peak rate, after warm-up and batch-size scaling
  // Linear scaling rule (Goyal et al. 2017): learning_rate = reference_learning_rate * batch_size /
  // reference_batch_size; recorded so the scaling is visible in every run log.
  double reference_learning_rate = 0.05;
  int reference_batch_size = 128;
  double momentum = 0.9;
  bool nesterov = true;
  double weight_decay = 5e-4;
  double label_smoothing = 0;
  // "cosine": cosine decay to 0 over the run (after warm-up); "step": see step_fraction; "one-cycle":
  // linear rise from learning_rate / one_cycle_start_divisor to learning_rate over the first
  // one_cycle_peak_fraction of the run, then cosine decay to learning_rate / one_cycle_end_divisor.
  std::string schedule = "cosine";
  // Linear warm-up from 0 over this fraction of the run's epochs (cosine and step; one-cycle has its own
  // ramp). A fraction, like every part of the schedule, so that `--epochs` scales the whole schedule.
  double warmup_fraction = 0;
  double step_fraction = 0;  // step: multiply by step_gamma after every step_fraction of the run
  double step_gamma = 0.1;
  double one_cycle_peak_fraction = 0.3;
  double one_cycle_start_divisor = 25;
  double one_cycle_end_divisor = 1e4;
  std::vector<ResizeStage> resize_stages;
  std::string precision = "fp32";  // "fp32" or "bf16" (bfloat16 autocast on CPU for training steps)
  // Augmentation, per image: horizontal flip with this probability, shift by up to this many pixels.
  double flip_probability = 0;
  int max_shift_pixels = 0;
};

// Epochs a recipe takes to reach a target on all the training images at the entry's epoch budget (the median over
// seeds of the first evaluation at or above it, 4 evaluations per epoch). A property of the recipe, not of the
// machine: the precision choice (precision_choice.h) multiplies it by the time per image it measures here.
struct EpochsAtTarget {
  double target = 0;
  double epochs = 0;
};

struct BuiltinEntry {
  std::string name;
  std::string description;  // one line: the optimization the entry stands for
  std::string metric = kMetricName;
  double threshold = kDefaultThreshold;
  int epoch_budget = 10;
  Recipe recipe;
  // What the entry trains where its recipe asks for bf16 but the run trains in fp32 (its timed steps show the fp32
  // form reaching the target sooner, or fp32 is forced). A bf16 recipe's batch and schedule are tuned to bf16's cheaper
  // steps; at fp32's cost per step another trade reaches the target sooner. Unset: the recipe itself, in fp32.
  std::optional<Recipe> fp32_form;
  // Epochs to target of the recipe as written and of the fp32 form, ascending by target, where the entry has both
  // forms: steps per second alone would favour a form that needs more epochs. Empty: not measured.
  std::vector<EpochsAtTarget> epochs_to_target;
  std::vector<EpochsAtTarget> fp32_form_epochs_to_target;
};

// The epochs at `target` from a table ascending by target: linear between its rows, the nearest row's outside them
// (the forms are compared by the ratio of their epochs, which changes slowly); none for an empty table.
std::optional<double> EpochsToTargetAt(const std::vector<EpochsAtTarget>& table, double target);

// The recipe a run of an entry trains, in the precision chosen for it, and what the run's record says of it.
struct RecipeAsRun {
  Recipe recipe;     // its precision is the one chosen
  std::string form;  // "as written" or "fp32 form"
  std::string note;  // one sentence when the fp32 form runs (the precision choice's reason gets it), else empty
};

// The one decision of which of an entry's recipes runs in `precision` ("fp32" or "bf16").
RecipeAsRun RecipeForPrecision(const BuiltinEntry& entry, const std::string& precision);

// Every built-in entry, in display order ("baseline" first: the default entry).
const std::vector<BuiltinEntry>& BuiltinEntries();
// nullptr when `name` is not a built-in entry.
const BuiltinEntry* FindBuiltinEntry(const std::string& name);
// Throws UsageError (where = "ENTRY") listing the valid names when `name` is unknown.
const BuiltinEntry& BuiltinEntryOrThrow(const std::string& name);
// "baseline, cyclic-lr, ..." for messages.
std::string BuiltinEntryNames();

// The learning rate at `epoch` (fractional: epoch 1.5 is halfway through the second epoch) of a run of
// `total_epochs` epochs. The schedule spans the run's epochs, so `--epochs 3` compresses it to 3 epochs.
double LearningRateAt(const Recipe& recipe, double epoch, double total_epochs);
// The side length images have during epoch `epoch_index` (0-based) of a run of `total_epochs`.
int ResolutionAt(const Recipe& recipe, int epoch_index, int total_epochs);

// Every recipe field, for run-log headers and `evalsuite entries --json`.
nlohmann::json RecipeToJson(const Recipe& recipe);
nlohmann::json EntryToJson(const BuiltinEntry& entry);

}  // namespace evalsuite::entries
