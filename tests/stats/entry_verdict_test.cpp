// The one decision of which basis an entry's verdict is judged on (stats/entry_verdict.h): TTA by default, epochs to
// target when the rule says so and every counted run logged epochs, TTA again (flagged) when one did not.
#include "stats/entry_verdict.h"

#include <gtest/gtest.h>

#include <vector>

namespace evalsuite::stats {
namespace {

// Runs that reach 0.9 at the given points of their own axis (seconds or epochs), evaluated once per unit.
std::vector<RunCurve> Reaching(const std::vector<double>& at) {
  std::vector<RunCurve> runs;
  for (double x : at) {
    RunCurve run;
    for (double t = 1; t < x; ++t) run.points.push_back({t, 0.5});
    run.points.push_back({x, 0.91});
    run.time_spent = x;
    runs.push_back(run);
  }
  return runs;
}

// TTA spread widely (CoV ~26%: NOT STABLE), epochs to target close together (CoV ~4%: STABLE).
EntryStatistics Statistics(bool with_epochs) {
  EntryStatistics s;
  s.at_target = AnalyzeStability(Reaching({190, 320, 462, 240, 361, 294, 420, 220, 323, 420}), 0.9);
  if (with_epochs) s.in_epochs = AnalyzeStability(Reaching({19, 20, 21, 20, 19, 21, 20, 20, 19, 21}), 0.9);
  return s;
}

TEST(EntryVerdictTest, TimeIsTheDefaultBasis) {
  const EntryStatistics s = Statistics(true);
  const EntryVerdict v = JudgeEntryStability(s, StabilityRule{});
  EXPECT_EQ(v.basis, kBasisTime);
  EXPECT_FALSE(v.epochs_unavailable);
  EXPECT_EQ(v.judged, &s.at_target);
  EXPECT_EQ(v.verdict.result, "NOT STABLE");
  EXPECT_EQ(v.result_on_epochs, "STABLE");
  EXPECT_STREQ(JudgedOnName(v.basis), "TTA");
}

TEST(EntryVerdictTest, EpochsBasisJudgesEpochsToTarget) {
  const EntryStatistics s = Statistics(true);
  StabilityRule rule;
  rule.basis = kBasisEpochs;
  const EntryVerdict v = JudgeEntryStability(s, rule);
  EXPECT_EQ(v.basis, kBasisEpochs);
  EXPECT_FALSE(v.epochs_unavailable);
  EXPECT_EQ(v.judged, &*s.in_epochs);
  EXPECT_EQ(v.verdict.result, "STABLE");
  EXPECT_EQ(v.result_on_epochs, "STABLE");
  EXPECT_STREQ(JudgedOnName(v.basis), "epochs to target");
}

TEST(EntryVerdictTest, EpochsBasisWithoutEpochsJudgesTimeAndFlagsIt) {
  const EntryStatistics s = Statistics(false);
  StabilityRule rule;
  rule.basis = kBasisEpochs;
  const EntryVerdict v = JudgeEntryStability(s, rule);
  EXPECT_EQ(v.basis, kBasisTime);
  EXPECT_TRUE(v.epochs_unavailable);
  EXPECT_EQ(v.judged, &s.at_target);
  EXPECT_EQ(v.verdict.result, "NOT STABLE");
  EXPECT_TRUE(v.result_on_epochs.empty());
}

}  // namespace
}  // namespace evalsuite::stats
