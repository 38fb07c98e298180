#include "evalsuite/training/trainer.h"

#include <ATen/autocast_mode.h>
#include <torch/torch.h>
#include <torch/version.h>
#include <zlib.h>

#include <chrono>
#include <cmath>
#include <exception>
#include <fstream>
#include <map>
#include <thread>

#include "evalsuite/common/allocator_tuning.h"
#include "evalsuite/common/environment.h"
#include "evalsuite/common/error.h"
#include "evalsuite/common/onednn_isa_cap.h"
#include "evalsuite/common/seeds.h"
#include "evalsuite/training/convnet.h"
#include "evalsuite/training/step_accounting.h"

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

// bfloat16 autocast for the forward pass, as Python's torch.autocast("cpu") does it: the cache of casted
// weights is cleared on exit, since the optimizer step changes the fp32 weights it was made from.
class CpuAutocast {
 public:
  explicit CpuAutocast(bool enabled) : enabled_(enabled) {
    if (!enabled_) return;
    previous_enabled_ = at::autocast::is_cpu_enabled();
    previous_dtype_ = at::autocast::get_autocast_cpu_dtype();
    at::autocast::set_cpu_enabled(true);
    at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
    at::autocast::increment_nesting();
  }
  ~CpuAutocast() {
    if (!enabled_) return;
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    at::autocast::set_cpu_enabled(previous_enabled_);
    at::autocast::set_autocast_cpu_dtype(previous_dtype_);
  }
  CpuAutocast(const CpuAutocast&) = delete;
  CpuAutocast& operator=(const CpuAutocast&) = delete;

 private:
  bool enabled_;
  bool previous_enabled_ = false;
  at::ScalarType previous_dtype_ = at::kBFloat16;
};

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

void SetLearningRate(torch::optim::SGD& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) static_cast<torch::optim::SGDOptions&>(group.options()).lr(lr);
}

std::vector<int64_t> Permutation(int64_t n, SplitMix64& rng) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  DeterministicShuffle(order.begin(), order.end(), rng);
  return order;
}

void CheckWritableFolder(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir)) throw IoError(dir.string(), "cannot create the model folder");
  const fs::path probe = dir / ".evalsuite-write-check";
  {
    std::ofstream out(probe);
    if (!out) throw IoError(dir.string(), "the model folder is not writable");
  }
  fs::remove(probe, ec);
}

struct SavedModel {
  std::string file;
  double epoch = 0;  // fractional with several evaluations per epoch
  double train_seconds = 0;
  double val_top1 = 0;
};

json SavedModelJson(const std::optional<SavedModel>& saved) {
  if (!saved) return nullptr;
  return {{"file", saved->file},
          {"epoch", saved->epoch},
          {"train_seconds", saved->train_seconds},
          {"val_top1", saved->val_top1}};
}

// validation_size: the images val_top1 is measured on, so that a holdout evaluation can give the validation
// accuracy its binomial sampling error.
void WriteModelJson(const fs::path& dir, const entries::BuiltinEntry& entry, const RunSeeds& seeds, double target,
                    std::size_t validation_size, const std::optional<SavedModel>& at_target,
                    const std::optional<SavedModel>& final_model) {
  json classes = json::array();
  for (const std::string& name : datasets::FashionMnistClassNames()) classes.push_back(name);
  json spec = {
      {"format", "torchscript"},
      {"entry", entry.name},
      {"seed", seeds.run},
      {"target", target},
      {"metric", entry.metric},
      {"validation_size", validation_size},
      {"input",
       {{"shape", {-1, 1, entries::kInputSide, entries::kInputSide}},
        {"dtype", "float32"},
        {"range", {0.0, 1.0}},
        {"note", "pixel / 255; the model normalizes inside forward, so feed [0, 1] pixels, not standardized ones"}}},
      {"preprocess",
       {{"size", entries::kInputSide},
        {"grayscale", true},
        {"polarity", "light garment on a black background (Fashion-MNIST's convention)"},
        {"scale", 1.0 / 255.0},
        {"mean", {0.0}},
        {"std", {1.0}}}},
      {"normalization_in_model", {{"mean", {entries::kInputMean}}, {"std", {entries::kInputStd}}}},
      {"output", {{"shape", {-1, entries::kNumClasses}}, {"kind", "logits"}}},
      {"classes", classes},
      {"at_target", SavedModelJson(at_target)},
      {"final", SavedModelJson(final_model)},
  };
  const fs::path file = dir / "model.json";
  std::ofstream out(file, std::ios::trunc);
  out << spec.dump(2) << "\n";
  if (!out) throw IoError(file.string(), "cannot write the model description");
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
          {"derivation", "SplitMix64: init = stream 1, data_order = stream 2, augmentation = stream 3 of run"}};
}

