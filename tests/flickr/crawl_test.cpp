// The crawl, in-process, against the local Flickr (fake_flickr.h): ranking across synonyms, every way the
// server misbehaves, rejected images with their reasons, the client-side cutoff, resuming from crawl.db,
// and the API key never reaching a file. Sleeps are recorded, not slept: the tests take seconds.
#include <gtest/gtest.h>

#include <mutex>
#include <set>

#include "common/error.h"
#include "common/sha256.h"
#include "datasets/flickr/crawl_state.h"
#include "datasets/flickr/crawler.h"
#include "datasets/flickr/shared_call_ledger.h"
#include "datasets/images/candidate_manifest.h"
#include "tests/flickr/fake_flickr.h"
#include "tests/support/test_support.h"

namespace evalsuite::flickr {
namespace {

namespace fs = std::filesystem;
using testing::FakeFlickr;
using testing::FakePhoto;
using testing::ImageBody;
using testing::SearchFault;

constexpr const char* kKey = "0123456789abcdef0123456789abcdef";

std::vector<FakePhoto> Photos(const std::string& prefix, int count) {
  std::vector<FakePhoto> photos;
  for (int i = 1; i <= count; ++i) {
    FakePhoto p;
    p.id = prefix + std::to_string(i);
    p.owner = prefix + "@N0" + std::to_string(i);
    p.owner_name = "owner " + p.id;
    p.license = std::to_string(i % 10);
    p.date_upload = testing::kAfterCutoff + i;
    p.date_taken = "2014-06-0" + std::to_string(i % 9 + 1) + " 12:00:00";
    photos.push_back(p);
  }
  return photos;
}

FakePhoto Photo(const std::string& id, ImageBody body = ImageBody::kJpeg) {
  FakePhoto p;
  p.id = id;
  p.body = body;
  return p;
}

// "wnid/flickr_id@rank" for every item, in manifest order.
std::vector<std::string> Summary(const datasets::CandidateManifest& manifest) {
  std::vector<std::string> out;
  for (const auto& item : manifest.items) out.push_back(item.id + "@" + std::to_string(item.rank));
  return out;
}

std::map<std::string, std::string> RejectedCodes(const datasets::CandidateManifest& manifest) {
  std::map<std::string, std::string> codes;
  for (const auto& r : manifest.rejected) codes[r.at("flickr_id").get<std::string>()] = r.at("code").get<std::string>();
  return codes;
}

// Every file under `dir`, read whole, must not contain `secret`.
void ExpectSecretInNoFile(const fs::path& dir, const std::string& secret) {
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    ++files;
    EXPECT_EQ(evalsuite::testing::ReadFile(entry.path()).find(secret), std::string::npos) << entry.path();
  }
  EXPECT_GT(files, 2);
}

class CrawlTest : public ::testing::Test {
 protected:
  CrawlOptions Options() {
    CrawlOptions o;
    o.out_dir = dir_.path() / "crawl";
    o.min_upload_date = testing::kCutoff2014;
    o.per_class = 4;
    o.endpoint = server_.endpoint();
    o.api_key = kKey;
    o.rate = RateLimit{0, 3600};  // off: the limiter has its own tests
    o.timeout_seconds = 0.3;      // the slow fault answers after 1 s
    o.retry.max_attempts = 6;
    o.retry.initial_backoff_seconds = 0.25;
    o.download_threads = 3;
    o.sleeper = [this](double s) {
      std::lock_guard<std::mutex> lock(sleeps_mutex_);
      sleeps_.push_back(s);
    };
    return o;
  }

  std::vector<CrawlClass> Classes() {
    return {{7, "n01440764", {"tench", "Tinca tinca"}, "freshwater dace-like game fish"},
            {1, "n01443537", {"goldfish", "Carassius auratus"}, "small golden or orange-red freshwater fishes"}};
  }

  // tench: t1 t2 s t3 t4 t5; Tinca tinca: s u1 u2 u3. Interleaved: t1 s t2 u1 (s again) u2 t3 u3 t4 t5.
  void StandardResults() {
    auto tench = Photos("t", 5);
    tench.insert(tench.begin() + 2, Photo("s"));
    server_.SetResults("tench", tench);
    auto tinca = Photos("u", 3);
    tinca.insert(tinca.begin(), Photo("s"));
    server_.SetResults("Tinca tinca", tinca);
    server_.SetResults("goldfish", Photos("g", 6));
    server_.SetResults("Carassius auratus", Photos("c", 2));
  }

