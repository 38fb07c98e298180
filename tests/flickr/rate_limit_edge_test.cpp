// Issue 29, item 5: with --rate 30/min, 31 API calls were once measured in one 60-second window. Here the
// local Flickr counts the calls it receives per 60-second window, with the limit at its edge (30/min for
// 65 s). The clock is the crawl's injected one, and the server moves it: each request spends a varying time
// on the way in (when the server "receives" it) and on the way back, as a real network does. Restarts and
// several processes are separate ledgers on one SQLite file, as separate processes have.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <thread>

#include "datasets/flickr/flickr_api.h"
#include "datasets/flickr/rate_limiter.h"
#include "datasets/flickr/shared_call_ledger.h"
#include "tests/flickr/fake_flickr.h"
#include "tests/support/test_support.h"

namespace evalsuite::flickr {
namespace {

constexpr const char* kRateEdgeApiKey = "rate-edge-key-0123456789abcdef";

// The most arrivals in any closed window [t, t + window].
int MostCallsInAWindow(std::vector<double> arrivals, double window) {
  std::sort(arrivals.begin(), arrivals.end());
  int most = 0;
  size_t last = 0;
  for (size_t first = 0; first < arrivals.size(); ++first) {
    last = std::max(last, first);
    while (last + 1 < arrivals.size() && arrivals[last + 1] <= arrivals[first] + window) ++last;
    most = std::max(most, static_cast<int>(last - first + 1));
  }
  return most;
}

class SimulatedNetwork {
 public:
  explicit SimulatedNetwork(uint64_t seed) : rng_(seed) {}
  WallClock clock() {
    return [this] {
      std::lock_guard<std::mutex> lock(mutex_);
      return now_;
    };
  }
  Sleeper sleeper() {
    return [this](double seconds) {
      std::lock_guard<std::mutex> lock(mutex_);
      now_ += seconds;
    };
  }
  // The server's side of one request: in-bound delay, arrival recorded, out-bound delay.
  void Request() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::uniform_real_distribution<double> delay(0.0, 0.5);
    now_ += delay(rng_);
    arrivals_.push_back(now_);
    now_ += delay(rng_);
  }
  std::vector<double> arrivals() {
    std::lock_guard<std::mutex> lock(mutex_);
    return arrivals_;
  }
  double now() { return clock()(); }

