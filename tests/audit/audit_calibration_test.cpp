// The audit's promises on simulated honest submissions drawn from a reference (a seeded lognormal pool of 40
// convergence points, a 1% spread of time per epoch): the 90% rerun range holds a fresh rerun's score about 90% of
// the time; the selection check flags at most about alpha of honest submissions, and its power on "best N of 2N" is
// printed; the ML M of "best N of M" lands near M. Counts of 400 submissions: a binomial SE of 1.5 points at 90%.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <vector>

#include "analysis/mlperf_audit.h"

namespace evalsuite::analysis {
namespace {

struct HonestWorld {
  std::vector<double> pool;
  double reference_mean = 0;
  double min_epochs = 0;
  double minutes_per_epoch = 0.5;
  double time_spread = 0.01;
};

HonestWorld MakeHonestWorld() {
  HonestWorld w;
  std::mt19937_64 rng(11);
  std::lognormal_distribution<double> epochs(std::log(40.0), 0.08);
  for (int i = 0; i < 40; ++i) w.pool.push_back(epochs(rng));
  std::vector<double> copy = w.pool;
  w.reference_mean = OlympicOfValues(copy, 1);
  w.min_epochs = 0.95 * w.reference_mean;
  return w;
}

// One honest submission's runs, or a fresh rerun's: convergence from the pool, time per epoch around the system's.
struct DrawnRuns {
  std::vector<double> minutes;
  std::vector<std::optional<double>> convergence;
};

DrawnRuns DrawRuns(const HonestWorld& w, std::size_t n, std::mt19937_64& rng) {
  std::uniform_int_distribution<std::size_t> pick(0, w.pool.size() - 1);
  std::lognormal_distribution<double> per_epoch(std::log(w.minutes_per_epoch), w.time_spread);
  DrawnRuns runs;
  for (std::size_t i = 0; i < n; ++i) {
    const double c = w.pool[pick(rng)];
    runs.convergence.push_back(c);
    runs.minutes.push_back(c * per_epoch(rng));
  }
  return runs;
}

double ScoreOf(const HonestWorld& w, const DrawnRuns& runs) {
  std::vector<double> minutes = runs.minutes, points;
  for (const auto& c : runs.convergence) points.push_back(*c);
  return OlympicOfValues(minutes, 1) * std::max(1.0, w.reference_mean / OlympicOfValues(points, 1));
}

RerunSubmission SubmissionOf(const HonestWorld& w, const DrawnRuns& runs, int id) {
  RerunSubmission s;
  s.source = "honest/" + std::to_string(id);
  s.runs_required = runs.minutes.size();
  s.run_minutes = runs.minutes;
  s.convergence = runs.convergence;
  RerunReference ref;
  ref.pool = w.pool;
  ref.mean = w.reference_mean;
  ref.min_epochs = w.min_epochs;
  ref.normalize = true;
  s.reference = ref;
  return s;
}

TEST(AuditCalibrationTest, NinetyPercentRangeHoldsAFreshRerunNinetyPercentOfTheTime) {
  const HonestWorld w = MakeHonestWorld();
  RerunSettings settings;
  settings.draws = 2000;
  for (std::size_t n : {5u, 10u}) {
    std::mt19937_64 rng(5 + n);
    int covered = 0, below = 0;
    const int submissions = 400;
    for (int i = 0; i < submissions; ++i) {
      const RerunSubmission s = SubmissionOf(w, DrawRuns(w, n, rng), i);
      const RerunRange r = SimulateRerun(s, settings);
      ASSERT_TRUE(r.computed);
      const double fresh = ScoreOf(w, DrawRuns(w, n, rng));
      if (fresh >= r.range.low && fresh <= r.range.high) ++covered;
      if (fresh < r.range.low) ++below;
    }
    const double coverage = static_cast<double>(covered) / submissions;
    std::cout << n << " runs: the 90% rerun range held a fresh rerun's score in " << coverage << " of " << submissions
              << " honest submissions (" << below << " below it)\n";
    EXPECT_NEAR(coverage, 0.90, 0.045);  // 3 binomial SEs
  }
}

TEST(AuditCalibrationTest, SelectionCheckFalseAlarmsAtItsLevelAndPowerOnBestHalf) {
  const HonestWorld w = MakeHonestWorld();
  SelectionSettings settings;
  settings.draws = 4000;
  settings.honest = 400;
  for (std::size_t n : {5u, 10u}) {
    std::mt19937_64 rng(17 + n);
    std::uniform_int_distribution<std::size_t> pick(0, w.pool.size() - 1);
    int flagged_honest = 0, flagged_selected = 0;
    const int submissions = 400;
    double reported_false_alarms = 0;
    for (int i = 0; i < submissions; ++i) {
      std::vector<double> honest(n), twice(2 * n);
      for (double& x : honest) x = w.pool[pick(rng)];
      for (double& x : twice) x = w.pool[pick(rng)];
      std::sort(twice.begin(), twice.end());
      const std::vector<double> best(twice.begin(), twice.begin() + static_cast<std::ptrdiff_t>(n));
      const SelectionCheck h = CheckSelection(honest, w.pool, settings, "honest/" + std::to_string(i));
      const SelectionCheck b = CheckSelection(best, w.pool, settings, "best/" + std::to_string(i));
      if (h.flagged) ++flagged_honest;
      if (b.flagged) ++flagged_selected;
      reported_false_alarms += h.false_alarm_rate;
    }
    const double false_alarms = static_cast<double>(flagged_honest) / submissions;
    const double power = static_cast<double>(flagged_selected) / submissions;
    std::cout << "selection check, N = " << n << ": false alarms " << false_alarms << " (its own estimate "
              << reported_false_alarms / submissions << "), power on best N of 2N " << power << "\n";
    EXPECT_LE(false_alarms, 0.05 + 0.033);  // alpha plus 3 binomial SEs of 400
    EXPECT_LE(reported_false_alarms / submissions, 0.06);
    EXPECT_GT(power, 2 * false_alarms);
  }
}

TEST(AuditCalibrationTest, MaximumLikelihoodMFindsTheRunsKept) {
  std::mt19937_64 rng(23);
  // A continuous reference, so that positions are not tied: best 10 of 40 uniform draws' ML M.
  std::vector<double> pool;
  for (int i = 0; i < 400; ++i) pool.push_back(std::uniform_real_distribution<double>(0, 1)(rng));
  SelectionSettings settings;
  settings.draws = 200;
  settings.honest = 0;
  int inside = 0;
  const int trials = 200;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> all(40);
    for (double& x : all) x = std::uniform_real_distribution<double>(0, 1)(rng);
    std::sort(all.begin(), all.end());
    const SelectionCheck c = CheckSelection(std::vector<double>(all.begin(), all.begin() + 10), pool, settings, "m");
    if (c.m_low <= 40 && (!c.m_high || *c.m_high >= 40)) ++inside;
  }
  std::cout << "ML M interval holds M = 40 in " << inside << " of " << trials << "\n";
  EXPECT_GE(inside, 0.88 * trials);  // a 95% interval, with slack for the discrete positions
}

}  // namespace
}  // namespace evalsuite::analysis
