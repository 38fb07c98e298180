#include "reports/generalization_tables.h"

#include <fmt/format.h>

#include <cmath>

#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {

std::string CountText(const std::optional<long long>& value) { return value ? std::to_string(*value) : kMissing; }

}  // namespace

std::string AccuracyText(const AccuracyModel& accuracy) {
  const std::optional<stats::Interval> interval =
      accuracy.lower ? std::optional<stats::Interval>(stats::Interval{*accuracy.lower, accuracy.upper.value_or(NAN)})
                     : std::nullopt;
  return FormatPercentInterval(accuracy.accuracy, interval, 2);
}

namespace {

// Differences and gaps carry a sign: "+0.16%" means A (or validation) is ahead.
std::string SignedPercent(const std::optional<double>& value) {
  const std::optional<double> number = Finite(value);
  if (!number) return kMissing;
  return fmt::format("{:+.2f}%", *number * 100);
}

}  // namespace

ReportTable GeneralizationModelsTable(const ImageSetModel& image_set) {
  ReportTable table;
  table.header = {
      "Model",     "Group",      "Top-1 on unseen data [95% CI]", "Top-5 [95% CI]", "Validation top-1", "Gap",
      "Evaluated", "Not covered"};
  table.numeric = {false, false, true, true, true, true, true, true};
  for (const HoldoutModelRow& model : image_set.models) {
    table.rows.push_back({model.name, model.group.value_or(""), AccuracyText(model.top1), AccuracyText(model.top5),
                          FormatPercent(model.validation_accuracy, 2), SignedPercent(model.gap),
                          CountText(model.evaluated), CountText(model.uncovered)});
  }
  return table;
}

ReportTable GeneralizationGroupsTable(const ImageSetModel& image_set) {
  ReportTable table;
  table.header = {"Group", "Models", "Mean top-1", "Mean top-5"};
  table.numeric = {false, true, true, true};
  for (const HoldoutGroupRow& group : image_set.groups) {
    table.rows.push_back(
        {group.group, CountText(group.models), FormatPercent(group.mean_top1, 2), FormatPercent(group.mean_top5, 2)});
  }
  return table;
}

ReportTable GeneralizationPairsTable(const ImageSetModel& image_set) {
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
  for (const HoldoutPairRow& pair : image_set.pairs) {
    std::string difference = SignedPercent(pair.difference);
    if (pair.lower && pair.upper) {
      difference += fmt::format(" [{}, {}]", SignedPercent(pair.lower), SignedPercent(pair.upper));
    }
    table.rows.push_back({pair.a, pair.b, pair.metric, CountText(pair.n), CountText(pair.only_a),
                          CountText(pair.only_b), FormatPValue(pair.p_value), FormatPValue(pair.p_holm), difference});
  }
  return table;
}

ReportTable GeneralizationFailuresTable(const ImageSetModel& image_set) {
  ReportTable table;
  table.header = {"Image", "Reason"};
  table.numeric = {false, false};
  for (const HoldoutFailureRow& failure : image_set.failures) table.rows.push_back({failure.path, failure.reason});
  return table;
}

ReportTable GeneralizationFrequencyBinsTable(const ImageSetModel& image_set) {
  ReportTable table;
  const std::vector<FrequencyBinRow>& bins = image_set.frequency_bins;
  if (bins.empty()) return table;
  table.header = {"Selection frequency", "Images"};
  table.numeric = {false, true};
  for (const auto& [name, top1] : bins[0].models) {
    table.header.push_back(name + " top-1 [95% CI]");
    table.numeric.push_back(true);
  }
  // The gap is measured from the verdict's reference model (older sections: from the reference group's mean).
  table.header.push_back("Gap top-1 (" + bins[0].candidate_group + " mean − " +
                         (bins[0].reference.empty() ? bins[0].reference_group + " mean" : bins[0].reference) + ")");
  table.numeric.push_back(true);
  for (const FrequencyBinRow& bin : bins) {
    std::vector<std::string> row = {bin.bin, CountText(bin.images)};
    for (const auto& [name, top1] : bin.models) row.push_back(AccuracyText(top1));
    row.push_back(SignedPercent(bin.gap_top1));
    table.rows.push_back(row);
  }
  return table;
}

ReportTable FrequencyBinsAcrossSetsTable(const std::vector<ImageSetModel>& image_sets) {
  ReportTable table;
  table.header = {"Image set",
                  "Selected by",
                  "Selection frequency",
                  "Images",
                  "Candidate group mean top-1",
                  "Reference top-1 (the verdict's reference model)",
                  "Gap top-1"};
  table.numeric = {false, false, false, true, true, true, true};
  for (const ImageSetModel& image_set : image_sets) {
    const std::string selected =
        image_set.selection_variant.empty() ? image_set.selection_rule : image_set.selection_variant;
    for (const FrequencyBinRow& bin : image_set.frequency_bins) {
      auto mean = [&](const std::string& group) -> std::optional<double> {
        for (const auto& [name, mean_top1] : bin.groups) {
          if (name == group) return mean_top1;
        }
        return std::nullopt;
      };
      std::optional<double> reference = mean(bin.reference_group);
      std::string reference_name = bin.reference_group + " mean";
      for (const auto& [name, top1] : bin.models) {
        if (!bin.reference.empty() && name == bin.reference) reference = top1.accuracy, reference_name = name;
      }
      table.rows.push_back({image_set.image_set, selected, bin.bin, CountText(bin.images),
                            FormatPercent(mean(bin.candidate_group), 2),
                            FormatPercent(reference, 2) + " (" + reference_name + ")", SignedPercent(bin.gap_top1)});
    }
  }
  return table;
}

std::string ImageSetSummary(const ImageSetModel& image_set) {
  std::string text = fmt::format("{}: {} images, {} unreadable", image_set.image_set, CountText(image_set.images),
                                 CountText(image_set.unreadable));
  if (!image_set.holdout_version.empty()) text += ", holdout version " + image_set.holdout_version.substr(0, 12);
  return text;
}

std::string GeneralizationVerdictText(const ImageSetModel& image_set) {
  if (!image_set.verdict) return "";
  const HoldoutVerdictModel& verdict = *image_set.verdict;
  std::string text;
  // The label names the question answered ("LOSES NO MORE THAN THE REFERENCE" on the gap basis); models written
  // before labels existed had only "generalizes".
  if (verdict.label) {
    text = *verdict.label;
  } else if (verdict.generalizes) {
    text = *verdict.generalizes ? "GENERALIZES" : "DOES NOT GENERALIZE";
  }
  if (!verdict.statement.empty()) text += (text.empty() ? "" : ": ") + verdict.statement;
  if (!verdict.test.empty()) text += (text.empty() ? "" : " ") + std::string("(") + verdict.test + ")";
  return text;
}

}  // namespace evalsuite::reports
