#include "datasets/flickr/rate_limiter.h"

#include <algorithm>
#include <cctype>

#include "common/error.h"

namespace evalsuite::flickr {

std::string RateLimit::ToString() const {
  if (!enabled()) return "off";
  if (window_seconds == 3600) return std::to_string(calls) + "/h";
  if (window_seconds == 60) return std::to_string(calls) + "/min";
  if (window_seconds == 1) return std::to_string(calls) + "/s";
  return std::to_string(calls) + "/" + std::to_string(window_seconds) + "s";
}

RateLimit ParseRateLimit(const std::string& text, const std::string& option) {
  std::string t;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) t.push_back(static_cast<char>(std::tolower(c)));
  }
  if (t == "off" || t == "0" || t == "none") return RateLimit{0, 3600};
  const size_t slash = t.find('/');
  const std::string count = t.substr(0, slash);
  const std::string unit = slash == std::string::npos ? "h" : t.substr(slash + 1);
  const bool count_ok = !count.empty() && count.size() <= 9 &&
                        std::all_of(count.begin(), count.end(), [](char c) { return std::isdigit(c); });
  double window = 0;
  if (unit == "h" || unit == "hour") window = 3600;
  if (unit == "min" || unit == "m" || unit == "minute") window = 60;
  if (unit == "s" || unit == "sec" || unit == "second") window = 1;
  if (!count_ok || window == 0) {
    throw UsageError(option, "'" + text + "' is not a rate: use N/h, N/min, N/s, or off");
  }
  return RateLimit{std::stoi(count), window};
}

double SecondsUntilSlot(std::vector<double> ends, double now, const RateLimit& limit) {
  if (!limit.enabled()) return 0;
  // A call that ended at least a window before `now` reached the server more than a window before this one.
  ends.erase(std::remove_if(ends.begin(), ends.end(), [&](double end) { return end + limit.window_seconds <= now; }),
             ends.end());
  if (static_cast<int>(ends.size()) < limit.calls) return 0;
  std::sort(ends.begin(), ends.end());
  // Once the oldest (size - calls + 1) of them have left, calls - 1 remain: this one fits.
  return ends[ends.size() - static_cast<size_t>(limit.calls)] + limit.window_seconds - now;
}

MemoryCallLedger::MemoryCallLedger(const std::vector<double>& earlier_calls) : ends_(earlier_calls) {}

double MemoryCallLedger::TryStart(double now, double deadline, const RateLimit& limit) {
  const double wait = SecondsUntilSlot(ends_, now, limit);
  if (wait > 0) return wait;
  // Forget what can no longer count, so that a long crawl keeps at most one window of calls.
  std::vector<double> kept;
  for (double end : ends_) {
    if (end + limit.window_seconds > now) kept.push_back(end);
  }
  ends_ = std::move(kept);
  ends_.push_back(deadline);
  open_ = static_cast<int>(ends_.size()) - 1;
  return 0;
}

void MemoryCallLedger::Finish(double end) {
  if (open_ < 0) return;
  ends_[static_cast<size_t>(open_)] = end;  // the truth, even past the deadline
  open_ = -1;
}

RateLimiter::RateLimiter(RateLimit limit, WallClock clock, Sleeper sleeper, std::unique_ptr<CallLedger> ledger,
                         double max_call_seconds)
    : limit_(limit),
      clock_(std::move(clock)),
      sleeper_(std::move(sleeper)),
      ledger_(ledger ? std::move(ledger) : std::make_unique<MemoryCallLedger>()),
      max_call_seconds_(std::max(0.0, max_call_seconds)) {}

double RateLimiter::Acquire() {
  double now = clock_();
  if (!limit_.enabled()) return now;
  while (true) {
    const double wait = ledger_->TryStart(now, now + max_call_seconds_, limit_);
    if (wait <= 0) return now;
    sleeper_(wait);
    waited_seconds_ += wait;
    now = std::max(clock_(), now + wait);
  }
}

void RateLimiter::Finish() {
  if (limit_.enabled()) ledger_->Finish(clock_());
}

}  // namespace evalsuite::flickr
