// The comparison oracle's fixtures, shared by the tests that check a two-entry statistic against it (log-rank,
// median ratio, restricted mean, Brunner-Munzel): censoring, ties within a group (12, 12; 25, 25) and across groups
// (15, 22). One definition, so that a unity batch of the tests never meets two.
#pragma once

#include <vector>

#include "stats/survival.h"

namespace evalsuite::stats::fixtures {

inline std::vector<SurvivalObservation> Group(const std::vector<double>& times, const std::vector<int>& events,
                                              double scale = 1) {
  std::vector<SurvivalObservation> g;
  for (std::size_t i = 0; i < times.size(); ++i) g.push_back({times[i] * scale, events[i] == 1});
  return g;
}

inline std::vector<SurvivalObservation> FixtureA() {
  return Group({10, 12, 12, 15, 20, 22, 30, 31, 35, 40}, {1, 1, 1, 1, 0, 1, 0, 1, 1, 0});
}

inline std::vector<SurvivalObservation> FixtureB(double scale = 1) {
  return Group({14, 15, 15, 18, 22, 25, 25, 28, 33, 41, 45, 50}, {1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 1}, scale);
}

}  // namespace evalsuite::stats::fixtures
