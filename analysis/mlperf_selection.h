// Do a submission's convergence points look like a random draw from the RCP reference runs at its batch size? Two
// seeded simulation tests against honest draws of the same size from the reference pool: the mean rank (runs all in
// the fast tail) and the variance ratio (far less spread than the reference: too good to be true), flagged at
// alpha / 2 each (Bonferroni); their false-alarm rate measured on simulated honest submissions and their power on
// "best N of 2N"; and the maximum-likelihood M under "the N best of M runs were kept". Evidence, never a verdict.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::analysis {

struct SelectionSettings {
  std::size_t draws = 10000;  // honest draws for each test's null distribution
  std::size_t honest = 2000;  // simulated honest (and best-N-of-2N) submissions for the false-alarm rate and power
  double alpha = 0.05;
  std::uint64_t seed = 1;
};

struct SelectionCheck {
  bool computed = false;
  std::string why_not;
  std::size_t runs = 0;  // convergence points tested
  // Each run's position in the reference: (#faster + #equal / 2 + 1/2) / (pool + 1), in run order.
  std::vector<double> positions;
  double mean_position = 0;
  double p_fast = 1;                     // P(an honest draw's mean position <= this one's)
  std::optional<double> variance_ratio;  // sample variance of the points / the reference's (ddof 1 both)
  std::optional<double> p_spread;        // P(an honest draw's ratio <= this one's)
  bool flagged = false;                  // either p below alpha / 2
  double false_alarm_rate = 0;           // of the flag on simulated honest submissions of this size
  double power_best_half = 0;            // of the flag on simulated "best N of 2N" submissions
  // ML M under "best N of M kept" (the N smallest of M draws; likelihood M!/(M-N)! (1 - u_max)^(M - N)), with the
  // likelihood-ratio 95% interval; `m_high` is nullopt when the likelihood is still flat at the search's end.
  std::size_t m_hat = 0;
  std::size_t m_low = 0;
  std::optional<std::size_t> m_high;
};

// `points`: the submission's convergence points; `pool`: the reference runs' at its batch size.
SelectionCheck CheckSelection(const std::vector<double>& points, const std::vector<double>& pool,
                              const SelectionSettings& settings, const std::string& source);

}  // namespace evalsuite::analysis
