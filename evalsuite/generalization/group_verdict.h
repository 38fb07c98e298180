// The group verdict: do the TTA-optimized models generalize as well as the pretrained ones?
//
// Rule (stated in every verdict's "test" string): each TTA-optimized model is compared with ONE reference
// pretrained model (by default the best pretrained model on this image set and metric; --reference names
// another) on the images both evaluated. The exact McNemar p-values are Holm-adjusted over the comparisons
// (family-wise alpha 0.05). A model shows a *loss beyond the margin* when its adjusted p < alpha AND its
// accuracy is lower than the reference's by more than the margin (default 1 percentage point).
// "Generalizes as well" = no TTA-optimized model shows a loss beyond the margin. Significant losses smaller
// than the margin, and non-significant ones, are reported but tolerated; the statement also says how many
// models are *shown* non-inferior (Newcombe 95% interval of the difference entirely above -margin).
//
// Basis "gap" (the ImageNetV2 view, for models that stopped at different accuracies): what is judged is not
// the holdout difference d = acc(candidate) - acc(reference) but how far it falls short of the difference
// validation predicts, g = d - (val(candidate) - val(reference)), i.e. whether the candidate loses more
// accuracy from validation to holdout than the reference does. Validation accuracies are taken as given
// (model.json / sidecars); g is tested against 0 with a Wald z on the paired holdout counts (Holm-adjusted as
// above) and its interval is the Newcombe interval of d shifted by the validation difference. Top-1 only
// (the validation accuracy models record is top-1).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "evalsuite/generalization/metrics.h"

namespace evalsuite::generalization {

struct VerdictRule {
  std::string metric = "top1";     // "top1" or "top5" (the DAWNBench analysis used top-5 on ImageNet)
  double margin = 0.01;            // accuracy loss tolerated, as a proportion (0.01 = 1 percentage point)
  double alpha = 0.05;             // family-wise, after Holm
  std::string reference;           // reference pretrained model; "" = the best pretrained model
  std::string basis = "accuracy";  // "accuracy" or "gap" (see above)
  std::string candidate_group = "tta-optimized";
  std::string reference_group = "pretrained";
};

struct VerdictComparison {
  PairComparison pair;  // a = the candidate model, b = the reference
  double p_holm = 1;
  std::string outcome;        // "better", "no significant difference", "significant loss within margin",
                              // "loss beyond margin"
  bool non_inferior = false;  // interval lower bound > -margin
  // Basis "gap": the validation difference val(a) - val(b), and g = pair.difference - expected with its interval.
  std::optional<double> expected;
  double judged = 0, judged_lower = 0, judged_upper = 0;  // what the outcome is about: d (accuracy) or g (gap)
};

struct GroupVerdict {
  std::optional<bool> generalizes;  // nullopt when either group is empty
  std::string reference;
  std::string statement;
  std::string test;
  std::vector<VerdictComparison> comparisons;
};

// Holm's step-down adjustment (monotone, capped at 1), in the input order.
std::vector<double> HolmAdjust(const std::vector<double>& p_values);

// Throws UsageError when rule.reference names no model of the reference group, and (basis "gap") when the
// metric is not top1 or a compared model has no validation accuracy.
GroupVerdict JudgeGeneralization(const std::vector<ModelOutcomes>& models, const VerdictRule& rule);

nlohmann::json VerdictJson(const GroupVerdict& verdict, const VerdictRule& rule);
// [{"group", "models", "mean_top1", "mean_top5"}] in order of first appearance.
nlohmann::json GroupsJson(const std::vector<ModelOutcomes>& models);

}  // namespace evalsuite::generalization
