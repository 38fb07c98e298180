// Which source of randomness makes an entry's TTA vary (issue 55): a variance design's runs (a study's [variance]
// keys: each varied source's seed at a few levels, crossed, and repeats with identical seeds) split into each
// source's variance component with intervals (stats/variance_components.h), for ln TTA, ln epochs to target, time per
// epoch and the final metric; each source's share of TTA's variance and the CoV it gives alone; which sources to
// hold to halve the CoV; how many levels the next design needs to tell the two largest apart
// (stats/variance_design_power.h); and what the same seeds do twice (the pooled variance within cells).
//
// The design is the study's, not guessed: the caller names the varied sources; a held source whose seed differs
// between runs is an error in the result (withheld), never a silent extra factor. Runs that never reached the target
// are left out of ln TTA and ln epochs (their TTA is only known to exceed their budget) and counted; past
// kMaxUnreachedShare the TTA figures are withheld. Failed and did-not-run attempts are left out of everything.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/run.h"
#include "stats/interval.h"
#include "stats/variance_components.h"

namespace evalsuite::analysis {

// The seed sources a design varies, by their names in a run's seeds: "init", "data_order", "augmentation".
extern const std::vector<std::string> kSeedSources;

// Above this share of the design's ended runs not reaching the target, ln TTA's and ln epochs' components are
// withheld: leaving out that many of the slowest runs biases every component (tests/analysis measure how much).
inline constexpr double kMaxUnreachedShare = 0.25;

// One run of a design as the analysis reads it: its seed of each source (kSeedSources order) and its figures.
struct DesignRun {
  std::vector<uint64_t> seeds;              // one per kSeedSources entry
  std::optional<double> time_to_target;     // nullopt: ended without reaching
  std::optional<double> epochs_to_target;   // nullopt: not reached, or no epochs logged
  std::optional<double> seconds_per_epoch;  // the run's training time over its epochs; nullopt without epochs
  std::optional<double> final_metric;       // the last evaluation's metric
};

// One response's components.
struct ResponseComponents {
  std::string response;  // "ln_tta", "ln_epochs_to_target", "time_per_epoch", "final_metric"
  int runs_used = 0;
  int runs_left_out = 0;                 // ended runs without a value (not reached, no epochs)
  std::string left_out_reason;           // why those runs are left out, in words; empty when none are
  stats::VarianceComponents components;  // withheld says why when the figures cannot be made
};

// A source's part of TTA's variation.
struct SourceShare {
  std::string source;  // a kSeedSources name, or "residual"
  double share = 0;    // of ln TTA's variance
  std::optional<stats::Interval> share_interval;
  double cov_alone = 0;  // the CoV of TTA if only this source varied: sqrt(exp(variance) - 1)
  std::optional<stats::Interval> cov_alone_interval;
};

// What holding seeds would do: the fewest sources whose seeds, held, leave at most half of TTA's CoV.
struct HoldToHalve {
  std::vector<std::string> hold;  // empty when no choice of sources does (the residual alone is over half)
  double cov_left = 0;            // the CoV of TTA with those held (or with every source held, when none suffices)
};

// How many levels tell the two largest sources apart (80% power, two-sided 5% F test of their mean squares) in a
// next design that crosses just those two, each at `levels` levels, `repeats` runs per cell (levels^2 x repeats runs).
struct LevelsNeeded {
  std::string first, second;  // the two largest sources
  std::optional<int> levels;  // nullopt: more than the search's limit (or their estimates are equal)
  int repeats = 0;            // at this many repeats per cell (the design's)
};

// What the same seeds did twice: the variance pooled within cells (runs with identical seeds of every source),
// with its chi-square interval; nullopt when no cell has two ended runs.
struct SameSeedsSpread {
  int cells = 0;  // cells with at least two runs
  int degrees_of_freedom = 0;
  double variance = 0;  // of ln TTA (reached runs)
  stats::Interval variance_interval;
  bool identical = false;  // every cell's runs gave the same TTA to the last digit: no nondeterminism seen
  // Every cell's runs gave the same epochs to target and the same final metric: the training itself repeated
  // exactly, so what TTA's spread within cells holds is the machine's time.
  bool training_identical = false;
};

struct VarianceSources {
  std::vector<std::string> varied;  // the design's sources, as given
  int runs = 0;                     // ended runs of the design (reached or not)
  int not_reached = 0;
  int failed = 0;                             // counted runs that failed before reaching (left out of everything)
  int levels = 0;                             // the most levels any varied source has
  int repeats = 0;                            // the most runs any cell has
  std::optional<std::string> withheld;        // the whole analysis cannot be made (with the reason)
  std::vector<ResponseComponents> responses;  // ln TTA first
  std::optional<double> cov_tta;              // sqrt(exp(total) - 1) of ln TTA's components
  std::vector<SourceShare> shares;            // ln TTA's components, the largest first
  std::optional<HoldToHalve> hold_to_halve;
  std::optional<LevelsNeeded> levels_needed;  // with two or more varied sources
  std::optional<SameSeedsSpread> same_seeds;
};

// A design's runs: the counted runs that ended (reached or not), and how many counted runs failed without a TTA.
struct DesignRuns {
  std::vector<DesignRun> runs;
  int failed = 0;
};

struct VarianceSourcesOptions {
  stats::VarianceComponentsOptions components;
};

// The analysis of a design's runs; `varied` are kSeedSources names (the study's [variance] vary).
VarianceSources AnalyzeVarianceSources(const DesignRuns& design, const std::vector<std::string>& varied,
                                       const VarianceSourcesOptions& options = {});

// The design runs of an entry: its counted runs (analysis/run_counting.h), TTA by the crossing rule and target its
// analysis uses. A counted run that failed before reaching has no TTA and is counted in `failed`. A run without a
// seed of some source has it as 0.
DesignRuns DesignRunsOf(const Entry& entry, double threshold, std::size_t consecutive);

}  // namespace evalsuite::analysis
