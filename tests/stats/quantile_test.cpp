// Sample quantiles against numpy.percentile (linear):
//   /usr/bin/python3 -c "import numpy as np; print([np.percentile([3,1,4,1,5,9,2,6,5,3,5], p) for p in (50,90,99)])"
//   -> [4.0, 6.0, 8.7]
#include "stats/quantile.h"

#include <gtest/gtest.h>

namespace evalsuite::stats {
namespace {

TEST(SampleQuantile, MatchesNumpyLinear) {
  const std::vector<double> v = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
  EXPECT_DOUBLE_EQ(SampleQuantile(v, 0.5), 4.0);
  EXPECT_DOUBLE_EQ(SampleQuantile(v, 0.9), 6.0);
  EXPECT_NEAR(SampleQuantile(v, 0.99), 8.7, 1e-12);
  EXPECT_DOUBLE_EQ(SampleQuantile({7.0}, 0.5), 7.0);
  EXPECT_DOUBLE_EQ(SampleQuantile({}, 0.5), 0.0);
}

}  // namespace
}  // namespace evalsuite::stats
