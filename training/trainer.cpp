#include "training/trainer.h"

#include <torch/torch.h>
#include <torch/version.h>
#include <zlib.h>

#include <chrono>
#include <cmath>
#include <exception>
#include <map>
#include <thread>

#include "common/allocator_tuning.h"
#include "common/environment.h"
#include "common/error.h"
#include "common/json_access.h"
#include "common/onednn_isa_cap.h"
#include "common/seeds.h"
#include "training/convnet.h"
#include "training/dense_product.h"
#include "training/model_description.h"
#include "training/step_accounting.h"
#include "training/train_step.h"

namespace evalsuite::training {
namespace fs = std::filesystem;
namespace F = torch::nn::functional;
using nlohmann::json;

namespace {

constexpr int64_t kEvalBatch = 250;  // small enough for the activations to stay in cache: ~2x faster than 1000
using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// [N, 1, 28, 28] float, normalized as every built-in model expects: (x / 255 - mean) / std.
torch::Tensor ImagesToTensor(const datasets::ImageSet& set) {
  const auto n = static_cast<int64_t>(set.size());
  torch::Tensor bytes =
      torch::from_blob(const_cast<uint8_t*>(set.pixels.data()), {n, 1, set.rows, set.cols}, torch::kUInt8);
  return ((bytes.to(torch::kFloat32) / 255.0f) - static_cast<float>(entries::kInputMean)) /
         static_cast<float>(entries::kInputStd);
}

torch::Tensor LabelsToTensor(const datasets::ImageSet& set) {
  const auto n = static_cast<int64_t>(set.size());
  return torch::from_blob(const_cast<uint8_t*>(set.labels.data()), {n}, torch::kUInt8).to(torch::kInt64);
}

// Random horizontal flips and shifts, per image, in place on a contiguous [B, 1, S, S] float batch. Plain
// loops: a few microseconds per batch, where per-image tensor ops would cost a LibTorch dispatch each.
void Augment(torch::Tensor& batch, const entries::Recipe& recipe, SplitMix64& rng) {
  if (recipe.flip_probability <= 0 && recipe.max_shift_pixels <= 0) return;
  const int64_t count = batch.size(0);
  const int64_t side = batch.size(2);
  const float background = static_cast<float>(-entries::kInputMean / entries::kInputStd);
  const int shift = recipe.max_shift_pixels;
  std::vector<float> source(static_cast<size_t>(side * side));
  float* data = batch.data_ptr<float>();
  for (int64_t i = 0; i < count; ++i) {
    const bool flip = recipe.flip_probability > 0 && rng.NextDouble() < recipe.flip_probability;
    const int64_t dx = shift > 0 ? static_cast<int64_t>(rng.NextBelow(2 * shift + 1)) - shift : 0;
    const int64_t dy = shift > 0 ? static_cast<int64_t>(rng.NextBelow(2 * shift + 1)) - shift : 0;
    if (!flip && dx == 0 && dy == 0) continue;
    float* image = data + i * side * side;
    std::copy(image, image + side * side, source.begin());
    for (int64_t y = 0; y < side; ++y) {
      const int64_t sy = y - dy;
      for (int64_t x = 0; x < side; ++x) {
        int64_t sx = x - dx;
        if (flip) sx = side - 1 - sx;
        const bool inside = sy >= 0 && sy < side && sx >= 0 && sx < side;
        image[y * side + x] = inside ? source[static_cast<size_t>(sy * side + sx)] : background;
      }
    }
  }
}

// Top-1 accuracy in fp32 with batch-norm running statistics (the model as it would be deployed).
double Evaluate(ConvNet& model, const torch::Tensor& images, const torch::Tensor& labels) {
  torch::NoGradGuard no_grad;
  model->eval();
  int64_t correct = 0;
  const int64_t n = images.size(0);
  for (int64_t start = 0; start < n; start += kEvalBatch) {
    const int64_t count = std::min(kEvalBatch, n - start);
    torch::Tensor x = images.narrow(0, start, count).contiguous(at::MemoryFormat::ChannelsLast);
    torch::Tensor predicted = model->forward(x).argmax(1);
    correct += predicted.eq(labels.narrow(0, start, count)).sum().item<int64_t>();
  }
  model->train();
  return n == 0 ? 0.0 : static_cast<double>(correct) / static_cast<double>(n);
}

std::vector<int64_t> Permutation(int64_t n, SplitMix64& rng) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  DeterministicShuffle(order.begin(), order.end(), rng);
  return order;
}

// One run as Train() resolved it: what trains, on what, for how long, towards which target.
struct RunPlan {
  const entries::BuiltinEntry& entry;
  const entries::Recipe& recipe;  // with the precision chosen
  const datasets::FashionMnist& data;
  const datasets::ImageSet& train_set;
  const TrainOptions& options;
  int epochs = 0;
  double target = 0;
  int evals_per_epoch = 1;
  Clock::time_point wall_start;
};

// What the run has done so far. It outlives a failure, so that the end record and the hardware summary describe
// what ran until then.
struct RunTotals {
  double train_seconds = 0;
  double dataset_bytes = 0;  // the tensors of the images it trained and evaluated on, resized copies included
  StepAccounting accounting;
  std::optional<SavedModel> at_target;
  std::optional<SavedModel> final_model;
};

// The log's header: the entry, its recipe as it runs, seeds, precision and why, threads, data and environment.
json RunHeader(const RunPlan& run, const TrainResult& result, const json& allocator) {
  const TrainOptions& options = run.options;
  json hyperparameters = entries::RecipeToJson(run.recipe);
  hyperparameters["epochs"] = run.epochs;
  hyperparameters["stop_at_target"] = options.stop_at_target;
  hyperparameters["evals_per_epoch"] = run.evals_per_epoch;
  hyperparameters["train_subset"] = JsonOrNull(options.train_subset);
  json header = {
      {"entry", run.entry.name},
      {"description", run.entry.description},
      {"hyperparameters", hyperparameters},
      {"seeds", RunSeedsToJson(result.seeds)},
      // "precision" is the word external logs declare too (runlog/declared_hardware.h); the choice and its reason
      // beside it.
      {"precision", result.precision.precision},
      {"precision_choice", entries::PrecisionChoiceToJson(result.precision)},
      {"threads", result.threads},
      {"metric", run.entry.metric},
      {"threshold", run.target},
      {"library_versions", TrainingLibraryVersions()},
      {"environment", DescribeEnvironment()},
      {"start_time", UtcNowIso8601()},
      {"data",
       {{"dataset", "fashion-mnist"},
        {"dir", run.data.dir.string()},
        {"train_images", run.train_set.size()},
        {"validation_images", run.data.validation.size()},
        {"split_seed", datasets::kFashionMnistSplitSeed}}},
  };
  header["environment"]["threads"] = result.threads;
  header["environment"]["allocator"] = allocator;
  if (options.model_dir) header["model_dir"] = options.model_dir->string();
  header.update(options.extra_header);
  return header;
}

// The model as training starts it: its weights drawn from the init stream, channels-last, in training mode (before
// the optimizer takes its parameters).
ConvNet NewTrainingModel(uint64_t init_seed, const entries::ModelSpec& spec) {
  torch::manual_seed(init_seed);
  ConvNet model(spec);
  UseChannelsLast(model);
  model->train();
  return model;
}

// The training itself: the model and its optimizer, the data as tensors, the data-order and augmentation streams;
// epoch by epoch, each evaluation recorded into the result (and the log, and the model at the target) as it is made.
class TrainingLoop {
 public:
  TrainingLoop(const RunPlan& run, RunTotals& totals, TrainResult& result)
      : run_(run),
        recipe_(run.recipe),
        totals_(totals),
        result_(result),
        model_(NewTrainingModel(result.seeds.init, recipe_.model)),
        step_(model_, recipe_),
        train_images_(ImagesToTensor(run.train_set)),
        train_labels_(LabelsToTensor(run.train_set)),
        val_images_(ImagesToTensor(run.data.validation)),
        val_labels_(LabelsToTensor(run.data.validation)),
        order_rng_(result.seeds.data_order),
        augment_rng_(result.seeds.augmentation),
        n_(train_images_.size(0)),
        steps_((n_ + recipe_.batch_size - 1) / recipe_.batch_size) {
    totals_.dataset_bytes = static_cast<double>(train_images_.nbytes() + val_images_.nbytes());
  }