  const std::vector<std::string> kStandardSummary = {"n01440764/t1@1", "n01440764/s@2",  "n01440764/t2@3",
                                                     "n01440764/u1@4", "n01443537/g1@1", "n01443537/c1@2",
                                                     "n01443537/g2@3", "n01443537/c2@4"};

  // Sleeps of `seconds`, give or take the few milliseconds that passed between queueing a retry and sleeping
  // for what was left of its wait.
  double SleptFor(double seconds) {
    std::lock_guard<std::mutex> lock(sleeps_mutex_);
    return std::count_if(sleeps_.begin(), sleeps_.end(), [&](double s) { return std::abs(s - seconds) < 0.05; });
  }

  FakeFlickr server_{kKey};
  evalsuite::testing::TempDir dir_;
  std::mutex sleeps_mutex_;
  std::vector<double> sleeps_;
};

TEST_F(CrawlTest, TopKAcrossSynonymsWithoutRepeatsAndEveryFieldFilled) {
  StandardResults();
  const CrawlResult result = RunCrawl(Classes(), Options());
  EXPECT_EQ(Summary(result.manifest), kStandardSummary);
  EXPECT_FALSE(result.warnings);
  EXPECT_TRUE(result.manifest.rejected.empty());
  EXPECT_TRUE(server_.protocol_violations().empty()) << server_.protocol_violations().front();
  EXPECT_EQ(server_.total_search_requests(), 4);  // one call per synonym
  const auto params = server_.last_search_params();
  EXPECT_EQ(params.find("min_upload_date")->second, "1388534400");
  EXPECT_EQ(params.find("per_page")->second, "20");  // max(20, 4 x 4)

  // What is on disk is what RunCrawl returned, and every image is the server's JPEG, stored under its hash.
  const datasets::CandidateManifest on_disk = datasets::ReadCandidateManifest(Options().out_dir);
  EXPECT_EQ(Summary(on_disk), kStandardSummary);
  ASSERT_EQ(on_disk.classes.size(), 2u);
  EXPECT_EQ(on_disk.classes.at("n01440764").index, 7);
  EXPECT_EQ(on_disk.classes.at("n01440764").synonyms, (std::vector<std::string>{"tench", "Tinca tinca"}));
  const datasets::Candidate& t2 = on_disk.items[2];
  EXPECT_EQ(t2.class_index, 7);
  EXPECT_EQ(t2.query, "tench");
  EXPECT_EQ(t2.flickr_id, "t2");
  EXPECT_EQ(t2.owner, "t@N02");
  EXPECT_EQ(t2.owner_name, "owner t2");
  EXPECT_EQ(t2.license, "2");
  EXPECT_EQ(t2.date_upload, testing::kAfterCutoff + 2);
  EXPECT_EQ(t2.date_taken, "2014-06-03 12:00:00");
  EXPECT_EQ(t2.url, server_.image_url("t2", 'z'));  // z preferred
  EXPECT_EQ(on_disk.items[3].query, "Tinca tinca");
  for (const auto& item : on_disk.items) {
    EXPECT_EQ(item.sha256, Sha256Hex(server_.JpegOf(item.flickr_id))) << item.id;
    EXPECT_EQ(item.path, "images/" + item.sha256 + ".jpg");
    EXPECT_EQ(Sha256FileHex(Options().out_dir / item.path), item.sha256);
    EXPECT_EQ(item.width, FakeFlickr::kWidthZ);
    EXPECT_EQ(item.height, FakeFlickr::kHeightZ);
  }
  EXPECT_EQ(on_disk.source.at("since"), "2014-01-01T00:00:00Z");
  EXPECT_EQ(on_disk.source.at("endpoint"), server_.endpoint());
  EXPECT_EQ(on_disk.source.at("per_class"), 4);
}

TEST_F(CrawlTest, ServerMisbehaviourIsRetriedAndTheManifestIsTheSame) {
  StandardResults();
  server_.SetRetryAfter("3");
  server_.QueueSearchFaults("tench", {SearchFault::k500, SearchFault::kSlow, SearchFault::kMalformed,
                                      SearchFault::kTemporary, SearchFault::k429});
  server_.QueueSearchFaults("goldfish", {SearchFault::kEchoRequest});
  const CrawlResult result = RunCrawl(Classes(), Options());
  EXPECT_EQ(Summary(result.manifest), kStandardSummary);
  EXPECT_FALSE(result.warnings);
  EXPECT_EQ(server_.search_requests("tench"), 6);
  EXPECT_EQ(server_.search_requests("goldfish"), 2);
  EXPECT_EQ(SleptFor(3.0), 1);  // the 429's Retry-After, not the backoff (which would be 4 s by then)
  EXPECT_EQ(result.stats.api_calls, 4 + 5 + 1);
  ExpectSecretInNoFile(Options().out_dir, kKey);
}

TEST_F(CrawlTest, FailedQueriesAreReportedWithCodeAndTheCrawlGoesOn) {
  StandardResults();
  server_.SetPermanentFault("Tinca tinca", SearchFault::kExcessiveOffset);
  server_.SetPermanentFault("Carassius auratus", SearchFault::k500);
  CrawlOptions options = Options();
  options.retry.max_attempts = 3;
  const CrawlResult result = RunCrawl(Classes(), options);
  EXPECT_TRUE(result.warnings);
  EXPECT_EQ(Summary(result.manifest),
            (std::vector<std::string>{"n01440764/t1@1", "n01440764/t2@2", "n01440764/s@3", "n01440764/t3@4",
                                      "n01443537/g1@1", "n01443537/g2@2", "n01443537/g3@3", "n01443537/g4@4"}));
  EXPECT_EQ(server_.search_requests("Tinca tinca"), 1);  // a permanent stat fail is not retried
  EXPECT_EQ(server_.search_requests("Carassius auratus"), 3);
  const auto& failed = result.manifest.source.at("failed_queries");
  ASSERT_EQ(failed.size(), 2u);
  EXPECT_EQ(failed[0].at("query"), "Tinca tinca");
  EXPECT_EQ(failed[0].at("code"), 20);
  EXPECT_EQ(failed[0].at("error"), "stat fail, code 20: Excessive photo offset in search");
  EXPECT_EQ(failed[1].at("error"), "HTTP 500 (after 3 attempts)");

  // Failed queries are not recorded as done: a rerun asks again (and only those).
  server_.SetPermanentFault("Tinca tinca", SearchFault::kSlow);  // answers, late: retried after a timeout
  server_.SetSlowSeconds(0.0);
  server_.SetPermanentFault("Carassius auratus", SearchFault::kSlow);
  const CrawlResult rerun = RunCrawl(Classes(), Options());
  EXPECT_FALSE(rerun.warnings);
  EXPECT_EQ(Summary(rerun.manifest), kStandardSummary);
  EXPECT_EQ(server_.search_requests("tench"), 1);
  EXPECT_EQ(server_.search_requests("goldfish"), 1);
  EXPECT_EQ(rerun.stats.searches_reused, 2);
}

TEST_F(CrawlTest, InvalidKeyStopsAtOnceWithAClearErrorAndNoKey) {
  StandardResults();
  CrawlOptions options = Options();
  options.api_key = "wrong-key-9f8e7d6c5b4a";
  try {
    RunCrawl(Classes(), options);
    FAIL() << "expected the crawl to stop";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kExternal);
    const std::string text = e.what();
    EXPECT_NE(text.find("code 100"), std::string::npos) << text;
    EXPECT_NE(text.find("FLICKR_API_KEY"), std::string::npos) << text;
    EXPECT_EQ(text.find(options.api_key), std::string::npos) << text;
  }
  EXPECT_EQ(server_.total_search_requests(), 1);
  EXPECT_FALSE(fs::exists(options.out_dir / "candidates.json"));

