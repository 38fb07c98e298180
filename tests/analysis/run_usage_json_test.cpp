// A run's usage decoded at the store's edge: the defaults older stores rely on (an absent figure is 0) and a figure
// of another shape named.
#include "analysis/run_usage_json.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace evalsuite::analysis {
namespace {

using nlohmann::json;

TEST(RunUsageJsonTest, ReadsEveryFigure) {
  const RunUsage u = RunUsageFromJson(
      json{{"wall_seconds", 12.5}, {"user_seconds", 20.25}, {"system_seconds", 1.5}, {"max_rss_kb", 204800}});
  EXPECT_DOUBLE_EQ(u.wall_seconds, 12.5);
  EXPECT_DOUBLE_EQ(u.user_seconds, 20.25);
  EXPECT_DOUBLE_EQ(u.system_seconds, 1.5);
  EXPECT_EQ(u.max_rss_kb, 204800);
}

TEST(RunUsageJsonTest, AnAbsentFigureIsZero) {
  const RunUsage u = RunUsageFromJson(json{{"wall_seconds", 3.0}});
  EXPECT_DOUBLE_EQ(u.wall_seconds, 3.0);
  EXPECT_DOUBLE_EQ(u.user_seconds, 0);
  EXPECT_DOUBLE_EQ(u.system_seconds, 0);
  EXPECT_EQ(u.max_rss_kb, 0);
  EXPECT_DOUBLE_EQ(RunUsageFromJson(json(nullptr)).wall_seconds, 0);
}

TEST(RunUsageJsonTest, AFigureOfAnotherShapeIsNamed) {
  try {
    RunUsageFromJson(json{{"user_seconds", "lots"}});
    FAIL() << "a text figure was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_EQ(e.where(), "usage.user_seconds");
  }
}

}  // namespace
}  // namespace evalsuite::analysis
