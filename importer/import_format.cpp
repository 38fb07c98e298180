#include "importer/import_format.h"

namespace evalsuite::importer {

std::optional<ImportFormat> ParseImportFormat(const std::string& name) {
  if (name == "auto") return ImportFormat::kAuto;
  if (name == "mlperf") return ImportFormat::kMlperf;
  if (name == "dawnbench") return ImportFormat::kDawnbench;
  if (name == "jsonl") return ImportFormat::kJsonl;
  if (name == "hf-trainer") return ImportFormat::kHfTrainer;
  if (name == "lightning") return ImportFormat::kLightning;
  if (name == "keras") return ImportFormat::kKeras;
  if (name == "mlflow") return ImportFormat::kMlflow;
  if (name == "tensorboard") return ImportFormat::kTensorboard;
  if (name == "epoch-csv") return ImportFormat::kEpochCsv;
  return std::nullopt;
}

const char* ImportFormatName(ImportFormat format) {
  switch (format) {
    case ImportFormat::kAuto:
      return "auto";
    case ImportFormat::kMlperf:
      return "mlperf";
    case ImportFormat::kDawnbench:
      return "dawnbench";
    case ImportFormat::kJsonl:
      return "jsonl";
    case ImportFormat::kHfTrainer:
      return "hf-trainer";
    case ImportFormat::kLightning:
      return "lightning";
    case ImportFormat::kKeras:
      return "keras";
    case ImportFormat::kMlflow:
      return "mlflow";
    case ImportFormat::kTensorboard:
      return "tensorboard";
    case ImportFormat::kEpochCsv:
      return "epoch-csv";
  }
  return "auto";
}

}  // namespace evalsuite::importer
