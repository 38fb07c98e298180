// Times a few training steps of each form of a built-in entry on this machine, at the form's batch size and with the
// runs' thread count: what the precision choice (entries/precision_choice.h) compares. Each form trains a fresh
// model on synthetic images through the trainer's own step (train_step.h); warm-up steps first (oneDNN primitive
// creation, the allocator), then one step of each form in turn until a minimum time has passed, so that a change of
// the machine's load falls on both; each form's median step counts: its process CPU time on one thread (robust to
// other processes' load), its wall time on several (CPU time would add the threads up). LibTorch stays in the .cpp.
#pragma once

#include <nlohmann/json.hpp>

#include "entries/builtin_entries.h"

namespace evalsuite::training {

struct StepProbeOptions {
  int threads = 0;           // LibTorch intra-op threads, as the runs use them; 0 = every core
  int warmup_steps = 2;      // per form, untimed
  int min_steps = 5;         // per form, timed, at least (a form without native kernels can take a second a step)
  int max_steps = 30;        // per form, timed, at most
  double min_seconds = 0.5;  // pairs of steps go on until this much time has passed (or max_steps)
};

// Two rows for an `entry` whose recipe asks for bf16 (the recipe in bf16, then its fp32 form, or the recipe in fp32
// where it has none); none for an fp32 recipe. Row: {"entry", "form", "precision", "batch_size", "threads",
// "seconds_per_step" (the median the choice reads), "timed_by", "wall_seconds_per_step", "cpu_seconds_per_step",
// "steps_timed", "warmup_steps", "step_seconds": [...], "step_cpu_seconds": [...]}. Sets LibTorch's thread count and
// tunes malloc as Train() does (common/allocator_tuning.h).
nlohmann::json TimeEntrySteps(const entries::BuiltinEntry& entry, const StepProbeOptions& options);

// The rows of every built-in entry whose recipe asks for bf16: what a study records with its machine ceilings.
nlohmann::json TimeBf16EntrySteps(const StepProbeOptions& options);

}  // namespace evalsuite::training
