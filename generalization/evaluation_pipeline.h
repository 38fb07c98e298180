// The evaluation pipeline: a pool of threads decodes and preprocesses images into batch buffers while the
// calling thread runs every model on the previous batch. Memory is bounded by (depth + 1) batch buffers per
// distinct preprocessing plus one decoded image per worker, whatever the number of images. A file that
// cannot be decoded is recorded with its reason and skipped; it never stops the run. A model whose inference
// fails is recorded with its reason and not called again; the other models go on.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "datasets/images/image_decode.h"
#include "datasets/images/preprocess.h"
#include "generalization/classifier.h"

namespace evalsuite::generalization {

struct PipelineOptions {
  int threads = 2;  // decode + preprocess workers; LibTorch's own thread count is set by the caller
  int batch = 32;   // images per inference call: larger amortizes per-call overhead, costs memory linearly
  int depth = 2;    // batches prepared ahead of the one in inference: more hides decode-time jitter
  datasets::DecodeOptions decode;
  std::function<void(size_t done, size_t total)> progress;  // called after each batch, from the calling thread
};

struct PipelineModel {
  Classifier* classifier = nullptr;
  int spec = 0;  // index into the specs passed to RunPipeline
};

struct ImageOutcome {
  datasets::DecodeStatus status = datasets::DecodeStatus::kOk;
  std::string reason;   // empty when decoded
  std::string kind;     // "jpeg-progressive", "png-palette", ... (datasets/images/image_kind.h)
  std::string warning;  // decoded, but the decoder worked around damage (libjpeg's message)
};

struct PipelineResult {
  std::vector<ImageOutcome> images;        // one per file, in order
  std::vector<std::vector<int32_t>> top;   // per model: kTopK output indices per image (-1 for failed images)
  std::vector<std::vector<float>> scores;  // per model: the softmax probabilities of those outputs
  std::vector<std::string> model_errors;   // per model: why its inference failed, "" when it did not
  double seconds = 0;                      // wall time of the whole run
  int64_t buffer_bytes = 0;                // batch buffers held (the memory bound, excluding decoded images)
};

PipelineResult RunPipeline(const std::vector<std::filesystem::path>& files,
                           const std::vector<datasets::PreprocessSpec>& specs, const std::vector<PipelineModel>& models,
                           const PipelineOptions& options);

}  // namespace evalsuite::generalization
