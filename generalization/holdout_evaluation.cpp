#include "generalization/holdout_evaluation.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>

#include "common/error.h"
#include "datasets/images/holdout_manifest.h"
#include "generalization/class_mapping.h"
#include "generalization/frequency_bins.h"
#include "generalization/holdout_selection_json.h"
#include "generalization/metrics.h"

namespace evalsuite::generalization {
namespace {
using nlohmann::json;

std::string PercentInterval(const json& accuracy) {
  if (!accuracy.is_object() || !accuracy["accuracy"].is_number()) return "n/a";
  return fmt::format("{:.2f}% [{:.2f}, {:.2f}]", accuracy["accuracy"].get<double>() * 100,
                     accuracy["lower"].get<double>() * 100, accuracy["upper"].get<double>() * 100);
}

// A model whose class order was assumed (no classes sidecar) and whose top-1 accuracy is not above chance
// (1 / covered classes, inside its 95% interval): its outputs probably follow another order.
std::string ClassOrderWarning(const ModelSpec& model, const ClassMapping& mapping, const ModelOutcomes& outcome) {
  if (!mapping.assumed) return "";
  const AccuracyCount top1 = CountAccuracy(outcome.top1);
  if (top1.n == 0) return "";
  size_t labelled = 0;
  for (bool c : mapping.covered) labelled += c;
  const double chance = labelled > 0 ? 1.0 / static_cast<double>(labelled) : 0.0;
  const json interval = AccuracyJson(top1);
  if (!interval["lower"].is_number() || interval["lower"].get<double>() > chance) return "";
  return fmt::format(
      "model {}: top-1 {:.2f}% is at chance level (1/{} = {:.2f}%) and its class order was assumed ({}): its outputs "
      "may follow another order; list them in its JSON sidecar (\"classes\": [...])",
      model.name, top1.accuracy() * 100, labelled, chance * 100, mapping.how);
}

void WritePredictions(std::ostream& out, const std::string& set_name, const datasets::Holdout& holdout,
                      const PipelineResult& result, size_t r, const std::string& model, const HoldoutClasses& classes,
                      const ClassMapping& mapping) {
  for (size_t i = 0; i < holdout.items.size(); ++i) {
    const datasets::HoldoutItem& item = holdout.items[i];
    json line = {{"image_set", set_name},
                 {"image", item.path},
                 {"id", item.id},
                 {"label", item.class_index},
                 {"label_name", item.class_name},
                 {"kind", result.images[i].kind},
                 {"model", model}};
    if (result.images[i].status != datasets::DecodeStatus::kOk) {
      line["error"] = result.images[i].reason;
    } else {
      json top = json::array(), scores = json::array(), names = json::array();
      int first_class = -1;
      bool in_top5 = false;
      for (int j = 0; j < kTopK; ++j) {
        const int32_t output = result.top[r][i * kTopK + j];
        if (output < 0) break;
        top.push_back(output);
        scores.push_back(result.scores[r][i * kTopK + j]);
        const int cls =
            output < static_cast<int32_t>(mapping.output_to_class.size()) ? mapping.output_to_class[output] : -1;
        if (j == 0) first_class = cls;
        in_top5 = in_top5 || cls == item.class_index;
        names.push_back(cls >= 0 && cls < static_cast<int>(classes.names.size()) ? json(classes.names[cls]) : json());
      }
      line["top5"] = top;
      line["top5_classes"] = names;
      line["scores"] = scores;
      line["top1_correct"] = first_class == item.class_index ? 1 : 0;  // through the model's class mapping
      line["top5_correct"] = in_top5 ? 1 : 0;
    }
    out << line.dump() << "\n";
  }
}

}  // namespace

datasets::PreprocessSpec DefaultPreprocessFor(const std::string& class_list) {
  return datasets::PresetSpec(class_list == "fashion-mnist" ? "fashion-mnist" : "imagenet");
}

int DefaultBatchFor(const datasets::PreprocessSpec& spec) {
  return spec.crop_height * spec.crop_width <= 64 * 64 ? 256 : 32;
}

HoldoutEvaluator::HoldoutEvaluator(std::vector<ModelSpec> models, EvaluationOptions options)
    : models_(std::move(models)), options_(std::move(options)) {
  if (models_.empty()) throw UsageError("--model", "no model to evaluate");
  std::set<std::string> names;
  for (const ModelSpec& model : models_) {
    if (!names.insert(model.name).second) throw UsageError("--model", "two models are named \"" + model.name + "\"");
  }
  std::vector<ModelSpec> requested = std::move(models_);
  models_.clear();
  std::optional<Error> first_error;
  for (ModelSpec& model : requested) {
    const datasets::PreprocessSpec spec = model.preprocess ? *model.preprocess : options_.default_preprocess;
    LoadedClassifier loaded;
    try {
      loaded = LoadTorchScriptClassifier(model.file, spec.OutputShape(), options_.classifier);
    } catch (const Error& e) {  // one model that cannot be loaded never loses the others
      load_failures_.push_back({model.name, model.file.string(), e.message()});
      if (!first_error) first_error = e;
      continue;
    }
    int index = -1;
    for (size_t s = 0; s < specs_.size(); ++s) {
      if (specs_[s].SameTransform(spec)) index = static_cast<int>(s);
    }
    if (index < 0) {
      specs_.push_back(spec);
      index = static_cast<int>(specs_.size()) - 1;
    }
    model_spec_.push_back(index);
    notes_.push_back(model.name + ": " + loaded.note + ", " + std::to_string(loaded.classifier->num_outputs()) +
                     " outputs, preprocessing " + spec.ToJson().dump());
    classifiers_.push_back(std::move(loaded.classifier));
    models_.push_back(std::move(model));
  }
  if (models_.empty() && first_error) throw *first_error;
}

HoldoutEvaluator::~HoldoutEvaluator() = default;

BatchProbeResult HoldoutEvaluator::ChooseBatchSize(BatchProbeOptions probe) {
  std::vector<ProbeModel> probe_models;
  for (size_t m = 0; m < classifiers_.size(); ++m) {
    probe_models.push_back({classifiers_[m].get(), static_cast<size_t>(specs_[model_spec_[m]].OutputSize())});
  }
  // The pipeline holds depth + 1 batch buffers per distinct preprocessing (evaluation_pipeline.h).
  probe.pipeline_bytes_per_image = 0;
  for (const datasets::PreprocessSpec& spec : specs_) {
    probe.pipeline_bytes_per_image +=
        static_cast<int64_t>(spec.OutputSize()) * static_cast<int64_t>(sizeof(float)) * (options_.pipeline.depth + 1);
  }
  const BatchProbeResult result = ProbeBatchSize(probe_models, probe);
  options_.pipeline.batch = result.batch;
  batch_choice_ = BatchProbeJson(result);
  return result;
}

json HoldoutEvaluator::Evaluate(const std::filesystem::path& holdout_dir, std::ostream* predictions) {
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
    throw InputError(holdout_dir.string(),
                     fmt::format("the frozen holdout was modified ({} problem{}); refusing to evaluate:{}\n{}",
                                 problems.size(), problems.size() == 1 ? "" : "s", list,
                                 datasets::HoldoutProblemsAdvice(problems, "--tolerate-missing")));
  }

