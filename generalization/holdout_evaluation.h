// `holdout eval` as a library: verify a frozen holdout (a modified one is refused), run every model through
// the pipeline, and build the report's "generalization" object for the image set (JSON shape fixed in
// reports/generalization_section.h), plus a compact Table-4 style text summary.
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "datasets/images/preprocess.h"
#include "generalization/batch_size_probe.h"
#include "generalization/classifier.h"
#include "generalization/evaluation_pipeline.h"
#include "generalization/group_verdict.h"
#include "generalization/model_spec.h"

namespace evalsuite::generalization {

constexpr size_t kMaxListedFailures = 50;

struct EvaluationOptions {
  PipelineOptions pipeline;
  VerdictRule verdict;
  std::vector<std::string> pair_metrics = {"top1"};  // metrics for which every pair is tested
  // Missing image files are recorded per image ("missing file") instead of refusing the holdout. Changed
  // files and a changed manifest are always refused.
  bool tolerate_missing = false;
  datasets::PreprocessSpec default_preprocess;  // for models whose sidecar names none
  ClassifierOptions classifier;
};

// The preset a holdout's class list suggests: "fashion-mnist" for Fashion-MNIST, "imagenet" otherwise.
datasets::PreprocessSpec DefaultPreprocessFor(const std::string& class_list);

// The batch used when it is neither given nor measured: small inputs need big batches to amortize per-call
// overhead (2.3x faster at 256 than 32 on 28x28), 32 otherwise.
int DefaultBatchFor(const datasets::PreprocessSpec& spec);

// A model that could not be loaded, related to the holdout's classes, or run: it is left out, the others go on.
struct ModelFailure {
  std::string name;
  std::string file;
  std::string reason;
};

// Loads each model once (on construction) and evaluates them on any number of image sets.
class HoldoutEvaluator {
 public:
  // A model that fails to load (file missing, not TorchScript, wrong input shape) is recorded in
  // load_failures() and left out; when every model fails, the first loading error is thrown.
  HoldoutEvaluator(std::vector<ModelSpec> models, EvaluationOptions options);
  ~HoldoutEvaluator();

  // One image set object of the "generalization" array; its "failed_models" lists every model left out (with
  // file and reason) and "warnings" what the user should check (class order assumed, chance-level accuracy).
  // When `predictions` is given, one JSON line per image and model is written to it (see predictions.h).
  // Throws InputError when the holdout was modified (listing what changed), or when no model could be scored.
  nlohmann::json Evaluate(const std::filesystem::path& holdout_dir, std::ostream* predictions = nullptr);

  // Times the loaded models at a few batch sizes on synthetic input (batch_size_probe.h; `probe.fallback` when
  // nothing could be measured) and uses the chosen one for the following Evaluate calls, whose "pipeline"
  // object then carries the probe as "batch_choice". Fills in the pipeline's buffer bytes per image itself.
  BatchProbeResult ChooseBatchSize(BatchProbeOptions probe);

  const std::vector<ModelSpec>& models() const { return models_; }  // the loaded ones
  const std::vector<ModelFailure>& load_failures() const { return load_failures_; }
  const std::vector<std::string>& notes() const { return notes_; }  // per model: how it was loaded
  double last_pipeline_seconds() const { return last_pipeline_seconds_; }

 private:
  std::vector<ModelSpec> models_;
  EvaluationOptions options_;
  std::vector<datasets::PreprocessSpec> specs_;  // distinct preprocessings
  std::vector<int> model_spec_;                  // model -> index in specs_
  std::vector<std::unique_ptr<Classifier>> classifiers_;
  std::vector<std::string> notes_;
  std::vector<ModelFailure> load_failures_;
  double last_pipeline_seconds_ = 0;
  nlohmann::json batch_choice_;  // the probe's record; null when the batch was given
};

// A compact text table per image set: model, group, top-1 and top-5 with intervals, gap; groups; verdict.
std::string SummarizeImageSet(const nlohmann::json& image_set);

}  // namespace evalsuite::generalization
