#include "datasets/flickr/flickr_api.h"

#include <chrono>
#include <set>

#include "common/error.h"
#include "common/sha256.h"

namespace evalsuite::flickr {

bool IsTemporaryFlickrError(int code) { return code == 10 || code == 105 || code == 106; }

std::string BuildSearchUrl(const std::string& endpoint, const std::string& api_key, const SearchQuery& query) {
  if (query.per_page < 1 || query.per_page > kMaxPerPage) {
    throw UsageError("--per-page",
                     "must be between 1 and 500 (Flickr's maximum), not " + std::to_string(query.per_page));
  }
  std::string url = endpoint;
  url += endpoint.find('?') == std::string::npos ? '?' : '&';
  url += "method=flickr.photos.search";
  url += "&api_key=" + UrlEncode(api_key);
  url += "&text=" + UrlEncode(query.text);
  url += "&min_upload_date=" + std::to_string(query.min_upload_date);
  url += "&sort=relevance&content_type=1&media=photos";
  url += "&extras=" + UrlEncode(kSearchExtras);
  url += "&per_page=" + std::to_string(query.per_page);
  url += "&page=" + std::to_string(query.page);
  if (!query.license.empty()) url += "&license=" + UrlEncode(query.license);
  url += "&format=json&nojsoncallback=1";
  return url;
}

std::string Redact(std::string text, const std::string& secret) {
  if (secret.empty()) return text;
  for (const std::string& form : {secret, UrlEncode(secret)}) {
    for (size_t at = text.find(form); at != std::string::npos; at = text.find(form, at)) {
      text.replace(at, form.size(), "[redacted]");
      at += 10;
    }
  }
  return text;
}

std::string EndpointForRecord(const std::string& endpoint) {
  const size_t key = endpoint.find("api_key=");
  if (key == std::string::npos) return endpoint;
  const size_t value = key + 8;
  const size_t end = endpoint.find('&', value);
  return endpoint.substr(0, value) + "[redacted]" + (end == std::string::npos ? "" : endpoint.substr(end));
}

FlickrSearchClient::FlickrSearchClient(HttpClient& http, SearchClientOptions options)
    : http_(http), options_(std::move(options)) {}

SearchOutcome FlickrSearchClient::Search(const SearchQuery& query) {
  const std::string url = BuildSearchUrl(options_.endpoint, options_.api_key, query);
  const std::string where = "flickr.photos.search \"" + query.text + "\" page " + std::to_string(query.page);
  SearchResponse parsed;
  std::string parse_error;
  RetryHooks hooks;
  hooks.sleeper = options_.sleeper;
  hooks.clock = options_.clock;
  hooks.before_attempt = [&] {
    if (options_.limiter != nullptr) {
      const double waited_before = options_.limiter->waited_seconds();
      options_.limiter->Acquire();
      stats_.rate_wait_seconds += options_.limiter->waited_seconds() - waited_before;
    }
    ++stats_.calls;
  };
  hooks.after_attempt = [&] {
    if (options_.limiter != nullptr) options_.limiter->Finish();
  };
  // A 200 is judged by its content: cut-off JSON and Flickr's "temporarily unavailable" codes are retried. A body
  // that fails the same way as an earlier attempt (same bytes) is what the server serves for this query: asking again
  // would only spend the rate budget and the backoff (6 tries, 31 s) on every run.
  std::set<std::string>& failures_seen = failures_seen_[url];
  bool repeated_failure = false;
  hooks.retry_also = [&](const HttpResponse& response) {
    if (response.transport != TransportStatus::kOk || response.status != 200) return false;
    const auto start = std::chrono::steady_clock::now();
    parse_error.clear();
    try {
      parsed = ParseSearchResponse(response.body, where);
    } catch (const Error& error) {
      parse_error = error.message();
    }
    stats_.parse_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!parse_error.empty()) {
      // Keyed by the bytes too: a server that alternates two bodies (numbers, then strings) repeats itself too.
      const bool repeated = !failures_seen.insert(parse_error + "#" + Sha256Hex(response.body)).second;
      repeated_failure = repeated;
      if (repeated) parse_error += " (the same response twice: not retried further)";
      return !repeated;
    }
    return !parsed.ok && IsTemporaryFlickrError(parsed.failure.code);
  };
  const RetriedResponse retried = GetWithRetry(http_, url, options_.http, options_.retry, hooks);
  stats_.network_seconds += retried.network_seconds;
  stats_.backoff_seconds += retried.slept_seconds;

  SearchOutcome outcome;
  outcome.attempts = retried.attempts;
  const HttpResponse& response = retried.response;
  if (response.transport != TransportStatus::kOk || response.status != 200) {
    outcome.error = DescribeFailure(response);
  } else if (!parse_error.empty()) {
    outcome.error = parse_error;
  } else if (!parsed.ok) {
    outcome.flickr_code = parsed.failure.code;
    outcome.error = "stat fail, code " + std::to_string(parsed.failure.code) + ": " + parsed.failure.message;
    if (parsed.failure.code == kInvalidApiKeyCode) {
      throw ExternalError("FLICKR_API_KEY", Redact("Flickr rejected the API key (" + outcome.error +
                                                       "); set FLICKR_API_KEY to a valid key. The crawl "
                                                       "stopped; finished work is kept and a rerun resumes.",
                                                   options_.api_key));
    }
  } else {
    outcome.ok = true;
    outcome.page = std::move(parsed.page);
  }
  if (!outcome.ok) {
    const bool temporary = !parsed.ok && parse_error.empty() && IsTemporaryFlickrError(parsed.failure.code);
    outcome.retryable = IsRetryable(response) || (!parse_error.empty() && !repeated_failure) ||
                        (response.transport == TransportStatus::kOk && response.status == 200 && temporary);
    if (response.transport == TransportStatus::kOk && (response.status == 429 || response.status >= 500)) {
      outcome.retry_after_seconds = ParseRetryAfter(response.retry_after, options_.clock());
    }
  }
  if (retried.attempts > 1 && !outcome.ok) {
    outcome.error += " (after " + std::to_string(retried.attempts) + " attempts)";
  }
  outcome.error = Redact(outcome.error, options_.api_key);
  return outcome;
}

}  // namespace evalsuite::flickr
