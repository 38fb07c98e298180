#include "generalization/evaluation_pipeline.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "common/error.h"

namespace evalsuite::generalization {
namespace {

// One batch in flight: a buffer per preprocessing spec and a count of images still being prepared.
struct Slot {
  std::vector<std::vector<float>> buffers;
  int remaining = 0;
  size_t batch_index = 0;
};

}  // namespace

PipelineResult RunPipeline(const std::vector<std::filesystem::path>& files,
                           const std::vector<datasets::PreprocessSpec>& specs, const std::vector<PipelineModel>& models,
                           const PipelineOptions& options) {
  if (options.batch < 1 || options.threads < 1 || options.depth < 0) {
    throw Error(ErrorKind::kInternal, "RunPipeline", "batch and threads must be positive");
  }
  const auto start = std::chrono::steady_clock::now();
  const size_t n = files.size();
  const size_t batch = static_cast<size_t>(options.batch);
  const size_t num_batches = (n + batch - 1) / batch;
  const size_t num_slots = std::min(num_batches, static_cast<size_t>(options.depth) + 1);

  PipelineResult result;
  result.images.resize(n);
  result.top.assign(models.size(), std::vector<int32_t>(n * kTopK, -1));
  result.scores.assign(models.size(), std::vector<float>(n * kTopK, 0.0f));
  result.model_errors.assign(models.size(), "");
  size_t failed_models = 0;

  std::vector<Slot> slots(num_slots);
  for (size_t s = 0; s < num_slots; ++s) {
    for (const datasets::PreprocessSpec& spec : specs) {
      slots[s].buffers.emplace_back(batch * static_cast<size_t>(spec.OutputSize()), 0.0f);
      result.buffer_bytes += static_cast<int64_t>(slots[s].buffers.back().size() * sizeof(float));
    }
    slots[s].batch_index = s;
    slots[s].remaining = static_cast<int>(std::min(batch, n - s * batch));
  }

  std::mutex mutex;
  std::condition_variable slot_free;    // workers wait for the consumer to release a slot
  std::condition_variable batch_ready;  // the consumer waits for a slot's last image
  size_t consumed = 0;                  // batches whose inference is done
  bool stop = false;                    // set when inference fails: workers leave
  std::atomic<size_t> next_image{0};

  datasets::DecodeOptions decode = options.decode;
  decode.to_rgb = false;  // PreprocessInto swaps channels in its last pass
  auto worker = [&] {
    while (true) {
      const size_t i = next_image.fetch_add(1);
      if (i >= n) return;
      const size_t b = i / batch;
      Slot* slot;
      {
        std::unique_lock<std::mutex> lock(mutex);
        slot_free.wait(lock, [&] { return stop || b < consumed + num_slots; });
        if (stop) return;
        slot = &slots[b % num_slots];
      }
      const size_t position = i % batch;
      ImageOutcome outcome;
      try {
        const datasets::DecodedImage decoded = datasets::DecodeImageFile(files[i], decode);
        outcome.status = decoded.status;
        outcome.reason = decoded.reason;
        outcome.kind = decoded.kind;
        outcome.warning = decoded.warning;
        for (size_t s = 0; s < specs.size(); ++s) {
          float* out = slot->buffers[s].data() + position * specs[s].OutputSize();
          if (decoded.ok()) {
            datasets::PreprocessInto(decoded.image, /*bgr=*/true, specs[s], out);
          } else {
            std::fill(out, out + specs[s].OutputSize(), 0.0f);
          }
        }
      } catch (const std::exception& e) {  // a bad image must never stop the evaluation
        outcome.status = datasets::DecodeStatus::kCorrupt;
        outcome.reason = std::string("preprocessing failed: ") + e.what();
      }
      result.images[i] = std::move(outcome);
      std::lock_guard<std::mutex> lock(mutex);
      if (--slot->remaining == 0) batch_ready.notify_one();
    }
  };

  std::vector<std::thread> workers;
  workers.reserve(options.threads);
  for (int t = 0; t < options.threads; ++t) workers.emplace_back(worker);

  bool all_failed = false;  // nothing left to run: the workers are told to leave
  for (size_t b = 0; b < num_batches && !all_failed; ++b) {
    Slot& slot = slots[b % num_slots];
    {
      std::unique_lock<std::mutex> lock(mutex);
      batch_ready.wait(lock, [&] { return slot.remaining == 0; });
    }
    const size_t first = b * batch;
    const int count = static_cast<int>(std::min(batch, n - first));
    for (size_t m = 0; m < models.size(); ++m) {
      if (!result.model_errors[m].empty()) continue;
      const PipelineModel& model = models[m];
      try {
        model.classifier->TopK(slot.buffers[model.spec].data(), count, result.top[m].data() + first * kTopK,
                               result.scores[m].data() + first * kTopK);
      } catch (const Error& e) {  // one model failing never loses the others' results
        result.model_errors[m] = e.message();
      } catch (const std::exception& e) {
        result.model_errors[m] = e.what();
      }
      if (!result.model_errors[m].empty()) {
        std::fill(result.top[m].begin(), result.top[m].end(), -1);
        ++failed_models;
      }
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      ++consumed;
      const size_t next = b + num_slots;
      if (next < num_batches) {
        slot.batch_index = next;
        slot.remaining = static_cast<int>(std::min(batch, n - next * batch));
      }
      all_failed = !models.empty() && failed_models == models.size();
      if (all_failed) stop = true;
    }
    slot_free.notify_all();
    if (options.progress && !all_failed) options.progress(first + count, n);
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  slot_free.notify_all();
  for (std::thread& t : workers) t.join();

  // Predictions of images that failed to load are meaningless: clear them.
  for (size_t i = 0; i < n; ++i) {
    if (result.images[i].status == datasets::DecodeStatus::kOk) continue;
    for (auto& top : result.top) std::fill(top.begin() + i * kTopK, top.begin() + (i + 1) * kTopK, -1);
    for (auto& scores : result.scores) std::fill(scores.begin() + i * kTopK, scores.begin() + (i + 1) * kTopK, 0.0f);
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace evalsuite::generalization
