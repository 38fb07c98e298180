// A sequential stability study asks at each look whether every entry's verdict is settled; under
// `[stability] basis = "epochs"` that is the verdict on epochs to target, the one the report gives
// (stats/entry_verdict.h), not the verdict on TTA.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/pair_answer.h"
#include "analysis/sequential_decision.h"
#include "reports/comparison_section.h"
#include "stats/stability.h"
#include "tests/support/epoch_run_fixtures.h"

namespace evalsuite::reports {
namespace {

// Epochs to target 19, 20, 21 (CoV 4.2%, spread twice the 1-epoch grid) and time per epoch 9 or 11 s: the CoV of TTA
// (11%) sits on the 10% limit, so judged on TTA no look settles it; judged on epochs one does early.
analysis::Entry SteadyEpochsEntry() {
  analysis::Entry entry;
  entry.name = "e";
  entry.threshold = 0.9;
  const int epochs[] = {19, 20, 21};
  const double per_epoch[] = {9, 11};
  for (int i = 0; i < 30; ++i)
    entry.runs.push_back(evalsuite::testing::EpochRunInput(i, epochs[i % 3], per_epoch[i % 2]));
  return entry;
}

TEST(SequentialStabilityBasisTest, LooksJudgeTheBasisTheRuleNames) {
  analysis::SequentialSettings q;
  q.min_runs = 3;
  q.max_runs = 30;
  q.stability = true;
  stats::StabilityRule on_time;
  stats::StabilityRule on_epochs;
  on_epochs.basis = stats::kBasisEpochs;
  const analysis::SequentialOutcome time = analysis::DecideSequentialQuestion(q, {SteadyEpochsEntry()}, on_time);
  const analysis::SequentialOutcome epochs = analysis::DecideSequentialQuestion(q, {SteadyEpochsEntry()}, on_epochs);
  ASSERT_TRUE(time.stop);
  EXPECT_EQ(time.result, "max_runs reached") << time.reason;
  ASSERT_TRUE(epochs.stop);
  EXPECT_EQ(epochs.result, "every entry judged") << epochs.reason;
  EXPECT_LT(epochs.runs_per_entry, 30) << epochs.reason;
}

}  // namespace
}  // namespace evalsuite::reports