  // Trains epoch `epoch` (0-based), evaluating at its evaluation points; false once the run stops at its target.
  bool RunEpoch(int epoch) {
    Clock::time_point segment_start = Clock::now();
    const int side = entries::ResolutionAt(recipe_, epoch, run_.epochs);
    const torch::Tensor& images = ImagesAtSide(side);
    std::vector<int64_t> order = Permutation(n_, order_rng_);
    const torch::Tensor order_tensor = torch::from_blob(order.data(), {n_}, torch::kInt64);
    double loss_sum = 0;  // since the previous evaluation
    int64_t loss_images = 0;
    int64_t evals_done = 0;
    // Evaluation k of an epoch (k = 1..evals) follows step k * steps / evals: evenly spaced, the last one at the
    // epoch's end, so that one evaluation per epoch is DAWNBench's grid and more make TTA finer.
    const int64_t evals = run_.evals_per_epoch;
    for (int64_t step = 0; step < steps_; ++step) {
      const int64_t start = step * recipe_.batch_size;
      const int64_t count = std::min<int64_t>(recipe_.batch_size, n_ - start);
      const double lr = entries::LearningRateAt(
          recipe_, epoch + static_cast<double>(step) / static_cast<double>(steps_), run_.epochs);
      const double loss_value = Step(images, order_tensor.narrow(0, start, count), side, lr);
      if (!std::isfinite(loss_value)) {
        throw std::runtime_error("training diverged: the loss is " + std::to_string(loss_value) + " at epoch " +
                                 std::to_string(epoch + 1) + ", step " + std::to_string(step + 1));
      }
      loss_sum += loss_value * static_cast<double>(count);
      loss_images += count;

      if (step + 1 != (evals_done + 1) * steps_ / evals) continue;
      ++evals_done;
      const double segment_seconds = SecondsSince(segment_start);
      totals_.train_seconds += segment_seconds;
      totals_.accounting.AddTrainSeconds(side, segment_seconds);
      const double at_epoch = epoch + static_cast<double>(step + 1) / static_cast<double>(steps_);
      const bool stop = EvaluateAndRecord(epoch, at_epoch, loss_sum / static_cast<double>(loss_images), side, lr);
      loss_sum = 0;
      loss_images = 0;
      if (stop) return false;
      segment_start = Clock::now();
    }
    return true;
  }

