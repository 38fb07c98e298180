// study show's table (issue 13 point 4): the median TTA counts every run, Kaplan-Meier's when some missed.
#include "study/study_summary.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "store/run_store.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

using evalsuite::testing::TempDir;

store::RunRecord MakeRun(int index, double time, double metric) {
  store::RunRecord run;
  run.entry = "e";
  run.run_index = index;
  run.threads = 1;
  run.log.status = metric >= 0.9 ? analysis::EndedAs::kReached : analysis::EndedAs::kNotReached;
  run.log.points.push_back({1, time / 2, time / 2, 0.5, std::nullopt});
  run.log.points.push_back({2, time, time, metric, std::nullopt});
  run.log.train_seconds = time;
  run.log.wall_seconds = time;
  return run;
}

std::string Summary(const std::vector<store::RunRecord>& runs) {
  TempDir dir;
  auto store = store::RunStore::Open(dir / "s.db");
  const int64_t id = store->CreateStudy("s", "import", {}, {});
  store::EntryRecord entry;
  entry.name = "e";
  entry.threshold = 0.9;
  store->UpsertEntry(id, entry);
  for (const store::RunRecord& run : runs) store->InsertRun(id, run);
  return FormatStudySummary(*store, *store->FindStudy("s"));
}

TEST(StudySummaryTest, MedianTtaCountsTheRunsThatMissed) {
  // 1 of 5 reached (at 30 s): the median of the runs that reached would say 30.0 s; fewer than half reached.
  std::string text = Summary(
      {MakeRun(0, 30, 0.91), MakeRun(1, 50, 0.85), MakeRun(2, 50, 0.85), MakeRun(3, 50, 0.85), MakeRun(4, 50, 0.85)});
  EXPECT_NE(text.find("not reached"), std::string::npos) << text;
  EXPECT_EQ(text.find("30.00 s"), std::string::npos) << text;
  // 3 of 5 reached at 10, 20, 30 s, two stopped at 40 s: Kaplan-Meier's median is 30 (statsmodels:
  // SurvfuncRight([10, 20, 30, 40, 40], [1, 1, 1, 0, 0]).quantile(0.5) = 30.0), not the 20 of the three.
  text = Summary(
      {MakeRun(0, 10, 0.91), MakeRun(1, 20, 0.91), MakeRun(2, 30, 0.91), MakeRun(3, 40, 0.85), MakeRun(4, 40, 0.85)});
  EXPECT_NE(text.find("30.00 s (KM)"), std::string::npos) << text;
}

// Point 2: an imported run without its end counts as a run that did not reach, as in the report and the importer.
TEST(StudySummaryTest, ImportedInterruptedRunCountsAsNotReached) {
  store::RunRecord interrupted = MakeRun(4, 20, 0.85);
  interrupted.log.status = analysis::EndedAs::kNoEnd;
  const std::string text =
      Summary({MakeRun(0, 30, 0.91), MakeRun(1, 31, 0.91), MakeRun(2, 32, 0.91), MakeRun(3, 33, 0.91), interrupted});
  EXPECT_NE(text.find("e      0.9        5     4        0       0            0"), std::string::npos) << text;
}

