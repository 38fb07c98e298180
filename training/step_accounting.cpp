#include "training/step_accounting.h"

#include <sys/resource.h>

#include "training/model_cost.h"

namespace evalsuite::training {

void StepAccounting::AddStep(int side, int64_t samples, const StepTimes& t) {
  Phase& phase = phases_[side];
  phase.samples += samples;
  ++phase.steps;
  total_.data += t.data;
  total_.forward += t.forward;
  total_.backward += t.backward;
  total_.optimizer += t.optimizer;
}

void StepAccounting::AddTrainSeconds(int side, double seconds) { phases_[side].seconds += seconds; }

nlohmann::json StepAccounting::Summarize(const entries::Recipe& recipe, double wall_seconds,
                                         double dataset_bytes) const {
  nlohmann::json phases = nlohmann::json::array();
  double flops = 0, bytes = 0, seconds = 0;
  int64_t samples = 0;
  nlohmann::json memory;
  double peak_memory = 0;
  for (const auto& [side, phase] : phases_) {
    const ModelCost cost = CountConvNetCost(recipe.model, side, recipe.batch_size, recipe.precision);
    const double phase_flops = cost.TrainingFlops() * static_cast<double>(phase.samples);
    const double phase_bytes = cost.TrainingBytes() * static_cast<double>(phase.samples);
    phases.push_back({{"side", side},
                      {"samples", phase.samples},
                      {"steps", phase.steps},
                      {"seconds", phase.seconds},
                      {"flops_per_sample", cost.TrainingFlops()},
                      {"forward_flops_per_sample", cost.ForwardFlops()},
                      {"bytes_per_sample", cost.TrainingBytes()},
                      {"intensity", cost.TrainingIntensity()},
                      {"samples_per_second", phase.seconds > 0 ? phase.samples / phase.seconds : 0.0},
                      {"achieved_flops", phase.seconds > 0 ? phase_flops / phase.seconds : 0.0}});
    flops += phase_flops;
    bytes += phase_bytes;
    seconds += phase.seconds;
    samples += phase.samples;
    MemoryBreakdown m = CountTrainingMemory(cost, recipe, 0);
    m.dataset = dataset_bytes;
    if (m.Peak() > peak_memory) {  // the phase with the largest footprint
      peak_memory = m.Peak();
      memory = MemoryBreakdownToJson(m);
      memory["side"] = side;
    }
  }
  if (memory.is_null()) memory = nlohmann::json::object();
  memory["peak_rss"] = PeakRssBytes();
  const double stepped = total_.data + total_.forward + total_.backward + total_.optimizer;
  const double idle = wall_seconds - stepped - evaluation_seconds_;
  return {
      {"phases", phases},
      {"samples", samples},
      {"train_seconds", seconds},
      {"flops", flops},
      {"flops_per_sample", samples > 0 ? flops / static_cast<double>(samples) : 0.0},
      {"bytes_per_sample", samples > 0 ? bytes / static_cast<double>(samples) : 0.0},
      {"intensity", bytes > 0 ? flops / bytes : 0.0},
      {"achieved_flops", seconds > 0 ? flops / seconds : 0.0},
      {"optimizer_flops_per_step",
       SgdFlopsPerStep(CountConvNetCost(recipe.model, entries::kInputSide, 1, recipe.precision).parameters, recipe)},
      {"precision", recipe.precision},
      {"time",
       {{"data", total_.data},
        {"forward", total_.forward},
        {"backward", total_.backward},
        {"optimizer", total_.optimizer},
        {"evaluation", evaluation_seconds_},
        {"idle", idle > 0 ? idle : 0.0},
        {"wall", wall_seconds}}},
      {"memory", memory},
      {"counting", "training/model_cost.h (per layer, forward + input and weight gradients)"}};
}

double PeakRssBytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<double>(usage.ru_maxrss) * 1024.0;  // KiB on Linux
}

}  // namespace evalsuite::training
