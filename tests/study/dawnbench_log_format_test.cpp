// log_format = "dawnbench": an external entry that writes a DAWNBench-style per-epoch TSV as its log (columns found
// by name, accuracy in percent); a bad row is reported with its file and line and the others are kept.
#include <gtest/gtest.h>

#include "study/plans/log_formats.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

TEST(DawnbenchLogFormatTest, PerEpochTsvBecomesTheRunsCurveWithBadRowsNamed) {
  evalsuite::testing::TempDir dir;
  // As DAWNBench's CIFAR10 entries write them (e.g. dawn_resnet56_1k80-gc_tensorflow.tsv), one row cut short.
  evalsuite::testing::WriteFile(dir / "log.jsonl",
                                "epoch\thours\ttop1Accuracy\n"
                                "1\t0.0049\t45.12\n"
                                "2\t0.0098\n"
                                "3\t0.0147\t71.9\n"
                                "4\t0.0196\t94.06\n");
  auto format = FindRunLogFormat("dawnbench");
  ASSERT_TRUE(format);
  runlog::RunLog log = format->read(dir / "log.jsonl", PlannedEntry{});
  ASSERT_EQ(log.points.size(), 3u);
  EXPECT_DOUBLE_EQ(log.points[0].epoch, 1);
  EXPECT_DOUBLE_EQ(log.points[0].metric, 0.4512);
  EXPECT_NEAR(log.points[2].train_seconds, 0.0196 * 3600, 1e-9);  // hours as seconds
  EXPECT_DOUBLE_EQ(log.points[2].metric, 0.9406);
  ASSERT_FALSE(log.warnings.empty());
  EXPECT_NE(log.warnings[0].find((dir / "log.jsonl").string() + ":3:"), std::string::npos) << log.warnings[0];
}

}  // namespace
}  // namespace evalsuite::study
