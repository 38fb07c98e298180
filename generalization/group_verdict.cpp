#include "generalization/group_verdict.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <numeric>

#include "common/error.h"
#include "common/json_access.h"
#include "common/json_number.h"
#include "stats/paired_difference_size.h"
#include "stats/proportion.h"

namespace evalsuite::generalization {
namespace {
using nlohmann::json;

std::string Points(double proportion) { return fmt::format("{:+.2f}", proportion * 100); }

constexpr double kZ95 = 1.959963984540054;  // scipy: norm.ppf(0.975)

}  // namespace

// The rates printed by the seeded simulation in tests/generalization/verdict_error_rates_test.cpp (its bounds are
// asserted there; rerun it and update this text when the rule changes).
const char* const kSimulatedErrorRates =
    "Error rates, simulated (1,000 seeded holdouts per size; reference 80% accurate, the two models disagreeing on "
    "10% of the images, margin 1 point): a model exactly 1 point worse is called GENERALIZES in at most 3.0% of "
    "holdouts at every size from 25 to 10,000 images (2.5% by design), one 3 points worse in at most 0.4%, and an "
    "equally accurate one is called DOES NOT GENERALIZE in at most 0.7%. Small holdouts mostly answer INCONCLUSIVE: "
    "an equally accurate model is shown within the margin in 1% of 25-image holdouts, 4% at 100, 17% at 1,000, "
    "35% at 2,500 and 88% at 10,000; a 3-point loss is shown in 6% at 100, 53% at 1,000, 89% at 2,500 and 100% at "
    "10,000";

namespace {

double NormalQuantile(double p) { return boost::math::quantile(boost::math::normal(), p); }

// Two-sided z test of H0: acc(a) - acc(b) = expected on paired outcomes (only_a, only_b discordant of n), with
// half a count added to each discordant cell so that no discordance still has a variance, and the variance of
// `expected` itself (the validation difference, itself estimated) added.
double PairedDifferenceP(const PairComparison& pair, double expected, double expected_variance) {
  if (pair.n == 0) return 1;
  const double n = static_cast<double>(pair.n);
  const double b = static_cast<double>(pair.only_a) + 0.5, c = static_cast<double>(pair.only_b) + 0.5;
  const double variance = ((b + c) - (b - c) * (b - c) / n) / (n * n) + expected_variance;
  const double z = (pair.difference - expected) / std::sqrt(std::max(variance, 1e-300));
  return std::erfc(std::abs(z) / std::sqrt(2.0));
}

// Binomial variance of a validation accuracy measured on `size` images; 0 (taken as exact) when unknown.
double ValidationVariance(const ModelOutcomes& model) {
  if (!model.validation_accuracy || !model.validation_size || *model.validation_size == 0) return 0;
  const double p = *model.validation_accuracy;
  return p * (1 - p) / static_cast<double>(*model.validation_size);
}

}  // namespace

std::vector<double> HolmAdjust(const std::vector<double>& p_values) {
  const size_t m = p_values.size();
  std::vector<size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return p_values[x] < p_values[y]; });
  std::vector<double> adjusted(m);
  double running = 0;
  for (size_t rank = 0; rank < m; ++rank) {
    running = std::max(running, std::min(1.0, (m - rank) * p_values[order[rank]]));
    adjusted[order[rank]] = running;
  }
  return adjusted;
}

