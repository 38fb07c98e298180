// The check that lets an optimize_for_inference rewrite stand in for the original model.
#include "generalization/logits_agreement.h"

#include <gtest/gtest.h>

#include <limits>

namespace evalsuite::generalization {
namespace {

TEST(RewrittenLogitsAgree, TinyLogitsAreJudgedAtTheirOwnScale) {
  // Logits about 2e-9 (a randomly initialized mobilenet_v3_small), the rewrite off by 4e-10 (20% of them) and
  // swapping the top two classes: the old check, |diff| <= 1e-3 * max(1, max|logit|), accepted this.
  const std::vector<float> expected = {2.0e-9f, 1.8e-9f, 0.5e-9f, -1.0e-9f};
  const std::vector<float> actual = {1.6e-9f, 2.1e-9f, 0.5e-9f, -1.0e-9f};
  EXPECT_FALSE(RewrittenLogitsAgree(expected, actual, 1, 4));
}

TEST(RewrittenLogitsAgree, FloatRoundingOfOrdinaryLogitsAgrees) {
  const std::vector<float> expected = {3.0f, -1.0f, 0.25f, 7.5f, 2.0f, 2.5f};
  std::vector<float> actual = expected;
  for (float& v : actual) v *= 1.0f + 1e-6f;
  EXPECT_TRUE(RewrittenLogitsAgree(expected, actual, 2, 3));
}

TEST(RewrittenLogitsAgree, ReorderedTopClassesWithinToleranceDoNotAgree) {
  // Two near-tied classes whose order flips by less than the element tolerance: the predictions would change.
  const std::vector<float> expected = {10.0f, 9.99999f, 1.0f};
  const std::vector<float> actual = {9.99999f, 10.0f, 1.0f};
  EXPECT_FALSE(RewrittenLogitsAgree(expected, actual, 1, 3));
}

TEST(RewrittenLogitsAgree, ShapesAndNonFiniteValuesAreRefused) {
  EXPECT_FALSE(RewrittenLogitsAgree({1, 2}, {1, 2, 3}, 1, 2));
  EXPECT_FALSE(RewrittenLogitsAgree({1, 2}, {1, std::numeric_limits<float>::quiet_NaN()}, 1, 2));
  EXPECT_FALSE(RewrittenLogitsAgree({}, {}, 0, 0));
  EXPECT_TRUE(RewrittenLogitsAgree({0, 0}, {0, 0}, 1, 2));
}

}  // namespace
}  // namespace evalsuite::generalization
