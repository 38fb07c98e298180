// `evalsuite holdout crawl` and `holdout dedupe` as a user runs them: the real binary against the local
// Flickr, killed with SIGKILL half-way and rerun, with ImageNet classes and their WordNet 3.0 synonyms.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <thread>

#include "common/error.h"
#include "datasets/flickr/crawl_state.h"
#include "datasets/flickr/crawler.h"
#include "datasets/imagenet/class_list.h"
#include "datasets/imagenet/wordnet.h"
#include "datasets/images/candidate_manifest.h"
#include "tests/flickr/fake_flickr.h"
#include "tests/support/test_support.h"

namespace evalsuite::flickr {
namespace {

namespace fs = std::filesystem;
using evalsuite::testing::ReadFile;
using evalsuite::testing::RunCommand;
using evalsuite::testing::TempDir;
using testing::FakeFlickr;

constexpr const char* kCliApiKey = "f00dcafe0123456789abcdef00c0ffee";

// Starts argv with stdout and stderr going to files; the caller waits (or kills).
pid_t Spawn(const std::vector<std::string>& argv, const fs::path& out, const fs::path& err) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int in_fd = open("/dev/null", O_RDONLY);
    const int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(in_fd, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  return pid;
}

// A spawned crawl that a failed assertion leaves running would wait out its hour-long rate limit after the test:
// killed and reaped when the test ends, whichever way.
class SpawnedCrawl {
 public:
  explicit SpawnedCrawl(pid_t pid) : pid_(pid) {}
  SpawnedCrawl(const SpawnedCrawl&) = delete;
  SpawnedCrawl& operator=(const SpawnedCrawl&) = delete;
  ~SpawnedCrawl() {
    if (pid_ > 0) KillAndWait();
  }
  // SIGKILL, then the wait status.
  int KillAndWait() {
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return status;
  }

 private:
  pid_t pid_;
};

std::vector<std::string> CrawlArgs(const std::string& key, const fs::path& out, const FakeFlickr& server) {
  return {"env",
          "FLICKR_API_KEY=" + key,
          EVALSUITE_BINARY,
          "holdout",
          "crawl",
          "--since=2014-01-01",
          "--per-class=3",
          "--out=" + out.string(),
          "--rate=off",
          "--rate-ledger=" + (out.parent_path() / "api-calls.db").string(),
          "--class-range=0-9",
          "--timeout=5",
          "--endpoint=" + server.endpoint(),
          "--backoff=0.01",
          "--downloads=2"};
}

std::vector<std::string> IdsRanksAndQueries(const datasets::CandidateManifest& manifest) {
  std::vector<std::string> out;
  for (const auto& item : manifest.items) out.push_back(item.id + "@" + std::to_string(item.rank) + ":" + item.query);
  return out;
}

void ExpectSecretInNoOutputFile(const fs::path& dir, const std::string& secret) {
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) EXPECT_EQ(ReadFile(entry.path()).find(secret), std::string::npos) << entry.path();
  }
}

