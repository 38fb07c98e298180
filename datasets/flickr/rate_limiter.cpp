#include "datasets/flickr/rate_limiter.h"

#include <algorithm>
#include <cctype>

#include "evalsuite/common/error.h"

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

RateLimiter::RateLimiter(RateLimit limit, WallClock clock, Sleeper sleeper)
    : limit_(limit), clock_(std::move(clock)), sleeper_(std::move(sleeper)) {}

void RateLimiter::Seed(const std::vector<double>& call_times) {
  calls_.insert(calls_.end(), call_times.begin(), call_times.end());
  std::sort(calls_.begin(), calls_.end());
}

double RateLimiter::Acquire() {
  double now = clock_();
  if (limit_.enabled()) {
    while (true) {
      while (!calls_.empty() && calls_.front() <= now - limit_.window_seconds) calls_.pop_front();
      if (static_cast<int>(calls_.size()) < limit_.calls) break;
      // The oldest call in the window leaves it at front + window.
      const double wait = calls_.front() + limit_.window_seconds - now;
      sleeper_(wait);
      waited_seconds_ += wait;
      now = std::max(clock_(), now + wait);
    }
    calls_.push_back(now);
  }
  return now;
}

}  // namespace evalsuite::flickr
