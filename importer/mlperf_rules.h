// MLPerf Training rules as data, one table per ruleset (training 0.5.0 ... 6.1.0): per benchmark its quality
// target and direction, result files per submission, olympic trim (= failures allowed), whether the official
// RCP checker has a rule for it and how it reads a run's convergence point. Targets are the rules' (the
// compliance checker's ATLEAST_ONE_CHECK on eval_accuracy); run counts those of mlperf_logging's benchmark_meta
// and rcp_checker.submission_runs.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runlog/mlperf_log.h"

namespace evalsuite::importer {

// How the RCP checker reads one run's convergence point from its log.
enum class ConvergenceUnit {
  kEpochs,           // metadata.epoch_num of the last eval before run_stop, rounded to 3 decimals
  kSamples,          // metadata.samples_count of the last eval before run_stop (LLMs, flux1)
  kStableDiffusion,  // the first eval step with FID <= 90 and CLIP >= 0.15 (step_num in 3.1.0, else samples_count)
};
const char* ConvergenceUnitName(ConvergenceUnit unit);  // "epochs", "samples", "samples (FID and CLIP)"

struct BenchmarkRule {
  std::string name;
  std::string metric;  // the log's metric: "top1", "log_perplexity", "FID and CLIP", ...
  // The quality target in the log's units; nullopt when the rules this table holds do not say.
  std::optional<double> target;
  bool lower_is_better = false;
  std::size_t runs = 5;            // result files per submission
  std::size_t drop_each_side = 1;  // olympic trim and failures allowed: 4 for unet3d, else 1
  // rcp_checker.submission_runs (its t-test's sample size); nullopt where the official checker has none (dlrm).
  std::optional<std::size_t> rcp_runs;
  ConvergenceUnit unit = ConvergenceUnit::kEpochs;
};

struct Ruleset {
  std::string version;  // "0.5.0", ..., "6.1.0"
  std::vector<BenchmarkRule> benchmarks;
  bool has_rcps() const;  // RCPs exist from 1.0.0 on
  const BenchmarkRule* Find(std::string_view benchmark) const;
};

const std::vector<Ruleset>& Rulesets();                // oldest first
const Ruleset* FindRuleset(std::string_view version);  // "5.1.0", "5.1" or "v5.1"
// The newest ruleset naming `benchmark`, or nullptr.
const Ruleset* NewestRulesetWith(std::string_view benchmark);

// The target as the store keeps it: higher is better (lower-is-better metrics are negated, rnnt stores 1 - WER),
// maskrcnn's two targets folded into min(BBOX/0.377, SEGM/0.339) >= 1, stable diffusion's into
// min(90/FID, CLIP/0.15) >= 1.
struct MlperfTarget {
  std::string metric;  // name stored with the entry
  double threshold = 0;
};
std::optional<MlperfTarget> StoredTarget(const BenchmarkRule& rule);

// The stored metric of one eval_accuracy record (NaN when the value is not usable); `rule` may be null (an
// unknown benchmark: the value as logged).
double StoredMetric(const BenchmarkRule* rule, const runlog::MlperfEval& eval);

// What a benchmark's evaluations count their progress in, read from the record the RCP checker reads for the
// convergence point (rcp_checker.read_submission_file): samples_count for the benchmarks converging in samples
// and stable diffusion (step_num in 3.1.0), epoch_num otherwise; bert's epoch_num counts samples (its RCPs, and
// the checker's bert_train_samples option, are in samples), gpt3's counts tokens. `rule` may be null (epochs).
struct ProgressAxis {
  enum class Field { kEpochNum, kSamplesCount, kStepNum };
  Field field = Field::kEpochNum;
  std::string unit = "epochs";  // "epochs", "samples", "steps", "tokens" (runlog::kProgressUnitKey)
};
ProgressAxis ProgressAxisOf(const BenchmarkRule* rule, const std::string& ruleset);
std::optional<double> ProgressOf(const ProgressAxis& axis, const runlog::MlperfEval& eval);

// True when the eval (in the log's units) meets the rule's target.
bool MeetsTarget(const BenchmarkRule& rule, const runlog::MlperfEval& eval);

}  // namespace evalsuite::importer
