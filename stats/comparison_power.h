// How many runs per entry a comparison needs: the power of the log-rank test (stats/survival.h) to show a given
// TTA ratio, by simulation from pilot runs (Efron and Tibshirani 1993's resampling plan): each simulated study
// draws n runs per entry with replacement from the pilot's runs, censoring kept, and the faster entry's runs are
// the pilot's with every time (reached or stopped) multiplied by the ratio. The power's own simulation error is
// its binomial standard error sqrt(p (1 - p) / simulations).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "stats/survival.h"

namespace evalsuite::stats {

struct SimulatedPower {
  int runs_per_entry = 0;
  double power = 0;
  double standard_error = 0;  // of `power`, from the simulation's size
  std::size_t simulations = 0;
};

// The power at n runs per entry. `pilot` must hold at least one run that reached; ratio in (0, 1) (the faster
// entry's TTA over the slower's).
SimulatedPower SimulateComparisonPower(const std::vector<SurvivalObservation>& pilot, double ratio, int runs_per_entry,
                                       double alpha = 0.05, std::size_t simulations = 2000,
                                       std::uint64_t seed = 20240601);

struct RunsForPower {
  std::optional<SimulatedPower> needed;  // the smallest n (up to max_runs) whose simulated power reaches `power`
  SimulatedPower at_max;                 // the power at max_runs (what is said when none reaches it)
};

RunsForPower FindRunsForPower(const std::vector<SurvivalObservation>& pilot, double ratio, double power = 0.80,
                              double alpha = 0.05, int max_runs = 200, std::size_t simulations = 2000,
                              std::uint64_t seed = 20240601);

}  // namespace evalsuite::stats
