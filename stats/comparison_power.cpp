#include "stats/comparison_power.h"

#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <random>
#include <stdexcept>

namespace evalsuite::stats {

SimulatedPower SimulateComparisonPower(const std::vector<SurvivalObservation>& pilot, double ratio, int runs_per_entry,
                                       double alpha, std::size_t simulations, std::uint64_t seed) {
  bool any_event = false;
  for (const auto& o : pilot) any_event = any_event || o.event;
  if (!any_event) throw std::invalid_argument("comparison power: the pilot has no run that reached the target");
  if (!(ratio > 0 && ratio < 1)) throw std::invalid_argument("comparison power: the ratio must lie in (0, 1)");
  if (runs_per_entry < 1) throw std::invalid_argument("comparison power: at least one run per entry");
  const double critical = boost::math::quantile(boost::math::normal(), 1 - alpha / 2);
  std::mt19937_64 engine(seed);
  std::vector<SurvivalObservation> faster(runs_per_entry), slower(runs_per_entry);
  std::size_t shown = 0;
  for (std::size_t s = 0; s < simulations; ++s) {
    for (auto& o : faster) {
      o = pilot[engine() % pilot.size()];
      o.time *= ratio;
    }
    for (auto& o : slower) o = pilot[engine() % pilot.size()];
    const LogRankResult test = LogRankTest(faster, slower);
    if (test.permutation_variance > 0 && test.permutation_z >= critical)
      ++shown;  // shown faster, in the right direction
  }
  SimulatedPower p;
  p.runs_per_entry = runs_per_entry;
  p.simulations = simulations;
  p.power = static_cast<double>(shown) / static_cast<double>(simulations);
  p.standard_error = std::sqrt(p.power * (1 - p.power) / static_cast<double>(simulations));
  return p;
}

RunsForPower FindRunsForPower(const std::vector<SurvivalObservation>& pilot, double ratio, double power, double alpha,
                              int max_runs, std::size_t simulations, std::uint64_t seed) {
  // Power grows with n (up to simulation noise): double to bracket, then bisect, each n with the same seed.
  auto at = [&](int n) { return SimulateComparisonPower(pilot, ratio, n, alpha, simulations, seed); };
  RunsForPower result;
  result.at_max = at(max_runs);
  if (result.at_max.power < power) return result;
  if (at(1).power >= power) {
    result.needed = at(1);
    return result;
  }
  int low = 1, high = 2;  // at(low) falls short; at(high) reaches it once the doubling stops
  while (high < max_runs && at(high).power < power) {
    low = high;
    high = std::min(max_runs, high * 2);
  }
  while (high - low > 1) {
    const int mid = (low + high) / 2;
    (at(mid).power >= power ? high : low) = mid;
  }
  result.needed = at(high);
  return result;
}

}  // namespace evalsuite::stats
