// Retries of one HTTP GET: exponential backoff on timeouts, connection errors and 5xx; a 429 or 5xx with a
// Retry-After waits what it says (cut to max_retry_after_seconds). Other statuses (200, 404, ...) are answers, returned
// at once for the caller to judge.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "datasets/flickr/http_client.h"
#include "datasets/flickr/timing.h"

namespace evalsuite::flickr {

struct RetryPolicy {
  int max_attempts = 6;                // first try included; 6 tries span ~1+2+4+8+16 = 31 s of backoff
  double initial_backoff_seconds = 1;  // wait before the 2nd attempt; doubles after each failure
  double max_backoff_seconds = 60;
  // A Retry-After above this is cut to it: a server asking for hours would otherwise stall the crawl silently.
  double max_retry_after_seconds = 3600;
};

// Backoff before attempt `attempt` + 1 (attempt is 1-based): initial * 2^(attempt-1), capped.
double BackoffSeconds(const RetryPolicy& policy, int attempt);

// Retry-After as delta-seconds ("120") or an HTTP-date ("Wed, 21 Oct 2015 07:28:00 GMT", relative to `now`).
std::optional<double> ParseRetryAfter(const std::string& value, double now_seconds);

// Timeouts, connection errors, 5xx and 429 are worth another try; everything else is final.
bool IsRetryable(const HttpResponse& response);

// "HTTP 503", "timeout: Operation timed out after 500 ms ..." -- no URL, no body.
std::string DescribeFailure(const HttpResponse& response);

struct RetryHooks {
  std::function<void()> before_attempt;  // e.g. take a rate-limiter slot: every attempt is a call
  std::function<void()> after_attempt;   // the attempt has ended, answered or not (the rate limiter's Finish)
  // Asked about a response that is not retryable by transport or status (e.g. a 200 whose JSON is cut off or
  // says "service unavailable"): true retries it with the same backoff.
  std::function<bool(const HttpResponse&)> retry_also;
  Sleeper sleeper = RealSleep;
  WallClock clock = SystemNowSeconds;
};

struct RetriedResponse {
  HttpResponse response;  // the last attempt's
  int attempts = 0;
  double network_seconds = 0;  // summed over attempts
  double slept_seconds = 0;    // backoff and Retry-After
};

RetriedResponse GetWithRetry(HttpClient& client, const std::string& url, const HttpRequestOptions& options,
                             const RetryPolicy& policy, const RetryHooks& hooks = {});

}  // namespace evalsuite::flickr
