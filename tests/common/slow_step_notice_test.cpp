#include "common/slow_step_notice.h"

#include <gtest/gtest.h>

#include <sstream>
#include <thread>

namespace evalsuite {
namespace {

TEST(SlowStepNoticeTest, QuickWorkPrintsNothing) {
  std::ostringstream out;
  {
    SlowStepNotice notice(out, "report");
    notice.Step("loading the runs");
    notice.Step("entry 1 of 2: a");
  }
  EXPECT_EQ(out.str(), "");
}

// A step that outlasts the quiet time is said while it lasts (the background thread), and the end says how long.
TEST(SlowStepNoticeTest, ALongStepIsSaidWhileItLastsAndTheEndWithItsTime) {
  std::ostringstream out;
  {
    SlowStepNotice notice(out, "report", std::chrono::milliseconds(50));
    notice.Step("loading the runs from big.db");
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
  }
  const std::string text = out.str();
  EXPECT_NE(text.find("report: 0 s: loading the runs from big.db\n"), std::string::npos) << text;
  EXPECT_NE(text.find("report: done in 0."), std::string::npos) << text;
}

}  // namespace
}  // namespace evalsuite
