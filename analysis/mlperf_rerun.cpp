#include "analysis/mlperf_rerun.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "stats/descriptive.h"
#include "stats/quantile.h"

namespace evalsuite::analysis {
namespace {

// splitmix64's finalizer: spreads a seed's bits so that neighbouring seeds give unrelated streams.
std::uint64_t MixRerunSeed(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

ScoreRange RangeOfScores(const std::vector<double>& scores, double level) {
  ScoreRange r;
  r.median = stats::SampleQuantile(scores, 0.5);
  r.low = stats::SampleQuantile(scores, (1 - level) / 2);
  r.high = stats::SampleQuantile(scores, (1 + level) / 2);
  return r;
}

// The time per epoch of a rerun's runs, predicted from the submission's n runs (mean m, sd s) as under a normal
// model with unknown mean and spread: each rerun draws the system's spread, sigma = s sqrt((n - 1) / chi2_{n-1}), and
// shifts its mean by sigma Z / sqrt(n); each run adds a resampled deviation x_i - m, widened by sqrt(n / (n - 1)) and
// scaled by sigma / s (the runs' own shape, the predictive's scale). A plain bootstrap of the runs covered a fresh
// rerun 82% of the time where it promised 90% (tests/audit/audit_calibration_test.cpp): with the RCP normalization,
// half of the reruns' scores are set by the time per epoch alone, and 5 runs place its mean and spread loosely.
class PredictiveSpeed {
 public:
  struct Rerun {
    double shift = 0;
    double scale = 1;  // of the deviations
  };
  explicit PredictiveSpeed(const std::vector<double>& values) : values_(values) {
    const double n = static_cast<double>(values.size());
    for (double v : values) mean_ += v / n;
    if (values.size() >= 2) {
      double sum = 0;
      for (double v : values) sum += (v - mean_) * (v - mean_);
      sd_ = std::sqrt(sum / (n - 1));
      widen_ = std::sqrt(n / (n - 1));
      chi2_ = std::chi_squared_distribution<double>(n - 1);
      dof_ = n - 1;
    }
  }
  Rerun Draw(std::mt19937_64& rng) const {
    Rerun r;
    if (sd_ <= 0) return r;
    const double ratio = std::sqrt(dof_ / std::max(chi2_(rng), 1e-12));
    r.shift = sd_ * ratio / std::sqrt(dof_ + 1) * normal_(rng);
    r.scale = widen_ * ratio;
    return r;
  }
  double Run(const Rerun& r, std::size_t i) const {
    return std::max(0.0, mean_ + r.shift + (values_[i] - mean_) * r.scale);
  }

 private:
  const std::vector<double>& values_;
  double mean_ = 0;
  double sd_ = 0;
  double widen_ = 1;
  double dof_ = 1;
  mutable std::chi_squared_distribution<double> chi2_{1};
  mutable std::normal_distribution<double> normal_{0, 1};
};

// What each simulated run draws: a convergence point from `pool` (or the fixed `fixed_convergence`) and a time per
// unit from `per_unit` (or the fixed `fixed_per_unit`).
struct RerunDraw {
  const std::vector<double>* pool = nullptr;
  std::optional<double> fixed_convergence;
  const std::vector<double>* per_unit = nullptr;
  std::optional<double> fixed_per_unit;
};

struct ReferenceScores {
  std::vector<double> scores;
  std::size_t rcp_fails = 0;
};

ReferenceScores SimulateReferenceScores(const RerunReference& ref, const RerunDraw& draw, std::size_t runs,
                                        std::size_t drop, std::size_t draws, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick_convergence(0, draw.pool->size() - 1);
  std::uniform_int_distribution<std::size_t> pick_per_unit(0, draw.per_unit->size() - 1);
  ReferenceScores out;
  out.scores.reserve(draws);
  std::vector<double> times(runs), points(runs);
  const PredictiveSpeed speed(*draw.per_unit);
  for (std::size_t k = 0; k < draws; ++k) {
    const PredictiveSpeed::Rerun shift = speed.Draw(rng);
    for (std::size_t j = 0; j < runs; ++j) {
      const double c = draw.fixed_convergence ? *draw.fixed_convergence : (*draw.pool)[pick_convergence(rng)];
      const double t = draw.fixed_per_unit ? *draw.fixed_per_unit : speed.Run(shift, pick_per_unit(rng));
      points[j] = c;
      times[j] = c * t;
    }
    double score = OlympicOfValues(times, drop);
    if (ref.normalize) {
      // The checker's normalization of a passing submission: reference mean / submission mean when faster.
      const double mean_points = OlympicOfValues(points, drop);
      if (mean_points < ref.min_epochs) ++out.rcp_fails;
      score *= std::max(1.0, ref.mean / mean_points);
    }
    out.scores.push_back(score);
  }
  return out;
}

double Width(const ScoreRange& r) { return r.high - r.low; }

RerunRange OwnRunsRange(const RerunSubmission& s, const RerunSettings& settings, RerunRange out) {
  if (s.run_minutes.size() < 2) {
    out.why_not = fmt::format("{} successful run(s): a rerun range needs the reference runs or at least 2 runs",
                              s.run_minutes.size());
    return out;
  }
  // The published scaling applies to a rerun as it did to these runs (the fallback has no convergence points to
  // recompute it from).
  const double scale =
      s.official_minutes && s.raw_minutes && *s.raw_minutes > 0 ? *s.official_minutes / *s.raw_minutes : 1.0;
  auto simulate = [&](std::size_t runs, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::size_t> pick(0, s.run_minutes.size() - 1);
    std::vector<double> scores, times(runs);
    scores.reserve(settings.draws);
    const PredictiveSpeed minutes(s.run_minutes);  // as for the time per epoch above
    for (std::size_t k = 0; k < settings.draws; ++k) {
      const PredictiveSpeed::Rerun shift = minutes.Draw(rng);
      for (double& t : times) t = minutes.Run(shift, pick(rng));
      scores.push_back(OlympicOfValues(times, s.drop_each_side) * scale);
    }
    return scores;
  };
  const std::uint64_t seed = SubmissionSeed(settings.seed, s.source);
  out.computed = true;
  out.method = "own runs";
  out.caveat = fmt::format(
      "a bootstrap of the submission's own {} run time(s): with so few runs it understates the spread a rerun "
      "would show (it cannot draw a convergence point the runs did not reach)",
      s.run_minutes.size());
  out.scores = simulate(out.runs, seed);
  out.range = RangeOfScores(out.scores, settings.level);
  out.doubled = RangeOfScores(simulate(2 * out.runs, MixRerunSeed(seed ^ 4)), settings.level);
  return out;
}

}  // namespace

std::uint64_t SubmissionSeed(std::uint64_t seed, const std::string& source) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a: a fixed hash, unlike std::hash
  for (unsigned char c : source) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return MixRerunSeed(seed ^ MixRerunSeed(h));
}

double OlympicOfValues(std::vector<double>& values, std::size_t drop) {
  if (values.size() <= 2 * drop) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  double sum = 0;
  for (std::size_t i = drop; i < values.size() - drop; ++i) sum += values[i];
  return sum / static_cast<double>(values.size() - 2 * drop);
}

RerunRange SimulateRerun(const RerunSubmission& s, const RerunSettings& settings) {
  RerunRange out;
  out.runs = s.runs_required;
  if (out.runs <= 2 * s.drop_each_side) {
    out.why_not =
        fmt::format("{} runs leave nothing after the olympic trim of {} each side", out.runs, s.drop_each_side);
    return out;
  }
  // Time per convergence unit of each run that gives both.
  std::vector<double> per_unit;
  for (std::size_t i = 0; i < s.run_minutes.size() && i < s.convergence.size(); ++i) {
    if (s.convergence[i] && *s.convergence[i] > 0) per_unit.push_back(s.run_minutes[i] / *s.convergence[i]);
  }
  if (!s.reference || s.reference->pool.empty() || per_unit.empty()) {
    out.fallback_reason = !s.reference || s.reference->pool.empty()
                              ? s.no_reference
                              : "no counted run's log gives its convergence point in the RCP's unit";
    return OwnRunsRange(s, settings, out);
  }
  const RerunReference& ref = *s.reference;
  const std::uint64_t seed = SubmissionSeed(settings.seed, s.source);
  RerunDraw both{&ref.pool, std::nullopt, &per_unit, std::nullopt};
  ReferenceScores main = SimulateReferenceScores(ref, both, out.runs, s.drop_each_side, settings.draws, seed);
  out.computed = true;
  out.method = "reference";
  out.scores = std::move(main.scores);
  out.range = RangeOfScores(out.scores, settings.level);
  out.rcp_fail_share = static_cast<double>(main.rcp_fails) / static_cast<double>(settings.draws);
  // Each factor alone, the other held at its centre (the reference mean; the median time per unit).
  RerunDraw convergence_only{&ref.pool, std::nullopt, &per_unit, stats::Median(per_unit)};
  RerunDraw time_only{&ref.pool, ref.mean, &per_unit, std::nullopt};
  const double wc = Width(RangeOfScores(
      SimulateReferenceScores(ref, convergence_only, out.runs, s.drop_each_side, settings.draws, MixRerunSeed(seed ^ 1))
          .scores,
      settings.level));
  const double wt = Width(RangeOfScores(
      SimulateReferenceScores(ref, time_only, out.runs, s.drop_each_side, settings.draws, MixRerunSeed(seed ^ 2))
          .scores,
      settings.level));
  if (wc * wc + wt * wt > 0) {
    out.convergence_share = wc * wc / (wc * wc + wt * wt);
    out.time_share = 1 - *out.convergence_share;
  }
  out.doubled = RangeOfScores(
      SimulateReferenceScores(ref, both, 2 * out.runs, s.drop_each_side, settings.draws, MixRerunSeed(seed ^ 3)).scores,
      settings.level);
  return out;
}

double ProbabilityFaster(const RerunRange& a, const RerunRange& b) {
  const std::size_t n = std::min(a.scores.size(), b.scores.size());
  if (n == 0) return std::numeric_limits<double>::quiet_NaN();
  double wins = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (a.scores[k] < b.scores[k]) {
      wins += 1;
    } else if (a.scores[k] == b.scores[k]) {
      wins += 0.5;
    }
  }
  return wins / static_cast<double>(n);
}

}  // namespace evalsuite::analysis
