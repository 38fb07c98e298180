#include "evalsuite/entries/precision_choice.h"

#include <fmt/format.h>

#include "common/error.h"

namespace evalsuite::entries {
namespace {

using nlohmann::json;

double NumberOr0(const json& object, const char* key) {
  if (!object.is_object()) return 0;
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

// The best measured FLOP/s of probe `name` ("conv_bf16"), 0 when absent.
double ProbeBest(const json& machine, const std::string& name) {
  if (!machine.is_object() || !machine.contains("probes") || !machine["probes"].is_array()) return 0;
  for (const json& probe : machine["probes"]) {
    if (probe.is_object() && probe.contains("name") && probe["name"] == name) return NumberOr0(probe, "best");  // never throws on a non-string name
  }
  return 0;
}

}  // namespace

PrecisionChoice ChoosePrecision(const std::string& recipe_precision, const std::string& requested,
                                const json& machine, const std::string& where) {
  if (requested != kPrecisionAuto && requested != "fp32" && requested != "bf16") {
    throw UsageError(where, "must be \"auto\", \"fp32\" or \"bf16\", got \"" + requested + "\"");
  }
  PrecisionChoice c;
  c.requested = requested;
  c.recipe = recipe_precision;
  // The built-in models are convolutions in oneDNN (the 7x7 head too): the convolution probes are the ones that
  // predict them; the best of all probes per precision stands in for a file without them.
  double fp32 = ProbeBest(machine, "conv_fp32"), bf16 = ProbeBest(machine, "conv_bf16");
  std::string what = "convolution";
  if (fp32 <= 0 || bf16 <= 0) {
    fp32 = NumberOr0(machine, "peak_fp32_flops");
    bf16 = NumberOr0(machine, "peak_bf16_flops");
    what = "peak";
  }
  if (fp32 > 0 && bf16 > 0) c.bf16_over_fp32 = bf16 / fp32;
  const std::string figures =
      c.bf16_over_fp32 > 0 ? fmt::format("measured {} throughput bf16 {:.1f} GFLOP/s vs fp32 {:.1f} GFLOP/s ({:.2f}x)",
                                         what, bf16 / 1e9, fp32 / 1e9, c.bf16_over_fp32)
                           : std::string("no bf16/fp32 ceilings were measured");
  if (requested != kPrecisionAuto) {
    c.precision = requested;
    c.decided_by = "forced";
    c.reason = fmt::format("{} forced by the plan or option (the recipe asks for {}); {}", requested,
                           recipe_precision, figures);
    return c;
  }
  if (recipe_precision != "bf16") {
    c.precision = recipe_precision;
    c.decided_by = "recipe";
    c.reason = "the recipe trains in " + recipe_precision;
    return c;
  }
  if (c.bf16_over_fp32 <= 0) {
    c.precision = "fp32";
    c.decided_by = "no ceilings";
    c.reason = "fp32: the recipe asks for bf16, but " + figures +
               ", and bf16 is used only where measured faster (set precision = \"bf16\" to force it)";
    return c;
  }
  c.decided_by = "measured ceilings";
  if (c.bf16_over_fp32 >= kMinBf16Speedup) {
    c.precision = "bf16";
    c.reason = fmt::format("bf16: {}, at least the {:.2f}x that pays for autocast's casts", figures, kMinBf16Speedup);
  } else {
    c.precision = "fp32";
    c.reason = fmt::format("fp32 instead of the recipe's bf16: {}, below the {:.2f}x that pays for autocast's casts "
                           "(no native bf16 on this CPU, or not in this LibTorch build)",
                           figures, kMinBf16Speedup);
  }
  return c;
}

json PrecisionChoiceToJson(const PrecisionChoice& c) {
  json j = {{"precision", c.precision},
            {"requested", c.requested},
            {"recipe", c.recipe},
            {"decided_by", c.decided_by},
            {"reason", c.reason},
            {"bf16_over_fp32", c.bf16_over_fp32 > 0 ? json(c.bf16_over_fp32) : json(nullptr)}};
  if (!c.recipe_form.empty()) j["recipe_form"] = c.recipe_form;
  return j;
}

}  // namespace evalsuite::entries
