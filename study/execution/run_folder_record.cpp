#include "study/execution/run_folder_record.h"

#include "study/execution/json_record_file.h"
#include "study/execution/run_record_json.h"
#include "study/plans/run_producer.h"

namespace evalsuite::study {
namespace {

namespace fs = std::filesystem;

constexpr int kRecordVersion = 1;

std::optional<nlohmann::json> ReadRecord(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir / kRunRecordFile, ec)) return std::nullopt;
  std::optional<nlohmann::json> json = ReadJsonFile(dir / kRunRecordFile);
  if (!json || !json->is_object() || !json->contains("producer")) return std::nullopt;
  return json;
}

bool FolderIsEmpty(const fs::path& dir) {
  std::error_code ec;
  return fs::is_empty(dir, ec) && !ec;
}

}  // namespace

nlohmann::json StudyIdentity(const std::string& name, const fs::path& store_file, int64_t study_id) {
  std::error_code ec;
  fs::path absolute = fs::absolute(store_file, ec);
  return {{"name", name}, {"store", (ec ? store_file : absolute).lexically_normal().string()}, {"id", study_id}};
}

void WriteRunFolderRecord(const fs::path& run_dir, const StudyPlan& plan, const PlannedEntry& entry,
                          const PlannedRun& run, const nlohmann::json& study_identity) {
  WriteJsonFileAtomically(run_dir / kRunRecordFile, {{"evalsuite_run_record", kRecordVersion},
                                                     {"study", study_identity},
                                                     {"producer", RunProducer(plan, entry, run)}});
}

std::optional<std::string> WhyNotAdoptable(const fs::path& dir, const StudyPlan& plan, const PlannedEntry& entry,
                                           const PlannedRun& run) {
  std::optional<nlohmann::json> record = ReadRecord(dir);
  if (!record) {
    if (FolderIsEmpty(dir)) return std::nullopt;  // created, then killed before anything was written: nothing to adopt
    return std::string("it has no readable ") + kRunRecordFile +
           ", so nothing says which plan made it (a folder of another tool, or of an evalsuite before run records)";
  }
  const nlohmann::json wanted = RunProducer(plan, entry, run);
  const nlohmann::json& recorded = (*record)["producer"];
  if (recorded == wanted) return std::nullopt;
  std::string made_for;
  if (const auto it = record->find("study"); it != record->end()) {
    const RecordedStudyName study = RecordedStudyNameFromJson(*it);
    if (study.name && study.store) made_for = " (made for study '" + *study.name + "' in " + *study.store + ")";
  }
  return "it was made by another plan" + made_for + ": " + DescribePlanDifferences(recorded, wanted) +
         " (recorded -> this plan)";
}

std::optional<nlohmann::json> RecordedStudy(const fs::path& dir) {
  std::optional<nlohmann::json> record = ReadRecord(dir);
  if (!record || !(*record).contains("study") || !(*record)["study"].is_object()) return std::nullopt;
  return (*record)["study"];
}

}  // namespace evalsuite::study
