// The holdout crawl at ImageNet scale against the local Flickr (tests/flickr/fake_flickr.h, in-process on
// 127.0.0.1), rate limit off: 1000 classes x 5 images, every WordNet 3.0 synonym searched. Prints calls/s,
// images/s and where the time goes (waiting on the network vs evalsuite's own work), next to a peer measured
// in the same run: a bare fetch of the very same URLs with the same HTTP client and concurrency, without
// parsing, checking, hashing or persisting anything. The ratio crawl / bare fetch is evalsuite's overhead.
// Note: the "network" is loopback to a server sharing the machine's cores, so waiting on it includes the
// server's own work (JSON, JPEG bytes from its cache).
#include <fmt/format.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "datasets/flickr/crawler.h"
#include "datasets/flickr/flickr_api.h"
#include "datasets/flickr/http_client.h"
#include "datasets/imagenet/class_list.h"
#include "datasets/imagenet/wordnet.h"
#include "tests/flickr/fake_flickr.h"

namespace {

using namespace evalsuite;
namespace fs = std::filesystem;
constexpr const char* kKey = "bench0123456789abcdef0123456789ab";
constexpr int kPerClass = 5;
constexpr int kDownloadThreads = 8;

// CPU seconds of the whole process (crawl and in-process server together), user + system.
double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

flickr::CrawlResult Crawl(const std::vector<flickr::CrawlClass>& classes, const fs::path& out,
                          const std::string& endpoint) {
  flickr::CrawlOptions options;
  options.out_dir = out;
  options.min_upload_date = flickr::testing::kCutoff2014;
  options.per_class = kPerClass;
  options.endpoint = endpoint;
  options.api_key = kKey;
  options.rate = flickr::RateLimit{0, 3600};
  options.download_threads = kDownloadThreads;
  return flickr::RunCrawl(classes, options);
}

void Print(const char* name, const flickr::CrawlResult& r) {
  const flickr::CrawlStats& s = r.stats;
  std::map<std::string, int> reasons;
  for (const auto& rejected : r.manifest.rejected) ++reasons[rejected.value("code", "?")];
  const double waiting = s.search_network_seconds + s.download_wait_seconds;
  const double own = s.wall_seconds - waiting;
  fmt::print("{}: {:.2f} s, {} API calls ({:.0f} calls/s), {} downloads ({:.0f} images/s), {} candidates, {} reused\n",
             name, s.wall_seconds, s.api_calls, s.api_calls / s.wall_seconds, s.downloads_run,
             s.downloads_run / s.wall_seconds, s.items, s.searches_reused + s.downloads_reused);
  for (const auto& [code, count] : reasons) fmt::print("  rejected: {} x {}\n", count, code);
  fmt::print(
      "  main thread: {:.1f}% waiting on API responses, {:.1f}% waiting for downloads, {:.1f}% evalsuite "
      "(parse {:.1f}%, SQLite {:.1f}%, ranking/scheduling {:.1f}%)\n",
      100 * s.search_network_seconds / s.wall_seconds, 100 * s.download_wait_seconds / s.wall_seconds,
      100 * own / s.wall_seconds, 100 * s.search_parse_seconds / s.wall_seconds, 100 * s.state_seconds / s.wall_seconds,
      100 * (own - s.search_parse_seconds - s.state_seconds) / s.wall_seconds);
  const double worker_total = s.download_network_seconds + s.download_work_seconds;
  if (worker_total > 0) {
    fmt::print(
        "  download workers ({} threads): {:.1f}% waiting on the network, {:.1f}% evalsuite (decode check, "
        "SHA-256, write)\n",
        kDownloadThreads, 100 * s.download_network_seconds / worker_total,
        100 * s.download_work_seconds / worker_total);
  }
}

}  // namespace

