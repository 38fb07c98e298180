#include "training/step_probe.h"

#include <time.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "common/allocator_tuning.h"
#include "common/onednn_isa_cap.h"
#include "stats/descriptive.h"
#include "training/convnet.h"
#include "training/train_step.h"

namespace evalsuite::training {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

// Images the batches are drawn from: enough for a few distinct batches, so that no step sees the one before's data.
constexpr int64_t kPoolBatches = 4;
constexpr uint64_t kProbeSeed = 51;  // any fixed seed: the weights and images only need to be like a run's
// The rate does not change a step's cost; a small one keeps random labels from driving the weights anywhere odd.
constexpr double kProbeLearningRate = 0.01;

// CPU seconds of the whole process (all its threads): beside the wall time, what a step cost apart from other
// processes' claims on the cores.
double ProcessCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// One form of the entry, ready to step: a fresh model and its optimizer, and a pool of synthetic images.
class FormUnderTest {
 public:
  explicit FormUnderTest(const entries::RecipeAsRun& as_run)
      : as_run_(as_run),
        batch_(as_run.recipe.batch_size),
        model_(NewModel(as_run.recipe)),
        step_(model_, as_run.recipe) {
    images_ = torch::randn({kPoolBatches * batch_, 1, entries::kInputSide, entries::kInputSide});
    labels_ = torch::randint(entries::kNumClasses, {kPoolBatches * batch_}, torch::kInt64);
  }

  // One step, gathered by index_select as the trainer gathers a batch, from a rotating part of the pool; returns its
  // wall and process CPU seconds.
  std::pair<double, double> Step() {
    const Clock::time_point t0 = Clock::now();
    const double cpu0 = ProcessCpuSeconds();
    const int64_t first = (drawn_++ % kPoolBatches) * batch_;
    const torch::Tensor index = torch::arange(first, first + batch_, torch::kInt64);
    StepTimes times;
    (void)step_.Run(images_.index_select(0, index), labels_.index_select(0, index), kProbeLearningRate, times);
    return {std::chrono::duration<double>(Clock::now() - t0).count(), ProcessCpuSeconds() - cpu0};
  }

  const entries::RecipeAsRun& as_run() const { return as_run_; }

 private:
  static ConvNet NewModel(const entries::Recipe& recipe) {
    torch::manual_seed(kProbeSeed);
    ConvNet model(recipe.model);
    UseChannelsLast(model);
    model->train();
    return model;
  }

  entries::RecipeAsRun as_run_;
  int64_t batch_;
  ConvNet model_;
  TrainStep step_;
  torch::Tensor images_, labels_;
  int64_t drawn_ = 0;
};

json Row(const entries::BuiltinEntry& entry, const FormUnderTest& form, const std::vector<double>& wall,
         const std::vector<double>& cpu, const StepProbeOptions& o) {
  const entries::Recipe& recipe = form.as_run().recipe;
  const int threads = torch::get_num_threads();
  // On one thread the process's CPU time is the step's cost on its core whatever other processes do with the
  // machine (on a loaded machine the wall time of a step varied 5x between neighbours, its CPU time a few percent);
  // with several threads it would add them up, and the wall time is what a run waits.
  const bool by_cpu = threads == 1;
  return {{"entry", entry.name},
          {"form", form.as_run().form},
          {"precision", recipe.precision},
          {"batch_size", recipe.batch_size},
          {"threads", threads},
          {"seconds_per_step", stats::Median(by_cpu ? cpu : wall)},
          {"timed_by", by_cpu ? "process CPU time" : "wall time"},
          {"wall_seconds_per_step", stats::Median(wall)},
          {"cpu_seconds_per_step", stats::Median(cpu)},
          {"steps_timed", wall.size()},
          {"warmup_steps", o.warmup_steps},
          {"step_seconds", wall},
          {"step_cpu_seconds", cpu}};
}

}  // namespace

json TimeEntrySteps(const entries::BuiltinEntry& entry, const StepProbeOptions& options) {
  json rows = json::array();
  if (entry.recipe.precision != "bf16") return rows;
  PrepareOneDnnForThisMachine();  // before the first convolution (see onednn_isa_cap.h)
  const int threads =
      options.threads > 0 ? options.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  torch::set_num_threads(threads);
  TuneAllocatorForTensors();  // as Train() does: without it every step page-faults its activations in afresh
  FormUnderTest bf16(entries::RecipeForPrecision(entry, "bf16"));
  FormUnderTest fp32(entries::RecipeForPrecision(entry, "fp32"));
  for (int i = 0; i < options.warmup_steps; ++i) {
    bf16.Step();
    fp32.Step();
  }
  // Alternately, one step of each form (A B A B): a machine whose load changes as the probe runs slows both alike,
  // and their ratio is what the choice reads.
  std::vector<double> wall[2], cpu[2];
  const Clock::time_point start = Clock::now();
  while (static_cast<int>(wall[0].size()) < options.max_steps &&
         (static_cast<int>(wall[0].size()) < options.min_steps ||
          std::chrono::duration<double>(Clock::now() - start).count() < options.min_seconds)) {
    int i = 0;
    for (FormUnderTest* form : {&bf16, &fp32}) {
      const auto [w, c] = form->Step();
      wall[i].push_back(w);
      cpu[i++].push_back(c);
    }
  }
  rows.push_back(Row(entry, bf16, wall[0], cpu[0], options));
  rows.push_back(Row(entry, fp32, wall[1], cpu[1], options));
  return rows;
}

json TimeBf16EntrySteps(const StepProbeOptions& options) {
  json rows = json::array();
  for (const entries::BuiltinEntry& entry : entries::BuiltinEntries()) {
    for (const json& row : TimeEntrySteps(entry, options)) rows.push_back(row);
  }
  return rows;
}

}  // namespace evalsuite::training
