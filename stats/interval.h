// A two-sided confidence interval. Every interval in stats/ is 95% unless an alpha says otherwise.
#pragma once

namespace evalsuite::stats {

struct Interval {
  double lower = 0;
  double upper = 0;
};

}  // namespace evalsuite::stats
