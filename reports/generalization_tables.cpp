#include "reports/generalization_tables.h"

#include <fmt/format.h>

#include <cmath>

#include "common/json_access.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

std::string Count(const json& value) { return NumberOf(value) ? value.dump() : kMissing; }

std::string AccuracyText(const json& accuracy) {
  return FormatPercentInterval(Field(accuracy, "accuracy"), Field(accuracy, "lower"), Field(accuracy, "upper"), 2);
}

// Differences and gaps carry a sign: "+0.16%" means A (or validation) is ahead.
std::string SignedPercent(const json& value) {
  auto number = NumberOf(value);
  if (!number || !std::isfinite(*number)) return kMissing;
  return fmt::format("{:+.2f}%", *number * 100);
}

}  // namespace

json ImageSets(const json& section) {
  if (section.is_array()) return section;
  if (section.is_object() && section.contains("models")) return json::array({section});
  return json::array();
}

ReportTable GeneralizationModelsTable(const json& image_set) {
  ReportTable table;
  table.header = {
      "Model",     "Group",      "Top-1 on unseen data [95% CI]", "Top-5 [95% CI]", "Validation top-1", "Gap",
      "Evaluated", "Not covered"};
  table.numeric = {false, false, true, true, true, true, true, true};
  for (const json& model : ArrayOf(Field(image_set, "models"))) {
    table.rows.push_back({StringOf(Field(model, "name")), StringOf(Field(model, "group")),
                          AccuracyText(Field(model, "top1")), AccuracyText(Field(model, "top5")),
                          FormatPercent(Field(model, "validation_accuracy"), 2), SignedPercent(Field(model, "gap")),
                          Count(Field(model, "evaluated")), Count(Field(model, "uncovered"))});
  }
  return table;
}

ReportTable GeneralizationGroupsTable(const json& image_set) {
  ReportTable table;
  table.header = {"Group", "Models", "Mean top-1", "Mean top-5"};
  table.numeric = {false, true, true, true};
  for (const json& group : ArrayOf(Field(image_set, "groups"))) {
    table.rows.push_back({StringOf(Field(group, "group")), Count(Field(group, "models")),
                          FormatPercent(Field(group, "mean_top1"), 2), FormatPercent(Field(group, "mean_top5"), 2)});
  }
  return table;
}

ReportTable GeneralizationPairsTable(const json& image_set) {
  ReportTable table;
  table.header = {"Model A",
                  "Model B",
                  "Metric",
                  "Images",
                  "Only A right",
                  "Only B right",
                  "p (exact McNemar)",
                  "p (McNemar, Holm over the set's pairs)",
                  "Difference A − B [95% CI]"};
  table.numeric = {false, false, false, true, true, true, true, true, true};
  for (const json& pair : ArrayOf(Field(image_set, "pairs"))) {
    std::string difference = SignedPercent(Field(pair, "difference"));
    if (NumberOf(Field(pair, "lower")) && NumberOf(Field(pair, "upper"))) {
      difference += fmt::format(" [{}, {}]", SignedPercent(Field(pair, "lower")), SignedPercent(Field(pair, "upper")));
    }
    table.rows.push_back({StringOf(Field(pair, "a")), StringOf(Field(pair, "b")), StringOf(Field(pair, "metric")),
                          Count(Field(pair, "n")), Count(Field(pair, "only_a")), Count(Field(pair, "only_b")),
                          FormatPValue(Field(pair, "p_value")), FormatPValue(Field(pair, "p_holm")), difference});
  }
  return table;
}

ReportTable GeneralizationFailuresTable(const json& image_set) {
  ReportTable table;
  table.header = {"Image", "Reason"};
  table.numeric = {false, false};
  for (const json& failure : ArrayOf(Field(image_set, "failures"))) {
    table.rows.push_back({StringOf(Field(failure, "path")), StringOf(Field(failure, "reason"))});
  }
  return table;
}