  // The model at the end to final.pt, and its description (with --model-dir only).
  void SaveFinalModel() {
    if (!run_.options.model_dir) return;
    SaveTorchScript(model_, *run_.options.model_dir / "final.pt");
    const runlog::EvalPoint& last = result_.run.points.back();
    totals_.final_model = SavedModel{"final.pt", last.epoch, last.train_seconds, last.metric};
    WriteModelJson(*run_.options.model_dir, run_.entry, result_.seeds.run, run_.target, run_.data.validation.size(),
                   totals_.at_target, totals_.final_model);
  }

 private:
  // Progressive resizing: the training images at `side`, made once per side by area interpolation.
  const torch::Tensor& ImagesAtSide(int side) {
    if (side == entries::kInputSide) return train_images_;
    auto it = resized_.find(side);
    if (it == resized_.end()) {
      torch::NoGradGuard no_grad;
      it =
          resized_
              .emplace(side, F::interpolate(
                                 train_images_,
                                 F::InterpolateFuncOptions().size(std::vector<int64_t>{side, side}).mode(torch::kArea)))
              .first;
      totals_.dataset_bytes += static_cast<double>(it->second.nbytes());
    }
    return it->second;
  }

  // One SGD step on the images at `index` (gathered and augmented here, the rest in TrainStep), each phase timed
  // for the step accounting; returns the loss.
  double Step(const torch::Tensor& images, const torch::Tensor& index, int side, double lr) {
    const Clock::time_point start = Clock::now();
    StepTimes times;
    torch::Tensor x = images.index_select(0, index);
    const torch::Tensor y = train_labels_.index_select(0, index);
    Augment(x, recipe_, augment_rng_);
    times.data = SecondsSince(start);
    const double loss_value = step_.Run(x, y, lr, times);
    totals_.accounting.AddStep(side, index.size(0), times);
    return loss_value;
  }