int main() {
  datasets::WordNetNouns wordnet(datasets::DefaultWordNetNounFile());
  std::vector<flickr::CrawlClass> classes;
  for (const auto& entry : datasets::ImageNet1kClasses().classes) {
    const datasets::Synset synset = wordnet.Lookup(entry.wnid);
    classes.push_back({entry.index, entry.wnid, synset.lemmas, synset.gloss});
  }
  // cpp-httplib serves a keep-alive connection on one thread: more threads than client connections
  // (8 downloads + 1 API), or connections queue behind idle ones.
  flickr::testing::FakeFlickr server(kKey, 32);
  server.SetGeneratedResults(20);  // one full page of the default per_page (20 for k = 5)
  const fs::path root = fs::temp_directory_path() / "evalsuite-flickr-bench";
  fs::remove_all(root);

  fmt::print("flickr crawl bench: {} classes x {}, rate limit off, {} download threads, local server\n", classes.size(),
             kPerClass, kDownloadThreads);
  // Cold: the server generates each JPEG on first request. Then both the peer and the measured crawl see
  // the same warm server.
  const flickr::CrawlResult cold = Crawl(classes, root / "cold", server.endpoint());
  Print("crawl (cold server cache)", cold);

  // Peer: the same requests in the same schedule, bare: each class's searches in sequence on one thread,
  // then its images handed to the same number of download threads (as the crawl does), each URL once.
  std::vector<std::vector<std::string>> search_urls(classes.size()), image_urls(classes.size());
  std::map<std::string, size_t> class_of;
  for (size_t i = 0; i < classes.size(); ++i) {
    class_of[classes[i].wnid] = i;
    for (const auto& text : classes[i].synonyms) {
      flickr::SearchQuery q;
      q.text = text;
      q.min_upload_date = flickr::testing::kCutoff2014;
      q.per_page = 20;
      search_urls[i].push_back(flickr::BuildSearchUrl(server.endpoint(), kKey, q));
    }
  }
  std::set<std::string> seen_urls;
  for (const auto& item : cold.manifest.items) {
    if (seen_urls.insert(item.url).second) image_urls[class_of.at(item.wnid)].push_back(item.url);
  }
  const auto bare_start = std::chrono::steady_clock::now();
  const double bare_cpu_start = CpuSeconds();
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::string> queue;
  bool closed = false;
  std::atomic<int64_t> bytes{0}, searches{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < kDownloadThreads; ++t) {
    workers.emplace_back([&] {
      flickr::CurlHttpClient client;
      flickr::HttpRequestOptions options;
      options.follow_redirects = true;
      while (true) {
        std::string url;
        {
          std::unique_lock<std::mutex> lock(mutex);
          ready.wait(lock, [&] { return closed || !queue.empty(); });
          if (queue.empty()) return;
          url = std::move(queue.front());
          queue.pop_front();
        }
        bytes += static_cast<int64_t>(client.Get(url, options).body.size());
      }
    });
  }
  {
    flickr::CurlHttpClient client;
    flickr::HttpRequestOptions options;
    options.accept_gzip = true;
    for (size_t i = 0; i < classes.size(); ++i) {
      for (const auto& url : search_urls[i]) {
        bytes += static_cast<int64_t>(client.Get(url, options).body.size());
        ++searches;
      }
      {
        std::lock_guard<std::mutex> lock(mutex);
        queue.insert(queue.end(), image_urls[i].begin(), image_urls[i].end());
      }
      ready.notify_all();
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      closed = true;
    }
    ready.notify_all();
  }
  for (auto& w : workers) w.join();
  const double bare = Seconds(bare_start);
  const double bare_cpu = CpuSeconds() - bare_cpu_start;
  fmt::print("bare fetch (peer): {:.2f} s, {} searches ({:.0f} calls/s), {} images ({:.0f} images/s), {:.1f} MB\n",
             bare, searches.load(), searches.load() / bare, seen_urls.size(), seen_urls.size() / bare,
             bytes.load() / 1e6);
  fmt::print("  CPU (client and server threads): {:.2f} s\n", bare_cpu);

  const double warm_cpu_start = CpuSeconds();
  const flickr::CrawlResult warm = Crawl(classes, root / "warm", server.endpoint());
  const double warm_cpu = CpuSeconds() - warm_cpu_start;
  Print("crawl (warm server cache)", warm);
  fmt::print("  CPU (client and server threads): {:.2f} s\n", warm_cpu);
  fmt::print("  crawl / bare fetch of the same URLs: {:.2f}x wall, {:.2f}x CPU\n", warm.stats.wall_seconds / bare,
             warm_cpu / bare_cpu);

  // A rerun of a finished crawl: no network at all, only reading crawl.db, ranking and writing the manifest.
  const flickr::CrawlResult resumed = Crawl(classes, root / "warm", server.endpoint());
  fmt::print("rerun of the finished crawl (nothing left to fetch): {:.2f} s, {} API calls, {:.2f} ms per class\n",
             resumed.stats.wall_seconds, resumed.stats.api_calls, 1000 * resumed.stats.wall_seconds / classes.size());
  fs::remove_all(root);
  return 0;
}
