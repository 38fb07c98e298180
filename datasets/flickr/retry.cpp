#include "datasets/flickr/retry.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>

namespace evalsuite::flickr {

double BackoffSeconds(const RetryPolicy& policy, int attempt) {
  const double backoff = policy.initial_backoff_seconds * std::pow(2.0, std::max(0, attempt - 1));
  return std::min(backoff, policy.max_backoff_seconds);
}

std::optional<double> ParseRetryAfter(const std::string& value, double now_seconds) {
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    if (value.size() > 9) return std::nullopt;
    return std::stod(value);
  }
  std::tm tm{};
  // IMF-fixdate, the form RFC 9110 requires senders to use.
  const char* end = strptime(value.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (end == nullptr) return std::nullopt;
  const double when = static_cast<double>(timegm(&tm));
  return std::max(0.0, when - now_seconds);
}

bool IsRetryable(const HttpResponse& response) {
  switch (response.transport) {
    case TransportStatus::kTimeout:
    case TransportStatus::kConnection:
      return true;
    case TransportStatus::kOk:
      return response.status >= 500 || response.status == 429;
    default:
      return false;
  }
}

std::string DescribeFailure(const HttpResponse& response) {
  if (response.transport != TransportStatus::kOk) {
    return std::string(TransportStatusName(response.transport)) +
           (response.transport_error.empty() ? "" : ": " + response.transport_error);
  }
  return "HTTP " + std::to_string(response.status);
}

RetriedResponse GetWithRetry(HttpClient& client, const std::string& url, const HttpRequestOptions& options,
                             const RetryPolicy& policy, const RetryHooks& hooks) {
  RetriedResponse result;
  const int attempts = std::max(1, policy.max_attempts);
  for (int attempt = 1; attempt <= attempts; ++attempt) {
    if (hooks.before_attempt) hooks.before_attempt();
    result.response = client.Get(url, options);
    if (hooks.after_attempt) hooks.after_attempt();
    result.attempts = attempt;
    result.network_seconds += result.response.seconds;
    const bool retry = IsRetryable(result.response) || (hooks.retry_also && hooks.retry_also(result.response));
    if (!retry || attempt == attempts) break;
    if (options.cancel != nullptr && options.cancel->load()) break;
    double wait = BackoffSeconds(policy, attempt);
    // RFC 9110 section 10.2.3: Retry-After goes with 429 and with 503 (and a server may send it with other 5xx).
    if (result.response.transport == TransportStatus::kOk &&
        (result.response.status == 429 || result.response.status >= 500)) {
      const double now = hooks.clock ? hooks.clock() : SystemNowSeconds();
      if (auto retry_after = ParseRetryAfter(result.response.retry_after, now)) {
        wait = std::min(*retry_after, policy.max_retry_after_seconds);
      }
    }
    if (hooks.sleeper) hooks.sleeper(wait);
    result.slept_seconds += wait;
  }
  return result;
}

}  // namespace evalsuite::flickr
