// flickr.photos.search as documented (api/flickr.photos.search): the request URL with exactly the parameters
// the crawl needs, and a client that rate-limits, retries and parses. The API key travels only inside the
// request URL; every message that could echo a response is passed through Redact() first.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "datasets/flickr/http_client.h"
#include "datasets/flickr/rate_limiter.h"
#include "datasets/flickr/retry.h"
#include "datasets/flickr/search_response.h"
#include "datasets/flickr/timing.h"

namespace evalsuite::flickr {

constexpr const char* kFlickrRestEndpoint = "https://api.flickr.com/services/rest/";
constexpr const char* kSearchExtras = "date_upload,date_taken,license,owner_name,url_m,url_z,url_l";
constexpr int kMaxPerPage = 500;  // "The maximum allowed value is 500."
// Flickr returns at most 4,000 unique results for one search, whatever the page count says.
constexpr int kMaxSearchResults = 4000;
constexpr int kInvalidApiKeyCode = 100;  // "The API key passed was not valid or has expired."

// Codes the method description calls temporary: worth the same backoff as a 503.
bool IsTemporaryFlickrError(int code);  // 10 search unavailable, 105 service unavailable, 106 write failed

struct SearchQuery {
  std::string text;             // one synonym
  int64_t min_upload_date = 0;  // Unix seconds
  int per_page = 100;           // 1..500
  int page = 1;
  std::string license;  // "" or comma-separated license ids ("4,5,9")
};

// endpoint?method=flickr.photos.search&api_key=..&text=..&min_upload_date=..&sort=relevance&content_type=1
// &media=photos&extras=<kSearchExtras>&per_page=..&page=..[&license=..]&format=json&nojsoncallback=1
// Throws UsageError for per_page outside 1..500.
std::string BuildSearchUrl(const std::string& endpoint, const std::string& api_key, const SearchQuery& query);

// `text` with every occurrence of `secret` replaced by "[redacted]"; unchanged when secret is empty.
std::string Redact(std::string text, const std::string& secret);
// The endpoint as safe to record: an api_key=... in its query string is replaced by "[redacted]".
std::string EndpointForRecord(const std::string& endpoint);

struct SearchClientOptions {
  std::string endpoint = kFlickrRestEndpoint;
  std::string api_key;
  HttpRequestOptions http;
  RetryPolicy retry;
  RateLimiter* limiter = nullptr;  // nullptr: no limit
  Sleeper sleeper = RealSleep;
  WallClock clock = SystemNowSeconds;
};

struct SearchOutcome {
  bool ok = false;
  SearchPage page;
  int flickr_code = 0;  // the stat fail code when Flickr answered with one
  std::string error;    // why it failed (redacted): "stat fail, code 20: Excessive photo offset in search"
  int attempts = 0;
  // Failed, but worth asking again later (timeout, 5xx, 429, cut-off JSON, Flickr's temporary codes), when the
  // caller does its own retries (RetryPolicy::max_attempts 1); with the wait the server asked for, if any.
  bool retryable = false;
  std::optional<double> retry_after_seconds;
};

struct SearchStats {
  int64_t calls = 0;           // HTTP requests made, retries included
  double network_seconds = 0;  // waiting for responses
  double parse_seconds = 0;
  double backoff_seconds = 0;    // backoff and Retry-After waits
  double rate_wait_seconds = 0;  // waits imposed by the rate limiter
};

class FlickrSearchClient {
 public:
  FlickrSearchClient(HttpClient& http, SearchClientOptions options);

  // A failed search (HTTP error, malformed JSON, stat fail) after the retries is an outcome, not an
  // exception; an invalid API key throws ExternalError at once, since every further call would fail too.
  SearchOutcome Search(const SearchQuery& query);

  const SearchStats& stats() const { return stats_; }

 private:
  HttpClient& http_;
  SearchClientOptions options_;
  SearchStats stats_;
  // Per search URL, the unparseable responses seen (reason and SHA-256): the same one again is final, also across
  // calls when the caller retries later itself.
  std::map<std::string, std::set<std::string>> failures_seen_;
};

}  // namespace evalsuite::flickr
