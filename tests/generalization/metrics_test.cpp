// Metrics, pairwise tests and the group verdict on hand-made per-image outcomes (no models needed).
#include "evalsuite/generalization/metrics.h"

#include <gtest/gtest.h>

#include "evalsuite/common/error.h"
#include "evalsuite/generalization/classifier.h"
#include "evalsuite/generalization/group_verdict.h"

namespace evalsuite::generalization {
namespace {
using nlohmann::json;

// A model's outcomes: `correct` right answers first, then wrong ones, over n images.
ModelOutcomes Outcomes(const std::string& name, const std::string& group, size_t n, size_t correct) {
  ModelOutcomes model;
  model.name = name;
  model.group = group;
  model.top1.assign(n, 0);
  for (size_t i = 0; i < correct; ++i) model.top1[i] = 1;
  model.top5 = model.top1;
  return model;
}

TEST(Metrics, ClopperPearsonOfThePaperSizedHoldout) {
  const json accuracy = AccuracyJson(AccuracyCount{2864, 2664});
  EXPECT_EQ(accuracy["correct"], 2664);
  EXPECT_NEAR(accuracy["lower"].get<double>(), 0.920212, 1e-6);
  EXPECT_NEAR(accuracy["upper"].get<double>(), 0.939233, 1e-6);
  EXPECT_TRUE(AccuracyJson(AccuracyCount{0, 0})["accuracy"].is_null());
}

TEST(Metrics, PairCountsAndMcNemar) {
  // A right on the first 100 + 12 extra, B right on the first 100 + 4 others: b = 12, c = 4.
  ModelOutcomes a = Outcomes("a", "pretrained", 200, 112);
  ModelOutcomes b = Outcomes("b", "tta-optimized", 200, 100);
  for (size_t i = 150; i < 154; ++i) b.top1[i] = 1;
  a.top1[199] = kNotEvaluated;  // left out of the pair
  const PairComparison pair = ComparePair(a, b, "top1");
  EXPECT_EQ(pair.n, 199u);
  EXPECT_EQ(pair.only_a, 12u);
  EXPECT_EQ(pair.only_b, 4u);
  EXPECT_EQ(pair.both, 100u);
  EXPECT_EQ(pair.neither, 83u);
  EXPECT_NEAR(pair.p_value, 0.076813, 1e-6);
  EXPECT_NEAR(pair.difference, 8.0 / 199, 1e-12);
  EXPECT_LT(pair.lower, pair.difference);
  EXPECT_GT(pair.upper, pair.difference);
  // Newcombe's score interval (asymptotic) is narrower than the exact test: here it just excludes 0 while
  // the exact McNemar p is 0.077. The verdict takes significance from McNemar only.
  EXPECT_GT(pair.lower, 0);
  EXPECT_LT(pair.lower, 0.005);
  const json j = PairJson(pair);
  EXPECT_EQ(j["only_a"], 12);
  EXPECT_EQ(j["metric"], "top1");
}

TEST(Metrics, ScoreModelMapsOutputsAndCountsUncovered) {
  ClassMapping mapping;
  mapping.output_to_class = {2, 0, -1};  // output 2 stands for no holdout class
  mapping.covered = {true, false, true};
  const std::vector<int> labels = {2, 0, 1, 2};
  const std::vector<bool> readable = {true, true, true, false};
  std::vector<int32_t> top(4 * kTopK, -1);
  top[0 * kTopK + 0] = 0;  // image 0 (class 2): output 0 -> class 2, right
  top[1 * kTopK + 0] = 2;  // image 1 (class 0): output 2 -> nothing, wrong
  top[1 * kTopK + 1] = 0;  // ...output 0 -> class 2: still wrong in top-5
  const ModelOutcomes model = ScoreModel("m", "g", std::nullopt, top, labels, readable, mapping);
  EXPECT_EQ(model.top1, (std::vector<int8_t>{1, 0, kNotEvaluated, kNotEvaluated}));
  EXPECT_EQ(model.top5, (std::vector<int8_t>{1, 0, kNotEvaluated, kNotEvaluated}));
  EXPECT_EQ(model.uncovered, 1u);  // class 1 is not covered; the unreadable image is not "uncovered"
}

TEST(GroupVerdict, HolmAdjustment) {
  const std::vector<double> adjusted = HolmAdjust({0.01, 0.04, 0.03, 0.5});
  EXPECT_DOUBLE_EQ(adjusted[0], 0.04);  // 4 * 0.01
  EXPECT_DOUBLE_EQ(adjusted[2], 0.09);  // 3 * 0.03
  EXPECT_DOUBLE_EQ(adjusted[1], 0.09);  // max(2 * 0.04, 0.09): monotone
  EXPECT_DOUBLE_EQ(adjusted[3], 0.5);
  EXPECT_TRUE(HolmAdjust({}).empty());
}

TEST(GroupVerdict, SignificantLossBeyondMarginFails) {
  const std::vector<ModelOutcomes> models = {
      Outcomes("r18", "pretrained", 2000, 1700), Outcomes("r50", "pretrained", 2000, 1800),
      Outcomes("fast", "tta-optimized", 2000, 1795), Outcomes("faster", "tta-optimized", 2000, 1700)};
  const GroupVerdict verdict = JudgeGeneralization(models, VerdictRule{});
  EXPECT_EQ(verdict.reference, "r50");  // the best pretrained model
  ASSERT_TRUE(verdict.generalizes.has_value());
  EXPECT_FALSE(*verdict.generalizes);
  ASSERT_EQ(verdict.comparisons.size(), 2u);
  EXPECT_EQ(verdict.comparisons[0].outcome, "no significant difference");
  EXPECT_EQ(verdict.comparisons[1].outcome, "loss beyond margin");
  EXPECT_NE(verdict.statement.find("faster"), std::string::npos);
  EXPECT_NE(verdict.test.find("Holm"), std::string::npos);
  // Against the weaker reference, both are fine (one better, one equal).
  VerdictRule rule;
  rule.reference = "r18";
  const GroupVerdict lenient = JudgeGeneralization(models, rule);
  EXPECT_TRUE(*lenient.generalizes);
  EXPECT_EQ(lenient.comparisons[0].outcome, "better");
  rule.reference = "nope";
  EXPECT_THROW(JudgeGeneralization(models, rule), Error);
}

TEST(GroupVerdict, SmallSignificantLossIsWithinMargin) {
  // 9,000 vs 8,950 of 10,000 with every B-right image also A-right: b = 50, c = 0, p tiny, loss 0.5 points.
  const std::vector<ModelOutcomes> models = {Outcomes("ref", "pretrained", 10000, 9000),
                                             Outcomes("tta", "tta-optimized", 10000, 8950)};
  const GroupVerdict verdict = JudgeGeneralization(models, VerdictRule{});
  EXPECT_TRUE(*verdict.generalizes);
  EXPECT_EQ(verdict.comparisons[0].outcome, "significant loss within margin");
  EXPECT_TRUE(verdict.comparisons[0].non_inferior);
  const json j = VerdictJson(verdict, VerdictRule{});
  EXPECT_EQ(j["generalizes"], true);
  EXPECT_EQ(j["margin"], 0.01);
  EXPECT_EQ(j["comparisons"][0]["model"], "tta");
}

TEST(GroupVerdict, GapBasisJudgesTheDropFromValidationNotTheAccuracyLevel) {
  // The reference sits at 92% on validation and on the holdout. "early" stopped at 88% and keeps 88% on the
  // holdout: 4 points lower, but no lower than validation predicts. "overfit" claims 90% on validation and
  // gets 85%: 3 points beyond what validation predicts.
  ModelOutcomes reference = Outcomes("reference", "pretrained", 2000, 1840);
  ModelOutcomes early = Outcomes("early", "tta-optimized", 2000, 1760);
  ModelOutcomes overfit = Outcomes("overfit", "tta-optimized", 2000, 1700);
  reference.validation_accuracy = 0.92;
  early.validation_accuracy = 0.88;
  overfit.validation_accuracy = 0.90;

  const GroupVerdict by_accuracy = JudgeGeneralization({reference, early}, VerdictRule{});
  EXPECT_FALSE(*by_accuracy.generalizes);  // 4 points below the reference
  VerdictRule gap;
  gap.basis = "gap";
  const GroupVerdict early_only = JudgeGeneralization({reference, early}, gap);
  ASSERT_TRUE(early_only.generalizes.has_value());
  EXPECT_TRUE(*early_only.generalizes) << early_only.statement;
  EXPECT_EQ(early_only.comparisons[0].outcome, "no significant difference");
  EXPECT_NEAR(*early_only.comparisons[0].expected, -0.04, 1e-12);
  EXPECT_NEAR(early_only.comparisons[0].judged, 0.0, 1e-12);
  EXPECT_TRUE(early_only.comparisons[0].non_inferior);
  EXPECT_NE(early_only.statement.find("beyond what validation predicts"), std::string::npos);
  EXPECT_NE(early_only.test.find("gap basis"), std::string::npos);

  const GroupVerdict both = JudgeGeneralization({reference, early, overfit}, gap);
  EXPECT_FALSE(*both.generalizes);
  EXPECT_EQ(both.comparisons[1].outcome, "loss beyond margin");
  EXPECT_NEAR(both.comparisons[1].judged, -0.05, 1e-12);  // -0.07 on the holdout, -0.02 expected
  EXPECT_LT(both.comparisons[1].judged_upper, -0.01);
  EXPECT_NE(both.statement.find("overfit"), std::string::npos);
  const json j = VerdictJson(both, gap);
  EXPECT_EQ(j["basis"], "gap");
  EXPECT_NEAR(j["comparisons"][1]["validation_difference"].get<double>(), -0.02, 1e-12);
  EXPECT_NEAR(j["comparisons"][1]["judged_difference"].get<double>(), -0.05, 1e-12);
}

TEST(GroupVerdict, GapBasisNeedsValidationAccuraciesAndTop1) {
  ModelOutcomes reference = Outcomes("reference", "pretrained", 100, 90);
  ModelOutcomes candidate = Outcomes("candidate", "tta-optimized", 100, 85);
  reference.validation_accuracy = 0.9;
  VerdictRule gap;
  gap.basis = "gap";
  try {
    JudgeGeneralization({reference, candidate}, gap);
    FAIL() << "a candidate without validation accuracy was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("candidate"), std::string::npos) << e.what();
  }
  candidate.validation_accuracy = 0.85;
  EXPECT_NO_THROW(JudgeGeneralization({reference, candidate}, gap));
  gap.metric = "top5";
  EXPECT_THROW(JudgeGeneralization({reference, candidate}, gap), Error);
}

TEST(GroupVerdict, NoVerdictWithoutBothGroups) {
  const GroupVerdict verdict = JudgeGeneralization({Outcomes("a", "pretrained", 10, 9)}, VerdictRule{});
  EXPECT_FALSE(verdict.generalizes.has_value());
  EXPECT_TRUE(VerdictJson(verdict, VerdictRule{})["generalizes"].is_null());
  const json groups = GroupsJson(
      {Outcomes("a", "pretrained", 10, 9), Outcomes("b", "pretrained", 10, 7), Outcomes("c", "mine", 10, 5)});
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0]["models"], 2);
  EXPECT_NEAR(groups[0]["mean_top1"].get<double>(), 0.8, 1e-12);
  EXPECT_EQ(groups[1]["group"], "mine");
}

}  // namespace
}  // namespace evalsuite::generalization
