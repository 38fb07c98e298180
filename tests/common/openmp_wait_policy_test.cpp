// OMP_WAIT_POLICY for holdout eval: set to passive unless the user chose a policy or a spin count, and the
// record says whose setting is in force. (That libgomp honours it is measured in bench/holdout_eval_bench.)
#include "common/openmp_wait_policy.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite {
namespace {

class OpenMpWaitPolicyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : kNames) {
      const char* value = std::getenv(name);
      saved_.push_back(value != nullptr ? std::optional<std::string>(value) : std::nullopt);
      unsetenv(name);
    }
  }
  void TearDown() override {
    for (size_t i = 0; i < saved_.size(); ++i) {
      if (saved_[i]) {
        setenv(kNames[i], saved_[i]->c_str(), 1);
      } else {
        unsetenv(kNames[i]);
      }
    }
  }
  static constexpr const char* kNames[] = {"OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "EVALSUITE_OMP_WAIT_POLICY_SET"};
  std::vector<std::optional<std::string>> saved_;
};

TEST_F(OpenMpWaitPolicyTest, PassiveWhenTheUserSetNothing) {
  EXPECT_EQ(OpenMpWaitPolicy(), "libgomp default (spin, then sleep)");
  EXPECT_EQ(PreferPassiveOpenMpWait(), "passive (set by evalsuite)");
  ASSERT_NE(std::getenv("OMP_WAIT_POLICY"), nullptr);
  EXPECT_STREQ(std::getenv("OMP_WAIT_POLICY"), "passive");
  EXPECT_EQ(PreferPassiveOpenMpWait(), "passive (set by evalsuite)");  // again: unchanged, still evalsuite's
}

TEST_F(OpenMpWaitPolicyTest, TheUsersSettingWins) {
  setenv("OMP_WAIT_POLICY", "active", 1);
  EXPECT_EQ(PreferPassiveOpenMpWait(), "active (user)");
  EXPECT_STREQ(std::getenv("OMP_WAIT_POLICY"), "active");
  unsetenv("OMP_WAIT_POLICY");
  setenv("GOMP_SPINCOUNT", "10000", 1);
  EXPECT_EQ(PreferPassiveOpenMpWait(), "GOMP_SPINCOUNT=10000 (user)");
  EXPECT_EQ(std::getenv("OMP_WAIT_POLICY"), nullptr);
  // A user's "passive" is the user's, even when it equals what evalsuite would set.
  unsetenv("GOMP_SPINCOUNT");
  setenv("OMP_WAIT_POLICY", "passive", 1);
  EXPECT_EQ(PreferPassiveOpenMpWait(), "passive (user)");
}

}  // namespace
}  // namespace evalsuite
