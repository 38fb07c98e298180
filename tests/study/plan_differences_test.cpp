// Issue 30 item 9: a changed threshold or epochs under the same study name is named key by key, old -> new, not
// as "differs in: entries".
#include <gtest/gtest.h>

#include "study/plans/study_plan.h"
#include "study/plans/study_plan_loader.h"

namespace evalsuite::study {
namespace {

StudyPlan Plan(const std::string& extra) {
  return ParseStudyPlan(
      "name = \"q\"\nruns = 3\nentries = [{ name = \"e\", command = \"true {log}\", threshold = "
      "0.85, epochs = 3 }]\n" +
          extra,
      "/tmp/q.toml", {}, 2);
}

TEST(PlanDifferencesTest, NamesEachChangedKeyOldToNew) {
  StudyPlan old_plan = Plan("");
  StudyPlan new_plan = Plan("");
  new_plan.entries[0].threshold = 0.9;
  new_plan.entries[0].epochs = 5;
  EXPECT_EQ(DescribePlanDifferences(PlanFingerprint(old_plan), PlanFingerprint(new_plan)),
            "entries[e].epochs 3 -> 5, entries[e].threshold 0.85 -> 0.9");
}

TEST(PlanDifferencesTest, RunsChangeShowsRunsNotTheDerivedSchedule) {
  const std::string text = DescribePlanDifferences(PlanFingerprint(Plan("")), PlanFingerprint(Plan("seed = 9\n")));
  EXPECT_EQ(text, "seed 1 -> 9");
}

TEST(PlanDifferencesTest, LongCommandsThatPartNearTheirEndShowWhereTheyPart) {
  StudyPlan old_plan = Plan("");
  StudyPlan new_plan = Plan("");
  old_plan.entries[0].command = "/usr/bin/python3 /home/someone/projects/train.py --seed {seed} --log {log} --lr 0.1";
  new_plan.entries[0].command = "/usr/bin/python3 /home/someone/projects/train.py --seed {seed} --log {log} --lr 0.4";
  const std::string text = DescribePlanDifferences(PlanFingerprint(old_plan), PlanFingerprint(new_plan));
  // Before: both cut to the same 57-character prefix, so the message showed no difference at all.
  EXPECT_NE(text.find("--lr 0.1\" -> \""), std::string::npos) << text;
  EXPECT_NE(text.find("--lr 0.4\""), std::string::npos) << text;
}

}  // namespace
}  // namespace evalsuite::study
