#include "stats/rcp.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>

namespace evalsuite::stats {
namespace {

// numpy.mean / numpy.std (ddof 0) of values[begin, end). Plain summation: numpy's pairwise summation differs
// only in the last bits for the few values an RCP holds.
double Mean(const std::vector<double>& v, std::size_t begin, std::size_t end) {
  if (end <= begin) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  for (std::size_t i = begin; i < end; ++i) sum += v[i];
  return sum / static_cast<double>(end - begin);
}

double PopulationStdev(const std::vector<double>& v, std::size_t begin, std::size_t end) {
  const double mean = Mean(v, begin, end);
  double sum = 0;
  for (std::size_t i = begin; i < end; ++i) sum += (v[i] - mean) * (v[i] - mean);
  return std::sqrt(sum / static_cast<double>(end - begin));
}

// numpy.interp with two support points (x outside [x0, x1] clamps, as numpy does).
double Interp(double x, double x0, double x1, double y0, double y1) {
  if (x <= x0) return y0;
  if (x >= x1) return y1;
  const double slope = (y1 - y0) / (x1 - x0);
  return slope * (x - x0) + y0;
}

std::string FormatBatch(double batch_size) {
  std::ostringstream out;
  if (batch_size == std::floor(batch_size) && std::fabs(batch_size) < 1e15) {
    out << static_cast<long long>(batch_size);
  } else {
    out << batch_size;
  }
  return out.str();
}

}  // namespace

double OneSidedPooledTTestPValue(double mean1, double stdev1, double n1, double mean2, double stdev2, double n2) {
  const double df = n1 + n2 - 2;
  const double pooled_variance = ((n1 - 1) * stdev1 * stdev1 + (n2 - 1) * stdev2 * stdev2) / df;
  const double t = (mean1 - mean2) / std::sqrt(pooled_variance * (1.0 / n1 + 1.0 / n2));
  if (std::isnan(t)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(t)) return t < 0 ? 0.0 : 1.0;
  const boost::math::students_t distribution(df);
  // scipy returns the two-sided p = 2 * sf(|t|); the checker halves it for t < 0 and takes 1 - p/2 otherwise:
  // both are the lower tail P(T <= t).
  return t < 0 ? boost::math::cdf(distribution, t) : 1.0 - boost::math::cdf(boost::math::complement(distribution, t));
}

double RcpMinAcceptableMean(double mean, double stdev, std::size_t n_reference, std::size_t n_submission, double alpha,
                            double tolerance) {
  if (stdev == 0) return mean;
  const double n1 = static_cast<double>(n_reference);
  const double n2 = static_cast<double>(n_submission);
  // The test's p-value is the t distribution's lower tail at t, which rises with t: "p > alpha" is "t above the
  // alpha quantile". One quantile replaces a distribution function per step (the bisection takes 20 to 40), which
  // was most of an MLPerf import's RCP check; the steps decide alike but where t is within rounding of the quantile.
  const double df = n1 + n2 - 2;
  std::optional<double> t_alpha;
  if (df > 0 && std::isfinite(df) && alpha > 0 && alpha < 1) {
    t_alpha = boost::math::quantile(boost::math::students_t(df), alpha);
  }
  const double scale = stdev * std::sqrt(1.0 / n1 + 1.0 / n2);  // the pooled spread of equal stdevs is stdev
  double mean_max = mean;
  double mean_min = 0.0;
  double mean_mid = (mean_min + mean_max) / 2;
  while (mean_max - mean_min > tolerance) {
    // The checker passes (mid, stdev, n_reference) as the first sample and (mean, stdev, n_submission) as the
    // second; with equal stdevs the order of the counts does not change t.
    bool above;
    if (t_alpha) {
      const double t = (mean_mid - mean) / scale;
      above = t > *t_alpha;
    } else {
      above = OneSidedPooledTTestPValue(mean_mid, stdev, n1, mean, stdev, n2) > alpha;
    }
    if (above) {
      mean_max = mean_mid;
    } else {
      mean_min = mean_mid;
    }
    mean_mid = (mean_min + mean_max) / 2;
  }
  return mean_mid;
}

double RcpMinAcceptableMeanExact(double mean, double stdev, std::size_t n_reference, std::size_t n_submission,
                                 double alpha) {
  if (stdev == 0) return mean;
  const double nr = static_cast<double>(n_reference);
  const double ns = static_cast<double>(n_submission);
  const boost::math::students_t distribution(nr + ns - 2);
  const double t = boost::math::quantile(boost::math::complement(distribution, alpha));
  return mean - t * stdev * std::sqrt(1.0 / nr + 1.0 / ns);
}

RcpPoint MakeRcpPoint(const std::string& name, double batch_size, std::vector<double> epochs,
                      std::size_t drop_each_side, std::size_t submission_runs) {
  std::sort(epochs.begin(), epochs.end());
  RcpPoint point;
  point.name = name;
  point.batch_size = batch_size;
  const std::size_t n = epochs.size();
  const std::size_t begin = std::min(drop_each_side, n);
  const std::size_t end = n > drop_each_side ? n - drop_each_side : 0;
  point.kept_runs = end > begin ? end - begin : 0;
  point.mean = Mean(epochs, begin, end);
  // The checker's spread is numpy.std over every reference run, not only the kept ones.
  point.stdev = n > 0 ? PopulationStdev(epochs, 0, n) : std::numeric_limits<double>::quiet_NaN();
  const std::size_t n_submission = submission_runs >= 2 ? submission_runs - 2 : 0;
  point.min_epochs = RcpMinAcceptableMean(point.mean, point.stdev, point.kept_runs, n_submission);
  point.max_speedup = point.mean / point.min_epochs;
  return point;
}

RcpPoint InterpolateRcp(double batch_size, const RcpPoint& low, const RcpPoint& high, std::size_t submission_runs,
                        const std::string& benchmark) {
  RcpPoint point;
  point.name = benchmark + "_interp_" + FormatBatch(batch_size);
  point.batch_size = batch_size;
  point.mean = Interp(batch_size, low.batch_size, high.batch_size, low.mean, high.mean);
  point.stdev = Interp(batch_size, low.batch_size, high.batch_size, low.stdev, high.stdev);
  point.kept_runs = 2 * submission_runs;
  const std::size_t n_submission = submission_runs >= 2 ? submission_runs - 2 : 0;
  point.min_epochs = RcpMinAcceptableMean(point.mean, point.stdev, point.kept_runs, n_submission);
  point.max_speedup = point.mean / point.min_epochs;
  return point;
}

std::vector<RcpPoint> PruneRcps(std::vector<RcpPoint> points, std::size_t submission_runs,
                                const std::string& benchmark) {
  if (points.empty()) return points;
  // Step 1: nothing below the batch size of the fastest-converging point (the first one on ties, as min()). The
  // checker compares 'RCP Mean' here and below (its list is misleadingly called min_epochs).
  auto fastest = std::min_element(points.begin(), points.end(),
                                  [](const RcpPoint& a, const RcpPoint& b) { return a.mean < b.mean; });
  const double fastest_batch = fastest->batch_size;
  points.erase(
      std::remove_if(points.begin(), points.end(), [&](const RcpPoint& p) { return p.batch_size < fastest_batch; }),
      points.end());
  // Step 2: drop a point that converges slower than the interpolation of its neighbours, then look again at the
  // point that took its place.
  std::size_t i = 1;
  while (points.size() >= 3 && i < points.size() - 1) {
    const RcpPoint interpolated =
        InterpolateRcp(points[i].batch_size, points[i - 1], points[i + 1], submission_runs, benchmark);
    if (points[i].mean > interpolated.mean) {
      points.erase(points.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  return points;
}

RcpVerdict EvaluateRcp(const RcpPoint& reference, std::vector<double> epochs, std::size_t drop_each_side) {
  std::sort(epochs.begin(), epochs.end());
  const std::size_t n = epochs.size();
  const std::size_t begin = std::min(drop_each_side, n);
  const std::size_t end = n > drop_each_side ? n - drop_each_side : 0;
  RcpVerdict verdict;
  verdict.submission_mean = Mean(epochs, begin, end);
  const double norm = reference.mean / verdict.submission_mean;
  verdict.norm_factor = norm < 1 ? 1.0 : norm;
  verdict.pass = verdict.submission_mean >= reference.mean / reference.max_speedup;
  return verdict;
}

RcpCheck CheckRcp(const std::vector<RcpPoint>& points, double batch_size, const std::vector<double>& epochs,
                  std::size_t drop_each_side, std::size_t submission_runs, const std::string& benchmark) {
  RcpCheck check;
  const RcpPoint* exact = nullptr;
  const RcpPoint* below = nullptr;  // largest batch size under the submission's
  const RcpPoint* above = nullptr;  // smallest batch size over the submission's
  const RcpPoint* smallest = nullptr;
  for (const RcpPoint& p : points) {
    if (p.batch_size == batch_size && exact == nullptr) exact = &p;
    if (p.batch_size < batch_size && (below == nullptr || p.batch_size > below->batch_size)) below = &p;
    if (p.batch_size > batch_size && (above == nullptr || p.batch_size < above->batch_size)) above = &p;
    if (smallest == nullptr || p.batch_size < smallest->batch_size) smallest = &p;
  }
  const std::string missing = "Missing RCP, please submit RCP with BS = " + FormatBatch(batch_size);
  if (exact != nullptr) {
    check.used = *exact;
    check.message = "RCP found";
  } else if (below != nullptr && above != nullptr) {
    check.used = InterpolateRcp(batch_size, *below, *above, submission_runs, benchmark);
    check.message = "RCP Interpolation";
  } else if (below != nullptr) {
    check.message = missing;
    return check;
  } else if (above != nullptr) {
    check.used = *smallest;
    check.verdict = EvaluateRcp(*check.used, epochs, drop_each_side);
    check.pass = check.verdict->pass;
    check.message = check.pass ? "RCP not found but slower convergence on smaller batch size" : missing;
    return check;
  } else {
    check.message = "Cannot find any RCPs";
    return check;
  }
  check.verdict = EvaluateRcp(*check.used, epochs, drop_each_side);
  check.pass = check.verdict->pass;
  return check;
}

}  // namespace evalsuite::stats