namespace {

GroupVerdict JudgeOnBasis(const std::vector<ModelOutcomes>& models, const VerdictRule& rule) {
  GroupVerdict verdict;
  const std::string metric_name = rule.metric == "top5" ? "top-5" : "top-1";
  std::vector<const ModelOutcomes*> candidates, references;
  for (const ModelOutcomes& model : models) {
    if (model.group == rule.candidate_group) candidates.push_back(&model);
    if (model.group == rule.reference_group) references.push_back(&model);
  }
  const ModelOutcomes* reference = nullptr;
  if (!rule.reference.empty()) {
    for (const ModelOutcomes* model : references) {
      if (model->name == rule.reference) reference = model;
    }
    if (reference == nullptr) {
      throw UsageError("--reference", "no " + rule.reference_group + " model is named \"" + rule.reference + "\"");
    }
  } else {
    double best = -1;
    for (const ModelOutcomes* model : references) {
      const AccuracyCount count = CountAccuracy(model->Metric(rule.metric));
      if (count.n > 0 && count.accuracy() > best) {
        best = count.accuracy();
        reference = model;
      }
    }
  }
  if (candidates.empty() || reference == nullptr) {
    verdict.statement = candidates.empty()
                            ? "no " + rule.candidate_group + " model to judge"
                            : "no " + rule.reference_group + " model with evaluated images to compare against";
    verdict.test = "none";
    return verdict;
  }
  verdict.reference = reference->name;
  const bool gap = rule.basis == "gap";
  if (gap) {
    if (rule.metric != "top1") {
      throw UsageError("--verdict-basis", "gap compares with validation top-1, so the metric must be top1");
    }
    for (const ModelOutcomes* model : candidates) {
      if (!model->validation_accuracy) {
        throw UsageError("--verdict-basis", "gap needs every compared model's validation accuracy; \"" + model->name +
                                                "\" has none (model.json val_top1 or a sidecar's validation_accuracy)");
      }
    }
    if (!reference->validation_accuracy) {
      throw UsageError("--verdict-basis", "gap needs the reference's validation accuracy; \"" + reference->name +
                                              "\" has none (model.json val_top1 or a sidecar's validation_accuracy)");
    }
  }
  std::vector<double> mcnemar, gap_p;
  std::vector<std::string> taken_as_exact;
  if (gap && !reference->validation_size) taken_as_exact.push_back(reference->name);
  for (const ModelOutcomes* candidate : candidates) {
    VerdictComparison comparison;
    comparison.pair = ComparePair(*candidate, *reference, rule.metric);
    const double expected = gap ? *candidate->validation_accuracy - *reference->validation_accuracy : 0.0;
    comparison.judged = comparison.pair.difference - expected;
    comparison.judged_lower = comparison.pair.lower - expected;
    comparison.judged_upper = comparison.pair.upper - expected;
    if (gap) {
      comparison.expected = expected;
      if (!candidate->validation_size) taken_as_exact.push_back(candidate->name);
      const double variance = ValidationVariance(*candidate) + ValidationVariance(*reference);
      comparison.validation_error = std::sqrt(variance);
      // MOVER (Zou and Donner 2008): each side of the Newcombe interval of d widened by the validation error.
      const double spread = kZ95 * kZ95 * variance;
      const double d = comparison.pair.difference;
      comparison.judged_lower =
          comparison.judged - std::sqrt((d - comparison.pair.lower) * (d - comparison.pair.lower) + spread);
      comparison.judged_upper =
          comparison.judged + std::sqrt((comparison.pair.upper - d) * (comparison.pair.upper - d) + spread);
      comparison.p_gap = PairedDifferenceP(comparison.pair, expected, variance);
      gap_p.push_back(*comparison.p_gap);
    }
    mcnemar.push_back(comparison.pair.p_value);
    verdict.comparisons.push_back(comparison);
  }
  const std::vector<double> mcnemar_holm = HolmAdjust(mcnemar);
  const std::vector<double> gap_holm = HolmAdjust(gap_p);
  for (size_t i = 0; i < verdict.comparisons.size(); ++i) {
    verdict.comparisons[i].p_mcnemar_holm = mcnemar_holm[i];
    if (gap) verdict.comparisons[i].p_gap_holm = gap_holm[i];
  }
  // The decision rests on intervals, never on a test that failed to reject: a model is shown within the margin
  // when its 95% interval lies above -margin (each such claim at its own level: all must hold, an intersection-union
  // test needs no adjustment), and shown to lose more when its interval at 100(1 - alpha/k)% (Bonferroni over the
  // k comparisons, since one such model decides) lies below -margin. Anything else is undecided.
  const size_t k = verdict.comparisons.size();
  const double beyond_alpha = rule.alpha / static_cast<double>(std::max<size_t>(k, 1));
  const double z_beyond = NormalQuantile(1 - beyond_alpha / 2);
  std::vector<std::string> losers, undecided;
  int non_inferior = 0;
  double lowest = 1, highest = -1;
  std::optional<size_t> to_decide = size_t{0}, to_decide_even;
  to_decide_even = size_t{0};
  for (size_t i = 0; i < verdict.comparisons.size(); ++i) {
    VerdictComparison& c = verdict.comparisons[i];
    const PairComparison& p = c.pair;
    const stats::Interval wide =
        stats::PairedProportionDifference(stats::PairedCounts{p.both, p.only_a, p.only_b, p.neither}, beyond_alpha);
    c.beyond_upper = wide.upper - (c.expected ? *c.expected : 0.0);
    if (gap && c.validation_error) {
      const double reach = wide.upper - p.difference;
      c.beyond_upper =
          c.judged + std::sqrt(reach * reach + z_beyond * z_beyond * *c.validation_error * *c.validation_error);
    }
    if (p.n == 0) c.beyond_upper = 1;
    c.non_inferior = p.n > 0 && c.judged_lower > -rule.margin;
    c.shown_beyond = p.n > 0 && c.beyond_upper < -rule.margin;
    const bool significant = p.n > 0 && c.p_judged_holm() < rule.alpha;
    if (c.shown_beyond) {
      c.outcome = "loss shown beyond margin";
      losers.push_back(fmt::format("{} ({} points, {:.4g}% interval [{}, {}])", p.a, Points(c.judged),
                                   100 * (1 - beyond_alpha), Points(c.judged_lower), Points(c.beyond_upper)));
    } else if (c.non_inferior) {
      c.outcome = significant && c.judged > 0 ? "shown within margin (better)" : "shown within margin";
    } else {
      c.outcome = "undecided";
      // The holdout size that would decide this comparison if its difference and disagreement held: above the
      // margin it must show non-inferiority (95%), below it the loss (at the adjusted level). Gap basis: the
      // validation error does not shrink with the holdout, so only the holdout's share is sized (a floor).
      const bool above = c.judged > -rule.margin;
      const double alpha_side = above ? 0.05 : beyond_alpha;
      const double bound = -rule.margin + (c.expected ? *c.expected : 0.0);
      c.images_to_decide = stats::PairedItemsToExclude(p.only_a, p.only_b, p.n, bound, alpha_side, 0.8);
      c.images_even_odds = stats::PairedItemsToExclude(p.only_a, p.only_b, p.n, bound, alpha_side, 0.5);
      undecided.push_back(fmt::format("{} ({} points, 95% interval [{}, {}])", p.a, Points(c.judged),
                                      Points(c.judged_lower), Points(c.judged_upper)));
      if (to_decide && c.images_to_decide) {
        to_decide = std::max(*to_decide, *c.images_to_decide);
      } else {
        to_decide.reset();
      }
      if (to_decide_even && c.images_even_odds) {
        to_decide_even = std::max(*to_decide_even, *c.images_even_odds);
      } else {
        to_decide_even.reset();
      }
    }
    non_inferior += c.non_inferior;
    lowest = std::min(lowest, c.judged);
    highest = std::max(highest, c.judged);
  }
  const AccuracyCount reference_count = CountAccuracy(reference->Metric(rule.metric));
  const size_t n_images = verdict.comparisons.empty() ? 0 : verdict.comparisons.front().pair.n;
  if (!losers.empty()) {
    verdict.decision = kDoesNotGeneralize;
    verdict.generalizes = false;
  } else if (undecided.empty()) {
    verdict.decision = kGeneralizes;
    verdict.generalizes = true;
  } else {
    verdict.decision = kInconclusive;  // generalizes stays unset: neither answer is shown
    if (to_decide && *to_decide > n_images) verdict.images_to_decide = to_decide;
    if (to_decide_even && *to_decide_even > n_images) verdict.images_even_odds = to_decide_even;
  }
  if (gap) {
    verdict.label = verdict.decision == kGeneralizes         ? "LOSES NO MORE THAN THE REFERENCE"
                    : verdict.decision == kDoesNotGeneralize ? "LOSES MORE THAN THE REFERENCE"
                                                             : "INCONCLUSIVE";
    verdict.question = "does each " + rule.candidate_group +
                       " model lose no more accuracy from validation to the "
                       "holdout than the reference does (gap basis; not whether it is as accurate on the holdout)";
  } else {
    verdict.label = verdict.decision == kGeneralizes         ? "GENERALIZES"
                    : verdict.decision == kDoesNotGeneralize ? "DOES NOT GENERALIZE"
                                                             : "INCONCLUSIVE";
    verdict.question = "is each " + rule.candidate_group +
                       " model as accurate on the holdout as the reference, "
                       "within the margin (accuracy basis)";
  }
  const std::string beyond = gap ? " beyond what validation predicts" : "";
  const std::string differences = gap ? "shift-adjusted differences" : "differences";
  const std::string against = fmt::format("{} \"{}\" ({} {:.2f}%)", rule.reference_group, reference->name, metric_name,
                                          reference_count.accuracy() * 100);
  if (verdict.decision == kGeneralizes) {
    const std::string claim =
        gap ? fmt::format("lose{} no more accuracy from validation to holdout than", k == 1 ? "s" : "")
            : fmt::format("generalize{} as well as", k == 1 ? "s" : "");
    verdict.statement = fmt::format(
        "{} {} model{} {} {}: each is shown to lose at most {:.2f} points{} (every 95% interval lies above "
        "{}; {} {} to {} points)",
        k, rule.candidate_group, k == 1 ? "" : "s", claim, against, rule.margin * 100, beyond, Points(-rule.margin),
        differences, Points(lowest), Points(highest));
  } else if (verdict.decision == kDoesNotGeneralize) {
    std::string names;
    for (const std::string& loser : losers) names += (names.empty() ? "" : ", ") + loser;
    verdict.statement =
        fmt::format("{} of {} {} models are shown to lose more than {:.2f} points of {}{} against {}: {}",
                    losers.size(), k, rule.candidate_group, rule.margin * 100, metric_name, beyond, against, names);
  } else {
    std::string names;
    for (const std::string& name : undecided) names += (names.empty() ? "" : ", ") + name;
    std::string size;
    if (verdict.images_to_decide) {
      size = fmt::format(
          "; about {} images would decide with 80% probability if the observed differences and disagreements held "
          "({} at even odds; normal approximation)",
          *verdict.images_to_decide, verdict.images_even_odds ? std::to_string(*verdict.images_even_odds) : "-");
    } else {
      size = "; no holdout size is sure to decide: a difference sits at the margin itself";
    }
    verdict.statement = fmt::format(
        "on {} images, {} of {} {} model{} {} neither shown within {:.2f} points{} of {} nor shown to lose more: "
        "{}{}",
        n_images, undecided.size(), k, rule.candidate_group, k == 1 ? "" : "s", undecided.size() == 1 ? "is" : "are",
        rule.margin * 100, beyond, against, names, size);
  }
  const std::string decision = fmt::format(
      "decision: a model is shown within the margin when the 95% interval of its {} lies above {} points, and shown "
      "to lose more when its {:.4g}% interval (Bonferroni over {} comparison{}) lies below; {} when every model is "
      "shown within, {} when any is shown to lose more, INCONCLUSIVE otherwise. {}.",
      gap ? "shift-adjusted difference" : "difference", Points(-rule.margin), 100 * (1 - beyond_alpha), k,
      k == 1 ? "" : "s", gap ? "LOSES NO MORE THAN THE REFERENCE" : "GENERALIZES",
      gap ? "LOSES MORE THAN THE REFERENCE" : "DOES NOT GENERALIZE", kSimulatedErrorRates);
  if (gap) {
    std::string exact;
    for (const std::string& name : taken_as_exact) exact += (exact.empty() ? "" : ", ") + name;
    verdict.test = fmt::format(
        "gap basis: each {} model's holdout {} difference to {} pretrained model \"{}\" minus their validation "
        "difference; its interval is the Newcombe interval of the holdout difference widened by the validation "
        "error (MOVER, Zou and Donner 2008), the validation error being each validation accuracy's binomial "
        "variance p(1-p)/n_val{}; {} Beside it, a z test of the gap (Holm-adjusted over {} comparison{}, alpha {}). "
        "A model saved at its first evaluation at or above the target has a validation accuracy selected upward, "
        "which this test does not correct",
        rule.candidate_group, metric_name, rule.reference.empty() ? "the best" : "the chosen", reference->name,
        exact.empty() ? "" : " (taken as exact, validation size unknown: " + exact + ")", decision, k,
        k == 1 ? "" : "s", rule.alpha);
    return verdict;
  }
  verdict.test = fmt::format(
      "accuracy basis: each {} model against {} pretrained model \"{}\" on {}, on the images both evaluated; "
      "difference intervals: Newcombe (1998, method 10); {} Beside it, exact McNemar p-values, Holm-adjusted over {} "
      "comparison{} (alpha {})",
      rule.candidate_group, rule.reference.empty() ? "the best" : "the chosen", reference->name, metric_name, decision,
      k, k == 1 ? "" : "s", rule.alpha);
  return verdict;
}

}  // namespace

