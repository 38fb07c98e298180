// The formats an import reads, by the name --format takes. A floor below finding the sources (import_sources.h)
// and probing a file for a framework's log (framework_probe.h).
#pragma once

#include <optional>
#include <string>

namespace evalsuite::importer {

// The frameworks' own logs (framework_import.h): Hugging Face trainer_state.json, Lightning and Keras CSV loggers,
// MLflow run folders, TensorBoard event files, epoch-indexed CSVs of metrics (YOLO's results.csv).
enum class ImportFormat {
  kAuto,
  kMlperf,
  kDawnbench,
  kJsonl,
  kHfTrainer,
  kLightning,
  kKeras,
  kMlflow,
  kTensorboard,
  kEpochCsv
};
// "auto", "mlperf", "dawnbench", "jsonl", "hf-trainer", "lightning", "keras", "mlflow", "tensorboard", "epoch-csv"
std::optional<ImportFormat> ParseImportFormat(const std::string& name);
const char* ImportFormatName(ImportFormat format);

}  // namespace evalsuite::importer