  // Evaluates on the validation split and records the point: the result, the log, progress, and the model the
  // first time it reaches the target. Returns whether the run stops here (stop_at_target).
  bool EvaluateAndRecord(int epoch, double at_epoch, double train_loss, int side, double lr) {
    const TrainOptions& options = run_.options;
    const Clock::time_point eval_start = Clock::now();
    runlog::EvalPoint point;
    point.epoch = at_epoch;
    point.train_seconds = totals_.train_seconds;
    point.metric = Evaluate(model_, val_images_, val_labels_);
    point.train_loss = train_loss;
    const double eval_seconds = SecondsSince(eval_start);
    totals_.accounting.AddEvaluation(eval_seconds);
    point.wall_seconds = SecondsSince(run_.wall_start);
    result_.run.points.push_back(point);
    result_.epochs_run = epoch + 1;
    if (options.log) {
      options.log->WriteEval(point, {{"resolution", side}, {"learning_rate", lr}, {"eval_seconds", eval_seconds}});
    }
    const bool reached_now = !result_.tta_seconds && point.metric >= run_.target;
    if (reached_now) {
      result_.tta_seconds = totals_.train_seconds;
      if (options.model_dir) {
        SaveTorchScript(model_, *options.model_dir / "at_target.pt");
        totals_.at_target = SavedModel{"at_target.pt", point.epoch, totals_.train_seconds, point.metric};
        WriteModelJson(*options.model_dir, run_.entry, result_.seeds.run, run_.target, run_.data.validation.size(),
                       totals_.at_target, totals_.final_model);
      }
    }
    if (options.on_eval) options.on_eval(point);
    return reached_now && options.stop_at_target;
  }

  const RunPlan& run_;
  const entries::Recipe& recipe_;
  RunTotals& totals_;
  TrainResult& result_;
  ConvNet model_;
  TrainStep step_;
  const torch::Tensor train_images_;
  const torch::Tensor train_labels_;
  const torch::Tensor val_images_;
  const torch::Tensor val_labels_;
  SplitMix64 order_rng_;
  SplitMix64 augment_rng_;
  std::map<int, torch::Tensor> resized_;  // side -> the training images at that side
  const int64_t n_;
  const int64_t steps_;
};

// Closes the run whatever happened: its times, hardware summary and status (failed with `failure` when set), and
// the log's end record.
void EndRun(const RunPlan& run, const RunTotals& totals, const std::string& failure, TrainResult& result) {
  result.run.train_seconds = totals.train_seconds;
  result.run.wall_seconds = SecondsSince(run.wall_start);
  result.hardware = totals.accounting.Summarize(run.recipe, result.run.wall_seconds, totals.dataset_bytes);
  if (!failure.empty()) {
    result.run.status = analysis::EndedAs::kFailed;
    result.run.error = failure;
  } else {
    result.run.status = result.tta_seconds ? analysis::EndedAs::kReached : analysis::EndedAs::kNotReached;
  }
  if (run.options.log) {
    run.options.log->WriteEnd(result.run.status, result.tta_seconds, result.epochs_run, result.run.train_seconds,
                              result.run.wall_seconds, result.run.error, {{"hardware", result.hardware}});
  }
}

}  // namespace

void ValidateTrainOptions(const entries::BuiltinEntry& entry, const TrainOptions& options) {
  if (options.threads < 0) throw UsageError("--threads", "must be at least 1 (0 = every core)");
  if (options.epochs.value_or(entry.epoch_budget) < 1) throw UsageError("--epochs", "must be at least 1");
  const double target = options.target.value_or(entry.threshold);
  if (!(target > 0 && target <= 1)) throw UsageError("--target", "must be a fraction in (0, 1], e.g. 0.91");
  if (options.train_subset && *options.train_subset < 1) throw UsageError("--train-subset", "must be at least 1");
  if (options.evals_per_epoch < 1) throw UsageError("--evals-per-epoch", "must be at least 1");
}

RunSeeds DeriveStreamSeeds(uint64_t run_seed) {
  return {run_seed, DeriveSeed(run_seed, 1), DeriveSeed(run_seed, 2), DeriveSeed(run_seed, 3)};
}