// Issue 35 (Also): study show on an import shows the official score, the RCP verdict and the division, and a
// lower-is-better target as written (eval_loss <= 0.925, not -0.925; stable diffusion's FID and CLIP, not 1).
TEST(StudySummaryTest, ImportShowsOfficialScoreRcpDivisionAndTargetsAsWritten) {
  TempDir dir;
  auto store = store::RunStore::Open(dir / "s.db");
  const int64_t id = store->CreateStudy("i", "import", {}, {});
  store::EntryRecord lora;
  lora.name = "sys/llama2_70b_lora";
  lora.source = "mlperf";
  lora.metric = "-eval_loss";
  lora.threshold = -0.925;
  lora.extra = {{"threshold_shown", "eval_loss <= 0.925"},
                {"division", "closed"},
                {"ruleset", "5.0.0"},
                {"official", {{"official_minutes", 11.5}}},
                {"rcp", {{"verdict", "Pass"}, {"message", "RCP found"}}}};
  store->UpsertEntry(id, lora);
  store::EntryRecord sd;
  sd.name = "sys/stable_diffusion";
  sd.source = "mlperf";
  sd.threshold = 1;
  sd.extra = {{"threshold_shown", "FID <= 90 and CLIP >= 0.15"},
              {"division", "closed"},
              {"ruleset", "5.0.0"},
              {"official", {{"official_minutes", nullptr}, {"note", "--threshold asks for x"}}},
              {"rcp", {{"verdict", "not checked"}, {"message", "the RCPs are for the rules' target"}}}};
  store->UpsertEntry(id, sd);
  for (int i = 0; i < 3; ++i) {
    store::RunRecord run = MakeRun(i, 30 + i, 0.95);
    run.entry = lora.name;
    for (auto& p : run.log.points) p.metric = -p.metric;
    store->InsertRun(id, run);
  }
  const std::string text = FormatStudySummary(*store, *store->FindStudy("i"));
  EXPECT_NE(text.find("eval_loss <= 0.925"), std::string::npos) << text;
  EXPECT_EQ(text.find("-0.925"), std::string::npos) << text;
  EXPECT_NE(text.find("FID <= 90 and CLIP >= 0.15"), std::string::npos) << text;
  EXPECT_NE(text.find("sys/llama2_70b_lora: division closed, ruleset 5.0.0; official score 11.5 min; RCP Pass (RCP "
                      "found)"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("sys/stable_diffusion: division closed, ruleset 5.0.0; no official score (--threshold asks for x); "
                "RCP not checked"),
      std::string::npos)
      << text;
}

// A framework log without a clock (Lightning's CSV logger: steps) said "judged on TTA" with a CoV of "time per epoch"
// of 137% (steps per epoch) and its lower-is-better target as the stored -0.5.
TEST(StudySummaryTest, ALogWithoutAClockSaysItsUnitAndHasNoTimePerEpoch) {
  TempDir dir;
  auto store = store::RunStore::Open(dir / "s.db");
  const int64_t id = store->CreateStudy("s", "import", {}, {});
  store::EntryRecord entry;
  entry.name = "e";
  entry.source = "lightning";
  entry.metric = "-val_loss";
  entry.time_unit = "steps";
  entry.threshold = -0.5;
  entry.extra = {{"metric_as_logged", "val_loss"}, {"direction", "lower is better"}, {"threshold_as_logged", 0.5}};
  store->UpsertEntry(id, entry);
  for (int i = 0; i < 4; ++i) {
    store::RunRecord run;
    run.entry = "e";
    run.run_index = i;
    run.log.status = analysis::EndedAs::kReached;
    // Epochs 1 and 2 at steps that vary from run to run: steps per epoch would have a CoV.
    const double step = 100.0 * (i + 1);
    run.log.points.push_back({1, step, step, -0.8, std::nullopt});
    run.log.points.push_back({2, 2 * step + 50 * i, 2 * step + 50 * i, -0.4, std::nullopt});
    run.log.train_seconds = 2 * step + 50 * i;
    store->InsertRun(id, run);
  }
  const std::string text = FormatStudySummary(*store, *store->FindStudy("s"));
  EXPECT_NE(text.find("val_loss <= 0.5"), std::string::npos) << text;
  EXPECT_NE(text.find("TTA in steps"), std::string::npos) << text;
  EXPECT_NE(text.find("some logs record no clock"), std::string::npos) << text;
  // The row's cell under the header "CoV of time per epoch" is "-" (cells are parted by two or more spaces).
  auto cells = [](const std::string& line) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < line.size()) {
      const std::size_t gap = line.find("  ", start);
      out.push_back(line.substr(start, gap == std::string::npos ? std::string::npos : gap - start));
      if (gap == std::string::npos) break;
      start = line.find_first_not_of(' ', gap);
    }
    return out;
  };
  auto line_starting = [&](const std::string& start) {
    const std::size_t at = text.find("\n" + start);
    return at == std::string::npos ? std::string() : text.substr(at + 1, text.find('\n', at + 1) - at - 1);
  };
  const std::vector<std::string> header = cells(line_starting("entry ")), row = cells(line_starting("e "));
  const auto column = std::find(header.begin(), header.end(), "CoV of time per epoch");
  ASSERT_NE(column, header.end()) << text;
  ASSERT_EQ(row.size(), header.size()) << text;
  EXPECT_EQ(row[static_cast<std::size_t>(column - header.begin())], "-") << text;
}

}  // namespace
}  // namespace evalsuite::study
