#include "reports/generalization_section.h"

#include "common/error.h"
#include "common/json_access.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

std::optional<long long> CountAt(const json& object, const char* key, const std::string& where) {
  const json& value = Field(object, key);
  if (value.is_null()) return std::nullopt;
  if (!value.is_number_integer()) throw UsageError(where + "." + key, "must be a whole number");
  return value.get<long long>();
}

AccuracyModel AccuracyOf(const json& accuracy) {
  return {NumberOf(Field(accuracy, "accuracy")), NumberOf(Field(accuracy, "lower")),
          NumberOf(Field(accuracy, "upper"))};
}

const std::string& RequiredString(const json& object, const char* key, const std::string& where) {
  const json& value = Field(object, key);
  if (!value.is_string()) throw UsageError(where + "." + key, "must be a string");
  return value.get_ref<const std::string&>();
}

ImageSetModel ImageSetOf(const json& image_set, const std::string& where) {
  if (!image_set.is_object()) throw UsageError(where, "must be an image set object");
  ImageSetModel out;
  out.image_set = RequiredString(image_set, "image_set", where);
  out.images = CountAt(image_set, "images", where);
  out.unreadable = CountAt(image_set, "unreadable", where);
  out.holdout_version = StringOf(Field(image_set, "holdout_version"));
  const json& selection = Field(image_set, "selection");
  out.selection_variant = StringOf(Field(selection, "variant"));
  out.selection_rule = StringOf(Field(selection, "rule"));
  for (const json& failure : ArrayOf(Field(image_set, "failures"))) {
    out.failures.push_back({StringOf(Field(failure, "path")), StringOf(Field(failure, "reason"))});
  }
  const json& models = Field(image_set, "models");
  if (!models.is_array()) throw UsageError(where + ".models", "must be an array of models");
  for (std::size_t i = 0; i < models.size(); ++i) {
    const std::string at = where + ".models[" + std::to_string(i) + "]";
    const json& model = models[i];
    if (!model.is_object()) throw UsageError(at, "must be a model object");
    HoldoutModelRow row;
    row.name = RequiredString(model, "name", at);
    row.group = OptionalTextOf(Field(model, "group"));
    row.top1 = AccuracyOf(Field(model, "top1"));
    row.top5 = AccuracyOf(Field(model, "top5"));
    row.validation_accuracy = NumberOf(Field(model, "validation_accuracy"));
    row.gap = NumberOf(Field(model, "gap"));
    row.evaluated = CountAt(model, "evaluated", at);
    row.uncovered = CountAt(model, "uncovered", at);
    out.models.push_back(std::move(row));
  }
  const json& pairs = ArrayOf(Field(image_set, "pairs"));
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const std::string at = where + ".pairs[" + std::to_string(i) + "]";
    const json& pair = pairs[i];
    out.pairs.push_back({StringOf(Field(pair, "a")), StringOf(Field(pair, "b")), StringOf(Field(pair, "metric")),
                         CountAt(pair, "n", at), CountAt(pair, "only_a", at), CountAt(pair, "only_b", at),
                         NumberOf(Field(pair, "p_value")), NumberOf(Field(pair, "p_holm")),
                         NumberOf(Field(pair, "difference")), NumberOf(Field(pair, "lower")),
                         NumberOf(Field(pair, "upper"))});
  }
  const json& groups = ArrayOf(Field(image_set, "groups"));
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const json& group = groups[i];
    out.groups.push_back({StringOf(Field(group, "group")),
                          CountAt(group, "models", where + ".groups[" + std::to_string(i) + "]"),
                          NumberOf(Field(group, "mean_top1")), NumberOf(Field(group, "mean_top5"))});
  }
  const json& bins = ArrayOf(Field(Field(image_set, "frequency_bins"), "by_bin"));
  for (std::size_t i = 0; i < bins.size(); ++i) {
    const json& bin = bins[i];
    FrequencyBinRow row;
    row.bin = StringOf(Field(bin, "bin"));
    row.images = CountAt(bin, "images", where + ".frequency_bins.by_bin[" + std::to_string(i) + "]");
    for (const json& model : ArrayOf(Field(bin, "models"))) {
      row.models.emplace_back(StringOf(Field(model, "name")), AccuracyOf(Field(model, "top1")));
    }
    for (const json& group : ArrayOf(Field(bin, "groups"))) {
      row.groups.emplace_back(StringOf(Field(group, "group")), NumberOf(Field(group, "mean_top1")));
    }
    row.candidate_group = StringOf(Field(bin, "candidate_group"));
    row.reference_group = StringOf(Field(bin, "reference_group"));
    row.reference = StringOf(Field(bin, "reference"));
    row.gap_top1 = NumberOf(Field(bin, "gap_top1"));
    out.frequency_bins.push_back(std::move(row));
  }
  if (const json& verdict = Field(image_set, "verdict"); verdict.is_object()) {
    HoldoutVerdictModel v;
    if (const json& label = Field(verdict, "label"); label.is_string()) v.label = label.get<std::string>();
    if (const json& generalizes = Field(verdict, "generalizes"); generalizes.is_boolean()) {
      v.generalizes = generalizes.get<bool>();
    }
    if (const json& passed = Field(verdict, "passed"); passed.is_boolean()) v.passed = passed.get<bool>();
    v.statement = StringOf(Field(verdict, "statement"));
    v.test = StringOf(Field(verdict, "test"));
    v.error_rates = StringOf(Field(verdict, "error_rates"));
    out.verdict = std::move(v);
  }
  return out;
}

}  // namespace

// The one place a generalization section's JSON is read: tolerant of optional fields (absent reads as none), strict
// on the ones every table needs.
std::vector<ImageSetModel> ParseGeneralizationSection(const json& section, const std::string& source) {
  std::vector<ImageSetModel> sets;
  try {
    if (section.is_array()) {
      for (std::size_t i = 0; i < section.size(); ++i) {
        sets.push_back(ImageSetOf(section[i], "[" + std::to_string(i) + "]"));
      }
    } else if (section.is_object() && section.contains("models")) {
      sets.push_back(ImageSetOf(section, "the section"));
    }
  } catch (const Error& error) {
    throw InputError(source, "generalization section: " + error.where() + " " + error.message());
  }
  return sets;
}

}  // namespace evalsuite::reports