GroupVerdict JudgeGeneralization(const std::vector<ModelOutcomes>& models, const VerdictRule& rule) {
  GroupVerdict verdict = JudgeOnBasis(models, rule);
  if (rule.basis != "gap" || verdict.decision.empty()) return verdict;  // no verdict without both groups
  VerdictRule accuracy = rule;
  accuracy.basis = "accuracy";
  const GroupVerdict beside = JudgeOnBasis(models, accuracy);
  verdict.accuracy_generalizes = beside.generalizes;
  verdict.accuracy_decision = beside.decision;
  verdict.accuracy_statement = beside.statement;
  verdict.accuracy_test = beside.test;
  verdict.statement += "; on the accuracy basis (" + beside.label + "): " + beside.statement;
  return verdict;
}

json VerdictJson(const GroupVerdict& verdict, const VerdictRule& rule) {
  json comparisons = json::array();
  for (const VerdictComparison& c : verdict.comparisons) {
    comparisons.push_back({{"model", c.pair.a},
                           {"n", c.pair.n},
                           {"difference", JsonNumber(c.pair.difference)},
                           {"lower", JsonNumber(c.pair.lower)},
                           {"upper", JsonNumber(c.pair.upper)},
                           {"p_mcnemar", JsonNumber(c.pair.p_value)},
                           {"p_mcnemar_holm", JsonNumber(c.p_mcnemar_holm)},
                           {"p_gap", JsonNumber(c.p_gap)},
                           {"p_gap_holm", JsonNumber(c.p_gap_holm)},
                           {"validation_error", JsonNumber(c.validation_error)},
                           {"outcome", c.outcome},
                           {"non_inferior", c.non_inferior},
                           {"shown_beyond_margin", c.shown_beyond},
                           {"beyond_upper", JsonNumber(c.beyond_upper)},
                           {"images_to_decide", JsonOrNull(c.images_to_decide)},
                           {"images_to_decide_even_odds", JsonOrNull(c.images_even_odds)},
                           {"validation_difference", c.expected ? JsonNumber(*c.expected) : json(nullptr)},
                           {"judged_difference", JsonNumber(c.judged)},
                           {"judged_lower", JsonNumber(c.judged_lower)},
                           {"judged_upper", JsonNumber(c.judged_upper)}});
  }
  const bool gap = rule.basis == "gap";
  json accuracy_basis = nullptr;
  if (gap && !verdict.accuracy_decision.empty()) {
    accuracy_basis = {{"decision", verdict.accuracy_decision},
                      {"generalizes", JsonOrNull(verdict.accuracy_generalizes)},
                      {"statement", verdict.accuracy_statement},
                      {"test", verdict.accuracy_test}};
  }
  return {{"decision", verdict.decision.empty() ? json(nullptr) : json(verdict.decision)},
          {"generalizes", JsonOrNull(gap ? verdict.accuracy_generalizes : verdict.generalizes)},
          {"passed", JsonOrNull(verdict.generalizes)},
          {"label", verdict.label.empty() ? json(nullptr) : json(verdict.label)},
          {"images_to_decide", JsonOrNull(verdict.images_to_decide)},
          {"error_rates", verdict.decision.empty() ? json(nullptr) : json(kSimulatedErrorRates)},
          {"images_to_decide_even_odds", JsonOrNull(verdict.images_even_odds)},
          {"question", verdict.question},
          {"accuracy_basis", accuracy_basis},
          {"statement", verdict.statement},
          {"test", verdict.test},
          {"metric", rule.metric},
          {"basis", rule.basis},
          {"margin", rule.margin},
          {"alpha", rule.alpha},
          {"reference", verdict.reference.empty() ? json(nullptr) : json(verdict.reference)},
          {"comparisons", comparisons}};
}

