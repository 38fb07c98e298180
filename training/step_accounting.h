// Where a training run's time goes and what it achieved, accumulated as the trainer runs (no LibTorch):
// per step its data, forward, backward and optimizer seconds (every step, steady_clock: on CPU each LibTorch
// call returns when its work is done), evaluation seconds, and per phase (input side: progressive resizing's
// stages are separate phases) the samples and training seconds. Summarize() turns them into the run's
// "hardware" record: FLOPs per sample from model_cost.h, achieved FLOP/s per phase and per run, operational
// intensity, the time breakdown with idle = wall - everything else, and the counted memory against peak RSS.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>

#include "entries/builtin_entries.h"

namespace evalsuite::training {

struct StepTimes {
  double data = 0;     // batch gather, augmentation, layout, learning rate, gradient reset
  double forward = 0;  // forward pass and loss
  double backward = 0;
  double optimizer = 0;  // optimizer step and reading the loss
};

class StepAccounting {
 public:
  void AddStep(int side, int64_t samples, const StepTimes& times);
  void AddTrainSeconds(int side, double seconds);  // a training segment's time (what TTA counts)
  void AddEvaluation(double seconds) { evaluation_seconds_ += seconds; }

  // `dataset_bytes`: the image tensors the trainer holds (train + validation + resized copies).
  nlohmann::json Summarize(const entries::Recipe& recipe, double wall_seconds, double dataset_bytes) const;

 private:
  struct Phase {
    int64_t samples = 0;
    int64_t steps = 0;
    double seconds = 0;
  };
  std::map<int, Phase> phases_;  // by side
  StepTimes total_;
  double evaluation_seconds_ = 0;
};

// The process's peak resident set size in bytes (getrusage), 0 when unknown.
double PeakRssBytes();

}  // namespace evalsuite::training
