// The clock and the sleep of the crawl, as values (common/clock.h): tests inject a fake clock and a
// sleeper that records how long it was asked to wait (Retry-After, backoff, rate limit) instead of waiting.
#pragma once

#include "common/clock.h"

namespace evalsuite::flickr {

using evalsuite::RealSleep;
using evalsuite::Sleeper;
using evalsuite::SystemNowSeconds;
using evalsuite::WallClock;

}  // namespace evalsuite::flickr
