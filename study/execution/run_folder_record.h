// Each run folder says what made it: before a run's process starts, its executor (the local scheduler, a Slurm task)
// writes run_dir/evalsuite-run.json with the run's producer (plans/run_producer.h: the entry's command or recipe,
// its threshold and settings, the seed rule, the run's index and seed) and the study it was made for (name, store).
// Resume adopts a folder the store does not know only when that record names this very run's producer: a folder
// made by another plan (a changed command run into a new store under the same --out, another config's seed folders)
// is refused with the fields that differ and what to do. Nothing is ever silently reused.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "study/plans/study_plan.h"

namespace evalsuite::study {

constexpr const char* kRunRecordFile = "evalsuite-run.json";

// Which study a run folder was made for (a record's "study"): its name, the store's absolute path and its id there.
nlohmann::json StudyIdentity(const std::string& name, const std::filesystem::path& store_file, int64_t study_id);

// Writes run_dir/evalsuite-run.json (atomically; run_dir must exist). IoError naming the file when it cannot.
void WriteRunFolderRecord(const std::filesystem::path& run_dir, const StudyPlan& plan, const PlannedEntry& entry,
                          const PlannedRun& run, const nlohmann::json& study_identity);

// Whether the folder `dir` may be adopted as an attempt of `run`: nothing when it may (its record names this run's
// producer, or the folder holds nothing at all); otherwise why not, for people (the differing fields, or that it
// has no record).
std::optional<std::string> WhyNotAdoptable(const std::filesystem::path& dir, const StudyPlan& plan,
                                           const PlannedEntry& entry, const PlannedRun& run);

// The study a folder's record names (its "study" object), or nothing when it has no readable record.
std::optional<nlohmann::json> RecordedStudy(const std::filesystem::path& dir);

}  // namespace evalsuite::study
