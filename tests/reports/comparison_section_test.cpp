// The report's "Is A faster than B?" section (reports/comparison_section.h): a pair the plan names is compared
// with censoring kept, the verdict and the methods reach JSON, Markdown and HTML, and a sequential study's
// decision is replayed from the runs (the same looks whatever order the runs were recorded in).
#include "reports/comparison_section.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/pair_answer.h"
#include "analysis/sequential_decision.h"
#include "common/error.h"
#include "reports/model_tables.h"
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
  input.settings.compare = {{"fast", "slow"}};
  const ReportModel model_report = BuildStabilityReport(input);
  const nlohmann::json model = ToJson(model_report);
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
    return m["name"].get<std::string>().find("Brunner-Munzel test (decides the verdict)") != std::string::npos;
  }));
  const std::string markdown = RenderMarkdown(model_report), html = RenderHtml(model_report);
  EXPECT_NE(markdown.find("## Is A faster than B?"), std::string::npos);
  EXPECT_NE(markdown.find("fast reaches the target faster than slow"), std::string::npos);
  EXPECT_NE(html.find("Is A faster than B?"), std::string::npos);
}

TEST(ComparisonSectionTest, NoPairsNoSection) {
  EXPECT_FALSE(ToJson(BuildStabilityReport(SyntheticInput())).contains("compare"));
}

TEST(ComparisonSectionTest, UnknownOrUnlikeEntriesAreNamedNotCrashed) {
  StabilityReportInput input = SyntheticInput();
  input.settings.compare = {{"fast", "nosuch"}};
  const ReportModel model_report = BuildStabilityReport(input);
  const nlohmann::json model = ToJson(model_report);
  EXPECT_NE(model["compare"]["pairs"][0]["error"].get<std::string>().find("nosuch"), std::string::npos);
  input.entries[1].threshold = 0.95;
  EXPECT_THROW(analysis::CompareNamedEntries(input.entries, "fast", "slow", 1), evalsuite::Error);
}

analysis::Entry Entry(const std::string& name, const std::vector<double>& ttas) {
  analysis::Entry e;
  e.name = name;
  e.threshold = 0.9;
  for (std::size_t i = 0; i < ttas.size(); ++i) {
    e.runs.push_back(ttas[i] > 0 ? ReachingRun(static_cast<int>(i), ttas[i])
                                 : FailingRun(static_cast<int>(i), -ttas[i]));
  }
  return e;
}

TEST(ComparisonSectionTest, SequentialDecisionUsesLeadingRunsAndIsOrderIndependent) {
  analysis::SequentialSettings q;
  q.min_runs = 3;
  q.max_runs = 8;
  q.a = "fast";
  q.b = "slow";
  // fast: 70-ish; slow: 100-ish, one of slow's runs censored.
  std::vector<analysis::Entry> entries = {Entry("fast", {70, 72, 69, 71, 73, 68, 70, 74}),
                                          Entry("slow", {100, 98, -150, 101, 99, 103, 97, 102})};
  const analysis::SequentialOutcome decided = analysis::DecideSequentialQuestion(q, entries, {});
  ASSERT_TRUE(decided.stop);
  EXPECT_EQ(decided.result, "fast faster");
  EXPECT_LT(decided.runs_per_entry, 8);
  EXPECT_EQ(decided.looks, decided.runs_per_entry - 2);
  // Recorded in another order, with a run of fast's missing in the middle: the looks stop at the gap.
  std::vector<analysis::Entry> shuffled = entries;
  std::reverse(shuffled[0].runs.begin(), shuffled[0].runs.end());
  EXPECT_EQ(analysis::DecideSequentialQuestion(q, shuffled, {}).runs_per_entry, decided.runs_per_entry);
  shuffled[0].runs.erase(shuffled[0].runs.begin() + 5);  // index 2 gone (reversed order)
  const analysis::SequentialOutcome gap = analysis::DecideSequentialQuestion(q, shuffled, {});
  EXPECT_FALSE(gap.stop);
  EXPECT_EQ(gap.looks, 0);
  // The same decision is what the report's section says, with the repeated interval's level.
  StabilityReportInput input;
  input.entries = entries;
  input.plan = {{"sequential", {{"min_runs", 3}, {"max_runs", 8}, {"alpha", 0.05}, {"question", {"fast", "slow"}}}}};
  input.settings = analysis::AnalysisSettingsFromPlanJson(input.plan);
  const nlohmann::json section = CompareSectionJson(*CompareSection(input));
  EXPECT_EQ(section["sequential"]["result"], "fast faster");
  EXPECT_EQ(section["sequential"]["looks"], decided.looks);
  ASSERT_EQ(section["pairs"].size(), 1u);
  EXPECT_TRUE(section["pairs"][0]["sequential"].get<bool>());
  EXPECT_GT(section["pairs"][0]["interval_level"].get<double>(), 0.95);  // wider than a single look's
  EXPECT_NE(section["sequential"]["validity"].get<std::string>().find("valid under this stopping"), std::string::npos);
}

