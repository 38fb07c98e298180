#include "training/hardware_profile.h"

#include "entries/precision_choice.h"
#include "reports/hardware_ceilings.h"
#include "runlog/hardware_json.h"
#include "training/trainer.h"

namespace evalsuite::training {
namespace {
using nlohmann::json;

double Number(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

}  // namespace

json HardwareEntryFromRun(const std::string& entry, const entries::Recipe& recipe, int epochs, const json& hardware,
                          const MachineCeilings& machine) {
  json measured = reports::EntryFromHardwareRecord(entry, recipe.batch_size, epochs, hardware);
  measured["precision"] = recipe.precision;
  return reports::RateAgainstCeilings(measured, MachineCeilingsToJson(machine));
}

json ProfileEntryHardware(const entries::BuiltinEntry& entry, const datasets::FashionMnist& data,
                          const MachineCeilings& machine, const ProfileOptions& options) {
  datasets::FashionMnist subset = data;
  subset.validation = datasets::TakeFirst(data.validation, options.validation_subset);
  TrainOptions train;
  train.seed = options.seed;
  train.threads = options.threads;
  train.train_subset = options.train_subset;
  // The precision a study would choose on this machine, from the ceilings just measured; the figures describe the
  // recipe as it ran (its fp32 form where that is what runs), not the recipe as written.
  train.precision = entries::ChoosePrecision(entry, entries::kPrecisionAuto, MachineCeilingsToJson(machine),
                                             {entry.threshold, data.train.size()});
  const TrainResult result = Train(entry, subset, train);
  json out = HardwareEntryFromRun(entry.name, result.recipe, entry.epoch_budget, result.hardware, machine);
  out["precision_choice"] = entries::PrecisionChoiceToJson(result.precision);
  // A full run: every training image each epoch at the profiled seconds per sample, and one evaluation of the
  // whole validation split per epoch at the profiled seconds per validation image.
  const double samples = Number(result.hardware, "samples");
  const double evaluated_images = static_cast<double>(subset.validation.size() * result.run.points.size());
  if (samples > 0 && evaluated_images > 0) {
    const double epochs = entry.epoch_budget;
    const double train_s =
        Number(result.hardware, "train_seconds") / samples * static_cast<double>(data.train.size()) * epochs;
    const double eval_s = runlog::HardwareFiguresFromJson(result.hardware).evaluation_seconds / evaluated_images *
                          static_cast<double>(data.validation.size()) * epochs;
    out["full_run_estimate"] = {
        {"train_seconds", train_s}, {"evaluation_seconds", eval_s}, {"evaluation_share", eval_s / (train_s + eval_s)}};
  }
  out["profile"] = {{"train_images", result.run.header["data"]["train_images"]},
                    {"validation_images", subset.validation.size()},
                    {"threads", result.threads},
                    {"status", runlog::LogEndName(result.run.status)}};
  return out;
}

json BuildHardwareSection(const MachineCeilings& machine, const std::vector<json>& entries) {
  return {{"machine", MachineCeilingsToJson(machine)},
          {"entries", entries},
          {"method",
           "FLOPs and bytes per sample counted per layer (training/model_cost.h); achieved FLOP/s = "
           "model FLOPs of the samples trained / training seconds (PaLM's MFU: over the measured peak of the run's "
           "precision); roofline after Williams et al. 2009 with the measured peak and triad bandwidth; each entry "
           "profiled on a subset with its own recipe and epoch budget"}};
}

}  // namespace evalsuite::training
