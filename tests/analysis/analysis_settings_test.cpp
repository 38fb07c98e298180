// The typed [stability], compare and [sequential] settings (analysis/analysis_settings.h): their stored form round
// trips, absent keys keep the defaults (an import's plan has none), and a malformed key is named.
#include "analysis/analysis_settings.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace evalsuite::analysis {
namespace {

TEST(AnalysisSettingsTest, RoundTripsThroughTheStoredForm) {
  AnalysisSettings s;
  s.rule.max_cov_upper = 0.2;
  s.rule.min_reached = 4;
  s.rule.consecutive_evaluations = 2;
  s.rule.basis = "epochs";
  s.compare = {{"fast", "base"}};
  s.sequential = SequentialSettings{3, 12, 0.05, false, "fast", "slow"};
  const AnalysisSettings back = AnalysisSettingsFromPlanJson(AnalysisSettingsToJson(s));
  EXPECT_DOUBLE_EQ(back.rule.max_cov_upper, 0.2);
  EXPECT_EQ(back.rule.min_reached, 4u);
  EXPECT_EQ(back.rule.consecutive_evaluations, 2u);
  EXPECT_EQ(back.rule.basis, "epochs");
  EXPECT_EQ(back.compare, s.compare);
  ASSERT_TRUE(back.sequential);
  EXPECT_EQ(back.sequential->max_runs, 12);
  EXPECT_EQ(back.sequential->b, "slow");
  // The pairs compared: the list, then the sequential pair it lacks.
  EXPECT_EQ(ComparedPairs(back), (std::vector<EntryPair>{{"fast", "base"}, {"fast", "slow"}}));
}

TEST(AnalysisSettingsTest, AVarianceDesignRoundTripsAndOnlyItWritesTheKey) {
  AnalysisSettings s;
  EXPECT_FALSE(AnalysisSettingsToJson(s).contains("variance"));  // other studies' stored plans stay as they were
  s.variance = VarianceSettings{{"init", "data_order"}, 4, 3};
  const AnalysisSettings back = AnalysisSettingsFromPlanJson(AnalysisSettingsToJson(s));
  ASSERT_TRUE(back.variance);
  EXPECT_EQ(back.variance->vary, (std::vector<std::string>{"init", "data_order"}));
  EXPECT_EQ(back.variance->levels, 4);
  EXPECT_EQ(back.variance->repeats, 3);
  try {
    AnalysisSettingsFromPlanJson({{"variance", {{"vary", "init"}}}});
    FAIL() << "a vary that is not a list was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("variance.vary"), std::string::npos) << e.what();
  }
}

TEST(AnalysisSettingsTest, APlanWithoutTheKeysKeepsTheDefaults) {
  const AnalysisSettings s = AnalysisSettingsFromPlanJson({{"files", 3}});
  EXPECT_DOUBLE_EQ(s.rule.max_cov_upper, stats::StabilityRule{}.max_cov_upper);
  EXPECT_TRUE(s.compare.empty());
  EXPECT_FALSE(s.sequential);
  EXPECT_FALSE(AnalysisSettingsFromPlanJson(nullptr).sequential);
}

TEST(AnalysisSettingsTest, AMalformedKeyIsNamed) {
  auto message = [](const nlohmann::json& plan) {
    try {
      AnalysisSettingsFromPlanJson(plan);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({{"stability", {{"min_reached", -1}}}}).find("plan.stability.min_reached"), std::string::npos);
  EXPECT_NE(message({{"compare", {{"a", "b"}}}}).find("plan.compare"), std::string::npos);  // an object, not pairs
  EXPECT_NE(message({{"sequential", {{"min_runs", 5}, {"max_runs", 3}}}}).find("plan.sequential"), std::string::npos);
  EXPECT_NE(message({{"sequential", {{"question", {"a"}}}}}).find("plan.sequential.question"), std::string::npos);
}

}  // namespace
}  // namespace evalsuite::analysis