TEST(ComparisonSectionTest, SequentialStabilityStopsWhenEveryEntryIsJudged) {
  analysis::SequentialSettings q;
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
  const analysis::SequentialOutcome both =
      analysis::DecideSequentialQuestion(q, {Entry("steady", steady), Entry("wild", wild)}, {});
  ASSERT_TRUE(both.stop);
  EXPECT_EQ(both.result, "every entry judged");
  EXPECT_LT(both.runs_per_entry, 30);
  EXPECT_NE(both.reason.find("stopped early"), std::string::npos) << both.reason;
}

StabilityReportInput SequentialPairInput(const std::vector<analysis::Entry>& entries) {
  StabilityReportInput input;
  input.entries = entries;
  input.plan = {{"sequential", {{"min_runs", 3}, {"max_runs", 8}, {"alpha", 0.05}, {"question", {"fast", "slow"}}}},
                {"compare", nlohmann::json::array({nlohmann::json::array({"fast", "slow"})})}};
  input.settings = analysis::AnalysisSettingsFromPlanJson(input.plan);
  return input;
}

// Issue 34 item 6: with 2 jobs, runs that finished after the stopping look were stored, and the report's pair row
// and `compare` tested all of them against the stopping look's boundary (the study said "A faster", compare "no
// difference shown"); `compare B A` ignored the sequential design. Now the answer is the look's, in either order,
// and the later runs are counted apart.
TEST(ComparisonSectionTest, SequentialPairAnswerIsTheLooksInEitherOrder) {
  // The first runs separate the entries; 8 more runs each, recorded after the look, are identical.
  std::vector<double> fast = {70, 72, 69, 71, 73, 68, 70, 74}, slow = {100, 98, -150, 101, 99, 103, 97, 102};
  std::vector<analysis::Entry> entries = {Entry("fast", fast), Entry("slow", slow)};
  analysis::SequentialSettings q;
  q.min_runs = 3;
  q.max_runs = 8;
  q.a = "fast";
  q.b = "slow";
  const analysis::SequentialOutcome decided = analysis::DecideSequentialQuestion(q, entries, {});
  ASSERT_TRUE(decided.stop);
  ASSERT_EQ(decided.result, "fast faster");
  const int n = decided.runs_per_entry;
  // Runs after the look: fast's later runs are slower than slow's, so on every run the test would not hold.
  for (analysis::Entry& e : entries) e.runs.resize(static_cast<std::size_t>(n));
  for (int i = n; i < n + 8; ++i) {
    entries[0].runs.push_back(ReachingRun(i, 130 + i));
    entries[1].runs.push_back(ReachingRun(i, 100 + i));
  }
  const StabilityReportInput input = SequentialPairInput(entries);
  // What the old code answered: every stored run tested against the look's boundary.
  stats::ComparisonOptions old_way;
  old_way.critical_z = decided.critical_z;
  EXPECT_NE(analysis::CompareNamedEntries(entries, "fast", "slow", 1, old_way).result, "A faster");
  const analysis::PairAnswer forward = analysis::AnswerPair(input.entries, input.settings, "fast", "slow");
  ASSERT_TRUE(forward.sequential);
  EXPECT_EQ(forward.comparison.result, "A faster") << forward.comparison.verdict;
  EXPECT_EQ(forward.comparison.runs_a, static_cast<std::size_t>(n));
  EXPECT_EQ(forward.after_look_a, 8u);
  EXPECT_EQ(forward.after_look_b, 8u);
  EXPECT_NE(forward.comparison.verdict.find("sequential study, look"), std::string::npos) << forward.comparison.verdict;
  const analysis::PairAnswer backward = analysis::AnswerPair(input.entries, input.settings, "slow", "fast");
  ASSERT_TRUE(backward.sequential);
  EXPECT_EQ(backward.comparison.result, "B faster") << backward.comparison.verdict;
  EXPECT_NEAR(backward.comparison.log_rank.permutation_z, -forward.comparison.log_rank.permutation_z, 1e-12);
  EXPECT_DOUBLE_EQ(backward.comparison.critical_z, forward.comparison.critical_z);
  // The report's pair row is the same answer, with the later runs named apart.
  const CompareModel compare = *CompareSection(input);
  const nlohmann::json section = CompareSectionJson(compare);
  ASSERT_EQ(section["pairs"].size(), 1u);
  EXPECT_EQ(section["pairs"][0]["result"], "fast faster");
  EXPECT_EQ(section["pairs"][0]["runs_after_look"]["a"], 8);
  const ReportTable table = CompareTable(compare);
  EXPECT_NE(table.rows[0][3].find("Runs recorded after the deciding look, not part of the decision: 8 fast, 8 slow"),
            std::string::npos)
      << table.rows[0][3];
}

