// An MLflow file-store run folder (mlruns/<experiment id>/<run id>/): meta.yaml (start_time and end_time in ms since
// the epoch, status 1 RUNNING, 2 SCHEDULED, 3 FINISHED, 4 FAILED, 5 KILLED, run_name, lifecycle_stage), one file
// per metric under metrics/ (a name with "/" is a subfolder) holding "timestamp_ms value step" lines (older
// versions: "timestamp_ms value"), params/<name> and tags/<name> holding their value. MLflow stamps every point with
// the wall clock, so the basis is seconds: (timestamp - start_time) / 1000, from the run's start_time (or, without
// one, its earliest metric timestamp). A point's epoch is its step as logged. The seed is params/seed (or
// random_seed); the experiment's name comes from the experiment folder's meta.yaml.
#pragma once

#include <filesystem>

#include "runlog/framework_log.h"

namespace evalsuite::runlog {

// `folder` holds meta.yaml and metrics/. Throws IoError (unreadable) or InputError naming the file and line (a
// metric line that is not "timestamp value [step]" numbers).
FrameworkRun ReadMlflowRun(const std::filesystem::path& folder);

// True when `folder` is an MLflow run folder: it holds meta.yaml and a metrics/ folder.
bool IsMlflowRunFolder(const std::filesystem::path& folder);

}  // namespace evalsuite::runlog
