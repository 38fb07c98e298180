#include "datasets/flickr/downloader.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/sha256.h"
#include "datasets/images/image_decode.h"

namespace evalsuite::flickr {
namespace fs = std::filesystem;

ImageCheck CheckImageBytes(std::string_view bytes) {
  datasets::DecodeOptions options;
  options.to_rgb = false;  // only whether it decodes and how big it is
  const datasets::DecodedImage decoded = datasets::DecodeImage(bytes, options);
  ImageCheck check;
  if (!decoded.ok()) {
    check.reason_code = datasets::DecodeStatusName(decoded.status);
    check.reason = decoded.reason;
    return check;
  }
  check.ok = true;
  check.extension = decoded.format == "jpeg" ? "jpg" : decoded.format;
  check.width = decoded.width;
  check.height = decoded.height;
  return check;
}

namespace {

// Content-addressed, so two workers writing the same image write the same bytes; each uses its own
// temporary name and the rename is atomic.
void StoreOnce(const fs::path& file, std::string_view bytes) {
  std::error_code ec;
  if (fs::exists(file, ec)) return;
  std::ostringstream suffix;
  suffix << ".tmp-" << std::this_thread::get_id();
  const fs::path temporary = file.string() + suffix.str();
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw IoError(temporary.string(), "cannot write the image");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) throw IoError(temporary.string(), "write failed (disk full?)");
  }
  fs::rename(temporary, file, ec);
  if (ec) throw IoError(file.string(), "cannot store the image: " + ec.message());
}

}  // namespace

DownloadPool::DownloadPool(DownloadPoolOptions options) : options_(std::move(options)) {
  options_.http.follow_redirects = true;
  options_.http.cancel = &cancel_;
  fs::create_directories(options_.crawl_dir / "images");
  // Temporary files of a crawl that was killed mid-write: never referenced, safe to drop.
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(options_.crawl_dir / "images", ec)) {
    if (entry.path().filename().string().find(".tmp-") != std::string::npos) fs::remove(entry.path(), ec);
  }
  const int threads = std::max(1, options_.threads);
  for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { Work(); });
}

DownloadPool::~DownloadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  cancel_ = true;
  work_ready_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void DownloadPool::Submit(const std::string& url) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(url);
    ++pending_;
  }
  work_ready_.notify_one();
}

std::optional<DownloadResult> DownloadPool::TryNext() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (results_.empty()) return std::nullopt;
  DownloadResult result = std::move(results_.front());
  results_.pop_front();
  --pending_;
  return result;
}

DownloadResult DownloadPool::Next() {
  std::unique_lock<std::mutex> lock(mutex_);
  result_ready_.wait(lock, [this] { return !results_.empty(); });
  DownloadResult result = std::move(results_.front());
  results_.pop_front();
  --pending_;
  return result;
}

std::optional<DownloadResult> DownloadPool::NextWithin(double seconds) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!result_ready_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return !results_.empty(); })) {
    return std::nullopt;
  }
  DownloadResult result = std::move(results_.front());
  results_.pop_front();
  --pending_;
  return result;
}

size_t DownloadPool::pending() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_;
}

void DownloadPool::Work() {
  std::unique_ptr<HttpClient> client = options_.make_client();
  std::unique_ptr<CrawlState> state;
  while (true) {
    std::string url;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      url = std::move(queue_.front());
      queue_.pop_front();
    }
    DownloadResult result;
    try {
      result = Download(*client, url);
      if (result.final && !options_.state_file.empty()) {
        if (!state) state = std::make_unique<CrawlState>(options_.state_file);
        state->StoreDownload(result.url, result.record);
        result.recorded = true;
      }
    } catch (const Error& error) {  // the disk, not the image: a rerun may succeed
      result.url = url;
      result.final = false;
      result.failure = error.what();
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      results_.push_back(std::move(result));
    }
    result_ready_.notify_one();
  }
}

DownloadResult DownloadPool::Download(HttpClient& client, const std::string& url) {
  DownloadResult result;
  result.url = url;
  RetryHooks hooks;
  // Backoff in short slices, so that destroying the pool (a fatal error elsewhere) does not wait a minute.
  hooks.sleeper = [this](double seconds) {
    for (double left = seconds; left > 0 && !cancel_; left -= 0.1) options_.sleeper(std::min(left, 0.1));
  };
  const RetriedResponse retried = GetWithRetry(client, url, options_.http, options_.retry, hooks);
  result.attempts = retried.attempts;
  result.network_seconds = retried.network_seconds;
  const HttpResponse& response = retried.response;
  const auto start = std::chrono::steady_clock::now();
  StoredDownload& record = result.record;
  if (response.transport == TransportStatus::kTooLarge) {
    result.final = true;
    record.reason_code = "too-large";
    record.reason = "the download exceeds " + std::to_string(options_.http.max_body_bytes) + " bytes";
  } else if (response.transport != TransportStatus::kOk || IsRetryable(response)) {
    result.failure = DescribeFailure(response) + " after " + std::to_string(retried.attempts) + " attempt(s)";
  } else if (response.status != 200) {
    result.final = true;  // 404, 410, 403: the photo is gone or private; asking again will not help
    record.reason_code = "http-status";
    record.reason = "HTTP " + std::to_string(response.status);
  } else {
    const ImageCheck check = CheckImageBytes(response.body);
    result.final = true;
    record.bytes = static_cast<int64_t>(response.body.size());
    if (!check.ok) {
      record.reason_code = check.reason_code;
      record.reason = check.reason;
    } else {
      record.stored = true;
      record.sha256 = Sha256Hex(response.body);
      record.path = "images/" + record.sha256 + "." + check.extension;
      record.width = check.width;
      record.height = check.height;
      StoreOnce(options_.crawl_dir / record.path, response.body);
    }
  }
  result.work_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace evalsuite::flickr
