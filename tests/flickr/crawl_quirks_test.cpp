// The crawl against the quirks a real Flickr crawl meets (issue 19): a lone surrogate in a title, a complete
// response that fails the same way every time, "pages":0 beside a full page, Retry-After on a 503, two classes
// sharing a query, and downloads that must be on disk before the main thread wakes from a long wait.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "datasets/flickr/crawl_state.h"
#include "datasets/flickr/crawler.h"
#include "tests/flickr/fake_flickr.h"
#include "tests/support/test_support.h"

namespace evalsuite::flickr {
namespace {

using testing::FakeFlickr;
using testing::FakePhoto;
using testing::SearchFault;

constexpr const char* kQuirksApiKey = "0123456789abcdef0123456789abcdef";

// `count` photos with only an id and an upload date after the cutoff.
std::vector<FakePhoto> BarePhotos(const std::string& prefix, int count) {
  std::vector<FakePhoto> photos;
  for (int i = 1; i <= count; ++i) {
    FakePhoto p;
    p.id = prefix + std::to_string(i);
    p.date_upload = testing::kAfterCutoff + i;
    photos.push_back(p);
  }
  return photos;
}

class CrawlQuirksTest : public ::testing::Test {
 protected:
  CrawlOptions Options() {
    CrawlOptions o;
    o.out_dir = dir_.path() / "crawl";
    o.min_upload_date = testing::kCutoff2014;
    o.per_class = 4;
    o.endpoint = server_.endpoint();
    o.api_key = kQuirksApiKey;
    o.rate = RateLimit{0, 3600};
    o.timeout_seconds = 2;
    o.retry.initial_backoff_seconds = 0.25;
    o.download_threads = 2;
    o.sleeper = [this](double s) {
      std::lock_guard<std::mutex> lock(mutex_);
      sleeps_.push_back(s);
    };
    return o;
  }
  std::vector<double> Sleeps() {
    std::lock_guard<std::mutex> lock(mutex_);
    return sleeps_;
  }

