// Training throughput of one MLPerf result log: samples trained by run_stop over (run_stop - run_start), i.e. over
// MLPerf's time to train, evaluation included (several references evaluate concurrently with training, so their
// eval_start/eval_stop intervals cannot be subtracted). The samples come from the field that holds them, in this order:
//   1. samples_count in run_stop's metadata, else in the last evaluation before it (LLMs, flux1, stable diffusion)
//   2. step_num (run_stop's, else the last evaluation's) x global_batch_size
//   3. BERT: train_samples logged after run_start (the reference logs the samples it trained there at run_stop;
//   NVIDIA's
//      v1.0 and v1.1 BERT logs epoch_num = 1 on every evaluation, so epoch_num is no count there)
//   4. the last evaluation's epoch_num: BERT's counts samples already, GPT-3's tokens (/ max_sequence_length
//      gives sequences); otherwise x train_samples, the training
//      set's size as most references log it (NVIDIA's RetinaNet logs batches per epoch there: a value below
//      100,000, which no OpenImages training set is, is taken as batches and multiplied by global_batch_size)
// Each figure is checked against an independent estimate from the same log, and withheld with the reason where they
// disagree: the next count above taken from another field (within kCountsAgreeFactor), and at least one global batch
// trained per evaluation before run_stop (a count below that is not a count of samples). A progress field that does
// not move between evaluations (epoch_num 1 on all of them) is not a count. The method used is named with the
// figure, so a reader can check it against the log.
#pragma once

#include <optional>
#include <string>

#include "runlog/mlperf_log.h"

namespace evalsuite::importer {

// Two counts of the samples trained that differ by more than this factor cannot both be counts of them.
inline constexpr double kCountsAgreeFactor = 1.5;

struct MlperfThroughput {
  std::optional<double> samples;             // trained by run_stop; nullopt when withheld
  std::optional<double> seconds;             // run_stop - run_start
  std::optional<double> samples_per_second;  // samples / seconds
  std::string method;                        // how samples were counted, or why there is no figure
  std::string check;                         // the independent estimate it was checked against ("" when none)
};

MlperfThroughput TrainingThroughput(const runlog::MlperfRun& run, const std::string& benchmark);

}  // namespace evalsuite::importer
