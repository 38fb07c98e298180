// Roofline bounds and MFU on hand-computed points.
#include "stats/roofline.h"

#include <gtest/gtest.h>

namespace evalsuite::stats {
namespace {

TEST(Roofline, AttainableIsTheLowerRoof) {
  const Ceilings c{100e9, 10e9};  // ridge at 10 FLOP/byte
  EXPECT_DOUBLE_EQ(c.RidgeIntensity(), 10);
  EXPECT_DOUBLE_EQ(c.Attainable(2), 20e9);
  EXPECT_DOUBLE_EQ(c.Attainable(50), 100e9);
  EXPECT_DOUBLE_EQ(ModelFlopsUtilization(25e9, 100e9), 0.25);
  EXPECT_DOUBLE_EQ(ModelFlopsUtilization(25e9, 0), 0);
}

TEST(Roofline, ClassifiesByRidgeAndDistanceToTheRoof) {
  const Ceilings c{100e9, 10e9};
  EXPECT_EQ(ClassifyBottleneck(2, 15e9, c).bound, Bottleneck::kMemory);    // 75% of 20
  EXPECT_EQ(ClassifyBottleneck(50, 80e9, c).bound, Bottleneck::kCompute);  // 80% of 100
  const BottleneckVerdict low = ClassifyBottleneck(50, 10e9, c);           // 10% of 100
  EXPECT_EQ(low.bound, Bottleneck::kOverhead);
  EXPECT_DOUBLE_EQ(low.fraction_of_attainable, 0.1);
  EXPECT_NE(low.evidence.find("right of the ridge (10.0)"), std::string::npos) << low.evidence;
  EXPECT_EQ(ClassifyBottleneck(5, 0, c).bound, Bottleneck::kUnknown);
  EXPECT_EQ(BottleneckName(Bottleneck::kMemory), "memory-bound");
}

}  // namespace
}  // namespace evalsuite::stats