TEST(CrawlCliTest, KilledHalfWayResumesWithoutRepeatingFinishedWork) {
  FakeFlickr server(kCliApiKey);
  server.SetGeneratedResults(6);
  std::mutex mutex;
  std::condition_variable changed;
  bool reached = false, released = false;
  // The 9th search blocks until the test has killed the crawl: searches 1-8 are finished by then.
  server.SetOnSearch([&](int count) {
    if (count != 9) return;
    std::unique_lock<std::mutex> lock(mutex);
    reached = true;
    changed.notify_all();
    changed.wait(lock, [&] { return released; });
  });
  TempDir dir;
  const fs::path out = dir / "crawl";
  const pid_t pid = Spawn(CrawlArgs(kCliApiKey, out, server), dir / "out1.txt", dir / "err1.txt");
  ASSERT_GT(pid, 0);
  SpawnedCrawl crawl(pid);
  {
    std::unique_lock<std::mutex> lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, std::chrono::seconds(120), [&] { return reached; }))
        << ReadFile(dir / "err1.txt");
  }
  EXPECT_TRUE(WIFSIGNALED(crawl.KillAndWait()));
  {
    std::lock_guard<std::mutex> lock(mutex);
    released = true;
  }
  changed.notify_all();
  EXPECT_FALSE(fs::exists(out / "candidates.json"));

  std::map<std::string, StoredDownload> downloaded;
  {
    CrawlState state(out / kCrawlStateFile);
    EXPECT_EQ(state.searches_stored(), 8);
    downloaded = state.LoadDownloads();
  }
  const auto images_before = server.image_counts();

  const auto rerun = RunCommand(CrawlArgs(kCliApiKey, out, server));
  ASSERT_EQ(rerun.exit_code, 0) << rerun.err;
  EXPECT_NE(rerun.out.find("30 candidates for 10 classes"), std::string::npos) << rerun.out;

  // Every query asked once, except the one in flight when the process died.
  int repeated = 0;
  for (const auto& [text, count] : server.search_counts()) {
    EXPECT_LE(count, 2) << text;
    if (count == 2) ++repeated;
  }
  EXPECT_EQ(repeated, 1);
  EXPECT_EQ(server.search_counts().size(), 22u);  // the synonyms of classes 0-9 in WordNet 3.0
  // Downloads recorded before the kill are not fetched again.
  const auto images_after = server.image_counts();
  for (const auto& [url, download] : downloaded) {
    const std::string id = url.substr(url.rfind('/') + 1, url.rfind('_') - url.rfind('/') - 1);
    EXPECT_EQ(images_after.at(id), images_before.at(id)) << url;
  }

  // The same manifest an uninterrupted crawl makes.
  const datasets::CandidateManifest resumed = datasets::ReadCandidateManifest(out);
  datasets::WordNetNouns wordnet(datasets::DefaultWordNetNounFile());
  std::vector<CrawlClass> classes;
  for (const auto& entry : datasets::SelectClasses(datasets::ImageNet1kClasses(), std::nullopt, "0-9").classes) {
    const datasets::Synset synset = wordnet.Lookup(entry.wnid);
    classes.push_back({entry.index, entry.wnid, synset.lemmas, synset.gloss});
  }
  CrawlOptions options;
  options.out_dir = dir / "reference";
  options.min_upload_date = testing::kCutoff2014;
  options.per_class = 3;
  options.endpoint = server.endpoint();
  options.api_key = kCliApiKey;
  options.rate = RateLimit{0, 3600};
  const CrawlResult reference = RunCrawl(classes, options);
  EXPECT_EQ(IdsRanksAndQueries(resumed), IdsRanksAndQueries(reference.manifest));
  ASSERT_EQ(resumed.items.size(), 30u);
  EXPECT_EQ(resumed.items[0].wnid, "n01440764");
  EXPECT_EQ(resumed.items[0].query, "tench");
  EXPECT_EQ(resumed.items[1].query, "Tinca tinca");
  EXPECT_EQ(resumed.classes.at("n01440764").gloss,
            "freshwater dace-like game fish of Europe and western Asia noted for ability to survive outside water");

  ExpectSecretInNoOutputFile(out, kCliApiKey);
  EXPECT_EQ(rerun.out.find(kCliApiKey), std::string::npos);
  EXPECT_EQ(rerun.err.find(kCliApiKey), std::string::npos);
  EXPECT_EQ(ReadFile(dir / "err1.txt").find(kCliApiKey), std::string::npos);

  // Dedupe on the result: a resized, recompressed copy of one candidate in a reference folder is flagged;
  // the candidates themselves are all different.
  const fs::path reference_dir = dir / "train";
  fs::create_directories(reference_dir / "sub");
  cv::Mat image = cv::imread((out / resumed.items[4].path).string());
  cv::Mat bigger;
  cv::resize(image, bigger, cv::Size(), 2.0, 2.0, cv::INTER_CUBIC);
  cv::imwrite((reference_dir / "sub" / "copy.JPEG").string(), bigger, {cv::IMWRITE_JPEG_QUALITY, 60});
  const auto dedupe =
      RunCommand({EVALSUITE_BINARY, "holdout", "dedupe", out.string(), "--reference", reference_dir.string()});
  ASSERT_EQ(dedupe.exit_code, 0) << dedupe.err;
  const datasets::CandidateManifest flagged = datasets::ReadCandidateManifest(out);
  int reference_flags = 0;
  for (const auto& item : flagged.items) {
    for (const auto& flag : item.near_duplicates) {
      if (flag.at("kind") == "reference") {
        ++reference_flags;
        EXPECT_EQ(item.id, resumed.items[4].id);
        EXPECT_EQ(flag.at("match"), (reference_dir / "sub" / "copy.JPEG").string());
        EXPECT_LE(flag.at("distance").get<int>(), 8);
      }
    }
  }
  EXPECT_EQ(reference_flags, 1);
  EXPECT_EQ(flagged.items.size(), resumed.items.size());  // nothing removed
  EXPECT_EQ(flagged.source.at("dedupe").at("threshold"), 8);
}