  const HoldoutClasses classes = DescribeHoldoutClasses(holdout);
  json failed_models = json::array();
  for (const ModelFailure& f : load_failures_) {
    failed_models.push_back({{"name", f.name}, {"file", f.file}, {"stage", "load"}, {"reason", f.reason}});
  }
  // Models whose outputs cannot be related to the holdout's classes are left out, the others go on.
  std::vector<size_t> running;  // indices into models_
  std::vector<ClassMapping> mappings(models_.size());
  for (size_t m = 0; m < models_.size(); ++m) {
    try {
      mappings[m] = MapModelClasses(models_[m], classifiers_[m]->num_outputs(), classes);
      running.push_back(m);
    } catch (const Error& e) {
      failed_models.push_back({{"name", models_[m].name},
                               {"file", models_[m].file.string()},
                               {"stage", "classes"},
                               {"reason", e.message()}});
    }
  }

  std::vector<std::filesystem::path> files;
  std::vector<int> labels;
  files.reserve(holdout.items.size());
  for (const datasets::HoldoutItem& item : holdout.items) {
    files.push_back(holdout_dir / item.path);
    labels.push_back(item.class_index);
  }
  std::vector<PipelineModel> pipeline_models;
  for (size_t m : running) pipeline_models.push_back({classifiers_[m].get(), model_spec_[m]});
  PipelineResult result;
  if (!pipeline_models.empty()) result = RunPipeline(files, specs_, pipeline_models, options_.pipeline);
  last_pipeline_seconds_ = result.seconds;
  std::vector<size_t> scored;  // positions in `running` whose inference worked
  for (size_t r = 0; r < running.size(); ++r) {
    if (result.model_errors[r].empty()) {
      scored.push_back(r);
      continue;
    }
    const ModelSpec& model = models_[running[r]];
    failed_models.push_back({{"name", model.name},
                             {"file", model.file.string()},
                             {"stage", "inference"},
                             {"reason", result.model_errors[r]}});
  }
  if (scored.empty()) {
    std::string list;
    for (const json& f : failed_models) {
      list += fmt::format("\n  {} ({}): {}", f["name"].get<std::string>(), f["file"].get<std::string>(),
                          f["reason"].get<std::string>());
    }
    throw InputError(holdout_dir.string(), "no model could be evaluated:" + list);
  }