  FakeFlickr server_{kQuirksApiKey};
  evalsuite::testing::TempDir dir_;
  std::mutex mutex_;
  std::vector<double> sleeps_;
};

TEST_F(CrawlQuirksTest, ALoneSurrogateInATitleCostsNothing) {
  std::vector<FakePhoto> photos = BarePhotos("t", 5);
  photos[1].lone_surrogate_title = true;
  server_.SetResults("tench", photos);
  const CrawlResult result = RunCrawl({{0, "n01440764", {"tench"}, ""}}, Options());
  ASSERT_EQ(result.manifest.items.size(), 4u);
  EXPECT_EQ(result.manifest.items[1].flickr_id, "t2");
  EXPECT_EQ(server_.search_requests("tench"), 1);  // read at once: no retry of a page that parses
  EXPECT_FALSE(result.warnings);
}

TEST_F(CrawlQuirksTest, AResponseThatFailsTheSameWayIsNotAskedSixTimes) {
  server_.SetPermanentFault("tench", SearchFault::kMalformed);
  server_.SetResults("goldfish", BarePhotos("g", 4));
  const CrawlResult result = RunCrawl({{0, "n01440764", {"tench"}, ""}, {1, "n01443537", {"goldfish"}, ""}}, Options());
  // The fake alternates two bodies (total as a number, then as a string): the third answer repeats the first.
  EXPECT_LE(server_.search_requests("tench"), 3);
  EXPECT_TRUE(result.warnings);
  ASSERT_EQ(result.manifest.source.at("failed_queries").size(), 1u);
  EXPECT_NE(result.manifest.source.at("failed_queries")[0].at("error").get<std::string>().find("not retried further"),
            std::string::npos);
  EXPECT_EQ(result.manifest.items.size(), 4u);  // goldfish is unaffected
}

TEST_F(CrawlQuirksTest, PagingGoesOnWhenPagesSaysZeroButPagesComeBackFull) {
  server_.SetResults("tench", BarePhotos("t", 9));
  server_.SetReportPagesZero(true);
  CrawlOptions options = Options();
  options.per_page = 2;
  options.per_class = 5;
  const CrawlResult result = RunCrawl({{0, "n01440764", {"tench"}, ""}}, options);
  EXPECT_EQ(result.manifest.items.size(), 5u);
  EXPECT_EQ(server_.search_requests("tench"), 3);
  EXPECT_EQ(result.stats.classes_short, 0);
}

TEST_F(CrawlQuirksTest, PagingStopsAtAShortPageWhenNothingSaysMore) {
  server_.SetResults("tench", BarePhotos("t", 3));
  server_.SetReportPagesZero(true);
  CrawlOptions options = Options();
  options.per_page = 2;
  options.per_class = 5;
  const CrawlResult result = RunCrawl({{0, "n01440764", {"tench"}, ""}}, options);
  EXPECT_EQ(result.manifest.items.size(), 3u);
  EXPECT_EQ(server_.search_requests("tench"), 2);  // "total":3 asked for page 2; its one photo ended it
}

TEST_F(CrawlQuirksTest, RetryAfterOnA503IsHonoured) {
  server_.SetResults("tench", BarePhotos("t", 4));
  server_.SetRetryAfter("7");
  server_.QueueSearchFaults("tench", {SearchFault::k503RetryAfter});
  const CrawlResult result = RunCrawl({{0, "n01440764", {"tench"}, ""}}, Options());
  EXPECT_EQ(result.manifest.items.size(), 4u);
  const std::vector<double> sleeps = Sleeps();
  EXPECT_EQ(std::count_if(sleeps.begin(), sleeps.end(), [](double s) { return std::abs(s - 7.0) < 0.05; }), 1)
      << "Retry-After: 7 was not waited";
}

// A query that fails (500, then 500) waits for its retries in a queue, not in a sleep: the other classes are
// searched meanwhile (the API thread used to sleep 52.5 s of a 56.5 s crawl while nothing else was asked).
TEST_F(CrawlQuirksTest, OneQuerysBackoffDoesNotHoldUpTheOtherClasses) {
  server_.SetResults("tench", BarePhotos("t", 4));
  server_.SetResults("goldfish", BarePhotos("g", 4));
  server_.SetResults("tiger shark", BarePhotos("s", 4));
  server_.QueueSearchFaults("tench", {SearchFault::k500, SearchFault::k500});
  CrawlOptions options = Options();
  options.retry.initial_backoff_seconds = 0.3;
  const CrawlResult result = RunCrawl(
      {{0, "n01440764", {"tench"}, ""}, {1, "n01443537", {"goldfish"}, ""}, {3, "n01491361", {"tiger shark"}, ""}},
      options);
  EXPECT_EQ(result.manifest.items.size(), 12u);
  EXPECT_FALSE(result.warnings);
  EXPECT_EQ(server_.search_requests("tench"), 3);
  // Both other classes were searched before tench's first retry: the old crawl slept through tench's backoff
  // first (tench, tench, tench, goldfish, tiger shark).
  const std::vector<std::string> order = server_.search_order();
  EXPECT_EQ(order, (std::vector<std::string>{"tench", "goldfish", "tiger shark", "tench", "tench"}));
  EXPECT_GE(result.stats.backoff_seconds, 0.3 + 0.6 - 1e-9);
  const std::vector<double> sleeps = Sleeps();
  EXPECT_TRUE(sleeps.empty() || *std::max_element(sleeps.begin(), sleeps.end()) < 0.6 + 0.05);
}

TEST_F(CrawlQuirksTest, ClassesSharingAQuerySearchItOnceAndTheManifestSaysSo) {
  server_.SetResults("crane", BarePhotos("c", 6));
  const CrawlResult result = RunCrawl({{134, "n02012849", {"crane"}, "large long-necked wading bird"},
                                       {517, "n03126707", {"crane"}, "lifts and moves heavy objects"}},
                                      Options());
  EXPECT_EQ(server_.search_requests("crane"), 1);
  const nlohmann::json& shared = result.manifest.source.at("shared_queries");
  ASSERT_EQ(shared.size(), 1u);
  EXPECT_EQ(shared[0].at("query"), "crane");
  EXPECT_EQ(shared[0].at("wnids"), (nlohmann::json{"n02012849", "n03126707"}));
}

TEST_F(CrawlQuirksTest, DownloadsAreRecordedWhileTheMainThreadWaitsForTheRateLimit) {
  server_.SetResults("tench", BarePhotos("t", 4));
  server_.SetResults("goldfish", BarePhotos("g", 4));
  CrawlOptions options = Options();
  options.rate = RateLimit{1, 3600};  // the second search waits an hour
  double now = 2'000'000'000;
  options.clock = [&] { return now; };
  const std::filesystem::path state_file = options.out_dir / kCrawlStateFile;
  size_t recorded_during_wait = 0;
  options.sleeper = [&](double seconds) {
    if (seconds < 60) return;  // backoff, not the rate-limit wait
    // The main thread sleeps here. What a kill now would leave: the downloads already in crawl.db.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      recorded_during_wait = CrawlState(state_file).LoadDownloads().size();
      if (recorded_during_wait >= 4) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    throw std::runtime_error("killed during the rate-limit wait");
  };
  EXPECT_THROW(RunCrawl({{0, "n01440764", {"tench"}, ""}, {1, "n01443537", {"goldfish"}, ""}}, options),
               std::runtime_error);
  EXPECT_EQ(recorded_during_wait, 4u) << "finished downloads were not recorded while the main thread slept";

  const CrawlResult resumed =
      RunCrawl({{0, "n01440764", {"tench"}, ""}, {1, "n01443537", {"goldfish"}, ""}}, Options());
  EXPECT_EQ(resumed.manifest.items.size(), 8u);
  for (const auto& [id, count] : server_.image_counts()) EXPECT_EQ(count, 1) << id << " was downloaded twice";
}

}  // namespace
}  // namespace evalsuite::flickr
