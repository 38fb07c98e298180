// Runs evaluated once per epoch, for tests that need a known epochs-to-target and time per epoch: as the store
// records them (RunRecord) and as the report reads them (analysis::Run). Header-only: the store and report types come
// from the libraries each test binary already links.
#pragma once

#include <optional>

#include "reports/report_input.h"
#include "store/run_store.h"

namespace evalsuite::testing {

// Evaluated once per epoch, `seconds_per_epoch` apart, first at or above a 0.9 target (at `reached_metric`) at
// `epochs_to_target`, its last epoch.
inline store::RunRecord StoredEpochRun(int index, int epochs_to_target, double seconds_per_epoch,
                                       double reached_metric = 0.91) {
  store::RunRecord run;
  run.entry = "e";
  run.run_index = index;
  run.threads = 1;
  run.seeds.run = index;
  run.log.status = analysis::EndedAs::kReached;
  for (int epoch = 1; epoch <= epochs_to_target; ++epoch) {
    const double time = epoch * seconds_per_epoch;
    const double metric = epoch == epochs_to_target ? reached_metric : 0.5 + 0.01 * epoch;
    run.log.points.push_back({double(epoch), time, time, metric, std::nullopt});
  }
  run.log.train_seconds = epochs_to_target * seconds_per_epoch;
  run.log.wall_seconds = run.log.train_seconds;
  return run;
}

// The same run as the report reads it.
inline analysis::Run EpochRunInput(int index, int epochs_to_target, double seconds_per_epoch) {
  analysis::Run run;
  run.index = index;
  run.status = analysis::RunStatus::kReached;
  for (int epoch = 1; epoch <= epochs_to_target; ++epoch) {
    run.points.push_back({epoch * seconds_per_epoch, epoch == epochs_to_target ? 0.91 : 0.5 + 0.01 * epoch});
    run.epochs.push_back(epoch);
  }
  run.time_spent = epochs_to_target * seconds_per_epoch;
  run.wall_seconds = run.time_spent;
  run.threads = 1;
  return run;
}

}  // namespace evalsuite::testing
