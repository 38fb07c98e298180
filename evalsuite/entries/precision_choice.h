// Which precision a built-in run trains in, decided once from the machine's measured ceilings: a recipe that asks
// for bfloat16 gets it only where this CPU was measured running bf16 convolutions clearly faster than fp32 ones
// (AVX512-BF16 or AMX: about 1.6-2x); elsewhere (Intel Cascade Lake, older AMD: oneDNN converts bf16 in software,
// 0.25-0.5x) it trains in fp32, and the record says why. Never from cpuid flags: a flag says what the CPU can
// decode, the probe what this LibTorch build makes of it. A plan key or option forces either. No LibTorch here.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace evalsuite::entries {

constexpr const char* kPrecisionAuto = "auto";
// bf16 is chosen only when its measured throughput is at least this multiple of fp32's: autocast adds casts of
// weights and activations that a bare convolution probe does not pay (~5-10% of a step for the built-in models).
constexpr double kMinBf16Speedup = 1.15;

struct PrecisionChoice {
  std::string precision;  // "fp32" or "bf16": what the run trains in
  std::string requested;  // "auto", "fp32" or "bf16"
  std::string recipe;     // what the entry's recipe asks for
  // "recipe" (an fp32 recipe under auto), "forced" (requested explicitly), "measured ceilings", "no ceilings"
  std::string decided_by;
  std::string reason;  // one sentence with the figures
  double bf16_over_fp32 = 0;  // measured throughput ratio; 0 when not measured
  // Which of the entry's recipes ran (builtin_entries.h, RecipeForPrecision): "as written" or "fp32 form"; empty
  // until a run has decided it.
  std::string recipe_form;
};

// `requested`: "auto" (default), "fp32" or "bf16"; anything else is a UsageError naming `where`.
// `machine`: the "machine" object of `evalsuite machine --json` (probes conv_fp32/conv_bf16, else the peaks), or
// null when nothing was measured.
PrecisionChoice ChoosePrecision(const std::string& recipe_precision, const std::string& requested,
                                const nlohmann::json& machine, const std::string& where = "precision");

// The run header's / report's record: {precision, requested, recipe, decided_by, reason, bf16_over_fp32}.
nlohmann::json PrecisionChoiceToJson(const PrecisionChoice& choice);

}  // namespace evalsuite::entries
