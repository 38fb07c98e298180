// The pieces under the crawl: the search URL, redaction of the key, the rate limiter (with a fake clock),
// backoff and Retry-After, and the retry loop against a scripted HTTP client.
#include <gtest/gtest.h>

#include <deque>
#include <map>

#include "common/error.h"
#include "datasets/flickr/flickr_api.h"
#include "datasets/flickr/rate_limiter.h"
#include "datasets/flickr/retry.h"

namespace evalsuite::flickr {
namespace {

std::multimap<std::string, std::string> QueryParams(const std::string& url) {
  std::multimap<std::string, std::string> params;
  std::string query = url.substr(url.find('?') + 1);
  size_t start = 0;
  while (start <= query.size()) {
    size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string pair = query.substr(start, end - start);
    const size_t eq = pair.find('=');
    params.emplace(pair.substr(0, eq), eq == std::string::npos ? "" : pair.substr(eq + 1));
    start = end + 1;
  }
  return params;
}

TEST(SearchUrlTest, CarriesExactlyTheDocumentedParameters) {
  SearchQuery query;
  query.text = "great white shark";
  query.min_upload_date = 1388534400;
  query.per_page = 500;
  query.page = 2;
  const std::string url = BuildSearchUrl("https://api.flickr.com/services/rest/", "KEY123", query);
  EXPECT_EQ(url.rfind("https://api.flickr.com/services/rest/?", 0), 0u);
  const std::multimap<std::string, std::string> expected = {
      {"method", "flickr.photos.search"},
      {"api_key", "KEY123"},
      {"text", "great%20white%20shark"},
      {"min_upload_date", "1388534400"},
      {"sort", "relevance"},
      {"content_type", "1"},
      {"media", "photos"},
      {"extras", "date_upload%2Cdate_taken%2Clicense%2Cowner_name%2Curl_m%2Curl_z%2Curl_l"},
      {"per_page", "500"},
      {"page", "2"},
      {"format", "json"},
      {"nojsoncallback", "1"}};
  EXPECT_EQ(QueryParams(url), expected);
  query.license = "4,5";
  EXPECT_EQ(QueryParams(BuildSearchUrl("http://h/x?a=b", "K", query)).count("license"), 1u);
  query.per_page = 501;
  EXPECT_THROW(BuildSearchUrl("http://h/", "K", query), Error);
}

TEST(SearchUrlTest, RedactionCoversPlainAndEncodedKeyAndEndpointQuery) {
  EXPECT_EQ(Redact("key=ab+c/d and ab%2Bc%2Fd", "ab+c/d"), "key=[redacted] and [redacted]");
  EXPECT_EQ(Redact("nothing", ""), "nothing");
  EXPECT_EQ(EndpointForRecord("https://h/rest/?api_key=S3CRET&x=1"), "https://h/rest/?api_key=[redacted]&x=1");
  EXPECT_EQ(EndpointForRecord("https://h/rest/"), "https://h/rest/");
}

TEST(RateLimitTest, ParsesUnitsAndOff) {
  EXPECT_EQ(ParseRateLimit("3600/h").calls, 3600);
  EXPECT_EQ(ParseRateLimit("3600/h").window_seconds, 3600);
  EXPECT_EQ(ParseRateLimit("60/min").window_seconds, 60);
  EXPECT_EQ(ParseRateLimit("5/s").window_seconds, 1);
  EXPECT_FALSE(ParseRateLimit("off").enabled());
  EXPECT_FALSE(ParseRateLimit("0").enabled());
  EXPECT_EQ(ParseRateLimit("3600/h").ToString(), "3600/h");
  EXPECT_THROW(ParseRateLimit("fast"), Error);
  EXPECT_THROW(ParseRateLimit("10/day"), Error);
}

// A clock that only moves when the limiter sleeps.
struct FakeTime {
  double now = 1'000'000;
  std::vector<double> sleeps;
  WallClock clock() {
    return [this] { return now; };
  }
  Sleeper sleeper() {
    return [this](double s) {
      sleeps.push_back(s);
      now += s;
    };
  }
};

TEST(RateLimiterTest, NoMoreThanNCallsInAnyWindow) {
  FakeTime time;
  RateLimiter limiter(RateLimit{3, 3600}, time.clock(), time.sleeper());
  std::vector<double> calls;
  for (int i = 0; i < 7; ++i) {
    calls.push_back(limiter.Acquire());
    time.now += 1;  // each call takes a second
  }
  // Any 3600 s window holds at most 3 calls: call i and call i+3 are at least 3600 s apart.
  for (size_t i = 0; i + 3 < calls.size(); ++i) EXPECT_GE(calls[i + 3] - calls[i], 3600.0) << i;
  // Calls 0-2 at t, t+1, t+2; call 3 waits until call 0 leaves the window (3597 s); calls 4 and 5 fit as
  // calls 1 and 2 leave; call 6 waits again.
  EXPECT_EQ(time.sleeps, (std::vector<double>{3597, 3597}));
  EXPECT_DOUBLE_EQ(limiter.waited_seconds(), 2 * 3597);
}

TEST(RateLimiterTest, SeededCallsFromAnEarlierRunCount) {
  FakeTime time;
  RateLimiter limiter(RateLimit{2, 60}, time.clock(), time.sleeper(),
                      std::make_unique<MemoryCallLedger>(
                          std::vector<double>{time.now - 100, time.now - 30, time.now - 10}));  // the first is outside
  limiter.Acquire();
  ASSERT_EQ(time.sleeps.size(), 1u);
  EXPECT_DOUBLE_EQ(time.sleeps[0], 30.0);  // until the call 30 s ago leaves the 60 s window
}

// Issue 29, item 5: calls are counted from their end, not their start. A call sent at t that takes 5 s may
// reach the server at t + 4.9; the call N later must start a full window after that call ended.
TEST(RateLimiterTest, AWindowIsCountedFromTheEndOfEachCall) {
  FakeTime time;
  RateLimiter limiter(RateLimit{2, 60}, time.clock(), time.sleeper());
  limiter.Acquire();  // t0
  time.now += 5;      // a slow answer
  limiter.Finish();   // ended at t0 + 5
  limiter.Acquire();  // t0 + 5
  limiter.Finish();
  const double third = limiter.Acquire();
  EXPECT_DOUBLE_EQ(third, 1'000'000 + 65);  // counting starts would have allowed t0 + 60
  EXPECT_EQ(time.sleeps, (std::vector<double>{60}));
}

TEST(RateLimiterTest, AnUnfinishedCallCountsUntilItsDeadline) {
  FakeTime time;
  auto ledger = std::make_unique<MemoryCallLedger>();
  MemoryCallLedger* raw = ledger.get();
  EXPECT_EQ(raw->TryStart(time.now, time.now + 30, RateLimit{1, 60}), 0);  // never finished: a killed process
  EXPECT_DOUBLE_EQ(raw->TryStart(time.now + 1, time.now + 31, RateLimit{1, 60}), 89);
  EXPECT_DOUBLE_EQ(SecondsUntilSlot({10, 20, 30}, 75, RateLimit{2, 60}), 5);  // the 2nd-newest end leaves at 80
  EXPECT_EQ(SecondsUntilSlot({10, 20, 30}, 90, RateLimit{2, 60}), 0);         // 10 and 20 have left; 30 remains
  EXPECT_EQ(SecondsUntilSlot({10}, 70, RateLimit{1, 60}), 0);                 // ended exactly a window ago
}

TEST(RateLimiterTest, OffNeverWaits) {
  FakeTime time;
  RateLimiter limiter(RateLimit{0, 3600}, time.clock(), time.sleeper());
  for (int i = 0; i < 10000; ++i) limiter.Acquire();
  EXPECT_TRUE(time.sleeps.empty());
}

TEST(RetryTest, BackoffDoublesUpToTheCap) {
  RetryPolicy policy;
  policy.initial_backoff_seconds = 1;
  policy.max_backoff_seconds = 10;
  EXPECT_EQ(BackoffSeconds(policy, 1), 1);
  EXPECT_EQ(BackoffSeconds(policy, 2), 2);
  EXPECT_EQ(BackoffSeconds(policy, 4), 8);
  EXPECT_EQ(BackoffSeconds(policy, 5), 10);
}

TEST(RetryTest, RetryAfterAsSecondsOrHttpDate) {
  EXPECT_EQ(ParseRetryAfter("120", 0), 120);
  // Wed, 21 Oct 2015 07:28:00 GMT = 1445412480
  EXPECT_EQ(ParseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", 1445412480 - 30), 30);
  EXPECT_EQ(ParseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", 1445412480 + 30), 0);
  EXPECT_FALSE(ParseRetryAfter("soon", 0).has_value());
  EXPECT_FALSE(ParseRetryAfter("", 0).has_value());
}

class ScriptedClient : public HttpClient {
 public:
  explicit ScriptedClient(std::deque<HttpResponse> script) : script_(std::move(script)) {}
  HttpResponse Get(const std::string&, const HttpRequestOptions&) override {
    ++calls;
    HttpResponse r = script_.front();
    if (script_.size() > 1) script_.pop_front();
    return r;
  }
  int calls = 0;

 private:
  std::deque<HttpResponse> script_;
};

HttpResponse Status(long status, std::string retry_after = "") {
  HttpResponse r;
  r.status = status;
  r.retry_after = std::move(retry_after);
  return r;
}
HttpResponse Transport(TransportStatus status) {
  HttpResponse r;
  r.transport = status;
  r.transport_error = "simulated";
  return r;
}

TEST(RetryTest, RetriesTransientFailuresWithBackoffAndHonoursRetryAfter) {
  ScriptedClient client({Transport(TransportStatus::kTimeout), Transport(TransportStatus::kConnection), Status(503),
                         Status(429, "7"), Status(200)});
  RetryPolicy policy;
  policy.max_attempts = 6;
  policy.initial_backoff_seconds = 0.5;
  std::vector<double> sleeps;
  RetryHooks hooks;
  int before = 0;
  hooks.before_attempt = [&] { ++before; };
  hooks.sleeper = [&](double s) { sleeps.push_back(s); };
  const RetriedResponse r = GetWithRetry(client, "http://x/", {}, policy, hooks);
  EXPECT_EQ(r.response.status, 200);
  EXPECT_EQ(r.attempts, 5);
  EXPECT_EQ(before, 5);                                          // every attempt takes a rate-limiter slot
  EXPECT_EQ(sleeps, (std::vector<double>{0.5, 1.0, 2.0, 7.0}));  // the 429 waits its Retry-After
}

TEST(RetryTest, FinalAnswersAreNotRetriedAndAttemptsAreBounded) {
  ScriptedClient not_found({Status(404)});
  RetryHooks hooks;
  hooks.sleeper = [](double) {};
  EXPECT_EQ(GetWithRetry(not_found, "u", {}, RetryPolicy{}, hooks).attempts, 1);
  ScriptedClient always_500({Status(500)});
  RetryPolicy policy;
  policy.max_attempts = 3;
  const RetriedResponse r = GetWithRetry(always_500, "u", {}, policy, hooks);
  EXPECT_EQ(r.attempts, 3);
  EXPECT_EQ(always_500.calls, 3);
  EXPECT_EQ(DescribeFailure(r.response), "HTTP 500");
}

}  // namespace
}  // namespace evalsuite::flickr