ReportTable GeneralizationFrequencyBinsTable(const json& image_set) {
  ReportTable table;
  const json& bins = ArrayOf(Field(Field(image_set, "frequency_bins"), "by_bin"));
  if (bins.empty()) return table;
  table.header = {"Selection frequency", "Images"};
  table.numeric = {false, true};
  for (const json& model : ArrayOf(Field(bins[0], "models"))) {
    table.header.push_back(StringOf(Field(model, "name")) + " top-1 [95% CI]");
    table.numeric.push_back(true);
  }
  table.header.push_back("Gap top-1 (" + StringOf(Field(bins[0], "candidate_group")) + " − " +
                         StringOf(Field(bins[0], "reference_group")) + ")");
  table.numeric.push_back(true);
  for (const json& bin : bins) {
    std::vector<std::string> row = {StringOf(Field(bin, "bin")), Count(Field(bin, "images"))};
    for (const json& model : ArrayOf(Field(bin, "models"))) row.push_back(AccuracyText(Field(model, "top1")));
    row.push_back(SignedPercent(Field(bin, "gap_top1")));
    table.rows.push_back(row);
  }
  return table;
}

ReportTable FrequencyBinsAcrossSetsTable(const json& image_sets) {
  ReportTable table;
  table.header = {"Image set",
                  "Selected by",
                  "Selection frequency",
                  "Images",
                  "Candidate group mean top-1",
                  "Reference group mean top-1",
                  "Gap top-1"};
  table.numeric = {false, false, false, true, true, true, true};
  for (const json& image_set : ArrayOf(image_sets)) {
    const json& selection = Field(image_set, "selection");
    std::string selected = StringOf(Field(selection, "variant"));
    if (selected.empty()) selected = StringOf(Field(selection, "rule"));
    for (const json& bin : ArrayOf(Field(Field(image_set, "frequency_bins"), "by_bin"))) {
      auto mean = [&](const char* role) -> json {
        const std::string group = StringOf(Field(bin, role));
        for (const json& g : ArrayOf(Field(bin, "groups"))) {
          if (StringOf(Field(g, "group")) == group) return Field(g, "mean_top1");
        }
        return nullptr;
      };
      table.rows.push_back({StringOf(Field(image_set, "image_set")), selected, StringOf(Field(bin, "bin")),
                            Count(Field(bin, "images")), FormatPercent(mean("candidate_group"), 2),
                            FormatPercent(mean("reference_group"), 2), SignedPercent(Field(bin, "gap_top1"))});
    }
  }
  return table;
}

std::string ImageSetSummary(const json& image_set) {
  std::string text = fmt::format("{}: {} images, {} unreadable", StringOf(Field(image_set, "image_set"), "image set"),
                                 Count(Field(image_set, "images")), Count(Field(image_set, "unreadable")));
  std::string version = StringOf(Field(image_set, "holdout_version"));
  if (!version.empty()) text += ", holdout version " + version.substr(0, 12);
  return text;
}

std::string GeneralizationVerdictText(const json& image_set) {
  const json& verdict = Field(image_set, "verdict");
  if (!verdict.is_object()) return "";
  std::string text;
  // The label names the question answered ("LOSES NO MORE THAN THE REFERENCE" on the gap basis); models written
  // before labels existed had only "generalizes".
  const json& label = Field(verdict, "label");
  const json& generalizes = Field(verdict, "generalizes");
  if (label.is_string()) {
    text = label.get<std::string>();
  } else if (generalizes.is_boolean()) {
    text = generalizes.get<bool>() ? "GENERALIZES" : "DOES NOT GENERALIZE";
  }
  std::string statement = StringOf(Field(verdict, "statement"));
  if (!statement.empty()) text += (text.empty() ? "" : ": ") + statement;
  std::string test = StringOf(Field(verdict, "test"));
  if (!test.empty()) text += (text.empty() ? "" : " ") + std::string("(") + test + ")";
  return text;
}

}  // namespace evalsuite::reports
