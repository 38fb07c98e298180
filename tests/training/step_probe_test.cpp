// The step probe times the steps a run takes: one row per form of a bf16 entry, at the form's batch size and the
// threads asked, with positive median times of at least the steps asked (no assertion on how fast: the decision's
// logic is tested with injected timings in tests/study/precision_choice_test.cpp); none for an fp32 recipe.
#include "training/step_probe.h"

#include <gtest/gtest.h>

#include "entries/builtin_entries.h"

namespace evalsuite::training {
namespace {

StepProbeOptions Short() {
  StepProbeOptions o;
  o.threads = 1;
  o.warmup_steps = 1;
  o.min_steps = 2;
  o.max_steps = 2;
  o.min_seconds = 0;
  return o;
}

TEST(StepProbe, TimesBothFormsOfABf16EntryAtTheirBatchSizes) {
  const entries::BuiltinEntry& fast = entries::BuiltinEntryOrThrow("fast");
  ASSERT_TRUE(fast.fp32_form);
  const nlohmann::json rows = TimeEntrySteps(fast, Short());
  ASSERT_EQ(rows.size(), 2u) << rows.dump();
  EXPECT_EQ(rows[0]["precision"], "bf16");
  EXPECT_EQ(rows[0]["form"], "as written");
  EXPECT_EQ(rows[0]["batch_size"], fast.recipe.batch_size);
  EXPECT_EQ(rows[1]["precision"], "fp32");
  EXPECT_EQ(rows[1]["form"], "fp32 form");
  EXPECT_EQ(rows[1]["batch_size"], fast.fp32_form->batch_size);
  for (const nlohmann::json& row : rows) {
    EXPECT_EQ(row["entry"], "fast");
    EXPECT_EQ(row["threads"], 1);
    EXPECT_EQ(row["steps_timed"], 2);
    ASSERT_EQ(row["step_seconds"].size(), 2u);
    EXPECT_GT(row["seconds_per_step"].get<double>(), 0);
    // One thread: its CPU time is the step's cost whatever else the machine runs.
    EXPECT_EQ(row["timed_by"], "process CPU time");
    EXPECT_EQ(row["seconds_per_step"], row["cpu_seconds_per_step"]);
    EXPECT_GT(row["wall_seconds_per_step"].get<double>(), 0);
  }
}

TEST(StepProbe, AnEntryWithoutAnFp32FormIsTimedAsWrittenInBothPrecisionsAndFp32RecipesNotAtAll) {
  const nlohmann::json rows = TimeEntrySteps(entries::BuiltinEntryOrThrow("bf16"), Short());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1]["form"], "as written");
  EXPECT_EQ(rows[1]["precision"], "fp32");
  EXPECT_EQ(rows[0]["batch_size"], rows[1]["batch_size"]);
  EXPECT_TRUE(TimeEntrySteps(entries::BuiltinEntryOrThrow("baseline"), Short()).empty());
}

}  // namespace
}  // namespace evalsuite::training
