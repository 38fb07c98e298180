// At most N calls in any window of W seconds (Flickr: 3600 calls per hour per key), as a sliding window
// over the times of past calls. The times can be seeded from a previous process (the crawl persists them),
// so a crawl restarted within the hour does not get a fresh budget. Not thread-safe: API calls are made
// from one thread.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "datasets/flickr/timing.h"

namespace evalsuite::flickr {

struct RateLimit {
  int calls = 3600;  // <= 0: no limit (tests and benchmarks against a local server)
  double window_seconds = 3600;
  bool enabled() const { return calls > 0; }
  std::string ToString() const;  // "3600/h", "off"
};

// "3600/h", "60/min", "1/s", "100/hour"; "off" or "0" disables. Throws UsageError naming `option`.
RateLimit ParseRateLimit(const std::string& text, const std::string& option = "--rate");

class RateLimiter {
 public:
  explicit RateLimiter(RateLimit limit, WallClock clock = SystemNowSeconds, Sleeper sleeper = RealSleep);

  // Calls made earlier (seconds since the epoch); those older than the window are ignored.
  void Seed(const std::vector<double>& call_times);
  // Waits until one more call fits the window, records it, returns its time.
  double Acquire();
  // Seconds Acquire() has spent waiting so far.
  double waited_seconds() const { return waited_seconds_; }

 private:
  RateLimit limit_;
  WallClock clock_;
  Sleeper sleeper_;
  std::deque<double> calls_;  // ascending
  double waited_seconds_ = 0;
};

}  // namespace evalsuite::flickr
