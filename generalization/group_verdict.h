// The group verdict: do the TTA-optimized models generalize as well as the pretrained ones?
//
// Rule (stated in every verdict's "test" string): each TTA-optimized model is compared with ONE reference
// pretrained model (by default the best pretrained model on this image set and metric; --reference names
// another) on the images both evaluated. The answer says only what the images show (non-inferiority, as a
// clinical trial would claim it):
//   GENERALIZES          every model's Newcombe 95% interval of the difference lies above -margin (each shown
//                        within the margin; default 1 percentage point);
//   DOES NOT GENERALIZE  some model's interval at 100(1 - alpha/k)% (Bonferroni over the k comparisons) lies below
//                        -margin (a loss beyond the margin is shown);
//   INCONCLUSIVE         otherwise, with the holdout size that would decide at the observed difference and
//                        disagreement (stats/paired_difference_size.h).
// A difference that is not significant is never taken as evidence of none. Exact McNemar p-values (Holm-adjusted)
// are reported beside the decision; they do not make it. The decision's error rates are simulated at holdout
// sizes 25 to 10,000 (tests/generalization/verdict_error_rates_test.cpp) and quoted in the test string.
//
// Basis "gap" (the ImageNetV2 view, for models that stopped at different accuracies): what is judged is not
// the holdout difference d = acc(candidate) - acc(reference) but how far it falls short of the difference
// validation predicts, g = d - (val(candidate) - val(reference)), i.e. whether the candidate loses more
// accuracy from validation to holdout than the reference does. That is a different question from "generalizes
// as well", and the verdict says so: its label is "LOSES NO MORE THAN THE REFERENCE" (or "LOSES MORE"), and the
// accuracy-basis verdict is computed and shown beside it. Both splits are binomial samples of the same model:
// g's variance is the paired holdout variance of d (Wald, discordant counts) plus val(1 - val)/n_val of each
// model whose validation size is known (model.json validation_size; the two validation accuracies taken as
// independent, conservative for positively correlated models); a model without it is taken as exact and the
// test says which. g's interval combines the Newcombe interval of d with the validation error (MOVER, Zou and
// Donner 2008) and is decided as above; g's z test against 0 (Holm-adjusted) is reported beside it. Top-1 only (the
// validation accuracy models record is top-1). Not corrected: a model saved at its first evaluation at or above the
// target has a validation accuracy selected upward, which the test text states.
//
// p-values are named for their test: p_mcnemar (exact McNemar on d) with p_mcnemar_holm, and on the gap basis
// p_gap (the z above) with p_gap_holm; the outcome rests on the intervals alone.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "generalization/metrics.h"

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
  PairComparison pair;                      // a = the candidate model, b = the reference; pair.p_value is McNemar's
  double p_mcnemar_holm = 1;                // McNemar's p, Holm-adjusted over the comparisons
  std::optional<double> p_gap, p_gap_holm;  // basis "gap": the gap's z test, raw and Holm-adjusted
  std::optional<double> validation_error;   // basis "gap": standard error of the validation difference
  double p_judged_holm() const { return p_gap_holm ? *p_gap_holm : p_mcnemar_holm; }
  std::string outcome;        // "shown within margin", "shown within margin (better)", "loss shown beyond margin",
                              // "undecided"
  bool non_inferior = false;  // 95% interval lower bound > -margin
  bool shown_beyond = false;  // the 100(1 - alpha/k)% interval's upper bound < -margin
  double beyond_upper = 1;    // that upper bound (of the judged difference)
  // Undecided only: holdout images that would decide it at the observed rates, with 80% probability and at even odds.
  std::optional<size_t> images_to_decide, images_even_odds;
  // Basis "gap": the validation difference val(a) - val(b), and g = pair.difference - expected with its interval.
  std::optional<double> expected;
  double judged = 0, judged_lower = 0, judged_upper = 0;  // what the outcome is about: d (accuracy) or g (gap)
};

// The decision's error rates as simulated at holdout sizes 25 to 10,000 (quoted in the test string and the JSON).
extern const char* const kSimulatedErrorRates;

constexpr const char* kGeneralizes = "generalizes";
constexpr const char* kDoesNotGeneralize = "does not generalize";
constexpr const char* kInconclusive = "inconclusive";

struct GroupVerdict {
  std::string decision;             // kGeneralizes, kDoesNotGeneralize, kInconclusive; "" when either group is empty
  std::optional<bool> generalizes;  // the rule's basis decided: true or false; nullopt when inconclusive or no verdict
  std::string label;  // "GENERALIZES" / "DOES NOT GENERALIZE" / "INCONCLUSIVE", or on the gap basis "LOSES NO
                      // MORE THAN THE REFERENCE" / "LOSES MORE THAN THE REFERENCE" / "INCONCLUSIVE"
  // Inconclusive: holdout images that would decide every undecided comparison at the observed rates (80% and even
  // odds); nullopt when a difference sits at the margin or the size is not larger than the holdout.
  std::optional<size_t> images_to_decide, images_even_odds;
  std::string question;  // the question the verdict answers, in words
  std::string reference;
  std::string statement;
  std::string test;
  std::vector<VerdictComparison> comparisons;
  // Basis "gap": the accuracy-basis verdict on the same models, shown beside it.
  std::optional<bool> accuracy_generalizes;
  std::string accuracy_decision;
  std::string accuracy_statement, accuracy_test;
};

// Holm's step-down adjustment (monotone, capped at 1), in the input order.
std::vector<double> HolmAdjust(const std::vector<double>& p_values);

// Throws UsageError when rule.reference names no model of the reference group, and (basis "gap") when the
// metric is not top1 or a compared model has no validation accuracy.
GroupVerdict JudgeGeneralization(const std::vector<ModelOutcomes>& models, const VerdictRule& rule);

// JSON: "decision" ("generalizes", "does not generalize", "inconclusive"), "generalizes" the accuracy-basis answer
// (on the gap basis: the one computed beside it; null when inconclusive), "passed" the rule's basis (null when
// inconclusive), "images_to_decide", "label" and "question" what was answered; comparisons carry p_mcnemar,
// p_mcnemar_holm and on the gap basis p_gap, p_gap_holm.
nlohmann::json VerdictJson(const GroupVerdict& verdict, const VerdictRule& rule);

// Every pair of models for each metric (exact McNemar, Newcombe interval), with "p_holm": McNemar's p
// Holm-adjusted over the image set's pairs of that metric.
nlohmann::json PairsJson(const std::vector<ModelOutcomes>& models, const std::vector<std::string>& metrics);
// [{"group", "models", "mean_top1", "mean_top5"}] in order of first appearance.
nlohmann::json GroupsJson(const std::vector<ModelOutcomes>& models);

}  // namespace evalsuite::generalization
