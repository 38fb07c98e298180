// DescribeFailure: every cause a user meets at start-up gets a cause and a hint they can act on.
#include "study/execution/failure_cause.h"

#include <gtest/gtest.h>
#include <signal.h>

namespace evalsuite::study {
namespace {

ChildExit Signal(int sig) { return {std::nullopt, sig}; }
ChildExit Exit(int status) { return {status, std::nullopt}; }
bool Has(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

TEST(FailureCause, SigillNamesTheInstructionProblemAndTheSettingThatAvoidsIt) {
  const FailureCause f = DescribeFailure(Signal(SIGILL), false, "", false);
  EXPECT_TRUE(Has(f.cause, "SIGILL")) << f.cause;
  EXPECT_TRUE(Has(f.hint, "ONEDNN_MAX_CPU_ISA")) << f.hint;
}

TEST(FailureCause, SigkillIsMemoryWhenTheOomKillerStruckAndSaysProbablyOtherwise) {
  const FailureCause oom = DescribeFailure(Signal(SIGKILL), false, "", true);
  EXPECT_TRUE(Has(oom.cause, "OOM killer")) << oom.cause;
  EXPECT_TRUE(Has(oom.hint, "out of memory")) << oom.hint;
  const FailureCause unknown = DescribeFailure(Signal(SIGKILL), false, "", false);
  EXPECT_FALSE(Has(unknown.cause, "OOM killer"));
  EXPECT_TRUE(Has(unknown.hint, "probably out of memory")) << unknown.hint;
}

TEST(FailureCause, ExitCodesOfTheShellAndFullDisksAreNamed) {
  EXPECT_TRUE(Has(DescribeFailure(Exit(127), false, "", false).cause, "command not found"));
  EXPECT_TRUE(Has(DescribeFailure(Exit(126), false, "", false).cause, "not executable"));
  const FailureCause disk = DescribeFailure(Exit(1), false, "OSError: [Errno 28] No space left on device", false);
  EXPECT_TRUE(Has(disk.cause, "no space left")) << disk.cause;
  EXPECT_TRUE(Has(DescribeFailure(Exit(1), false, "terminate called after throwing std::bad_alloc", false).cause,
                  "out of memory"));
  EXPECT_EQ(DescribeFailure(Exit(3), false, "boom", false).hint, "");
  EXPECT_TRUE(Has(DescribeFailure(Signal(SIGTERM), true, "", false).cause, "timed out"));
}

TEST(FailureCause, TheOomCounterIsReadableOrAbsentNeverNegative) {
  const std::optional<long> count = OomKillCount();
  if (count) EXPECT_GE(*count, 0);
}

}  // namespace
}  // namespace evalsuite::study
