// Restricted mean time to target up to a horizon tau: the area under the Kaplan-Meier curve of "not yet reached"
// from 0 to tau, i.e. the mean of min(TTA, tau) with runs that never reached counted to tau (Royston and Parmar
// 2013, "Restricted mean survival time: an alternative to the hazard ratio"). Its variance is Klein and
// Moeschberger's (2003, sec. 4.5) Greenwood-type sum, as R's survival print.survfit(rmean = tau) computes it:
//   Var = sum over event times t_i <= tau of A_i^2 d_i / (Y_i (Y_i - d_i)),  A_i = integral of S from t_i to tau.
// The horizon must lie within both groups' follow-up: beyond a group's last observed time its curve is unknown.
#pragma once

#include <vector>

#include "stats/interval.h"
#include "stats/survival.h"

namespace evalsuite::stats {

struct RestrictedMean {
  double horizon = 0;
  double mean = 0;            // in the observations' time unit
  double standard_error = 0;  // 0 when no event before tau (or every run at risk reached at once)
};

// Throws std::invalid_argument for an empty group, a non-finite time or a horizon <= 0.
RestrictedMean RestrictedMeanTime(const std::vector<SurvivalObservation>& observations, double horizon);

// The largest horizon both groups support: the smaller of the two groups' largest observed times.
double DefaultHorizon(const std::vector<SurvivalObservation>& a, const std::vector<SurvivalObservation>& b);

struct RestrictedMeanDifference {
  RestrictedMean a;
  RestrictedMean b;
  double difference = 0;  // a.mean - b.mean: negative when A reaches the target sooner on average up to tau
  Interval interval;      // difference +- z sqrt(se_a^2 + se_b^2), 100 (1 - alpha)%
  double p_value = 1;     // two-sided z test of difference 0
};

RestrictedMeanDifference CompareRestrictedMeans(const std::vector<SurvivalObservation>& a,
                                                const std::vector<SurvivalObservation>& b, double horizon,
                                                double alpha = 0.05);

}  // namespace evalsuite::stats