json GroupsJson(const std::vector<ModelOutcomes>& models) {
  std::vector<std::string> order;
  for (const ModelOutcomes& model : models) {
    if (std::find(order.begin(), order.end(), model.group) == order.end()) order.push_back(model.group);
  }
  json groups = json::array();
  for (const std::string& group : order) {
    int count = 0, with_images = 0;
    double top1 = 0, top5 = 0;
    for (const ModelOutcomes& model : models) {
      if (model.group != group) continue;
      ++count;
      const AccuracyCount a1 = CountAccuracy(model.top1), a5 = CountAccuracy(model.top5);
      if (a1.n == 0) continue;
      ++with_images;
      top1 += a1.accuracy();
      top5 += a5.accuracy();
    }
    groups.push_back({{"group", group},
                      {"models", count},
                      {"mean_top1", with_images ? JsonNumber(top1 / with_images) : json(nullptr)},
                      {"mean_top5", with_images ? JsonNumber(top5 / with_images) : json(nullptr)}});
  }
  return groups;
}

json PairsJson(const std::vector<ModelOutcomes>& models, const std::vector<std::string>& metrics) {
  json pairs = json::array();
  for (const std::string& metric : metrics) {
    // One family per metric: every pair of the image set's models, adjusted together.
    std::vector<PairComparison> family;
    for (size_t a = 0; a < models.size(); ++a) {
      for (size_t b = a + 1; b < models.size(); ++b) family.push_back(ComparePair(models[a], models[b], metric));
    }
    std::vector<double> p_values;
    for (const PairComparison& pair : family) p_values.push_back(pair.p_value);
    const std::vector<double> adjusted = HolmAdjust(p_values);
    for (size_t i = 0; i < family.size(); ++i) {
      json row = PairJson(family[i]);
      row["p_holm"] = JsonNumber(adjusted[i]);
      pairs.push_back(std::move(row));
    }
  }
  return pairs;
}

}  // namespace evalsuite::generalization
