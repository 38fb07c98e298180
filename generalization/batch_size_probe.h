// Chooses the inference batch size by timing the models on synthetic input at start-up: a few candidate sizes
// after warm-up, within a time budget (a small fraction of the expected work, at most a few seconds), a memory
// budget and the holdout's size; the best images/s wins, the smaller batch on near-ties. Runs any Classifier
// (classifier.h) with an injectable clock and memory gauge, so the choice is tested without timing noise.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "generalization/classifier.h"

namespace evalsuite::generalization {

struct ProbeModel {
  Classifier* classifier = nullptr;
  size_t image_floats = 0;  // floats per input image (C x H x W of its preprocessing)
};

struct BatchProbeOptions {
  std::vector<int> candidates = {8, 16, 32, 64, 128, 256};  // ascending
  int fallback = 32;       // used when nothing could be measured (too few images, every call failed)
  size_t images = 0;       // images the run will classify (all image sets): bounds the probe's cost
  size_t largest_set = 0;  // images of the largest image set: bounds the batch (0 = `images`)
  // The probe may cost at most this share of the expected inference work, and at most max_seconds: on a
  // holdout of a few hundred images it stops early (or does not probe), on large ones it is a few seconds.
  double work_fraction = 0.10;
  double max_seconds = 2.5;
  double seconds_per_candidate = 0.25;  // timed calls per candidate until this long (at least one call)
  // Peak memory growth the chosen batch may cause, predicted from the growth measured at smaller batches,
  // plus the pipeline's batch buffers (pipeline_bytes_per_image x batch).
  int64_t memory_budget_bytes = int64_t{2} << 30;
  int64_t pipeline_bytes_per_image = 0;
  // Rates within this share of the best count as equal, and the smallest such batch wins: on a shared machine
  // timings scatter by a few percent, and a smaller batch holds less memory, fills the pipeline sooner and
  // leaves a shorter tail, so a difference inside the noise never buys a larger batch.
  double tie_fraction = 0.03;
  // Larger candidates are not tried once a rate falls this far below the best (past the cache knee, larger
  // batches only get slower, and each costs twice as much to measure).
  double stop_fraction = 0.10;
  std::function<double()> now;                 // seconds, monotonic; empty: std::chrono::steady_clock
  std::function<int64_t()> peak_memory_bytes;  // process high-water mark; empty: getrusage's ru_maxrss
};

struct BatchProbeResult {
  int batch = 0;
  bool measured = false;                             // false: `fallback` was used, `reason` says why
  std::string reason;                                // one sentence for the user
  std::vector<std::pair<int, double>> rates;         // (batch, images per second) in the order measured
  std::vector<std::pair<int, std::string>> skipped;  // (batch, why it was not measured)
  double seconds = 0;                                // the probe's own cost
  double budget_seconds = 0;
};

// Runs every model (as the pipeline does, one after the other on each batch) on deterministic synthetic input.
// A model that throws at a batch size ends the probe there (the pipeline reports the failure later).
BatchProbeResult ProbeBatchSize(const std::vector<ProbeModel>& models, const BatchProbeOptions& options);

// The choice among measured rates: the smallest batch within tie_fraction of the best rate. Throws
// evalsuite::Error (internal) when `rates` is empty.
int ChooseBatch(const std::vector<std::pair<int, double>>& rates, double tie_fraction);

nlohmann::json BatchProbeJson(const BatchProbeResult& result);
std::string DescribeBatchProbe(const BatchProbeResult& result);  // one line for stderr

}  // namespace evalsuite::generalization