json RunSeedsToJson(const RunSeeds& seeds) {
  return {{"run", seeds.run},
          {"init", seeds.init},
          {"data_order", seeds.data_order},
          {"augmentation", seeds.augmentation},
          {"derivation", seeds.given ? "given by a [variance] design where set (--init-seed, --data-seed, --aug-seed), "
                                       "else SplitMix64 stream 1, 2, 3 of run"
                                     : "SplitMix64: init = stream 1, data_order = stream 2, augmentation = stream 3 "
                                       "of run"}};
}

json TrainingLibraryVersions() {
  return {{"libtorch", TORCH_VERSION},
          {"onednn", OneDnnVersion()},  // the fused model's dense layers call it directly (dense_product.h)
          {"zlib", ZLIB_VERSION},
          {"libtorch_parallel", at::get_parallel_info()}};
}

TrainResult Train(const entries::BuiltinEntry& entry, const datasets::FashionMnist& data, const TrainOptions& options) {
  const Clock::time_point wall_start = Clock::now();
  TrainResult result;
  result.precision = options.precision ? *options.precision
                                       : entries::ChoosePrecision(entry, entries::kPrecisionAuto, nullptr,
                                                                  {options.target.value_or(entry.threshold)});
  // The recipe as it runs, in the precision chosen (and the entry's fp32 form where it has one and runs in fp32),
  // so the header, the FLOP and byte counts and MFU all describe what ran.
  const entries::RecipeAsRun as_run = entries::RecipeForPrecision(entry, result.precision.precision);
  const entries::Recipe& recipe = as_run.recipe;
  result.recipe = recipe;
  result.precision.recipe_form = as_run.form;
  if (!as_run.note.empty()) result.precision.reason += " " + as_run.note;
  const int epochs = options.epochs.value_or(entry.epoch_budget);
  const double target = options.target.value_or(entry.threshold);
  ValidateTrainOptions(entry, options);
  if (options.model_dir) CheckWritableModelFolder(*options.model_dir);

  result.target = target;
  result.seeds = DeriveStreamSeeds(options.seed);
  if (options.init_seed) result.seeds.init = *options.init_seed;
  if (options.data_order_seed) result.seeds.data_order = *options.data_order_seed;
  if (options.augmentation_seed) result.seeds.augmentation = *options.augmentation_seed;
  result.seeds.given = options.init_seed || options.data_order_seed || options.augmentation_seed;
  const int threads =
      options.threads > 0 ? options.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  PrepareOneDnnForThisMachine();  // before the first convolution (see onednn_isa_cap.h)
  torch::set_num_threads(threads);
  const json allocator = TuneAllocatorForTensors();
  result.threads = torch::get_num_threads();

  const datasets::ImageSet train_set =
      options.train_subset ? datasets::TakeFirst(data.train, *options.train_subset) : data.train;
  if (train_set.size() == 0) throw InputError(data.dir.string(), "the training split is empty");
  // Capped at the steps of an epoch; the header records what is used.
  const int64_t steps_per_epoch = (static_cast<int64_t>(train_set.size()) + recipe.batch_size - 1) / recipe.batch_size;
  result.evals_per_epoch = static_cast<int>(std::min<int64_t>(options.evals_per_epoch, steps_per_epoch));
  const RunPlan run{entry, recipe, data, train_set, options, epochs, target, result.evals_per_epoch, wall_start};

  result.run.header = RunHeader(run, result, allocator);
  if (options.log) options.log->WriteHeader(result.run.header);

  RunTotals totals;
  std::string failure;
  std::exception_ptr rethrow;
  try {
    TrainingLoop loop(run, totals, result);
    for (int epoch = 0; epoch < epochs; ++epoch) {
      if (!loop.RunEpoch(epoch)) break;
    }
    loop.SaveFinalModel();
  } catch (const Error& e) {
    // evalsuite's own errors (an unwritable model file) stop the command, after the log says why.
    failure = e.what();
    rethrow = std::current_exception();
  } catch (const c10::Error& e) {
    failure = std::string("LibTorch: ") + e.what_without_backtrace();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  EndRun(run, totals, failure, result);
  if (rethrow) std::rethrow_exception(rethrow);
  return result;
}

}  // namespace evalsuite::training
