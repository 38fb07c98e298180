// The report's "Is A faster than B?" section (reports/comparison_section.h): a pair the plan names is compared
// with censoring kept, the verdict and the methods reach JSON, Markdown and HTML, and a sequential study's
// decision is replayed from the runs (the same looks whatever order the runs were recorded in).
#include "reports/comparison_section.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "evalsuite/common/error.h"
#include "reports/report.h"
#include "tests/reports/report_fixture.h"

namespace evalsuite::reports {
namespace {

using testing::FailingRun;
using testing::ReachingRun;
using testing::SyntheticInput;

TEST(ComparisonSectionTest, PlanPairGivesAVerdictWithCensoringAndMethods) {
  StabilityReportInput input = SyntheticInput();
  // With the fixture's 5 counted runs of fast (one censored at 150 s) the permutation log-rank z is 1.95: three
  // more runs make the difference show.
  for (double tta : {102.0, 108.0, 115.0}) {
    input.entries[0].runs.push_back(ReachingRun(static_cast<int>(input.entries[0].runs.size()), tta));
  }
  input.plan["compare"] = nlohmann::json::array({nlohmann::json::array({"fast", "slow"})});
  const nlohmann::json model = BuildStabilityReport(input);
  ASSERT_TRUE(model["compare"].is_object());
  ASSERT_EQ(model["compare"]["pairs"].size(), 1u);
  const nlohmann::json& c = model["compare"]["pairs"][0];
  EXPECT_EQ(c["result"], "fast faster") << c.dump(1);
  EXPECT_EQ(c["runs_a"], 8);  // the incomplete run is not counted; the one that stopped at 0.88 is, censored
  EXPECT_EQ(c["reached_a"], 7);
  EXPECT_LT(c["tta_ratio"]["ratio"].get<double>(), 0.6);
  EXPECT_EQ(c["verdict"].get<std::string>().rfind("fast reaches the target faster than slow", 0), 0u) << c["verdict"];
  EXPECT_TRUE(model["compare"]["sequential"].is_null());
  const auto& methods = model["methods"];
  EXPECT_TRUE(std::any_of(methods.begin(), methods.end(), [](const nlohmann::json& m) {
    return m["name"].get<std::string>().find("log-rank") != std::string::npos;
  }));
  const std::string markdown = RenderMarkdown(model), html = RenderHtml(model);
  EXPECT_NE(markdown.find("## Is A faster than B?"), std::string::npos);
  EXPECT_NE(markdown.find("fast reaches the target faster than slow"), std::string::npos);
  EXPECT_NE(html.find("Is A faster than B?"), std::string::npos);
}

TEST(ComparisonSectionTest, NoPairsNoSection) {
  EXPECT_FALSE(BuildStabilityReport(SyntheticInput()).contains("compare"));
}

TEST(ComparisonSectionTest, UnknownOrUnlikeEntriesAreNamedNotCrashed) {
  StabilityReportInput input = SyntheticInput();
  input.plan["compare"] = nlohmann::json::array({nlohmann::json::array({"fast", "nosuch"})});
  const nlohmann::json model = BuildStabilityReport(input);
  EXPECT_NE(model["compare"]["pairs"][0]["error"].get<std::string>().find("nosuch"), std::string::npos);
  input.entries[1].threshold = 0.95;
  EXPECT_THROW(CompareNamedEntries(input.entries, "fast", "slow", 1), evalsuite::Error);
}

EntryInput Entry(const std::string& name, const std::vector<double>& ttas) {
  EntryInput e;
  e.name = name;
  e.threshold = 0.9;
  for (std::size_t i = 0; i < ttas.size(); ++i) {
    e.runs.push_back(ttas[i] > 0 ? ReachingRun(static_cast<int>(i), ttas[i])
                                 : FailingRun(static_cast<int>(i), -ttas[i]));
  }
  return e;
}

TEST(ComparisonSectionTest, SequentialDecisionUsesLeadingRunsAndIsOrderIndependent) {
  SequentialQuestion q;
  q.min_runs = 3;
  q.max_runs = 8;
  q.a = "fast";
  q.b = "slow";
  // fast: 70-ish; slow: 100-ish, one of slow's runs censored.
  std::vector<EntryInput> entries = {Entry("fast", {70, 72, 69, 71, 73, 68, 70, 74}),
                                     Entry("slow", {100, 98, -150, 101, 99, 103, 97, 102})};
  const SequentialOutcome decided = DecideSequentialQuestion(q, entries, {});
  ASSERT_TRUE(decided.stop);
  EXPECT_EQ(decided.result, "fast faster");
  EXPECT_LT(decided.runs_per_entry, 8);
  EXPECT_EQ(decided.looks, decided.runs_per_entry - 2);
  // Recorded in another order, with a run of fast's missing in the middle: the looks stop at the gap.
  std::vector<EntryInput> shuffled = entries;
  std::reverse(shuffled[0].runs.begin(), shuffled[0].runs.end());
  EXPECT_EQ(DecideSequentialQuestion(q, shuffled, {}).runs_per_entry, decided.runs_per_entry);
  shuffled[0].runs.erase(shuffled[0].runs.begin() + 5);  // index 2 gone (reversed order)
  const SequentialOutcome gap = DecideSequentialQuestion(q, shuffled, {});
  EXPECT_FALSE(gap.stop);
  EXPECT_EQ(gap.looks, 0);
  // The same decision is what the report's section says, with the repeated interval's level.
  StabilityReportInput input;
  input.entries = entries;
  input.plan = {{"sequential", {{"min_runs", 3}, {"max_runs", 8}, {"alpha", 0.05}, {"question", {"fast", "slow"}}}}};
  const nlohmann::json section = CompareSectionJson(input);
  EXPECT_EQ(section["sequential"]["result"], "fast faster");
  EXPECT_EQ(section["sequential"]["looks"], decided.looks);
  ASSERT_EQ(section["pairs"].size(), 1u);
  EXPECT_TRUE(section["pairs"][0]["sequential"].get<bool>());
  EXPECT_GT(section["pairs"][0]["interval_level"].get<double>(), 0.95);  // wider than a single look's
  EXPECT_NE(section["sequential"]["validity"].get<std::string>().find("valid under this stopping"), std::string::npos);
}

TEST(ComparisonSectionTest, SequentialStabilityStopsWhenEveryEntryIsJudged) {
  SequentialQuestion q;
  q.min_runs = 3;
  q.max_runs = 30;
  q.stability = true;
  std::vector<double> steady, wild;
  for (int i = 0; i < 30; ++i) {
    // Spread wider than the fixture's 5-s evaluation grid where they cross, or the grid, not the runs, would make
    // the interval (stability.h: such a verdict can't tell).
    steady.push_back(100 + 4 * (i % 3));
    wild.push_back(i % 2 ? 60 : 160);
  }
  const SequentialOutcome both = DecideSequentialQuestion(q, {Entry("steady", steady), Entry("wild", wild)}, {});
  ASSERT_TRUE(both.stop);
  EXPECT_EQ(both.result, "every entry judged");
  EXPECT_LT(both.runs_per_entry, 30);
  EXPECT_NE(both.reason.find("stopped early"), std::string::npos) << both.reason;
}

}  // namespace
}  // namespace evalsuite::reports
