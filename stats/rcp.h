// MLPerf Training reference convergence points (RCP), the numerics of mlcommons/logging's rcp_checker.py:
// olympic mean and population stdev of the reference epochs, the smallest submission mean that still passes a
// one-sided pooled-variance t-test at alpha (bisection, as the checker does), interpolation, pruning, verdict.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::stats {

// One reference point: a batch size and its runs' epochs (or samples) to converge.
struct RcpPoint {
  std::string name;  // record name in the RCP file, "<bench>_interp_<bs>" when interpolated
  double batch_size = 0;
  double mean = 0;            // olympic mean of the reference epochs
  double stdev = 0;           // population stdev (numpy.std, ddof 0) of all the reference epochs
  std::size_t kept_runs = 0;  // reference runs left after the olympic drop
  double min_epochs = 0;      // smallest submission mean that passes the t-test
  double max_speedup = 0;     // mean / min_epochs
};

// The checker's p-value: scipy's ttest_ind_from_stats(equal_var=True) turned one-sided, i.e. P(T_df <= t)
// with t = (mean1 - mean2) / (s_pooled * sqrt(1/n1 + 1/n2)), df = n1 + n2 - 2.
double OneSidedPooledTTestPValue(double mean1, double stdev1, double n1, double mean2, double stdev2, double n2);

// Bisection on [0, mean] to `tolerance` for the smallest mean whose p-value exceeds alpha, with the same stdev
// on both sides (rcp_checker._find_min_acceptable_mean; stdev 0 gives `mean`).
double RcpMinAcceptableMean(double mean, double stdev, std::size_t n_reference, std::size_t n_submission,
                            double alpha = 0.05, double tolerance = 1e-4);
// Closed form of the same bound: mean - t_{1-alpha, n_ref+n_sub-2} * stdev * sqrt(1/n_ref + 1/n_sub).
double RcpMinAcceptableMeanExact(double mean, double stdev, std::size_t n_reference, std::size_t n_submission,
                                 double alpha = 0.05);

// Reference statistics from raw epochs: olympic mean after dropping `drop_each_side` (4 for unet3d, else 1) from
// each end, population stdev of all of them, min epochs with the kept count as n_reference and
// n_submission = submission_runs - 2 (as the checker does).
RcpPoint MakeRcpPoint(const std::string& name, double batch_size, std::vector<double> epochs,
                      std::size_t drop_each_side, std::size_t submission_runs);

// numpy.interp of mean and stdev between two points by batch size; min epochs with 2 * submission_runs
// reference samples (the checker's choice for interpolated points).
RcpPoint InterpolateRcp(double batch_size, const RcpPoint& low, const RcpPoint& high, std::size_t submission_runs,
                        const std::string& benchmark);

// The checker's pruning: drop points below the batch size of the point with the smallest mean, then drop each
// point whose mean exceeds the interpolation of its neighbours. Input and output sorted by batch size.
std::vector<RcpPoint> PruneRcps(std::vector<RcpPoint> points, std::size_t submission_runs,
                                const std::string& benchmark);

// How a submission compares with one reference point.
struct RcpVerdict {
  bool pass = false;
  double submission_mean = 0;  // olympic mean of the submission's epochs
  double norm_factor = 1;      // reference mean / submission mean when faster than the mean, else 1
};
// `epochs` has one value per run; a run that did not converge is given a huge value (the checker uses 1e9).
RcpVerdict EvaluateRcp(const RcpPoint& reference, std::vector<double> epochs, std::size_t drop_each_side);

struct RcpCheck {
  bool pass = false;
  std::string message;           // the checker's wording: "RCP found", "RCP Interpolation", "Missing RCP, ..."
  std::optional<RcpPoint> used;  // the reference point compared with
  std::optional<RcpVerdict> verdict;
};
// check_directory's decision for one pass: exact batch size, else interpolation between the neighbours, else
// the smallest-batch point when the submission's batch is below all references, else a missing RCP.
RcpCheck CheckRcp(const std::vector<RcpPoint>& points_sorted_by_batch, double batch_size,
                  const std::vector<double>& epochs, std::size_t drop_each_side, std::size_t submission_runs,
                  const std::string& benchmark);

}  // namespace evalsuite::stats
