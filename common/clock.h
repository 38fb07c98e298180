// The clocks and the sleep of code that waits (the study scheduler's poll loop, the Flickr crawl), as values:
// production passes the real ones, tests a fake clock and a sleeper that records how long it was asked to wait.
#pragma once

#include <functional>

namespace evalsuite {

using WallClock = std::function<double()>;    // seconds since the Unix epoch
using SteadyClock = std::function<double()>;  // seconds on a monotonic clock (differences only)
using Sleeper = std::function<void(double seconds)>;

double SystemNowSeconds();
double SteadyNowSeconds();
void RealSleep(double seconds);

}  // namespace evalsuite
