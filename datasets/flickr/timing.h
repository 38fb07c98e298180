// The clock and the sleep of the crawl, as values: tests inject a fake clock and a sleeper that records how
// long it was asked to wait (Retry-After, backoff, rate limit) instead of waiting.
#pragma once

#include <functional>

namespace evalsuite::flickr {

using WallClock = std::function<double()>;  // seconds since the Unix epoch
using Sleeper = std::function<void(double seconds)>;

double SystemNowSeconds();
void RealSleep(double seconds);

}  // namespace evalsuite::flickr
