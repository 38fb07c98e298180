#include "stats/paired_tests.h"

#include <gtest/gtest.h>

namespace evalsuite::stats {
namespace {

// Worked value from issue 7: p = 2 * P(Binomial(16, 1/2) <= 4) = 2 * 2517 / 65536.
TEST(ExactMcNemarTest, WorkedValue) {
  const McNemarResult r = ExactMcNemar(12, 4);
  EXPECT_EQ(r.b, 12u);
  EXPECT_EQ(r.c, 4u);
  EXPECT_NEAR(r.p_value, 0.076813, 5e-7);
  EXPECT_NEAR(r.p_value, 2.0 * 2517.0 / 65536.0, 1e-12);
}

TEST(ExactMcNemarTest, SymmetricInBAndC) { EXPECT_DOUBLE_EQ(ExactMcNemar(4, 12).p_value, ExactMcNemar(12, 4).p_value); }

TEST(ExactMcNemarTest, NoDiscordantPairsGivePOne) { EXPECT_DOUBLE_EQ(ExactMcNemar(0, 0).p_value, 1); }

TEST(ExactMcNemarTest, EqualCountsAreCappedAtOne) { EXPECT_DOUBLE_EQ(ExactMcNemar(5, 5).p_value, 1); }

TEST(ExactMcNemarTest, OneSidedExtreme) {
  // b = 10, c = 0: 2 * 0.5^10.
  EXPECT_NEAR(ExactMcNemar(10, 0).p_value, 2.0 / 1024.0, 1e-15);
  EXPECT_DOUBLE_EQ(ExactMcNemar(1, 0).p_value, 1);
}

}  // namespace
}  // namespace evalsuite::stats