  // The key going bad mid-crawl: what finished is kept, and the rerun does not ask for it again.
  server_.QueueSearchFaults("goldfish", {SearchFault::kInvalidKey});
  EXPECT_THROW(RunCrawl(Classes(), Options()), Error);
  const auto before = server_.search_counts();
  EXPECT_EQ(before.at("tench"), 2);  // once with the wrong key, once now
  EXPECT_EQ(before.at("goldfish"), 1);
  const CrawlResult rerun = RunCrawl(Classes(), Options());
  EXPECT_EQ(Summary(rerun.manifest), kStandardSummary);
  EXPECT_EQ(server_.search_requests("tench"), before.at("tench"));
  EXPECT_EQ(server_.search_requests("Tinca tinca"), before.at("Tinca tinca"));
  EXPECT_EQ(server_.search_requests("goldfish"), 2);
}

TEST_F(CrawlTest, BadDownloadsAreRejectedWithReasonsAndReplacedByTheNextCandidates) {
  FakePhoto same = Photo("p8", ImageBody::kSameAs);
  same.same_as = "p1";
  server_.SetResults("tench", {Photo("p1"), Photo("p2", ImageBody::kHtml), Photo("p3", ImageBody::kNotImage),
                               Photo("p4", ImageBody::kTruncated), Photo("p5", ImageBody::kNotFound),
                               Photo("p6", ImageBody::k500Once), Photo("p7"), same, Photo("p9"), Photo("p10")});
  const CrawlResult result = RunCrawl({{0, "n01440764", {"tench"}, ""}}, Options());
  EXPECT_EQ(Summary(result.manifest),
            (std::vector<std::string>{"n01440764/p1@1", "n01440764/p6@2", "n01440764/p7@3", "n01440764/p9@4"}));
  const std::map<std::string, std::string> expected = {
      {"p2", "html"}, {"p3", "not-an-image"}, {"p4", "truncated"}, {"p5", "http-status"}, {"p8", "same-image"}};
  EXPECT_EQ(RejectedCodes(result.manifest), expected);
  for (const auto& r : result.manifest.rejected) {
    EXPECT_FALSE(r.at("reason").get<std::string>().empty());
    EXPECT_EQ(r.at("url"), server_.image_url(r.at("flickr_id").get<std::string>(), 'z'));
    EXPECT_EQ(r.at("wnid"), "n01440764");
  }
  EXPECT_EQ(server_.image_requests("p6"), 2);   // 500 once, then retried
  EXPECT_EQ(server_.image_requests("p10"), 0);  // never needed
  int files = 0;
  for (const auto& entry : fs::directory_iterator(Options().out_dir / "images")) {
    EXPECT_EQ(entry.path().extension(), ".jpg");
    ++files;
  }
  EXPECT_EQ(files, 4);  // p8's bytes are p1's: stored once; rejected bytes are not stored
}

