// Which precision a built-in run trains in, decided once from what its two forms were measured to do on this
// machine: a few training steps of each form of the entry (the bf16 recipe as written, and its fp32 form), timed at
// its batch size with the runs' threads (training/step_probe.h), each turned into an estimated time to the run's
// target by the epochs that form needs (the catalog's epochs_to_target tables). bf16 is taken only where its form
// reaches the target clearly sooner; elsewhere, or where nothing was timed, fp32, and the record says why with the
// figures. Never from cpuid flags or a convolution's peak alone (issue 51: on AMD Zen 4 a bf16 convolution runs
// 1.95x fp32's while the bf16 step, with batch norm, pooling and autocast's casts, is slower than the fp32 form's). A
// plan key or option forces either precision. No LibTorch here: the timings come in as the ceilings' JSON.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "entries/builtin_entries.h"

namespace evalsuite::entries {

constexpr const char* kPrecisionAuto = "auto";
// bf16 is chosen only when its form's estimated time to target is at most the fp32 form's divided by this: a few
// timed steps on a shared machine move by several percent, and the epochs tables are medians of three seeds.
constexpr double kMinBf16Advantage = 1.10;
// The key of the step timings in the ceilings' "machine" object (training/step_probe.h writes it).
constexpr const char* kStepProbesKey = "step_probes";

// What a run is for, as far as the choice needs it: the target its time is measured to, and the training images of
// an epoch (for the estimate's seconds; the comparison does not depend on them).
struct RunGoal {
  double target = kDefaultThreshold;
  std::size_t train_images = 60000;
};

// One form of the entry as the choice saw it: the step timing found for it and what it implies.
struct FormEstimate {
  std::string form;       // "as written" or "fp32 form"
  std::string precision;  // "bf16" or "fp32"
  int batch_size = 0;
  double seconds_per_step = 0;  // median of the timed steps
  int steps_timed = 0;
  double epochs_to_target = 0;   // from the catalog's table at the run's target
  double seconds_to_target = 0;  // seconds_per_step / batch_size * train_images * epochs_to_target
};

struct PrecisionChoice {
  std::string precision;  // "fp32" or "bf16": what the run trains in
  std::string requested;  // "auto", "fp32" or "bf16"
  std::string recipe;     // what the entry's recipe asks for
  // "recipe" (an fp32 recipe under auto), "forced" (requested explicitly), "measured steps", "no step timings",
  // "no epochs to target" (an fp32 form whose epochs the catalog does not know)
  std::string decided_by;
  std::string reason;         // one sentence with the figures
  double bf16_over_fp32 = 0;  // measured convolution throughput ratio, for context; 0 when not measured
  // Both forms, bf16's first, where both were timed (also when forced, so that a report can show what the choice was
  // worth); empty otherwise.
  std::vector<FormEstimate> forms;
  RunGoal goal;
  int threads = 0;       // the step timings' threads; 0 when none
  std::string timed_by;  // "process CPU time" (one thread) or "wall time", as the step probe says; empty when none
  // Which of the entry's recipes ran (builtin_entries.h, RecipeForPrecision): "as written" or "fp32 form"; empty
  // until a run has decided it.
  std::string recipe_form;

  // fp32 form's estimated time to target over the bf16 form's (> 1: bf16 sooner); 0 unless both were timed.
  double Bf16Advantage() const;
};

// `requested`: "auto" (default), "fp32" or "bf16"; anything else is a UsageError naming `where`.
// `machine`: the "machine" object of `evalsuite machine --json` (its step_probes rows for this entry, and the
// convolution probes for context), or null when nothing was measured.
PrecisionChoice ChoosePrecision(const BuiltinEntry& entry, const std::string& requested, const nlohmann::json& machine,
                                const RunGoal& goal, const std::string& where = "precision");

// The run header's / report's record: {precision, requested, recipe, decided_by, reason, bf16_over_fp32,
// recipe_form, measured: {target, train_images, threads, forms: [...], bf16_advantage}}.
nlohmann::json PrecisionChoiceToJson(const PrecisionChoice& choice);

}  // namespace evalsuite::entries
