// Fuzz target: the frameworks' logs (runlog/framework_log.h): the same bytes as a TensorBoard event file,
// a trainer_state.json, a Lightning metrics.csv and a Keras CSVLogger file. Each either reads or throws Error.
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "runlog/hf_trainer_log.h"
#include "runlog/keras_csv_log.h"
#include "runlog/lightning_csv_log.h"
#include "runlog/tensorboard_events.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

void Touch(const evalsuite::runlog::FrameworkRun& run) {
  for (const auto& [name, points] : run.series) (void)nlohmann::json(name).dump();
  (void)nlohmann::json(run.warnings).dump();
  (void)run.facts.dump();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace runlog = evalsuite::runlog;
  const std::filesystem::path file = evalsuite::fuzz::WriteScratch("events.out.tfevents.fuzz", data, size);
  try {
    Touch(runlog::ReadTensorboardEvents(file));
  } catch (const evalsuite::Error&) {
  }
  try {
    Touch(runlog::ReadHfTrainerState(file));
  } catch (const evalsuite::Error&) {
  }
  try {
    Touch(runlog::ReadLightningMetricsCsv(file));
  } catch (const evalsuite::Error&) {
  }
  try {
    for (const runlog::FrameworkRun& run : runlog::ReadKerasCsv(file)) Touch(run);
  } catch (const evalsuite::Error&) {
  }
  return 0;
}