TEST_F(CrawlTest, APhotoFoundForTwoClassesIsDownloadedOnceAndListedForBoth) {
  server_.SetResults("tench", {Photo("shared"), Photo("t1")});
  server_.SetResults("goldfish", {Photo("shared"), Photo("g1")});
  CrawlOptions options = Options();
  options.per_class = 2;
  const CrawlResult result = RunCrawl({{0, "n01440764", {"tench"}, ""}, {1, "n01443537", {"goldfish"}, ""}}, options);
  EXPECT_EQ(Summary(result.manifest),
            (std::vector<std::string>{"n01440764/shared@1", "n01440764/t1@2", "n01443537/shared@1", "n01443537/g1@2"}));
  EXPECT_EQ(server_.image_requests("shared"), 1);
  EXPECT_EQ(result.manifest.items[0].path, result.manifest.items[2].path);
}

TEST_F(CrawlTest, PhotosBeforeTheCutoffAreNeverKeptWhateverTheServerSends) {
  server_.SetHonourMinUploadDate(false);
  auto photos = Photos("new", 3);
  FakePhoto old = Photo("old1");
  old.date_upload = testing::kCutoff2014 - 1;
  FakePhoto older = Photo("old2");
  older.date_upload = 1200000000;
  FakePhoto undated = Photo("nodate");
  undated.with_extras = false;  // no dateupload, license, owner name: tolerated, but the date cannot be checked
  FakePhoto no_urls = Photo("nourl");
  no_urls.with_urls = false;
  FakePhoto at_cutoff = Photo("exact");
  at_cutoff.date_upload = testing::kCutoff2014;  // "greater than or equal to": kept
  photos.insert(photos.begin(), {old, undated, older, no_urls, at_cutoff});
  server_.SetResults("tench", photos);
  const CrawlResult result = RunCrawl({{0, "n01440764", {"tench"}, ""}}, Options());
  EXPECT_EQ(Summary(result.manifest), (std::vector<std::string>{"n01440764/exact@1", "n01440764/new1@2",
                                                                "n01440764/new2@3", "n01440764/new3@4"}));
  for (const auto& item : result.manifest.items) EXPECT_GE(item.date_upload, testing::kCutoff2014);
  const std::map<std::string, std::string> expected = {
      {"old1", "before-cutoff"}, {"old2", "before-cutoff"}, {"nodate", "no-upload-date"}, {"nourl", "no-url"}};
  EXPECT_EQ(RejectedCodes(result.manifest), expected);
  EXPECT_EQ(server_.image_requests("old1"), 0);  // not even downloaded
  EXPECT_EQ(server_.image_requests("old2"), 0);
}

