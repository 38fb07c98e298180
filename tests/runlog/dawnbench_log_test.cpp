// DAWNBench TSV+JSON entries with every hazard real files have: byte-order mark, CRLF, blank lines, repeated and
// fractional epochs, no final newline, columns in another order, a malformed row. Fixtures are written here.
#include "runlog/dawnbench_log.h"

#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "tests/support/test_support.h"

namespace evalsuite::runlog {
namespace {

using testing::TempDir;
using testing::WriteFile;

// hours first, top-5 before top-1, BOM, CRLF, blank lines (one only "\r", one spaces), a repeated fractional
// epoch, a malformed row on line 8 and no newline after the last row.
const char kHazardTsv[] =
    "\xEF\xBB\xBFhours\tepoch\ttop5Accuracy\ttop1Accuracy\r\n"  // 1
    "\r\n"                                                      // 2
    "0.5\t1\t80.0\t60.0\r\n"                                    // 3
    "0.75\t1.5\t92.99\t70.0\r\n"                                // 4
    "0.8\t1.5\t93.0\t71.0\r\n"                                  // 5
    "   \r\n"                                                   // 6
    "0.9\t2\t93.5\t72.0\r\n"                                    // 7
    "oops\t2.5\tn/a\r\n"                                        // 8
    "1.25\t3\t94.0\t73.0";                                      // 9

const char kEntryJson[] =
    "\xEF\xBB\xBF{\r\n"
    "  \"version\": \"v1.0\",\r\n"
    "  \"author\": \"Test Author\",\r\n"
    "  \"framework\": \"PyTorch\",\r\n"
    "  \"model\": \"ResNet 50\",\r\n"
    "  \"hardware\": \"8 V100 (AWS p3.16xlarge)\",\r\n"
    "  \"costPerHour\": 24.48,\r\n"
    "  \"timestamp\": \"2018-04-20\"\r\n"
    "}";

TEST(DawnbenchLogTest, ReadsEveryHazard) {
  DawnbenchEntry entry = ParseDawnbenchTsv(kHazardTsv, "x.tsv");
  ASSERT_EQ(entry.columns.size(), 4u);
  EXPECT_EQ(entry.columns[0], "hours");  // the BOM is not part of the first name
  ASSERT_EQ(entry.rows.size(), 5u);
  EXPECT_EQ(entry.rows[1].epoch, 1.5);
  EXPECT_EQ(entry.rows[2].epoch, 1.5);  // repeated epochs are kept, in file order
  EXPECT_EQ(entry.rows[4].line, 9);
  EXPECT_DOUBLE_EQ(entry.rows[4].hours, 1.25);  // last row without a newline
  EXPECT_EQ(entry.rows[4].top1, 73.0);
  ASSERT_EQ(entry.warnings.size(), 1u);
  EXPECT_EQ(entry.warnings[0].rfind("x.tsv:8: ", 0), 0u) << entry.warnings[0];
  // First row at or above the threshold, not the first epoch number that does.
  EXPECT_EQ(entry.TimeToAccuracyHours("top5Accuracy", 93.0), 0.8);
  EXPECT_EQ(entry.TimeToAccuracyHours("top1Accuracy", 73.0), 1.25);
  EXPECT_FALSE(entry.TimeToAccuracyHours("top1Accuracy", 74.0).has_value());
  EXPECT_FALSE(entry.TimeToAccuracyHours("f1Score", 0.5).has_value());
}

TEST(DawnbenchLogTest, HeaderWithoutHoursIsAnInputError) {
  try {
    ParseDawnbenchTsv("epoch\ttop1Accuracy\n1\t50\n", "nohours.tsv");
    FAIL() << "expected an InputError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_NE(std::string(e.what()).find("nohours.tsv:1"), std::string::npos);
  }
}

TEST(DawnbenchLogTest, ReadsEntryWithJsonBesideAndTaskFromFolder) {
  TempDir dir;
  std::filesystem::create_directories(dir / "ImageNet" / "train");
  WriteFile(dir / "ImageNet" / "train" / "team_resnet50.tsv", kHazardTsv);
  WriteFile(dir / "ImageNet" / "train" / "team_resnet50.json", kEntryJson);
  DawnbenchEntry entry = ReadDawnbenchEntry(dir / "ImageNet" / "train" / "team_resnet50.tsv");
  EXPECT_EQ(entry.task, "ImageNet");
  EXPECT_EQ(entry.name, "team_resnet50");
  EXPECT_EQ(entry.InfoString("author"), "Test Author");
  EXPECT_EQ(entry.InfoString("hardware"), "8 V100 (AWS p3.16xlarge)");
  EXPECT_EQ(entry.CostPerHour(), 24.48);
  auto rule = DawnbenchRuleForTask(entry.task);
  ASSERT_TRUE(rule.has_value());
  EXPECT_EQ(rule->column, "top5Accuracy");
  EXPECT_EQ(rule->threshold, 93.0);
  RunLog log = ToRunLog(entry, rule->column, rule->threshold, rule->scale);
  EXPECT_EQ(log.status, analysis::EndedAs::kReached);
  ASSERT_EQ(log.points.size(), 5u);
  EXPECT_DOUBLE_EQ(log.points[2].train_seconds, 0.8 * 3600);
  EXPECT_DOUBLE_EQ(log.points[2].metric, 0.93);
}

TEST(DawnbenchLogTest, DefaultRulesFollowDawnbench) {
  EXPECT_EQ(DawnbenchRuleForTask("CIFAR10")->column, "top1Accuracy");
  EXPECT_EQ(DawnbenchRuleForTask("CIFAR10")->threshold, 94.0);
  EXPECT_EQ(DawnbenchRuleForTask("SQuAD")->column, "f1Score");
  EXPECT_EQ(DawnbenchRuleForTask("SQuAD")->threshold, 0.73);
  EXPECT_FALSE(DawnbenchRuleForTask("MNIST").has_value());
}

TEST(DawnbenchLogTest, MissingJsonIsAWarningAndTaskGuessedFromColumns) {
  TempDir dir;
  WriteFile(dir / "squad_entry.tsv", "epoch\tf1Score\thours\n1\t0.7\t0.1\n2\t0.74\t0.2\n");
  DawnbenchEntry entry = ReadDawnbenchEntry(dir / "squad_entry.tsv");
  EXPECT_EQ(entry.task, "SQuAD");
  ASSERT_EQ(entry.warnings.size(), 1u);
  EXPECT_NE(entry.warnings[0].find("squad_entry.json"), std::string::npos);
  EXPECT_EQ(entry.TimeToAccuracyHours("f1Score", 0.73), 0.2);
}

TEST(DawnbenchLogTest, ReadsTheSharedEntries) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  const auto root = shared / "dawnbench";
  if (!std::filesystem::exists(root)) GTEST_SKIP() << "no dawnbench folder";
  // davidcpage: no final newline, first row at >= 94 is epoch 24 (94.08).
  DawnbenchEntry page = ReadDawnbenchEntry(root / "CIFAR10" / "train" / "davidcpage_resnet9_1v100-ec2_pytorch.tsv");
  EXPECT_EQ(page.task, "CIFAR10");
  EXPECT_TRUE(page.warnings.empty());
  EXPECT_EQ(page.TimeToAccuracyHours("top1Accuracy", 94.0), 0.02056706);
  // KRes34: byte-order mark and CRLF.
  DawnbenchEntry kres = ReadDawnbenchEntry(root / "CIFAR10" / "train" / "KRes34_1GTX1080Ti_pytorch.tsv");
  EXPECT_EQ(kres.columns.front(), "epoch");
  EXPECT_EQ(kres.rows.size(), 200u);
  EXPECT_TRUE(kres.warnings.empty());
  // mxnet: hours before epoch.
  DawnbenchEntry mx = ReadDawnbenchEntry(root / "ImageNet" / "train" / "dawn_resnet152_b_8k80_ec2_mxnet.tsv");
  EXPECT_EQ(mx.columns.front(), "hours");
  EXPECT_EQ(mx.rows.front().epoch, 1);
  EXPECT_EQ(mx.CostPerHour(), 4.56);
  // google: repeated epochs (18, 41) and trailing blank lines.
  DawnbenchEntry google =
      ReadDawnbenchEntry(root / "ImageNet" / "train" / "google_resnet50_tpu_tensorflow111_fastai.tsv");
  EXPECT_TRUE(google.warnings.empty());
  EXPECT_EQ(google.rows.size(), 53u);
  EXPECT_EQ(google.TimeToAccuracyHours("top5Accuracy", 93.0), 2.741805000311111);
  // SQuAD: f1Score before hours, no final newline.
  DawnbenchEntry squad = ReadDawnbenchEntry(root / "SQuAD" / "train" / "dawn_drqa_1p100-ec2.tsv");
  EXPECT_EQ(squad.TimeToAccuracyHours("f1Score", 0.73), 0.60626280638888);
  EXPECT_EQ(squad.CostPerHour(), 3.06);
}

}  // namespace
}  // namespace evalsuite::runlog