// Issue 34, bad input: a sequential study whose entry never runs said "goes on: the first look comes at 3 runs per
// entry" after all its blocks.
TEST(ComparisonSectionTest, AnEntryThatNeverRunsSaysWhyNoLookCanBeTaken) {
  std::vector<analysis::Entry> entries = {Entry("fast", {70, 72, 69, 71}), Entry("slow", {})};
  for (int i = 0; i < 4; ++i) {
    analysis::Run run = FailingRun(i, 0, analysis::RunStatus::kDidNotRun);
    run.points.clear();
    run.error = "did not run: exec failed: No such file or directory";
    entries[1].runs.push_back(run);
  }
  analysis::SequentialSettings q;
  q.min_runs = 3;
  q.max_runs = 4;
  q.a = "fast";
  q.b = "slow";
  const analysis::SequentialOutcome outcome = analysis::DecideSequentialQuestion(q, entries, {});
  EXPECT_FALSE(outcome.stop);
  EXPECT_EQ(outcome.reason.find("goes on"), std::string::npos) << outcome.reason;
  EXPECT_NE(outcome.reason.find("cannot look"), std::string::npos) << outcome.reason;
  EXPECT_NE(outcome.reason.find("slow's run 0 does not count (it did not run"), std::string::npos) << outcome.reason;
  q.stability = true;
  EXPECT_NE(analysis::DecideSequentialQuestion(q, entries, {}).reason.find("cannot look"), std::string::npos);
}

// Issue 34 item 4: the report printed 71% [55%, 86%] and `compare` 0.710 [0.527, 0.870] for one pair. One function
// computes it (stats::ProbabilityOfImprovement), one formats it, and the report's two tables agree.
TEST(ComparisonSectionTest, ProbabilityAFasterIsOneFigureInEveryTable) {
  StabilityReportInput input = SyntheticInput();
  input.settings.compare = {{"fast", "slow"}};
  const ReportModel model_report = BuildStabilityReport(input);
  const std::string pair_text = ProbabilityAFasterText(model_report.compare->pairs[0].comparison.probability_a_faster);
  const ReportTable compare = CompareTable(*model_report.compare),
                    comparisons = ComparisonsTable(model_report.comparisons);
  EXPECT_EQ(compare.rows[0].back(), pair_text);
  const auto row = std::find_if(comparisons.rows.begin(), comparisons.rows.end(),
                                [](const auto& r) { return r[0] == "fast" && r[1] == "slow"; });
  ASSERT_NE(row, comparisons.rows.end());
  EXPECT_EQ(row->back(), pair_text);
  EXPECT_NE(pair_text.find("% ["), std::string::npos) << pair_text;
}