 private:
  std::mutex mutex_;
  std::mt19937_64 rng_;
  double now_ = 2'000'000'000;
  std::vector<double> arrivals_;
};

struct Process {
  Process(SimulatedNetwork& network, const std::filesystem::path& ledger, const std::string& endpoint)
      : limiter(RateLimit{30, 60}, network.clock(), network.sleeper(),
                std::make_unique<SharedCallLedger>(ledger, ApiKeyFingerprint(kRateEdgeApiKey)),
                /*max_call_seconds=*/10) {
    SearchClientOptions options;
    options.endpoint = endpoint;
    options.api_key = kRateEdgeApiKey;
    options.http.timeout_seconds = 10;
    options.retry.max_attempts = 1;
    options.limiter = &limiter;
    options.sleeper = network.sleeper();
    options.clock = network.clock();
    client = std::make_unique<FlickrSearchClient>(http, options);
  }
  void Search(int page) {
    SearchQuery query;
    query.text = "tench";
    query.page = page;
    query.per_page = 5;
    client->Search(query);
  }
  CurlHttpClient http;
  RateLimiter limiter;
  std::unique_ptr<FlickrSearchClient> client;
};

TEST(RateLimitEdgeTest, ThirtyPerMinuteForSixtyFiveSecondsNeverPutsThirtyOneCallsInAWindow) {
  testing::FakeFlickr server(kRateEdgeApiKey);
  server.SetGeneratedResults(5);
  SimulatedNetwork network(29);
  server.SetOnSearch([&](int) { network.Request(); });
  evalsuite::testing::TempDir dir;
  const auto ledger = dir.path() / "api-calls.db";
  const double start = network.now();
  {
    // Two processes that take turns, then one of them restarts, then a third joins; all for 65 s and more.
    auto a = std::make_unique<Process>(network, ledger, server.endpoint());
    Process b(network, ledger, server.endpoint());
    int page = 1;
    while (network.now() < start + 30) {
      a->Search(page++);
      b.Search(page++);
    }
    a = std::make_unique<Process>(network, ledger, server.endpoint());  // a restart: a fresh limiter, same file
    Process c(network, ledger, server.endpoint());
    while (network.now() < start + 70) {
      a->Search(page++);
      b.Search(page++);
      c.Search(page++);
    }
  }
  const std::vector<double> arrivals = network.arrivals();
  ASSERT_GE(arrivals.size(), 45u);  // more than the limit allows in one window: the edge was tested
  EXPECT_LE(MostCallsInAWindow(arrivals, 60.0), 30);
  // And it was used: the first minute is full.
  EXPECT_EQ(MostCallsInAWindow({arrivals.begin(), arrivals.begin() + 30}, 60.0), 30);
}

// A process killed during a call leaves a row that never finishes: it counts until its deadline.
TEST(RateLimitEdgeTest, ACallOfAKilledProcessCountsUntilItsDeadline) {
  evalsuite::testing::TempDir dir;
  const auto file = dir.path() / "api-calls.db";
  const RateLimit limit{1, 60};
  {
    SharedCallLedger killed(file, ApiKeyFingerprint(kRateEdgeApiKey));
    EXPECT_EQ(killed.TryStart(1000, 1030, limit), 0);  // then the process dies without Finish
  }
  SharedCallLedger next(file, ApiKeyFingerprint(kRateEdgeApiKey));
  EXPECT_DOUBLE_EQ(next.TryStart(1005, 1035, limit), 85);  // 1030 + 60 - 1005
  SharedCallLedger other_key(file, ApiKeyFingerprint("another key"));
  EXPECT_EQ(other_key.TryStart(1005, 1035, limit), 0);  // another key has its own budget
  EXPECT_EQ(next.CallStarts(), (std::vector<double>{1000}));
}

// Real threads on the real clock, each with its own connection to the file: the check and the record are one
// transaction, so no two of them take the last slot of a window (5 per second for 2.2 s, 4 at once).
TEST(RateLimitEdgeTest, ConcurrentProcessesShareOneBudget) {
  testing::FakeFlickr server(kRateEdgeApiKey);
  server.SetGeneratedResults(5);
  std::mutex mutex;
  std::vector<double> arrivals;
  server.SetOnSearch([&](int) {
    std::lock_guard<std::mutex> lock(mutex);
    arrivals.push_back(SystemNowSeconds());
  });
  evalsuite::testing::TempDir dir;
  const auto file = dir.path() / "api-calls.db";
  const double end = SystemNowSeconds() + 2.2;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      CurlHttpClient http;
      RateLimiter limiter(RateLimit{5, 1}, SystemNowSeconds, RealSleep,
                          std::make_unique<SharedCallLedger>(file, ApiKeyFingerprint(kRateEdgeApiKey)), 5);
      SearchClientOptions options;
      options.endpoint = server.endpoint();
      options.api_key = kRateEdgeApiKey;
      options.http.timeout_seconds = 5;
      options.retry.max_attempts = 1;
      options.limiter = &limiter;
      FlickrSearchClient client(http, options);
      for (int page = 1; SystemNowSeconds() < end; ++page) {
        SearchQuery query;
        query.text = "tench " + std::to_string(t);
        query.page = page;
        query.per_page = 5;
        client.Search(query);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_GE(arrivals.size(), 10u);
  EXPECT_LE(MostCallsInAWindow(arrivals, 1.0), 5);
}

}  // namespace
}  // namespace evalsuite::flickr
