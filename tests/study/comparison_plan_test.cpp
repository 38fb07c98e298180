// `compare` and `[sequential]` in a study plan (study/plans/comparison_plan_keys.h): read, validated with the
// file, line and key at fault, stored and read back, and fingerprinted (they change what the study decides).
#include <gtest/gtest.h>

#include "common/error.h"
#include "study/plans/study_plan.h"
#include "study/plans/study_plan_loader.h"

namespace evalsuite::study {
namespace {

StudyPlan ParseComparisonPlan(const std::string& text, const PlanOverrides& overrides = {}) {
  return ParseStudyPlan(text, "/studies/s.toml", overrides, 2);
}

std::string ComparisonPlanError(const std::string& text, const PlanOverrides& overrides = {}) {
  try {
    ParseComparisonPlan(text, overrides);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ComparisonPlanTest, SequentialPairPlansMaxRunsAndRoundTrips) {
  const StudyPlan plan = ParseComparisonPlan(R"(entries = ["baseline", "fast"]
compare = [["fast", "baseline"]]
[sequential]
min_runs = 3
max_runs = 12
alpha = 0.05
question = ["fast", "baseline"]
)");
  ASSERT_TRUE(plan.analysis.sequential);
  EXPECT_EQ(plan.runs, 12);
  EXPECT_EQ(plan.schedule.size(), 24u);
  EXPECT_EQ(plan.analysis.sequential->a, "fast");
  EXPECT_FALSE(plan.analysis.sequential->stability);
  ASSERT_EQ(plan.analysis.compare.size(), 1u);
  const StudyPlan back = PlanFromJson(PlanToJson(plan));
  ASSERT_TRUE(back.analysis.sequential);
  EXPECT_EQ(back.analysis.sequential->max_runs, 12);
  EXPECT_EQ(back.analysis.sequential->b, "baseline");
  EXPECT_EQ(back.analysis.compare, plan.analysis.compare);
  EXPECT_EQ(PlanFingerprint(back), PlanFingerprint(plan));
  // A fixed-N plan of the same entries is another study.
  const StudyPlan fixed = ParseComparisonPlan("entries = [\"baseline\", \"fast\"]\nruns = 12\n");
  EXPECT_FALSE(fixed.analysis.sequential);
  EXPECT_NE(PlanFingerprint(fixed), PlanFingerprint(plan));
  EXPECT_TRUE(PlanToJson(fixed)["sequential"].is_null());
}

TEST(ComparisonPlanTest, StabilityQuestion) {
  const StudyPlan plan = ParseComparisonPlan(
      "entries = [\"baseline\"]\n[sequential]\nmin_runs = 5\nmax_runs = 30\n"
      "question = \"stability\"\n");
  ASSERT_TRUE(plan.analysis.sequential);
  EXPECT_TRUE(plan.analysis.sequential->stability);
  EXPECT_DOUBLE_EQ(plan.analysis.sequential->alpha, 0.05);
  EXPECT_EQ(plan.runs, 30);
}

TEST(ComparisonPlanTest, ErrorsNameTheLineAndKey) {
  const std::string base = "entries = [\"baseline\", \"fast\"]\n";
  EXPECT_NE(ComparisonPlanError(base + "compare = [[\"fast\", \"nosuch\"]]\n")
                .find("s.toml:2: key 'compare[0]': 'nosuch' is not"),
            std::string::npos)
      << ComparisonPlanError(base + "compare = [[\"fast\", \"nosuch\"]]\n");
  EXPECT_NE(ComparisonPlanError(base + "compare = [[\"fast\"]]\n").find("key 'compare[0]': must be a pair"),
            std::string::npos);
  EXPECT_NE(ComparisonPlanError(base + "compare = [[\"fast\", \"fast\"]]\n").find("with itself"), std::string::npos);
  EXPECT_NE(ComparisonPlanError(base + "[sequential]\nmin_runs = 5\nmax_runs = 3\nquestion = \"stability\"\n")
                .find("s.toml:4: key 'sequential.max_runs': must be at least min_runs"),
            std::string::npos);
  EXPECT_NE(
      ComparisonPlanError(base + "[sequential]\nmax_runs = 3\nquestion = \"stability\"\n").find("sequential.min_runs"),
      std::string::npos);
  EXPECT_NE(ComparisonPlanError(base + "[sequential]\nmin_runs = 3\nmax_runs = 5\nquestion = \"speed\"\n")
                .find("key 'sequential.question': must be \"stability\" or a pair"),
            std::string::npos);
  EXPECT_NE(
      ComparisonPlanError(base + "[sequential]\nmin_runs = 3\nmax_runs = 5\nalpha = 0.7\nquestion = \"stability\"\n")
          .find("sequential.alpha"),
      std::string::npos);
  EXPECT_NE(
      ComparisonPlanError(base + "[sequential]\nmin_runs = 3\nmax_runs = 5\nlooks = 2\nquestion = \"stability\"\n")
          .find("looks"),
      std::string::npos);
  EXPECT_NE(
      ComparisonPlanError("runs = 4\n" + base + "[sequential]\nmin_runs = 3\nmax_runs = 5\nquestion = \"stability\"\n")
          .find("s.toml:1: key 'runs': a sequential study plans max_runs"),
      std::string::npos);
  PlanOverrides runs;
  runs.runs = 4;
  EXPECT_NE(ComparisonPlanError(base + "[sequential]\nmin_runs = 3\nmax_runs = 5\nquestion = \"stability\"\n", runs)
                .find("--runs"),
            std::string::npos);
}

}  // namespace
}  // namespace evalsuite::study