  std::vector<bool> readable(files.size());
  json failures = json::array();
  size_t unreadable = 0;
  std::map<std::string, int> reasons;  // unreadable images per decoder status, counted here
  json decoder_warnings = json::array();
  for (size_t i = 0; i < files.size(); ++i) {
    readable[i] = result.images[i].status == datasets::DecodeStatus::kOk;
    if (!result.images[i].warning.empty() && decoder_warnings.size() < kMaxListedFailures) {
      decoder_warnings.push_back({{"path", holdout.items[i].path}, {"warning", result.images[i].warning}});
    }
    if (readable[i]) continue;
    ++unreadable;
    const std::string kind = datasets::DecodeStatusName(result.images[i].status);
    ++reasons[kind];
    if (failures.size() < kMaxListedFailures) {
      failures.push_back({{"path", holdout.items[i].path}, {"reason", result.images[i].reason}});
    }
  }

  const std::string set_name = holdout.name.empty() ? holdout_dir.filename().string() : holdout.name;
  std::vector<ModelOutcomes> outcomes;
  json models = json::array();
  json warnings = json::array();
  for (size_t r : scored) {
    const size_t m = running[r];
    outcomes.push_back(ScoreModel(models_[m].name, models_[m].group, models_[m].validation_accuracy, result.top[r],
                                  labels, readable, mappings[m]));
    outcomes.back().validation_size = models_[m].validation_size;
    models.push_back(ModelJson(outcomes.back(), labels, classes.names));
    const std::string warning = ClassOrderWarning(models_[m], mappings[m], outcomes.back());
    models.back()["class_mapping"] = {{"how", mappings[m].how}, {"certain", !mappings[m].assumed}};
    if (!warning.empty()) {
      models.back()["class_mapping"]["warning"] = warning;
      warnings.push_back(warning);
    }
    if (predictions != nullptr) {
      WritePredictions(*predictions, set_name, holdout, result, r, models_[m].name, classes, mappings[m]);
    }
  }
  const json pairs = PairsJson(outcomes, options_.pair_metrics);
  const GroupVerdict verdict = JudgeGeneralization(outcomes, options_.verdict);
  // A holdout frozen from labels carries each image's selection frequency: accuracy by frequency bin.
  json frequency_bins = nullptr;
  bool labeled = false;
  std::vector<double> frequency;
  for (const datasets::HoldoutItem& item : holdout.items) {
    labeled = labeled || (item.labels.is_object() && !item.labels.empty());
    frequency.push_back(item.frequency);
  }
  if (labeled) {
    frequency_bins = FrequencyBinsJson(outcomes, frequency, options_.verdict.candidate_group, verdict.reference);
  }
  const json selection = HoldoutSelectionFromJson(holdout.rule);
  return {{"image_set", set_name},
          {"selection", selection},
          {"frequency_bins", frequency_bins},
          {"holdout_version", holdout.version_hash},
          {"class_list", holdout.class_list},
          {"images", files.size()},
          {"unreadable", unreadable},
          {"unreadable_reasons", json(reasons)},
          {"failures", failures},
          {"decoder_warnings", decoder_warnings},
          {"models", models},
          {"failed_models", failed_models},
          {"warnings", warnings},
          {"pairs", pairs},
          {"groups", GroupsJson(outcomes)},
          {"verdict", VerdictJson(verdict, options_.verdict)},
          {"pipeline",
           {{"seconds", result.seconds},
            {"images_per_second", result.seconds > 0 ? files.size() / result.seconds : 0.0},
            {"threads", options_.pipeline.threads},
            {"batch", options_.pipeline.batch},
            {"batch_choice",
             batch_choice_.is_null()
                 ? json{{"batch", options_.pipeline.batch}, {"measured", false}, {"reason", "given (--batch)"}}
                 : batch_choice_},
            {"depth", options_.pipeline.depth},
            {"buffer_bytes", result.buffer_bytes}}}};
}

std::string SummarizeImageSet(const json& image_set) {
  // Every field read here is one EvaluateImageSet always writes: read strictly, a missing one is a bug.
  std::string text = fmt::format("{} ({} images, {} unreadable)\n", image_set.at("image_set").get<std::string>(),
                                 image_set.at("images").get<size_t>(), image_set.at("unreadable").get<size_t>());
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
  const std::string head = verdict.at("label").is_string() ? verdict["label"].get<std::string>() : "NO VERDICT";
  text += fmt::format("  verdict: {}: {}\n  test: {}\n", head, verdict.at("statement").get<std::string>(),
                      verdict.at("test").get<std::string>());
  if (image_set.contains("frequency_bins") && image_set["frequency_bins"].is_object()) {
    text += SummarizeFrequencyBins(image_set["frequency_bins"]);
  }
  return text;
}

}  // namespace evalsuite::generalization
