// MLPerf Training rules per benchmark that scoring and RCP checks need: how many runs the olympic mean drops
// on each side (and so how many failures it allows), how many runs a submission has, and the quality target.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "evalsuite/runlog/mlperf_log.h"

namespace evalsuite::importer {

// 4 for unet3d (40 runs: drop 4 fastest and 4 slowest, up to 4 failures), 1 for every other benchmark.
std::size_t OlympicDropEachSide(const std::string& benchmark);

// rcp_checker's submission_runs (bert 10, dlrm 5, maskrcnn 5, resnet 5, ssd 5, unet3d 40, rnnt 10); nullopt
// for a benchmark without RCPs.
std::optional<std::size_t> RcpSubmissionRuns(const std::string& benchmark);

// The quality target as the stored curve uses it: the metric is made "higher is better" (rnnt stores 1 - WER)
// and maskrcnn's two targets are folded into one (min of BBOX/0.377 and SEGM/0.339, target 1).
struct MlperfTarget {
  std::string metric;  // name stored with the entry
  double threshold = 0;
};
// Targets of the MLPerf Training v1.0-v2.x rules (v0.5 resnet: 0.749); nullopt for an unknown benchmark. The
// importer checks them against the logs: when a run ended in success below the target (other rules), or no
// target is known, it uses the lowest final metric of a successful run instead and says so.
std::optional<MlperfTarget> TargetFor(const std::string& benchmark, runlog::MlperfLogFormat format);

// The stored metric of one eval_accuracy record (NaN when the value is not usable).
double MetricOf(const std::string& benchmark, const runlog::MlperfEval& eval);

}  // namespace evalsuite::importer
