// The run-log facts read above the formats, decoded in one place each: a run's hardware figures and its header's
// metric name, with the defaults the importer and the report keep (absent: 0, "metric") and bad fields named.
#include <gtest/gtest.h>

#include "common/error.h"
#include "runlog/hardware_json.h"
#include "runlog/run_header_json.h"

namespace evalsuite::runlog {
namespace {

using nlohmann::json;

TEST(HardwareJsonTest, ReadsAchievedFlopsAndEvaluationSeconds) {
  const HardwareFigures f =
      HardwareFiguresFromJson(json{{"achieved_flops", 2.5e9}, {"time", {{"evaluation", 4.0}, {"train", 9.0}}}});
  EXPECT_DOUBLE_EQ(f.achieved_flops, 2.5e9);
  EXPECT_DOUBLE_EQ(f.evaluation_seconds, 4.0);
}

TEST(HardwareJsonTest, AbsentFiguresAreZero) {
  EXPECT_DOUBLE_EQ(HardwareFiguresFromJson(json::object()).achieved_flops, 0);
  EXPECT_DOUBLE_EQ(HardwareFiguresFromJson(json{{"time", json::object()}}).evaluation_seconds, 0);
  EXPECT_DOUBLE_EQ(HardwareFiguresFromJson(json(nullptr)).achieved_flops, 0);  // a run without a hardware block
}

TEST(HardwareJsonTest, AFigureOfAnotherShapeIsNamed) {
  try {
    HardwareFiguresFromJson(json{{"time", {{"evaluation", "slow"}}}});
    FAIL() << "a text figure was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "hardware.time.evaluation");
  }
}

TEST(RunHeaderJsonTest, TheMetricIsTheHeadersElseMetric) {
  EXPECT_EQ(HeaderMetricFromJson(json{{"metric", "val_top1"}}, "a.jsonl"), "val_top1");
  EXPECT_EQ(HeaderMetricFromJson(json{{"entry", "x"}}, "a.jsonl"), "metric");
  try {
    HeaderMetricFromJson(json{{"metric", 3}}, "runs/a.jsonl");
    FAIL() << "a numeric metric name was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_EQ(e.where(), "runs/a.jsonl: header.metric");
  }
}

}  // namespace
}  // namespace evalsuite::runlog
