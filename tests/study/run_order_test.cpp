// Run order: shuffled blocks, one run of each entry per block, the same for the same study seed, and a block's
// order independent of the blocks before it (what a sequential study asks for block by block).
#include "study/plans/run_order.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "study/plans/study_plan.h"
#include "study/plans/study_plan_loader.h"

namespace evalsuite::study {
namespace {

TEST(RunOrderTest, EveryBlockHoldsOneRunOfEachEntryShuffledPerBlock) {
  std::vector<std::string> entries = {"a", "b", "c", "d", "e"};
  std::vector<RunKey> order = InterleavedRunOrder(11, entries, 6);
  ASSERT_EQ(order.size(), 30u);
  std::set<std::vector<std::string>> distinct_blocks;
  for (int block = 0; block < 6; ++block) {
    std::vector<std::string> names;
    for (int k = 0; k < 5; ++k) {
      EXPECT_EQ(order[block * 5 + k].index, block);
      names.push_back(order[block * 5 + k].entry);
    }
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), 5u);
    EXPECT_EQ(names, BlockOrder(11, entries, block)) << "block " << block;
    distinct_blocks.insert(names);
  }
  EXPECT_GT(distinct_blocks.size(), 1u);  // not the same order every block
  std::vector<RunKey> again = InterleavedRunOrder(11, entries, 6);
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(again[i].entry, order[i].entry);
  // Another study seed orders differently somewhere.
  std::vector<RunKey> other = InterleavedRunOrder(12, entries, 6);
  int differ = 0;
  for (std::size_t i = 0; i < order.size(); ++i) differ += other[i].entry != order[i].entry;
  EXPECT_GT(differ, 0);
}

TEST(RunOrderTest, EachEntryStartsFirstAboutEquallyOften) {
  // Over many blocks no entry is favoured: drift falls on all alike. 3 entries x 3000 blocks: each first in about
  // a third (binomial sd ~26 blocks; 150 is ~6 sd).
  std::vector<std::string> entries = {"fast", "baseline", "cyclic-lr"};
  std::map<std::string, int> first;
  for (int block = 0; block < 3000; ++block) ++first[BlockOrder(7, entries, block).front()];
  for (const auto& name : entries) EXPECT_NEAR(first[name], 1000, 150) << name;
}

TEST(RunOrderTest, ThePlanRecordsTheOrderItRuns) {
  StudyPlan plan =
      ParseStudyPlan("entries = [\"baseline\", \"fast\", \"cyclic-lr\"]\nruns = 4\nseed = 3\n", "s.toml", {}, 2);
  std::vector<RunKey> expected = InterleavedRunOrder(3, {"baseline", "fast", "cyclic-lr"}, 4);
  ASSERT_EQ(plan.schedule.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(plan.schedule[i].entry, expected[i].entry);
    EXPECT_EQ(plan.schedule[i].index, expected[i].index);
  }
  const nlohmann::json stored = PlanToJson(plan);
  ASSERT_EQ(stored["schedule"].size(), expected.size());
  EXPECT_EQ(stored["schedule"][0]["entry"], expected[0].entry);
}

}  // namespace
}  // namespace evalsuite::study
