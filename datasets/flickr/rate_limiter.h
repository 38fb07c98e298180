// At most N API calls in any window of W seconds (Flickr: 3600 calls per hour per key), counted as the server
// sees them. A call reaches the server some time between the moment it is sent and the moment its answer
// (or the client's timeout) ends it, so a new call may start only when fewer than N earlier calls *ended*
// less than W seconds ago: then call k and call k-N reach the server more than W apart whatever the network
// did in between, and no window of W seconds, open or closed, holds N+1 of them. The calls are kept in a
// ledger: this process's memory, or a SQLite file that restarts and several processes with one key share
// (datasets/flickr/shared_call_ledger.h). Not thread-safe: a crawl makes its API calls from one thread.
#pragma once

#include <memory>
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

// The rule in one place: `ends` are the end times of earlier calls (an unfinished call counts as ending at
// its deadline, when its client gives up). Returns 0 when a call starting at `now` keeps every window at N
// calls at most, else the seconds to wait until it does.
double SecondsUntilSlot(std::vector<double> ends, double now, const RateLimit& limit);

// Where the calls of one key are recorded.
class CallLedger {
 public:
  virtual ~CallLedger() = default;
  // Atomically: if a call starting at `now` fits (SecondsUntilSlot == 0), records it as started, unfinished
  // until `deadline`, and returns 0; otherwise records nothing and returns the seconds to wait.
  virtual double TryStart(double now, double deadline, const RateLimit& limit) = 0;
  // The call started last by this ledger has ended at `end` (its answer read, or the client gave up).
  virtual void Finish(double end) = 0;
};

// This process's calls only.
class MemoryCallLedger : public CallLedger {
 public:
  // Calls made earlier (start = end = each time); those ended more than a window ago are never counted.
  explicit MemoryCallLedger(const std::vector<double>& earlier_calls = {});
  double TryStart(double now, double deadline, const RateLimit& limit) override;
  void Finish(double end) override;

 private:
  std::vector<double> ends_;  // deadline while the call is unfinished
  int open_ = -1;             // index of the unfinished call
};

class RateLimiter {
 public:
  // `max_call_seconds`: how long one call can last before its client gives up (the HTTP timeout); a call
  // that is never finished (its process killed) counts as ending then. nullptr ledger: in memory.
  explicit RateLimiter(RateLimit limit, WallClock clock = SystemNowSeconds, Sleeper sleeper = RealSleep,
                       std::unique_ptr<CallLedger> ledger = nullptr, double max_call_seconds = 0);

  // Waits until one more call fits, records it as started, returns its start time.
  double Acquire();
  // The call from the last Acquire() has ended now (call it when the answer is read or the request failed).
  void Finish();
  // Seconds Acquire() has spent waiting so far.
  double waited_seconds() const { return waited_seconds_; }

 private:
  RateLimit limit_;
  WallClock clock_;
  Sleeper sleeper_;
  std::unique_ptr<CallLedger> ledger_;
  double max_call_seconds_;
  double waited_seconds_ = 0;
};

}  // namespace evalsuite::flickr