// Issue 34 item 7: the text printed [0, inf] where the JSON had lower: null. A non-finite bound is "inf" in both.
TEST(ComparisonSectionTest, NonFiniteBoundsReadTheSameInJsonAndText) {
  // fast: 2 of 6 reach, so its median is never reached and every resample's ratio is infinite.
  std::vector<analysis::Entry> entries = {Entry("fast", {10, 11, -30, -30, -30, -30}),
                                          Entry("slow", {10, 12, 13, 14, 15, 16})};
  const stats::EntryComparison c = analysis::CompareNamedEntries(entries, "fast", "slow", 1);
  const nlohmann::json json = EntryComparisonJson(c);
  ASSERT_TRUE(json["tta_ratio"]["interval"].is_object()) << json["tta_ratio"].dump();
  EXPECT_EQ(json["tta_ratio"]["interval"]["upper"], "inf");
  const std::string text = ComparisonIntervalText(c.tta_ratio.interval, c.tta_ratio.withheld);
  EXPECT_EQ(text.substr(text.size() - 6), ", inf]") << text;
  EXPECT_NE(c.verdict.find(text.substr(text.find(','))), std::string::npos) << c.verdict << " vs " << text;
}

// Issue 36 item 10: --horizon 1e6 on censored runs extrapolated the restricted mean far past the data.
TEST(ComparisonSectionTest, AHorizonPastTheRunsIsRefusedNamingTheLastObservedTime) {
  std::vector<analysis::Entry> entries = {Entry("fast", {70, 72, -150, 71, 73}),
                                          Entry("slow", {100, 98, 101, 99, 103})};
  stats::ComparisonOptions options;
  options.horizon = 1e6;
  try {
    analysis::CompareNamedEntries(entries, "fast", "slow", 1, options);
    FAIL() << "a horizon past the data was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    const std::string what = e.what();
    EXPECT_NE(what.find("--horizon"), std::string::npos) << what;
    EXPECT_NE(what.find("last observed time is 150"), std::string::npos) << what;
  }
  options.horizon = 120;
  EXPECT_NO_THROW(analysis::CompareNamedEntries(entries, "fast", "slow", 1, options));
  // slow's runs all reached by 103: its curve is 0 from there, so any horizon is exact for it.
  std::vector<analysis::Entry> reached = {Entry("fast", {70, 72, 71, 73}), Entry("slow", {100, 98, 101, 99})};
  options.horizon = 1e6;
  EXPECT_NO_THROW(analysis::CompareNamedEntries(reached, "fast", "slow", 1, options));
}

// Issue 34 item 8: a sequential stability study decided "still inconclusive at look 4 (intervals at level
// 99.17%)" while its table and cards said STABLE from the unadjusted 95% interval on all runs. 6 runs of TTA
// 1000 +- 40: STABLE at 95%, INCONCLUSIVE at the last look's 99.17%.
TEST(ComparisonSectionTest, SequentialStabilityCardsGiveTheDecisionAtItsLevel) {
  analysis::Entry e;
  e.name = "steady";
  e.threshold = 0.9;
  const double spread[6] = {-1, 1, -0.5, 0.5, -0.8, 0.8};
  for (int i = 0; i < 6; ++i) e.runs.push_back(ReachingRun(i, 1000 + 40 * spread[i]));
  StabilityReportInput input;
  input.entries = {e};
  const ReportModel fixed_report = BuildStabilityReport(input);
  const nlohmann::json fixed = ToJson(fixed_report);
  ASSERT_EQ(fixed["verdicts"][0]["result"], "STABLE");  // a fixed-N study of the same runs
  input.plan = {{"sequential", {{"min_runs", 3}, {"max_runs", 6}, {"alpha", 0.05}, {"question", "stability"}}}};
  input.settings = analysis::AnalysisSettingsFromPlanJson(input.plan);
  const ReportModel model_report = BuildStabilityReport(input);
  const nlohmann::json model = ToJson(model_report);
  EXPECT_NE(model["compare"]["sequential"]["reason"].get<std::string>().find("99.17%"), std::string::npos);
  EXPECT_EQ(model["compare"]["sequential"]["verdicts"]["steady"], "INCONCLUSIVE");
  const nlohmann::json& card = model["verdicts"][0];
  EXPECT_EQ(card["result"], "INCONCLUSIVE") << card.dump(1);
  const std::string first_reason = card["reasons"][0].get<std::string>();
  EXPECT_NE(first_reason.find("judged at look 4 on its first 6 runs with intervals at level 99.17%"), std::string::npos)
      << first_reason;
  EXPECT_NE(first_reason.find("would read STABLE, which is not the study's answer"), std::string::npos) << first_reason;
}

}  // namespace
}  // namespace evalsuite::reports
