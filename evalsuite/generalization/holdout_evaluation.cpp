#include "evalsuite/generalization/holdout_evaluation.h"

#include <fmt/format.h>

#include <set>

#include "datasets/images/holdout_manifest.h"
#include "evalsuite/common/error.h"
#include "evalsuite/generalization/class_mapping.h"
#include "evalsuite/generalization/metrics.h"

namespace evalsuite::generalization {
namespace {
using nlohmann::json;

std::string PercentInterval(const json& accuracy) {
  if (!accuracy.is_object() || !accuracy["accuracy"].is_number()) return "n/a";
  return fmt::format("{:.2f}% [{:.2f}, {:.2f}]", accuracy["accuracy"].get<double>() * 100,
                     accuracy["lower"].get<double>() * 100, accuracy["upper"].get<double>() * 100);
}

}  // namespace

datasets::PreprocessSpec DefaultPreprocessFor(const std::string& class_list) {
  return datasets::PresetSpec(class_list == "fashion-mnist" ? "fashion-mnist" : "imagenet");
}

HoldoutEvaluator::HoldoutEvaluator(std::vector<ModelSpec> models, EvaluationOptions options)
    : models_(std::move(models)), options_(std::move(options)) {
  if (models_.empty()) throw UsageError("--model", "no model to evaluate");
  std::set<std::string> names;
  for (const ModelSpec& model : models_) {
    if (!names.insert(model.name).second) throw UsageError("--model", "two models are named \"" + model.name + "\"");
  }
  for (const ModelSpec& model : models_) {
    const datasets::PreprocessSpec spec = model.preprocess ? *model.preprocess : options_.default_preprocess;
    int index = -1;
    for (size_t s = 0; s < specs_.size(); ++s) {
      if (specs_[s].SameTransform(spec)) index = static_cast<int>(s);
    }
    if (index < 0) {
      specs_.push_back(spec);
      index = static_cast<int>(specs_.size()) - 1;
    }
    model_spec_.push_back(index);
    LoadedClassifier loaded = LoadTorchScriptClassifier(model.file, spec.OutputShape(), options_.classifier);
    notes_.push_back(model.name + ": " + loaded.note + ", " + std::to_string(loaded.classifier->num_outputs()) +
                     " outputs, preprocessing " + spec.ToJson().dump());
    classifiers_.push_back(std::move(loaded.classifier));
  }
}

HoldoutEvaluator::~HoldoutEvaluator() = default;

json HoldoutEvaluator::Evaluate(const std::filesystem::path& holdout_dir) {
  const datasets::Holdout holdout = datasets::ReadHoldout(holdout_dir);
  std::vector<std::string> problems = datasets::VerifyHoldout(holdout, holdout_dir);
  if (options_.tolerate_missing) {
    std::set<std::string> missing;
    for (const datasets::HoldoutItem& item : holdout.items) {
      const std::filesystem::path file = holdout_dir / item.path;
      if (!std::filesystem::exists(file)) missing.insert(file.string() + ": missing");
    }
    problems.erase(
        std::remove_if(problems.begin(), problems.end(), [&](const std::string& p) { return missing.count(p) > 0; }),
        problems.end());
  }
  if (!problems.empty()) {
    std::string list;
    for (size_t i = 0; i < problems.size() && i < 5; ++i) list += "\n  " + problems[i];
    if (problems.size() > 5) list += fmt::format("\n  ... and {} more", problems.size() - 5);
    throw InputError(holdout_dir.string(), fmt::format("the frozen holdout was modified ({} problem{}); refusing to "
                                                       "evaluate:{}",
                                                       problems.size(), problems.size() == 1 ? "" : "s", list));
  }

  const HoldoutClasses classes = DescribeHoldoutClasses(holdout);
  std::vector<ClassMapping> mappings;
  for (size_t m = 0; m < models_.size(); ++m) {
    mappings.push_back(MapModelClasses(models_[m], classifiers_[m]->num_outputs(), classes));
  }

  std::vector<std::filesystem::path> files;
  std::vector<int> labels;
  files.reserve(holdout.items.size());
  for (const datasets::HoldoutItem& item : holdout.items) {
    files.push_back(holdout_dir / item.path);
    labels.push_back(item.class_index);
  }
  std::vector<PipelineModel> pipeline_models;
  for (size_t m = 0; m < models_.size(); ++m) pipeline_models.push_back({classifiers_[m].get(), model_spec_[m]});
  const PipelineResult result = RunPipeline(files, specs_, pipeline_models, options_.pipeline);
  last_pipeline_seconds_ = result.seconds;

  std::vector<bool> readable(files.size());
  json failures = json::array();
  size_t unreadable = 0;
  json reasons = json::object();
  for (size_t i = 0; i < files.size(); ++i) {
    readable[i] = result.images[i].status == datasets::DecodeStatus::kOk;
    if (readable[i]) continue;
    ++unreadable;
    const std::string kind = datasets::DecodeStatusName(result.images[i].status);
    reasons[kind] = reasons.value(kind, 0) + 1;
    if (failures.size() < kMaxListedFailures) {
      failures.push_back({{"path", holdout.items[i].path}, {"reason", result.images[i].reason}});
    }
  }

  std::vector<ModelOutcomes> outcomes;
  json models = json::array();
  for (size_t m = 0; m < models_.size(); ++m) {
    outcomes.push_back(ScoreModel(models_[m].name, models_[m].group, models_[m].validation_accuracy, result.top[m],
                                  labels, readable, mappings[m]));
    models.push_back(ModelJson(outcomes.back(), labels, classes.names));
  }
  json pairs = json::array();
  for (const std::string& metric : options_.pair_metrics) {
    for (size_t a = 0; a < outcomes.size(); ++a) {
      for (size_t b = a + 1; b < outcomes.size(); ++b)
        pairs.push_back(PairJson(ComparePair(outcomes[a], outcomes[b], metric)));
    }
  }
  const GroupVerdict verdict = JudgeGeneralization(outcomes, options_.verdict);
  return {{"image_set", holdout.name.empty() ? holdout_dir.filename().string() : holdout.name},
          {"holdout_version", holdout.version_hash},
          {"class_list", holdout.class_list},
          {"images", files.size()},
          {"unreadable", unreadable},
          {"unreadable_reasons", reasons},
          {"failures", failures},
          {"models", models},
          {"pairs", pairs},
          {"groups", GroupsJson(outcomes)},
          {"verdict", VerdictJson(verdict, options_.verdict)},
          {"pipeline",
           {{"seconds", result.seconds},
            {"images_per_second", result.seconds > 0 ? files.size() / result.seconds : 0.0},
            {"threads", options_.pipeline.threads},
            {"batch", options_.pipeline.batch},
            {"depth", options_.pipeline.depth},
            {"buffer_bytes", result.buffer_bytes}}}};
}

std::string SummarizeImageSet(const json& image_set) {
  std::string text = fmt::format("{} ({} images, {} unreadable)\n", image_set.value("image_set", ""),
                                 image_set.value("images", 0), image_set.value("unreadable", 0));
  size_t name_width = 5;
  for (const json& model : image_set["models"])
    name_width = std::max(name_width, model["name"].get<std::string>().size());
  text += fmt::format("  {:<{}}  {:<14} {:>25} {:>25} {:>8}\n", "model", name_width, "group", "top-1 [95% CI]",
                      "top-5 [95% CI]", "gap");
  for (const json& model : image_set["models"]) {
    const std::string gap = model["gap"].is_number() ? fmt::format("{:+.2f}", model["gap"].get<double>() * 100) : "-";
    text += fmt::format("  {:<{}}  {:<14} {:>25} {:>25} {:>8}\n", model["name"].get<std::string>(), name_width,
                        model["group"].get<std::string>(), PercentInterval(model["top1"]),
                        PercentInterval(model["top5"]), gap);
  }
  const json& verdict = image_set["verdict"];
  const std::string head = verdict["generalizes"].is_boolean()
                               ? (verdict["generalizes"].get<bool>() ? "GENERALIZES" : "DOES NOT GENERALIZE")
                               : "NO VERDICT";
  text +=
      fmt::format("  verdict: {}: {}\n  test: {}\n", head, verdict.value("statement", ""), verdict.value("test", ""));
  return text;
}

}  // namespace evalsuite::generalization