json TrainingLibraryVersions() {
  return {{"libtorch", TORCH_VERSION}, {"zlib", ZLIB_VERSION}, {"libtorch_parallel", at::get_parallel_info()}};
}

TrainResult Train(const entries::BuiltinEntry& entry, const datasets::FashionMnist& data, const TrainOptions& options) {
  const Clock::time_point wall_start = Clock::now();
  TrainResult result;
  result.precision = options.precision ? *options.precision
                                       : entries::ChoosePrecision(entry.recipe.precision, entries::kPrecisionAuto,
                                                                  nullptr);
  // The recipe as it runs: its precision is the one chosen, so the header, the FLOP and byte counts and MFU all
  // describe what ran.
  entries::Recipe recipe = entry.recipe;
  recipe.precision = result.precision.precision;
  const int epochs = options.epochs.value_or(entry.epoch_budget);
  const double target = options.target.value_or(entry.threshold);
  ValidateTrainOptions(entry, options);
  if (options.model_dir) CheckWritableFolder(*options.model_dir);

  result.target = target;
  result.seeds = DeriveStreamSeeds(options.seed);
  const int threads =
      options.threads > 0 ? options.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  PrepareOneDnnForThisMachine();  // before the first convolution (see onednn_isa_cap.h)
  torch::set_num_threads(threads);
  const json allocator = TuneAllocatorForTensors();
  result.threads = torch::get_num_threads();

  const datasets::ImageSet train_set =
      options.train_subset ? datasets::TakeFirst(data.train, *options.train_subset) : data.train;
  if (train_set.size() == 0) throw InputError(data.dir.string(), "the training split is empty");

  json hyperparameters = entries::RecipeToJson(recipe);
  hyperparameters["epochs"] = epochs;
  hyperparameters["stop_at_target"] = options.stop_at_target;
  // Capped at the steps of an epoch; the header records what is used.
  const int64_t steps_per_epoch = (static_cast<int64_t>(train_set.size()) + recipe.batch_size - 1) / recipe.batch_size;
  const int evals_per_epoch = static_cast<int>(std::min<int64_t>(options.evals_per_epoch, steps_per_epoch));
  result.evals_per_epoch = evals_per_epoch;
  hyperparameters["evals_per_epoch"] = evals_per_epoch;
  hyperparameters["train_subset"] = options.train_subset ? json(*options.train_subset) : json(nullptr);
  json header = {
      {"entry", entry.name},
      {"description", entry.description},
      {"hyperparameters", hyperparameters},
      {"seeds", RunSeedsToJson(result.seeds)},
      // "precision" is the word external logs declare too (runlog/declared_hardware.h); the choice and its reason
      // beside it.
      {"precision", result.precision.precision},
      {"precision_choice", entries::PrecisionChoiceToJson(result.precision)},
      {"threads", result.threads},
      {"metric", entry.metric},
      {"threshold", target},
      {"library_versions", TrainingLibraryVersions()},
      {"environment", DescribeEnvironment()},
      {"start_time", UtcNowIso8601()},
      {"data",
       {{"dataset", "fashion-mnist"},
        {"dir", data.dir.string()},
        {"train_images", train_set.size()},
        {"validation_images", data.validation.size()},
        {"split_seed", datasets::kFashionMnistSplitSeed}}},
  };
  header["environment"]["threads"] = result.threads;
  header["environment"]["allocator"] = allocator;
  if (options.model_dir) header["model_dir"] = options.model_dir->string();
  header.update(options.extra_header);
  result.run.header = header;
  if (options.log) options.log->WriteHeader(header);

  double train_seconds = 0;
  std::optional<SavedModel> at_target;
  std::optional<SavedModel> final_model;
  std::string failure;
  std::exception_ptr rethrow;
  StepAccounting accounting;
  double dataset_bytes = 0;
  try {
    torch::manual_seed(result.seeds.init);
    ConvNet model(recipe.model);
    UseChannelsLast(model);
    model->train();
    torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(recipe.learning_rate)
                                                         .momentum(recipe.momentum)
                                                         .nesterov(recipe.nesterov)
                                                         .weight_decay(recipe.weight_decay));
    std::vector<torch::Tensor> parameters = model->parameters();
    const torch::Tensor train_images = ImagesToTensor(train_set);
    const torch::Tensor train_labels = LabelsToTensor(train_set);
    const torch::Tensor val_images = ImagesToTensor(data.validation);
    const torch::Tensor val_labels = LabelsToTensor(data.validation);
    dataset_bytes = static_cast<double>(train_images.nbytes() + val_images.nbytes());
    const auto cross_entropy_options = F::CrossEntropyFuncOptions().label_smoothing(recipe.label_smoothing);
    const bool bf16 = recipe.precision == "bf16";

    SplitMix64 order_rng(result.seeds.data_order);
    SplitMix64 augment_rng(result.seeds.augmentation);
    std::map<int, torch::Tensor> resized;  // side -> the training images at that side
    const int64_t n = train_images.size(0);
    const int64_t batch_size = recipe.batch_size;
    const int64_t steps = (n + batch_size - 1) / batch_size;

    // Evaluation k of an epoch (k = 1..evals) follows step k * steps / evals: evenly spaced, the last one at the
    // epoch's end, so that one evaluation per epoch is DAWNBench's grid and more make TTA finer.
    const int64_t evals = evals_per_epoch;
    bool stop = false;

    for (int epoch = 0; epoch < epochs && !stop; ++epoch) {
      Clock::time_point segment_start = Clock::now();
      const int side = entries::ResolutionAt(recipe, epoch, epochs);
      const torch::Tensor* images = &train_images;
      if (side != entries::kInputSide) {
        auto it = resized.find(side);
        if (it == resized.end()) {
          torch::NoGradGuard no_grad;
          it = resized
                   .emplace(side,
                            F::interpolate(
                                train_images,
                                F::InterpolateFuncOptions().size(std::vector<int64_t>{side, side}).mode(torch::kArea)))
                   .first;
          dataset_bytes += static_cast<double>(it->second.nbytes());
        }
        images = &it->second;
      }
      std::vector<int64_t> order = Permutation(n, order_rng);
      const torch::Tensor order_tensor = torch::from_blob(order.data(), {n}, torch::kInt64);
      double loss_sum = 0;  // since the previous evaluation
      int64_t loss_images = 0;
      int64_t evals_done = 0;
      double lr = recipe.learning_rate;
      for (int64_t step = 0; step < steps && !stop; ++step) {
        Clock::time_point mark = Clock::now();
        StepTimes times;
        auto lap = [&mark](double& into) {
          const Clock::time_point now = Clock::now();
          into = std::chrono::duration<double>(now - mark).count();
          mark = now;
        };
        const int64_t start = step * batch_size;
        const int64_t count = std::min(batch_size, n - start);
        const torch::Tensor index = order_tensor.narrow(0, start, count);
        torch::Tensor x = images->index_select(0, index);
        const torch::Tensor y = train_labels.index_select(0, index);
        Augment(x, recipe, augment_rng);
        x = x.contiguous(at::MemoryFormat::ChannelsLast);
        lr = entries::LearningRateAt(recipe, epoch + static_cast<double>(step) / static_cast<double>(steps), epochs);
        SetLearningRate(optimizer, lr);
        // Gradients are dropped rather than zeroed (PyTorch 2's default, set_to_none): backward then hands its
        // fresh gradient buffers to the parameters instead of adding them into zero-filled ones.
        for (torch::Tensor& p : parameters) p.mutable_grad().reset();
        lap(times.data);
        torch::Tensor logits;
        {
          CpuAutocast autocast(bf16);
          logits = model->forward(x);
        }
        torch::Tensor loss = F::cross_entropy(logits.to(torch::kFloat32), y, cross_entropy_options);
        lap(times.forward);
        loss.backward();
        lap(times.backward);
        optimizer.step();
        const double loss_value = loss.item<double>();
        lap(times.optimizer);
        accounting.AddStep(side, count, times);
        if (!std::isfinite(loss_value)) {
          throw std::runtime_error("training diverged: the loss is " + std::to_string(loss_value) + " at epoch " +
                                   std::to_string(epoch + 1) + ", step " + std::to_string(step + 1));
        }
        loss_sum += loss_value * static_cast<double>(count);
        loss_images += count;

        if (step + 1 != (evals_done + 1) * steps / evals) continue;
        ++evals_done;
        const double segment_seconds = SecondsSince(segment_start);
        train_seconds += segment_seconds;
        accounting.AddTrainSeconds(side, segment_seconds);
        const Clock::time_point eval_start = Clock::now();
        runlog::EvalPoint point;
        point.epoch = epoch + static_cast<double>(step + 1) / static_cast<double>(steps);
        point.train_seconds = train_seconds;
        point.metric = Evaluate(model, val_images, val_labels);
        point.train_loss = loss_sum / static_cast<double>(loss_images);
        loss_sum = 0;
        loss_images = 0;
        const double eval_seconds = SecondsSince(eval_start);
        accounting.AddEvaluation(eval_seconds);
        point.wall_seconds = SecondsSince(wall_start);
        result.run.points.push_back(point);
        result.epochs_run = epoch + 1;
        if (options.log) {
          options.log->WriteEval(point, {{"resolution", side}, {"learning_rate", lr}, {"eval_seconds", eval_seconds}});
        }
        const bool reached_now = !result.tta_seconds && point.metric >= target;
        if (reached_now) {
          result.tta_seconds = train_seconds;
          if (options.model_dir) {
            SaveTorchScript(model, *options.model_dir / "at_target.pt");
            at_target = SavedModel{"at_target.pt", point.epoch, train_seconds, point.metric};
            WriteModelJson(*options.model_dir, entry, result.seeds, target, data.validation.size(), at_target,
                           final_model);
          }
        }
        if (options.on_eval) options.on_eval(point);
        stop = reached_now && options.stop_at_target;
        segment_start = Clock::now();
      }
    }
    if (options.model_dir) {
      SaveTorchScript(model, *options.model_dir / "final.pt");
      const runlog::EvalPoint& last = result.run.points.back();
      final_model = SavedModel{"final.pt", last.epoch, last.train_seconds, last.metric};
      WriteModelJson(*options.model_dir, entry, result.seeds, target, data.validation.size(), at_target,
                           final_model);
    }
  } catch (const Error& e) {
    // evalsuite's own errors (an unwritable model file) stop the command, after the log says why.
    failure = e.what();
    rethrow = std::current_exception();
  } catch (const c10::Error& e) {
    failure = std::string("LibTorch: ") + e.what_without_backtrace();
  } catch (const std::exception& e) {
    failure = e.what();
  }

  result.run.train_seconds = train_seconds;
  result.run.wall_seconds = SecondsSince(wall_start);
  result.hardware = accounting.Summarize(recipe, result.run.wall_seconds, dataset_bytes);
  if (!failure.empty()) {
    result.run.status = runlog::RunStatus::kFailed;
    result.run.error = failure;
  } else {
    result.run.status = result.tta_seconds ? runlog::RunStatus::kReached : runlog::RunStatus::kNotReached;
  }
  if (options.log) {
    options.log->WriteEnd(result.run.status, result.tta_seconds, result.epochs_run, result.run.train_seconds,
                          result.run.wall_seconds, result.run.error, {{"hardware", result.hardware}});
  }
  if (rethrow) std::rethrow_exception(rethrow);
  return result;
}

}  // namespace evalsuite::training
