// Concurrent image downloads for the crawl: a bounded pool of worker threads, each with its own HTTP client
// (kept-alive connections), retrying like the API calls do. A worker checks that the bytes decode as an
// image and stores them once under their SHA-256 (images/<sha256>.<ext>, written atomically). Results come
// back through a queue to the one thread that records them.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "datasets/flickr/crawl_state.h"
#include "datasets/flickr/http_client.h"
#include "datasets/flickr/retry.h"
#include "datasets/flickr/timing.h"

namespace evalsuite::flickr {

// Whether downloaded bytes are a usable image, and its size. The one place that decides it (backed by
// datasets/images/image_decode.h: HTML pages, truncated files and non-images are told apart).
struct ImageCheck {
  bool ok = false;
  std::string extension;  // "jpg", "png", "webp"
  int width = 0, height = 0;
  std::string reason_code;  // "html", "truncated", "not-an-image", ... when !ok
  std::string reason;
};
ImageCheck CheckImageBytes(std::string_view bytes);

struct DownloadResult {
  std::string url;
  // final: `record` holds the outcome to store; !final: a failure a rerun may fix (in `failure`)
  bool final = false;
  bool recorded = false;  // the worker already stored `record` in the crawl state
  StoredDownload record;
  std::string failure;
  int attempts = 0;
  double network_seconds = 0;  // waiting on the network, retries included
  double work_seconds = 0;     // checking, hashing and writing
};

struct DownloadPoolOptions {
  int threads = 8;
  std::filesystem::path crawl_dir;  // images go to crawl_dir/images/
  // When set, each worker records every final outcome in this crawl state the moment it has it, so that a
  // crawl killed while its main thread sleeps (a retry backoff, an hour-long rate-limit wait) loses nothing.
  std::filesystem::path state_file;
  HttpRequestOptions http;
  RetryPolicy retry;
  Sleeper sleeper = RealSleep;
  std::function<std::unique_ptr<HttpClient>()> make_client = [] { return std::make_unique<CurlHttpClient>(); };
};

class DownloadPool {
 public:
  explicit DownloadPool(DownloadPoolOptions options);
  // Cancels transfers in progress and joins the workers; results not yet taken are dropped.
  ~DownloadPool();
  DownloadPool(const DownloadPool&) = delete;
  DownloadPool& operator=(const DownloadPool&) = delete;

  void Submit(const std::string& url);
  std::optional<DownloadResult> TryNext();                   // a finished download, if any, without waiting
  DownloadResult Next();                                     // waits for one; only call while pending() > 0
  std::optional<DownloadResult> NextWithin(double seconds);  // waits at most `seconds` for one
  size_t pending() const;                                    // submitted and not yet returned

 private:
  void Work();
  DownloadResult Download(HttpClient& client, const std::string& url);

  DownloadPoolOptions options_;
  std::atomic<bool> cancel_{false};
  mutable std::mutex mutex_;
  std::condition_variable work_ready_, result_ready_;
  std::deque<std::string> queue_;
  std::deque<DownloadResult> results_;
  size_t pending_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace evalsuite::flickr
