#include "importer/framework_probe.h"

#include <algorithm>
#include <fstream>
#include <string>

#include "common/ascii_case.h"
#include "runlog/epoch_csv_log.h"
#include "runlog/hf_trainer_log.h"
#include "runlog/keras_csv_log.h"
#include "runlog/lightning_csv_log.h"
#include "runlog/mlflow_run.h"
#include "runlog/tensorboard_events.h"

namespace evalsuite::importer {

namespace fs = std::filesystem;

bool IsFrameworkFormat(ImportFormat format) {
  return format == ImportFormat::kHfTrainer || format == ImportFormat::kLightning || format == ImportFormat::kKeras ||
         format == ImportFormat::kMlflow || format == ImportFormat::kTensorboard || format == ImportFormat::kEpochCsv;
}

std::optional<ImportFormat> ProbeFrameworkFile(const fs::path& file, ImportFormat forced) {
  const std::string name = file.filename().string();
  const std::string ext = AsciiLowercase(file.extension().string());
  auto wants = [&](ImportFormat f) { return forced == ImportFormat::kAuto || forced == f; };
  if (wants(ImportFormat::kTensorboard) && runlog::IsTensorboardEventFileName(name)) return ImportFormat::kTensorboard;
  if (wants(ImportFormat::kMlflow) && name == "meta.yaml" && runlog::IsMlflowRunFolder(file.parent_path())) {
    return ImportFormat::kMlflow;
  }
  if (wants(ImportFormat::kHfTrainer) && ext == ".json") {
    const std::size_t n = std::string("trainer_state.json").size();
    const bool named = name.size() >= n && name.compare(name.size() - n, n, "trainer_state.json") == 0;
    // trainer_state.json is indented with sorted keys: "log_history" sits within its first lines.
    std::string head;
    if (!named) {
      std::ifstream in(file, std::ios::binary);
      head.resize(4096);
      in.read(head.data(), static_cast<std::streamsize>(head.size()));
      head.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
    }
    if (named || runlog::LooksLikeHfTrainerState(head)) {
      return ImportFormat::kHfTrainer;
    }
  }
  if (ext == ".csv" || ext == ".log") {
    const std::string header = runlog::FirstLineOf(file);
    if (wants(ImportFormat::kLightning) && ext == ".csv" && runlog::LooksLikeLightningHeader(header)) {
      return ImportFormat::kLightning;
    }
    if (wants(ImportFormat::kKeras) && runlog::LooksLikeKerasHeader(header)) return ImportFormat::kKeras;
    if (wants(ImportFormat::kEpochCsv) && ext == ".csv" && runlog::LooksLikeEpochCsvHeader(header)) {
      return ImportFormat::kEpochCsv;
    }
  }
  return std::nullopt;
}

}  // namespace evalsuite::importer
