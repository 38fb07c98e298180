// The frameworks' own training logs behind the import seam: each format's reader (runlog/hf_trainer_log.h,
// lightning_csv_log.h, keras_csv_log.h, mlflow_run.h, tensorboard_events.h) turns a file or run folder into runs;
// here, in one place, each run gets its entry, metric, direction, time basis and seed, the run-log checks every
// format passes (runlog/run_log_checks.h), and its group (one entry, metric and basis) for the store.
//   entry   --entry, else run_identity.h's grouping (--group-by): the run's folder (Hugging Face: above a
//           checkpoint-N folder; TensorBoard: the run folder, train/validation stepped over; MLflow: the experiment,
//           by name) minus the names that only number runs (seed1, version_0, run_3...), the file's name where it
//           tells runs of one folder apart ("fast_seed1.csv" beside "slow_seed1.csv"), then the recorded
//           hyperparameters minus the seed (Lightning's hparams.yaml, MLflow's params/) and MLflow run names. The
//           grouping is shown before anything is stored.
//   metric  --metric, else framework_metric.h's ChooseMetric; lower-is-better metrics (loss, WER...) are stored
//           negated ("-eval_wer", threshold -0.35) so every reader's "at or above the target" holds, while --threshold
//           is typed as logged (0.35 means eval_wer <= 0.35); a rate's (accuracy, mAP, WER) threshold on the other
//           scale than the log's (fraction or percent) is converted with a note (run_identity.h).
//   time    the log's own: seconds where it records a clock (MLflow, TensorBoard, an epoch CSV's "time" column), else
//           epochs (Hugging Face, Keras, epoch CSVs) or steps (Lightning); the entry's time_unit says which and its
//           description says why. Never made up.
//   runs    one per file or run folder (an appended Keras file: one per fit; TensorBoard: the event files of one run
//           folder together); of a Hugging Face output folder's checkpoints only the newest state is read.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "importer/framework_probe.h"
#include "importer/import_result.h"
#include "importer/import_sources.h"
#include "runlog/framework_log.h"

namespace evalsuite::importer {

// Reads one source (throws Error naming the file and line or record).
std::vector<runlog::FrameworkRun> ReadFrameworkSource(const SourceFile& source);

struct FrameworkSource {
  const SourceFile* file = nullptr;
  std::vector<runlog::FrameworkRun>* runs = nullptr;
};

// Turns the read sources into groups (in order of their first source) appended to result.groups, with the rules'
// notes in result.notes and each run's warnings in its log. A --metric that a run lacks is an error naming the file
// (result.errors and result.framework_errors; the run is left out), and so is a run none of whose evaluations could
// be read (it did not fail: it is unreadable). An import with a framework error stores nothing (the CLI asks
// result.framework_errors). The grouping goes to result.grouping, runs of one entry that differ in a recorded
// hyperparameter to result.warnings.
void BuildFrameworkGroups(const ImportOptions& options, const std::vector<FrameworkSource>& sources,
                          ImportResult& result);

// The summary block of one framework group (importer.cpp's FormatSummary asks for it).
std::string FormatFrameworkGroup(const ImportedGroup& group);

}  // namespace evalsuite::importer