TEST_F(CrawlTest, ShortClassesFetchFurtherPagesAndAreReported) {
  // 3 of the first page of 2 are bad; the class still gets 2 good ones from page 2 and 3.
  server_.SetResults("tench", {Photo("a", ImageBody::kHtml), Photo("b", ImageBody::kNotFound), Photo("c"),
                               Photo("d", ImageBody::kTruncated), Photo("e")});
  server_.SetResults("goldfish", {Photo("g1")});
  CrawlOptions options = Options();
  options.per_class = 2;
  options.per_page = 2;
  const CrawlResult result = RunCrawl({{0, "n01440764", {"tench"}, ""}, {1, "n01443537", {"goldfish"}, ""}}, options);
  EXPECT_EQ(Summary(result.manifest), (std::vector<std::string>{"n01440764/c@1", "n01440764/e@2", "n01443537/g1@1"}));
  EXPECT_EQ(server_.search_requests("tench"), 3);
  EXPECT_EQ(result.stats.classes_short, 1);
  ASSERT_EQ(result.manifest.source.at("classes_short").size(), 1u);
  EXPECT_EQ(result.manifest.source.at("classes_short")[0].at("wnid"), "n01443537");
}

TEST_F(CrawlTest, ResumeRepeatsNothingFinishedAndRefusesOtherSettings) {
  StandardResults();
  const CrawlResult first = RunCrawl(Classes(), Options());
  const auto images_before = server_.image_counts();
  const CrawlResult again = RunCrawl(Classes(), Options());
  EXPECT_EQ(Summary(again.manifest), Summary(first.manifest));
  EXPECT_EQ(server_.total_search_requests(), 4);
  EXPECT_EQ(server_.image_counts(), images_before);
  EXPECT_EQ(again.stats.searches_reused, 4);
  EXPECT_EQ(again.stats.downloads_run, 0);

  CrawlOptions other = Options();
  other.min_upload_date += 1;
  try {
    RunCrawl(Classes(), other);
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_EQ(e.where(), "min_upload_date");
  }
}

TEST_F(CrawlTest, RateLimitedCallsArePersistedForTheNextRun) {
  StandardResults();
  CrawlOptions options = Options();
  options.rate = RateLimit{3, 3600};
  double now = 2'000'000'000;
  std::mutex clock_mutex;
  options.clock = [&] {
    std::lock_guard<std::mutex> lock(clock_mutex);
    return now;
  };
  options.sleeper = [&](double s) {
    std::lock_guard<std::mutex> lock(clock_mutex);
    sleeps_.push_back(s);
    now += s;
  };
  const CrawlResult result = RunCrawl(Classes(), options);
  EXPECT_EQ(result.stats.api_calls, 4);
  EXPECT_DOUBLE_EQ(result.stats.rate_wait_seconds, 3600);  // the 4th call waited for the 1st to age out
  SharedCallLedger ledger(options.out_dir / kCrawlStateFile, ApiKeyFingerprint(kKey));
  EXPECT_EQ(ledger.CallStarts().size(), 4u);
}

// The crawl folder's state file is the user's: a stored page size that is not a number (an edit, a cut write) is an
// error naming the file and the setting, where std::stoi's std::invalid_argument used to end the command as exit 70.
TEST_F(CrawlTest, AStoredPageSizeThatIsNotANumberIsAnInputErrorNamingTheSetting) {
  CrawlOptions options = Options();
  fs::create_directories(options.out_dir);
  {
    CrawlState state(options.out_dir / kCrawlStateFile);
    state.CheckOrStoreSettings({{"per_page", "twenty"}});
  }
  try {
    RunCrawl(Classes(), options);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_NE(e.where().find("setting per_page"), std::string::npos) << e.where();
    EXPECT_NE(e.message().find("'twenty' is not a whole number"), std::string::npos) << e.message();
  }
}

}  // namespace
}  // namespace evalsuite::flickr
