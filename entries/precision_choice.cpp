#include "entries/precision_choice.h"

#include <fmt/format.h>

#include <optional>

#include "common/error.h"

namespace evalsuite::entries {
namespace {

using nlohmann::json;

double NumberOr0(const json& object, const char* key) {
  if (!object.is_object()) return 0;
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string StringOrEmpty(const json& object, const char* key) {
  if (!object.is_object()) return "";
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The best measured FLOP/s of probe `name` ("conv_bf16"), 0 when absent.
double ProbeBest(const json& machine, const std::string& name) {
  if (!machine.is_object() || !machine.contains("probes") || !machine["probes"].is_array()) return 0;
  for (const json& probe : machine["probes"]) {
    if (StringOrEmpty(probe, "name") == name) return NumberOr0(probe, "best");
  }
  return 0;
}

// The convolution probes' ratio, for context only: it is what the choice used to be made from, and the gap between
// it and the step timings is worth seeing (issue 51).
double ConvolutionRatio(const json& machine) {
  const double fp32 = ProbeBest(machine, "conv_fp32"), bf16 = ProbeBest(machine, "conv_bf16");
  return fp32 > 0 && bf16 > 0 ? bf16 / fp32 : 0;
}

// The step timing of `entry`'s form that trains `recipe` in `precision`, from the machine's step_probes rows; none
// when no row has a positive time for it. A row for another batch size (a file written before the catalog changed)
// describes another step and does not count.
std::optional<FormEstimate> TimedForm(const json& machine, const BuiltinEntry& entry, const Recipe& recipe,
                                      const std::string& precision, const std::string& form) {
  if (!machine.is_object() || !machine.contains(kStepProbesKey) || !machine[kStepProbesKey].is_array()) {
    return std::nullopt;
  }
  for (const json& row : machine[kStepProbesKey]) {
    if (StringOrEmpty(row, "entry") != entry.name || StringOrEmpty(row, "precision") != precision) continue;
    if (static_cast<int>(NumberOr0(row, "batch_size")) != recipe.batch_size) continue;
    const double seconds = NumberOr0(row, "seconds_per_step");
    if (!(seconds > 0)) continue;
    FormEstimate f;
    f.form = form;
    f.precision = precision;
    f.batch_size = recipe.batch_size;
    f.seconds_per_step = seconds;
    f.steps_timed = static_cast<int>(NumberOr0(row, "steps_timed"));
    return f;
  }
  return std::nullopt;
}

// The row of `entry`'s first step timing (its threads and how it was timed), null when none.
json FirstRowOf(const json& machine, const std::string& entry) {
  if (!machine.is_object() || !machine.contains(kStepProbesKey) || !machine[kStepProbesKey].is_array()) return nullptr;
  for (const json& row : machine[kStepProbesKey]) {
    if (StringOrEmpty(row, "entry") == entry) return row;
  }
  return nullptr;
}

// "bf16 form (as written, batch 256): 28.1 ms per step = 0.110 ms per image, 1.38 epochs to 0.88: 9.1 s"
std::string DescribeForm(const FormEstimate& f, const RunGoal& goal) {
  const double per_image = f.seconds_per_step / f.batch_size;
  std::string text = fmt::format("{} form ({}, batch {}): {:.1f} ms per step = {:.3f} ms per image", f.precision,
                                 f.form, f.batch_size, 1e3 * f.seconds_per_step, 1e3 * per_image);
  if (f.epochs_to_target > 0) {
    text += fmt::format(", {:.2f} epochs to {}: {:.1f} s", f.epochs_to_target, goal.target, f.seconds_to_target);
  } else {
    text += fmt::format(": {:.1f} s per epoch", per_image * static_cast<double>(goal.train_images));
  }
  return text;
}

}  // namespace

double PrecisionChoice::Bf16Advantage() const {
  if (forms.size() != 2) return 0;
  const FormEstimate &bf16 = forms[0], &fp32 = forms[1];
  // Epochs known for both: time to target; the same recipe in either precision: time per image (equal epochs).
  if (bf16.seconds_to_target > 0 && fp32.seconds_to_target > 0) return fp32.seconds_to_target / bf16.seconds_to_target;
  return (fp32.seconds_per_step / fp32.batch_size) / (bf16.seconds_per_step / bf16.batch_size);
}

PrecisionChoice ChoosePrecision(const BuiltinEntry& entry, const std::string& requested, const json& machine,
                                const RunGoal& goal, const std::string& where) {
  if (requested != kPrecisionAuto && requested != "fp32" && requested != "bf16") {
    throw UsageError(where, "must be \"auto\", \"fp32\" or \"bf16\", got \"" + requested + "\"");
  }
  PrecisionChoice c;
  c.requested = requested;
  c.recipe = entry.recipe.precision;
  c.goal = goal;
  c.bf16_over_fp32 = ConvolutionRatio(machine);
  const std::string convolution =
      c.bf16_over_fp32 > 0 ? fmt::format(" (a bare bf16 convolution ran {:.2f}x fp32's)", c.bf16_over_fp32) : "";

  // Both forms, where the recipe has a bf16 one and both were timed.
  const bool two_forms = entry.recipe.precision == "bf16";
  const Recipe& fp32_recipe = entry.fp32_form ? *entry.fp32_form : entry.recipe;
  std::optional<FormEstimate> bf16_form, fp32_form;
  if (two_forms) {
    bf16_form = TimedForm(machine, entry, entry.recipe, "bf16", "as written");
    fp32_form = TimedForm(machine, entry, fp32_recipe, "fp32", entry.fp32_form ? "fp32 form" : "as written");
  }
  // Epochs to target: the form's table; where there is no fp32 form both precisions train the same recipe, and its
  // epochs are taken as equal (bf16's rounding moves a curve as another seed does), so time per image decides.
  bool epochs_known = true;
  if (bf16_form && fp32_form) {
    const std::optional<double> bf16_epochs = EpochsToTargetAt(entry.epochs_to_target, goal.target);
    const std::optional<double> fp32_epochs =
        entry.fp32_form ? EpochsToTargetAt(entry.fp32_form_epochs_to_target, goal.target) : bf16_epochs;
    epochs_known = !entry.fp32_form || (bf16_epochs && fp32_epochs);
    for (auto* f : {&*bf16_form, &*fp32_form}) {
      const std::optional<double>& epochs = f == &*bf16_form ? bf16_epochs : fp32_epochs;
      if (!epochs) continue;
      f->epochs_to_target = *epochs;
      f->seconds_to_target = f->seconds_per_step / f->batch_size * static_cast<double>(goal.train_images) * *epochs;
    }
    c.forms = {*bf16_form, *fp32_form};
    const json row = FirstRowOf(machine, entry.name);
    c.threads = static_cast<int>(NumberOr0(row, "threads"));
    c.timed_by = StringOrEmpty(row, "timed_by");
  }
  const std::string measured = c.forms.empty()
                                   ? std::string()
                                   : fmt::format("timed on this machine ({} thread{}{}): {}; {}", c.threads,
                                                 c.threads == 1 ? "" : "s", c.timed_by.empty() ? "" : ", " + c.timed_by,
                                                 DescribeForm(c.forms[0], goal), DescribeForm(c.forms[1], goal));

  if (requested != kPrecisionAuto) {
    c.precision = requested;
    c.decided_by = "forced";
    c.reason =
        fmt::format("{} forced by the plan or option (the recipe asks for {})", requested, entry.recipe.precision);
    if (!measured.empty() && epochs_known) {
      c.reason += fmt::format("; {}: bf16 {:.2f}x sooner", measured, c.Bf16Advantage());
    }
    return c;
  }
  if (entry.recipe.precision != "bf16") {
    c.precision = entry.recipe.precision;
    c.decided_by = "recipe";
    c.reason = "the recipe trains in " + entry.recipe.precision;
    return c;
  }
  c.precision = "fp32";
  if (c.forms.empty()) {
    c.decided_by = "no step timings";
    c.reason =
        "fp32: the recipe asks for bf16, but no training steps of its bf16 and fp32 forms were timed on this "
        "machine" +
        convolution +
        ", and bf16 is used only where its own steps reach the target sooner (a convolution's speed alone "
        "does not say: set precision = \"bf16\" to force it)";
    return c;
  }
  if (!epochs_known) {
    c.decided_by = "no epochs to target";
    c.reason = fmt::format(
        "fp32: {}; the catalog has no epochs to {} for both forms, so their times to target "
        "cannot be compared",
        measured, goal.target);
    return c;
  }
  c.decided_by = "measured steps";
  const double advantage = c.Bf16Advantage();
  const std::string basis = c.forms[0].seconds_to_target > 0 ? "time to target" : "time per image";
  if (advantage >= kMinBf16Advantage) {
    c.precision = "bf16";
    c.reason = fmt::format("bf16: {}; bf16 reaches it {:.2f}x sooner ({}), at least the {:.2f}x asked{}", measured,
                           advantage, basis, kMinBf16Advantage, convolution);
  } else {
    c.reason = fmt::format(
        "fp32 instead of the recipe's bf16: {}; bf16 would take {:.2f}x fp32's {}, and is "
        "used only where at least {:.2f}x sooner{}",
        measured, 1.0 / advantage, basis, kMinBf16Advantage, convolution);
  }
  return c;
}

json PrecisionChoiceToJson(const PrecisionChoice& c) {
  json j = {
      {"precision", c.precision}, {"requested", c.requested},
      {"recipe", c.recipe},       {"decided_by", c.decided_by},
      {"reason", c.reason},       {"bf16_over_fp32", c.bf16_over_fp32 > 0 ? json(c.bf16_over_fp32) : json(nullptr)}};
  if (!c.recipe_form.empty()) j["recipe_form"] = c.recipe_form;
  if (!c.forms.empty()) {
    json forms = json::array();
    for (const FormEstimate& f : c.forms) {
      forms.push_back({{"form", f.form},
                       {"precision", f.precision},
                       {"batch_size", f.batch_size},
                       {"seconds_per_step", f.seconds_per_step},
                       {"steps_timed", f.steps_timed},
                       {"seconds_per_image", f.seconds_per_step / f.batch_size},
                       {"epochs_to_target", f.epochs_to_target > 0 ? json(f.epochs_to_target) : json(nullptr)},
                       {"seconds_to_target", f.seconds_to_target > 0 ? json(f.seconds_to_target) : json(nullptr)}});
    }
    j["measured"] = {{"target", c.goal.target},
                     {"train_images", c.goal.train_images},
                     {"threads", c.threads},
                     {"timed_by", c.timed_by},
                     {"forms", forms},
                     {"bf16_advantage", c.Bf16Advantage()},
                     {"method",
                      "median seconds of a few timed training steps of each form at its batch size (after warm-up "
                      "steps), per image, times the form's epochs to the target from the catalog"}};
  }
  return j;
}

}  // namespace evalsuite::entries
