// What a study shows while it runs. On a terminal: one live line (runs done of total, each running run's
// entry, seed and epoch from the tail of its log, elapsed and estimated remaining time) redrawn in place,
// with a plain line per finished run above it. Elsewhere (a file, CI): plain lines only.
#pragma once

#include <chrono>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/run_store.h"

namespace evalsuite::study {

struct RunningRunView {
  std::string entry;
  int index = 0;
  uint64_t seed = 0;
  int epochs_budget = 0;        // 0 when unknown
  std::optional<double> epoch;  // last evaluation seen in its log
  std::optional<double> metric;
  double seconds = 0;  // since it started
};

class ProgressReporter {
 public:
  virtual ~ProgressReporter() = default;
  virtual void StudyStarted(const std::string& study, int total_runs, int already_done, int jobs, int threads) = 0;
  // Instead of StudyStarted, for a sequential study whose stopping rule had answered before this command (a rerun of
  // a finished study): nothing is left to run, which "20 of 40 runs to do" would hide.
  virtual void StudyAlreadyAnswered(const std::string& /*study*/, int /*total_runs*/, int /*already_done*/) {}
  virtual void RunStarted(const RunningRunView& run) = 0;
  virtual void Update(const std::vector<RunningRunView>& running) = 0;  // called about twice a second
  virtual void RunFinished(const store::RunRecord& record, double wall_seconds) = 0;
  virtual void StudyFinished() = 0;
};

// Live line when `terminal`, plain lines otherwise; writes to `out` (the study uses stderr).
std::unique_ptr<ProgressReporter> MakeProgressReporter(std::ostream& out, bool terminal);
std::unique_ptr<ProgressReporter> MakeSilentProgress();

// "1:02:03", "4:05"
std::string FormatDuration(double seconds);

}  // namespace evalsuite::study
