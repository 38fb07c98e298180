// How many runs per entry a comparison needs: the power of the test that decides `compare`'s verdict (the
// Brunner-Munzel test, stats/brunner_munzel.h, through the same function) to show a given TTA ratio, by simulation from
// each entry's OWN pilot runs, censoring kept, and the same whichever way the pair is written: the planned n must give
// the power whichever entry is the faster one.
//
// Each entry's model is its pilot runs' log times around their Kaplan-Meier median, resampled with replacement and
// smoothed (a normal kernel of bandwidth b s, b = 0.9 m^-1/5, so a 3-run pilot is not three values), then widened
// so that the pair's summed log-time variance is its chi-square upper confidence bound at the plan's assurance,
// nu / chi2_nu(1 - assurance) times the estimate, nu Satterthwaite's degrees of freedom from the runs that reached:
// a pilot of a handful of runs often understates the spread (a 5-run pilot of CoV 25% planned 11 runs where 26
// were needed). Planned n then gives the power
// with that assurance over the pilot's own sampling (checked by simulation, tests/stats/comparison_power_test.cpp).
// A censored pilot run stays censored at its widened time. The faster entry's times (reached or stopped) are its
// model's times times the ratio. The power's simulation error is its binomial standard error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stats/survival.h"

namespace evalsuite::stats {

// Fewer pilot runs reaching the target than this and an entry's spread is not planned from: decided by the
// simulation of delivered power (README "How many runs?"): plans from 3-run pilots kept their power in only 0.67
// to 0.76 of cases (promised 0.80), from 5-run pilots in 0.86 to 0.90.
inline constexpr int kMinPilotReachedForPlan = 5;

struct PowerPlanOptions {
  double ratio = 0.90;      // the faster entry's TTA over the slower's, in (0, 1)
  double power = 0.80;      // the power the planned runs must give
  double assurance = 0.80;  // the chance, over the pilot's sampling, that they do
  double alpha = 0.05;      // two-sided level of compare's test
  int max_runs = 200;       // the largest runs per entry considered
  std::size_t simulations = 2000;
  std::uint64_t seed = 20240601;
};

// One entry's resampling model, from its pilot runs. `usable` false: `reason` says why it cannot be planned from.
struct PilotModel {
  bool usable = false;
  std::string reason;
  int runs = 0;
  int reached = 0;
  std::vector<SurvivalObservation> deviations;  // log time over the KM median, with each run's event flag
  double bandwidth = 0;                         // of the smoothing kernel, on the log scale
  double log_sd = 0;                            // of the pilot's log times (censored runs at their stop)
  double widening = 1;  // the factor on deviations and kernel: the pilot's own spread, or widened for assurance
};

// The model at the pilot's own spread; PlanComparisonRuns widens it for the plan's assurance.
PilotModel BuildPilotModel(const std::vector<SurvivalObservation>& pilot);

struct SimulatedPower {
  int runs_per_entry = 0;
  double power = 0;
  double standard_error = 0;  // of `power`, from the simulation's size
  std::size_t simulations = 0;
};

// The power at n runs per entry to show `faster` faster than `slower` by `ratio` (one direction).
SimulatedPower SimulateComparisonPower(const PilotModel& faster, const PilotModel& slower, double ratio,
                                       int runs_per_entry, double alpha = 0.05, std::size_t simulations = 2000,
                                       std::uint64_t seed = 20240601);

struct ComparisonRunPlan {
  // Why no number is given (an entry's pilot cannot be planned from, or even max_runs fall short); empty: planned.
  std::string withheld;
  // Where the pilot's size is what stands in the way: the runs reaching the target per entry a pilot would need.
  std::optional<int> pilot_runs_needed;
  // The smallest n whose power reaches `power` in both directions (the lower of the two is given).
  std::optional<SimulatedPower> needed;
  SimulatedPower at_max;      // withheld for max_runs: the power there (a quarter of the simulations, at least 200)
  double variance_bound = 1;  // the pair's log-time variance bound over its estimate, at the assurance
  double widening_a = 1, widening_b = 1;
};

// `same_pilot`: one entry's pilot stands for both (an entry against a copy of itself). Reasons name the entries
// `name_a` and `name_b`. A usable pilot has at least kMinPilotReachedForPlan runs that reached and at least half
// of its runs reaching (the median TTA the ratio is of).
ComparisonRunPlan PlanComparisonRuns(const std::vector<SurvivalObservation>& pilot_a,
                                     const std::vector<SurvivalObservation>& pilot_b, const PowerPlanOptions& options,
                                     const std::string& name_a = "A", const std::string& name_b = "B",
                                     bool same_pilot = false);

}  // namespace evalsuite::stats
