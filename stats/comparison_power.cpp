#include "stats/comparison_power.h"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <random>
#include <stdexcept>

#include "stats/brunner_munzel.h"

namespace evalsuite::stats {
namespace {

std::string Percent(double fraction) { return std::to_string(static_cast<int>(std::lround(100 * fraction))) + "%"; }

// The smoothing kernel's bandwidth over the log times' standard deviation: Silverman's 0.9 m^-1/5.
double RelativeBandwidth(int runs) { return 0.9 * std::pow(static_cast<double>(runs), -0.2); }

// The smoothed bootstrap's variance over the pilot's s^2: (m - 1) / m + b^2.
double ResampledVariance(int runs) {
  const double m = static_cast<double>(runs), b = RelativeBandwidth(runs);
  return (m - 1) / m + b * b;
}

// The upper `assurance` confidence bound of var(log TTA of A) + var(log TTA of B), which the test's power
// falls with, over its estimate: nu / chi2_nu(1 - assurance) with Satterthwaite's degrees of freedom from each
// entry's own (PlanComparisonRuns: its runs that reached, less one per censored run, less one). One bound for the pair,
// not one per entry: two bounds at 80% each would hold together far more often than 80%, and plan too many runs.
double PairVarianceBound(double var_a, double df_a, double var_b, double df_b, double assurance) {
  const double nu = (var_a + var_b) * (var_a + var_b) / (var_a * var_a / df_a + var_b * var_b / df_b);
  return nu / boost::math::quantile(boost::math::chi_squared(nu), 1 - assurance);
}

// Widens both models so that each one's variance is its pilot's s^2 times the pair's bound.
void Widen(PilotModel& a, PilotModel& b, double bound) {
  a.widening = std::sqrt(bound / ResampledVariance(a.runs));
  b.widening = std::sqrt(bound / ResampledVariance(b.runs));
}

SurvivalObservation Draw(const PilotModel& model, double scale, std::mt19937_64& engine,
                         std::normal_distribution<double>& kernel) {
  const SurvivalObservation& d = model.deviations[engine() % model.deviations.size()];
  return {scale * std::exp(model.widening * (d.time + model.bandwidth * kernel(engine))), d.event};
}

// Counts the simulated studies in which the verdict's test shows `faster` faster; with `target`, stops as soon as
// the count settles whether power >= target (the answer is the one the full simulation would give).
struct Count {
  std::size_t shown = 0, done = 0;
};
Count CountShown(const PilotModel& faster, const PilotModel& slower, double ratio, int n, double alpha,
                 std::size_t simulations, std::uint64_t seed, std::optional<double> target) {
  const double needed = target ? std::ceil(*target * static_cast<double>(simulations) - 1e-9) : 0;
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> kernel(0, 1);
  std::vector<SurvivalObservation> a(n), b(n);
  Count c;
  for (; c.done < simulations; ++c.done) {
    if (target &&
        (static_cast<double>(c.shown) >= needed || static_cast<double>(c.shown + (simulations - c.done)) < needed)) {
      break;
    }
    for (auto& o : a) o = Draw(faster, ratio, engine, kernel);
    for (auto& o : b) o = Draw(slower, 1, engine, kernel);
    // The verdict's own test, through the function `compare` asks (stats/brunner_munzel.h).
    if (BrunnerMunzelVerdict(BrunnerMunzelTest(a, b), alpha) > 0) ++c.shown;  // faster, the right way
  }
  return c;
}

// Both directions reach `power` at n (the plan holds whichever entry is the faster one). Both directions draw with
// the same seed, so the pair written the other way round gives the very same figures.
bool Reaches(const PilotModel& a, const PilotModel& b, const PowerPlanOptions& o, int n, std::size_t simulations) {
  const double needed = std::ceil(o.power * static_cast<double>(simulations) - 1e-9);
  return static_cast<double>(CountShown(a, b, o.ratio, n, o.alpha, simulations, o.seed, o.power).shown) >= needed &&
         static_cast<double>(CountShown(b, a, o.ratio, n, o.alpha, simulations, o.seed, o.power).shown) >= needed;
}

SimulatedPower BothWays(const PilotModel& a, const PilotModel& b, const PowerPlanOptions& o, int n) {
  const SimulatedPower x = SimulateComparisonPower(a, b, o.ratio, n, o.alpha, o.simulations, o.seed);
  const SimulatedPower y = SimulateComparisonPower(b, a, o.ratio, n, o.alpha, o.simulations, o.seed);
  return x.power <= y.power ? x : y;
}

}  // namespace

PilotModel BuildPilotModel(const std::vector<SurvivalObservation>& pilot) {
  PilotModel model;
  model.runs = static_cast<int>(pilot.size());
  for (const auto& o : pilot) model.reached += o.event ? 1 : 0;
  auto fail = [&](std::string why) {
    model.reason = std::move(why);
    return model;
  };
  if (model.runs == 0) return fail("it has no pilot runs");
  if (model.reached < kMinPilotReachedForPlan) {
    return fail("only " + std::to_string(model.reached) + " of its " + std::to_string(model.runs) +
                " pilot run(s) reached the target; planning needs at least " + std::to_string(kMinPilotReachedForPlan));
  }
  for (const auto& o : pilot) {
    if (!(o.time > 0) || !std::isfinite(o.time)) return fail("a pilot run has a time that is not positive");
  }
  const KaplanMeierCurve km = EstimateKaplanMeier(pilot);
  if (!km.median) {
    return fail("fewer than half of its " + std::to_string(model.runs) +
                " pilot runs reached the target, so its median TTA (what the ratio is a ratio of) is unknown");
  }
  // The center is the Kaplan-Meier mean of the log times (the plain mean when every run reached; the mass left
  // after the last event sits at the longest run), so that each model's deviations average 0 in that weighting and
  // the two models differ by the ratio: centering on the median instead moves a 5-run pilot's effective ratio by as
  // much as the difference to detect.
  double center = 0, left = 1, longest = 0;
  for (const auto& step : km.steps) {
    center += (left - step.survival) * std::log(step.time);
    left = step.survival;
  }
  for (const auto& o : pilot) longest = std::max(longest, o.time);
  center += left * std::log(longest);
  double sum = 0, squares = 0;
  for (const auto& o : pilot) {
    model.deviations.push_back({std::log(o.time) - center, o.event});
    sum += model.deviations.back().time;
  }
  const double mean = sum / model.runs;
  for (const auto& d : model.deviations) squares += (d.time - mean) * (d.time - mean);
  const double sd = std::sqrt(squares / (model.runs - 1));
  if (!(sd > 0)) return fail("its pilot runs all took the same time: there is no spread to plan from");
  model.bandwidth = RelativeBandwidth(model.runs) * sd;
  model.log_sd = sd;
  model.widening = std::sqrt(1 / ResampledVariance(model.runs));  // the pilot's own spread until widened
  model.usable = true;
  return model;
}

SimulatedPower SimulateComparisonPower(const PilotModel& faster, const PilotModel& slower, double ratio,
                                       int runs_per_entry, double alpha, std::size_t simulations, std::uint64_t seed) {
  if (!faster.usable || !slower.usable) throw std::invalid_argument("comparison power: a pilot model is not usable");
  if (!(ratio > 0 && ratio < 1)) throw std::invalid_argument("comparison power: the ratio must lie in (0, 1)");
  if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("comparison power: alpha must lie in (0, 1)");
  if (runs_per_entry < 1) throw std::invalid_argument("comparison power: at least one run per entry");
  const Count c = CountShown(faster, slower, ratio, runs_per_entry, alpha, simulations, seed, std::nullopt);
  SimulatedPower p;
  p.runs_per_entry = runs_per_entry;
  p.simulations = simulations;
  p.power = static_cast<double>(c.shown) / static_cast<double>(simulations);
  p.standard_error = std::sqrt(p.power * (1 - p.power) / static_cast<double>(simulations));
  return p;
}

ComparisonRunPlan PlanComparisonRuns(const std::vector<SurvivalObservation>& pilot_a,
                                     const std::vector<SurvivalObservation>& pilot_b, const PowerPlanOptions& o,
                                     const std::string& name_a, const std::string& name_b, bool same_pilot) {
  if (!(o.ratio > 0 && o.ratio < 1)) throw std::invalid_argument("comparison plan: the ratio must lie in (0, 1)");
  if (!(o.power > 0 && o.power < 1)) throw std::invalid_argument("comparison plan: the power must lie in (0, 1)");
  if (!(o.assurance > 0 && o.assurance < 1)) {
    throw std::invalid_argument("comparison plan: the assurance must lie in (0, 1)");
  }
  ComparisonRunPlan plan;
  PilotModel a = BuildPilotModel(pilot_a), b = BuildPilotModel(pilot_b);
  if (!a.usable || !b.usable) {
    if (!a.usable) plan.withheld = name_a + ": " + a.reason;
    if (!b.usable && !same_pilot) plan.withheld += (plan.withheld.empty() ? "" : "; ") + name_b + ": " + b.reason;
    if ((!a.usable && a.reached < kMinPilotReachedForPlan) || (!b.usable && b.reached < kMinPilotReachedForPlan)) {
      plan.pilot_runs_needed = kMinPilotReachedForPlan;
    }
    return plan;
  }
  // Degrees of freedom: the runs that reached, less one, less one more per censored run: a censored pilot's spread
  // (its slowest runs cut at their stop) is both smaller and less certain than an uncensored one's, and with the
  // plain r - 1 plans from pilots with 15% censored runs fell short of their power in about half of the cases.
  const auto df = [](const PilotModel& m) { return std::max(1, 2 * m.reached - m.runs - 1); };
  const auto bound_for = [&](int df_a, int df_b) {
    if (same_pilot) {  // one pilot stands for both entries: one variance, df_a degrees of freedom
      return df_a / boost::math::quantile(boost::math::chi_squared(df_a), 1 - o.assurance);
    }
    return PairVarianceBound(a.log_sd * a.log_sd, df_a, b.log_sd * b.log_sd, df_b, o.assurance);
  };
  plan.variance_bound = bound_for(df(a), df(b));
  Widen(a, b, plan.variance_bound);
  plan.widening_a = a.widening;
  plan.widening_b = b.widening;
  const int top = std::max(2, o.max_runs);
  if (!Reaches(a, b, o, top, o.simulations)) {
    PowerPlanOptions quick_options = o;  // the figure for the message; the decision above used every simulation
    quick_options.simulations = std::max<std::size_t>(200, o.simulations / 4);
    plan.at_max = BothWays(a, b, quick_options, top);
    plan.withheld = "even " + std::to_string(top) + " runs per entry fall short of " + Percent(o.power) +
                    " power (about " + Percent(plan.at_max.power) + ") at the pilots' spread widened for " +
                    Percent(o.assurance) + " assurance";
    // Would a larger pilot (narrower bound on the spread) make max_runs enough? The same deviations, widened for
    // a pilot of `size` runs that all reached.
    const std::size_t quick = std::max<std::size_t>(200, o.simulations / 4);
    const std::vector<int> sizes = {5, 10, 15, 20, 30, 40, 60, 80, 100};
    const auto enough = [&](int size) {  // that many runs per entry, all reached, as spread as these
      PilotModel wa = a, wb = b;
      Widen(wa, wb, bound_for(size - 1, size - 1));
      return Reaches(wa, wb, o, top, quick);
    };
    // The widening falls with the pilot's size, so the first size that is enough is found by bisection.
    std::size_t low = 0, high = sizes.size();
    while (low < sizes.size() && sizes[low] <= std::min(a.reached, b.reached)) ++low;
    if (low < high && enough(sizes[high - 1])) {
      while (high - low > 1) {
        const std::size_t mid = (low + high - 1) / 2;
        if (enough(sizes[mid])) {
          high = mid + 1;
        } else {
          low = mid + 1;
        }
      }
      const int size = sizes[high - 1];
      plan.pilot_runs_needed = size;
      plan.withheld += "; the pilot is too small to plan from: its spread is known too loosely, and a pilot of " +
                       std::to_string(size) + " runs per entry reaching the target (as spread as these) would " +
                       "bring it within " + std::to_string(top) + " runs";
    }
    return plan;
  }
  // Power grows with n (up to simulation noise): double to bracket, then bisect, each n with the same seed.
  int low = 1, high = 2;
  while (high < top && !Reaches(a, b, o, high, o.simulations)) {
    low = high;
    high = std::min(top, high * 2);
  }
  while (high - low > 1) {
    const int mid = (low + high) / 2;
    (Reaches(a, b, o, mid, o.simulations) ? high : low) = mid;
  }
  plan.needed = BothWays(a, b, o, high);
  return plan;
}

}  // namespace evalsuite::stats
