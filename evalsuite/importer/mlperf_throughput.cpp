#include "evalsuite/importer/mlperf_throughput.h"

#include <algorithm>

namespace evalsuite::importer {
namespace {

// No OpenImages-based RetinaNet training set is this small (about 1.17 million images); NVIDIA's reference logs
// len(train_loader), its batches per epoch, under train_samples (4572 at global batch 256 in v4.0 and v5.1).
constexpr double kRetinanetBatchesBelow = 100000;

}  // namespace

MlperfThroughput TrainingThroughput(const runlog::MlperfRun& run, const std::string& benchmark) {
  MlperfThroughput t;
  if (!run.run_start_ms || !run.run_stop_ms || *run.run_stop_ms <= *run.run_start_ms) {
    t.method = "no run_start to run_stop interval";
    return t;
  }
  t.seconds = (*run.run_stop_ms - *run.run_start_ms) / 1000.0;
  const std::size_t before_stop = std::min(run.evals_before_stop, run.evals.size());
  const runlog::MlperfEval* last = before_stop > 0 ? &run.evals[before_stop - 1] : nullptr;
  const std::optional<double> batch = run.global_batch_size;
  if (run.stop_samples_count && *run.stop_samples_count > 0) {
    t.samples = *run.stop_samples_count;
    t.method = "samples_count at run_stop";
  } else if (last != nullptr && last->samples_count && *last->samples_count > 0) {
    t.samples = *last->samples_count;
    t.method = "samples_count of the last evaluation";
  } else if (batch && *batch > 0 && run.stop_step_num && *run.stop_step_num > 0) {
    t.samples = *run.stop_step_num * *batch;
    t.method = "step_num at run_stop x global_batch_size";
  } else if (batch && *batch > 0 && last != nullptr && last->step_num && *last->step_num > 0) {
    t.samples = *last->step_num * *batch;
    t.method = "step_num of the last evaluation x global_batch_size";
  } else if (last != nullptr && last->epoch && *last->epoch > 0) {
    const double epochs = *last->epoch;
    if (benchmark == "bert") {  // BERT's reference logs samples trained as epoch_num
      t.samples = epochs;
      t.method = "epoch_num of the last evaluation (BERT counts samples in it)";
    } else if (benchmark == "gpt3") {  // GPT-3's logs tokens trained as epoch_num
      if (run.max_sequence_length && *run.max_sequence_length > 0) {
        t.samples = epochs / *run.max_sequence_length;
        t.method = "epoch_num of the last evaluation / max_sequence_length (GPT-3 counts tokens in it)";
      } else {
        t.method = "GPT-3 counts tokens in epoch_num and the log has no max_sequence_length";
      }
    } else if (run.train_samples && *run.train_samples > 0) {
      const bool batches = (benchmark == "ssd" || benchmark == "retinanet") &&
                           *run.train_samples < kRetinanetBatchesBelow && batch && *batch > 0;
      t.samples = epochs * *run.train_samples * (batches ? *batch : 1.0);
      t.method = batches ? "epochs x train_samples (batches per epoch as logged) x global_batch_size"
                         : "epochs x train_samples";
    } else {
      t.method = "no train_samples to turn epochs into samples";
    }
  } else {
    t.method = "no samples_count, step_num or epoch_num before run_stop";
  }
  if (t.samples) t.samples_per_second = *t.samples / *t.seconds;
  return t;
}

}  // namespace evalsuite::importer
