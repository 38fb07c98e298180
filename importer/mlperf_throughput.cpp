#include "importer/mlperf_throughput.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace evalsuite::importer {
namespace {

// No OpenImages-based RetinaNet training set is this small (about 1.17 million images); NVIDIA's reference logs
// len(train_loader), its batches per epoch, under train_samples (4572 at global batch 256 in v4.0 and v5.1).
constexpr double kRetinanetBatchesBelow = 100000;

// One count of the samples trained by run_stop, the log field it was read from (counts from one field are not
// independent of each other) and how it was computed.
struct SampleCount {
  double samples = 0;
  std::string field;
  std::string method;
};

// True when the evaluations' epoch_num moves: NVIDIA's v1.0 BERT logs 1 on every one of its 20 evaluations.
bool EpochAdvances(const runlog::MlperfRun& run, std::size_t before_stop) {
  if (before_stop < 2) return true;
  const std::optional<double> first = run.evals[0].epoch, last = run.evals[before_stop - 1].epoch;
  return !first || !last || *first != *last;
}

// Every count the log holds, in the order of the header's list; `none` says why there is none.
std::vector<SampleCount> Counts(const runlog::MlperfRun& run, const std::string& benchmark, std::string& none) {
  std::vector<SampleCount> counts;
  const std::size_t before_stop = std::min(run.evals_before_stop, run.evals.size());
  const runlog::MlperfEval* last = before_stop > 0 ? &run.evals[before_stop - 1] : nullptr;
  const std::optional<double> batch = run.global_batch_size;
  if (run.stop_samples_count && *run.stop_samples_count > 0) {
    counts.push_back({*run.stop_samples_count, "samples_count", "samples_count at run_stop"});
  } else if (last != nullptr && last->samples_count && *last->samples_count > 0) {
    counts.push_back({*last->samples_count, "samples_count", "samples_count of the last evaluation"});
  }
  if (batch && *batch > 0 && run.stop_step_num && *run.stop_step_num > 0) {
    counts.push_back({*run.stop_step_num * *batch, "step_num", "step_num at run_stop x global_batch_size"});
  } else if (batch && *batch > 0 && last != nullptr && last->step_num && *last->step_num > 0) {
    counts.push_back({*last->step_num * *batch, "step_num", "step_num of the last evaluation x global_batch_size"});
  }
  if (benchmark == "bert" && run.train_samples && *run.train_samples > 0 && run.train_samples_ms && run.run_start_ms &&
      *run.train_samples_ms > *run.run_start_ms) {
    counts.push_back({*run.train_samples, "train_samples",
                      "train_samples logged at the end of training (BERT counts the samples it trained there)"});
  }
  if (last != nullptr && last->epoch && *last->epoch > 0) {
    const double epochs = *last->epoch;
    if (!EpochAdvances(run, before_stop)) {
      if (counts.empty()) {
        none = fmt::format("epoch_num is {:g} on every evaluation before run_stop, so it counts nothing", epochs);
      }
    } else if (benchmark == "bert") {  // BERT's reference logs samples trained as epoch_num
      counts.push_back({epochs, "epoch_num", "epoch_num of the last evaluation (BERT counts samples in it)"});
    } else if (benchmark == "gpt3") {  // GPT-3's logs tokens trained as epoch_num
      if (run.max_sequence_length && *run.max_sequence_length > 0) {
        counts.push_back({epochs / *run.max_sequence_length, "epoch_num",
                          "epoch_num of the last evaluation / max_sequence_length (GPT-3 counts tokens in it)"});
      } else if (counts.empty()) {
        none = "GPT-3 counts tokens in epoch_num and the log has no max_sequence_length";
      }
    } else if (run.train_samples && *run.train_samples > 0) {
      const bool batches = (benchmark == "ssd" || benchmark == "retinanet") &&
                           *run.train_samples < kRetinanetBatchesBelow && batch && *batch > 0;
      counts.push_back({epochs * *run.train_samples * (batches ? *batch : 1.0), "epoch_num",
                        batches ? "epochs x train_samples (batches per epoch as logged) x global_batch_size"
                                : "epochs x train_samples"});
    } else if (counts.empty()) {
      none = "no train_samples to turn epochs into samples";
    }
  }
  if (counts.empty() && none.empty()) none = "no samples_count, step_num or epoch_num before run_stop";
  return counts;
}

}  // namespace

MlperfThroughput TrainingThroughput(const runlog::MlperfRun& run, const std::string& benchmark) {
  MlperfThroughput t;
  if (!run.run_start_ms || !run.run_stop_ms || *run.run_stop_ms <= *run.run_start_ms) {
    t.method = "no run_start to run_stop interval";
    return t;
  }
  t.seconds = (*run.run_stop_ms - *run.run_start_ms) / 1000.0;
  std::string none;
  const std::vector<SampleCount> counts = Counts(run, benchmark, none);
  if (counts.empty()) {
    t.method = none;
    return t;
  }
  const SampleCount& chosen = counts.front();
  t.method = chosen.method;
  // The independent estimates: another field's count, and one global batch per evaluation as the least a run that
  // evaluated that often can have trained.
  for (const SampleCount& other : counts) {
    if (other.field == chosen.field) continue;
    t.check = other.method;
    const double ratio = std::max(chosen.samples, other.samples) / std::min(chosen.samples, other.samples);
    if (ratio > kCountsAgreeFactor) {
      t.method = fmt::format(
          "withheld: {} gives {:.0f} samples, {} gives {:.0f} ({:.3g} times as many); the log "
          "does not say which counts the samples trained",
          chosen.method, chosen.samples, other.method, other.samples, ratio);
      return t;
    }
    break;
  }
  const std::size_t evaluations = std::min(run.evals_before_stop, run.evals.size());
  if (run.global_batch_size && *run.global_batch_size > 0 && evaluations > 0) {
    const double least = *run.global_batch_size * static_cast<double>(evaluations);
    if (t.check.empty()) t.check = "at least one global batch per evaluation";
    if (chosen.samples < least) {
      t.method = fmt::format(
          "withheld: {} gives {:g} samples, fewer than one global batch ({:g}) for each of the "
          "{} evaluations before run_stop ({:g}), so it does not count samples",
          chosen.method, chosen.samples, *run.global_batch_size, evaluations, least);
      return t;
    }
  }
  t.samples = chosen.samples;
  t.samples_per_second = *t.samples / *t.seconds;
  return t;
}

}  // namespace evalsuite::importer
