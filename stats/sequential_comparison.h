// The decision of a sequential comparison of two entries: after every block (one more run of each entry) the
// log-rank statistic (with its permutation variance, stats/survival.h) of the first n runs of each is compared with the
// group-sequential boundary of that look (stats/group_sequential.h: Lan-DeMets O'Brien-Fleming-type alpha spending over
// looks n = min_runs..max_runs, at information fraction n / max_runs). The study stops at the first look whose |z|
// reaches its boundary (that entry is faster) or at max_runs (no difference shown). The chance of a wrong "faster" when
// both entries have the same TTA distribution stays at most alpha however many looks are taken; intervals reported at
// the stopping look use that look's critical value (repeated confidence intervals), which keeps them valid under this
// stopping. The decision is a pure function of the runs in their index order: a resumed study replays the same looks
// and makes the same decisions.
#pragma once

#include <string>
#include <vector>

#include "stats/group_sequential.h"
#include "stats/survival.h"

namespace evalsuite::stats {

struct SequentialLook {
  int runs_per_entry = 0;
  double z = 0;           // the log-rank z with permutation variance, positive when A reaches sooner (survival.h)
  double critical_z = 0;  // the boundary of this look
  bool crossed = false;
};

struct SequentialDecision {
  bool stop = false;
  // "A faster", "B faster", "no difference shown" (at max_runs), or "" while the study goes on.
  std::string result;
  std::string reason;  // why it stopped, or why it goes on
  std::vector<SequentialLook> looks;
  int runs_per_entry = 0;  // at the last look taken (0: none yet)
  double critical_z = 0;   // of that look
};

class SequentialComparisonDesign {
 public:
  // 1 <= min_runs <= max_runs, alpha in (0, 1) (std::invalid_argument otherwise).
  SequentialComparisonDesign(int min_runs, int max_runs, double alpha);

  // `a` and `b`: each entry's runs in run-index order, as many as have finished in order (a run index missing
  // in between ends the list there). Looks at n = min_runs.. up to the runs both have, stopping at the first
  // crossing.
  SequentialDecision Decide(const std::vector<SurvivalObservation>& a, const std::vector<SurvivalObservation>& b) const;

  // The boundary of the look at n runs per entry (min_runs <= n <= max_runs).
  double CriticalZ(int runs_per_entry) const;
  const std::vector<SequentialBoundary>& boundaries() const { return boundaries_; }
  int min_runs() const { return min_runs_; }
  int max_runs() const { return max_runs_; }
  double alpha() const { return alpha_; }

 private:
  int min_runs_, max_runs_;
  double alpha_;
  std::vector<SequentialBoundary> boundaries_;
};

}  // namespace evalsuite::stats