// Issue 19, item 3, with a real process and a real SIGKILL: at --rate=2/h the third search (the second class's
// first) waits an hour; the downloads of the first class (two synonyms, two searches) finish meanwhile and must be in
// crawl.db when the crawl is killed in that wait, so that the resume downloads none of them again.
TEST(CrawlCliTest, AKillDuringARateLimitWaitLosesNoDownloadAndTheResumeFetchesNothingTwice) {
  FakeFlickr server(kCliApiKey);
  server.SetGeneratedResults(6);
  TempDir dir;
  const fs::path out = dir / "crawl";
  std::vector<std::string> args = CrawlArgs(kCliApiKey, out, server);
  for (std::string& arg : args) {
    if (arg == "--rate=off") arg = "--rate=2/h";
    if (arg == "--class-range=0-9") arg = "--class-range=0-1";
  }
  const pid_t pid = Spawn(args, dir / "out1.txt", dir / "err1.txt");
  ASSERT_GT(pid, 0);
  SpawnedCrawl crawl(pid);
  // Wait until the first class's three downloads are recorded; the crawl is then in its hour-long wait.
  size_t recorded = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (fs::exists(out / kCrawlStateFile)) {
      try {
        recorded = CrawlState(out / kCrawlStateFile).LoadDownloads().size();
      } catch (const Error&) {  // the crawl is still creating its tables
      }
    }
    if (recorded >= 3) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(recorded, 3u) << ReadFile(dir / "err1.txt");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // still waiting: nothing else may happen
  EXPECT_EQ(server.total_search_requests(), 2);
  const int status = crawl.KillAndWait();
  ASSERT_TRUE(WIFSIGNALED(status)) << "the crawl ended before the kill: " << ReadFile(dir / "err1.txt");
  EXPECT_EQ(server.image_counts().size(), 3u);

  for (std::string& arg : args) {
    if (arg == "--rate=2/h") arg = "--rate=off";
  }
  const auto rerun = RunCommand(args);
  ASSERT_EQ(rerun.exit_code, 0) << rerun.err;
  EXPECT_EQ(datasets::ReadCandidateManifest(out).items.size(), 6u);
  for (const auto& [id, count] : server.image_counts()) EXPECT_EQ(count, 1) << id << " was downloaded twice";
}

TEST(CrawlCliTest, MissingOrInvalidKeyIsAClearError) {
  FakeFlickr server(kCliApiKey);
  server.SetGeneratedResults(3);
  TempDir dir;
  std::vector<std::string> args = CrawlArgs(kCliApiKey, dir / "crawl", server);
  std::vector<std::string> no_key = args;
  no_key[1] = "-u";
  no_key.insert(no_key.begin() + 2, "FLICKR_API_KEY");
  const auto missing = RunCommand(no_key);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("FLICKR_API_KEY"), std::string::npos) << missing.err;

  const std::string bad_key = "bad-key-0000111122223333";
  const auto invalid = RunCommand(CrawlArgs(bad_key, dir / "crawl", server));
  EXPECT_EQ(invalid.exit_code, 1);
  EXPECT_NE(invalid.err.find("code 100"), std::string::npos) << invalid.err;
  EXPECT_EQ(invalid.err.find(bad_key), std::string::npos) << invalid.err;
  EXPECT_EQ(server.total_search_requests(), 1);
  ExpectSecretInNoOutputFile(dir / "crawl", bad_key);
}

TEST(CrawlCliTest, ClassSelectionErrorsNameTheFileAndLine) {
  FakeFlickr server(kCliApiKey);
  TempDir dir;
  evalsuite::testing::WriteFile(dir / "classes.txt", "# mine\nn01440764\nn99999999\n");
  std::vector<std::string> args = CrawlArgs(kCliApiKey, dir / "crawl", server);
  args.push_back("--classes");
  args.push_back((dir / "classes.txt").string());
  const auto result = RunCommand(args);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("classes.txt:3"), std::string::npos) << result.err;
  EXPECT_EQ(server.total_search_requests(), 0);
}

}  // namespace
}  // namespace evalsuite::flickr
