// How far an MLPerf Training score would move on a rerun: a seeded simulation of the submission's official score
// with each run's convergence point drawn from the RCP reference runs at its batch size, times the submission's own
// time per epoch (or sample), olympic mean over the round's run count and the RCP checker's normalization; or, where
// no reference applies, a bootstrap of the submission's own run times. Plain values in, no store, no files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::analysis {

// The convergence points a rerun's run is drawn from, at the submission's batch size, and the reference the
// checker normalizes with.
struct RerunReference {
  std::string name;  // the RCP record, or "<benchmark>_interp_<bs>"
  std::string how;   // "reference runs at batch size 3264 (record ...)", "interpolated ..." (said in the output)
  std::vector<double> pool;  // one value per reference run (scaled to the batch size where interpolated)
  double mean = 0;           // the checker's reference mean (olympic) at the batch size
  double min_epochs = 0;     // the checker's smallest passing submission mean
  bool normalize = false;    // the official score applies the checker's normalization (closed division)
};

// One submission as the audit reads it from the import.
struct RerunSubmission {
  std::string source;  // "<org>/results/<system>/<benchmark>"
  std::string system;
  std::optional<double> official_minutes;          // the official score (raw olympic x published scaling)
  std::optional<double> raw_minutes;               // the olympic mean before scaling
  std::size_t runs_required = 5;                   // the round's result files per submission
  std::size_t drop_each_side = 1;                  // olympic trim
  std::vector<double> run_minutes;                 // the runs that count, successful, in file order
  std::vector<std::optional<double>> convergence;  // their convergence points (same order), in the RCP's unit
  std::optional<RerunReference> reference;         // nullopt: the fallback (own runs), `no_reference` says why
  std::string no_reference;
};

struct RerunSettings {
  std::size_t draws = 10000;
  std::uint64_t seed = 1;
  double level = 0.90;  // the range's coverage
};

struct ScoreRange {
  double median = 0;
  double low = 0;   // (1 - level) / 2 quantile
  double high = 0;  // (1 + level) / 2 quantile
};

struct RerunRange {
  bool computed = false;
  std::string why_not;          // when not computed
  std::string method;           // "reference" (RCP draws x own time per epoch) or "own runs" (bootstrap)
  std::string caveat;           // the small-sample caveat of the fallback, or empty
  std::string fallback_reason;  // why the fallback was used (no RCP at the batch size, no convergence points, ...)
  ScoreRange range;
  // Shares of the range due to the convergence point and to the time per epoch: each factor simulated alone (the
  // other at its centre), width_c^2 / (width_c^2 + width_t^2); nullopt for the fallback.
  std::optional<double> convergence_share;
  std::optional<double> time_share;
  std::optional<double> rcp_fail_share;  // reruns whose mean convergence fails the RCP check
  std::optional<ScoreRange> doubled;     // the range with twice the required runs (same trim)
  std::size_t runs = 0;                  // the run count simulated (the round's)
  std::vector<double> scores;            // the simulated rerun scores, in draw order (for pair probabilities)
};

// The seed of one submission's simulation: the settings' seed mixed with its source, so that a submission draws the
// same numbers whatever else is audited beside it, and two submissions draw independently.
std::uint64_t SubmissionSeed(std::uint64_t seed, const std::string& source);

// Olympic mean of `values` (sorted in place) dropping `drop` from each end; NaN when nothing is left.
double OlympicOfValues(std::vector<double>& values, std::size_t drop);

RerunRange SimulateRerun(const RerunSubmission& submission, const RerunSettings& settings);

// P(a's rerun score < b's), from the two independent simulations (ties count a half).
double ProbabilityFaster(const RerunRange& a, const RerunRange& b);

}  // namespace evalsuite::analysis
