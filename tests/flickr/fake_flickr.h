// A local Flickr for tests and the crawl benchmark: a cpp-httplib server on 127.0.0.1 (free port) that speaks
// flickr.photos.search as documented (response shapes as in ../shared/data/flickr: ids and dates as strings,
// "total" as a string or a number, escaped slashes, extras missing when asked) and serves the photos as
// JPEGs generated with OpenCV. It misbehaves on request: 500s, slow responses, malformed JSON, stat fail,
// an invalid key, 429 with Retry-After, HTML pages, non-images, truncated JPEGs, photos before the cutoff.
// It counts every request and records every protocol deviation of the client. Header-only so that
// bench/flickr_crawl_bench.cpp can run the same server in-process.
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace evalsuite::flickr::testing {

// 2015-01-01T00:00:00Z, after the usual 2014-01-01 cutoff.
constexpr int64_t kAfterCutoff = 1420070400;
constexpr int64_t kCutoff2014 = 1388534400;  // 2014-01-01T00:00:00Z

enum class ImageBody {
  kJpeg,
  kSameAs,     // the bytes of another photo (same_as), under a different id
  kHtml,       // 200 with an HTML error page
  kNotImage,   // 200 with binary garbage
  kTruncated,  // 200 with the first 60% of a JPEG
  kNotFound,   // 404
  k500Once,    // 500 on the first request, the JPEG afterwards
};

struct FakePhoto {
  std::string id;
  std::string owner = "12345678@N00";
  std::string owner_name = "a photographer";
  std::string license = "4";
  std::optional<int64_t> date_upload = kAfterCutoff;
  std::string date_taken = "2014-12-31 10:00:00";
  bool with_urls = true;
  bool with_extras = true;  // license, owner name, dates
  ImageBody body = ImageBody::kJpeg;
  std::string same_as;
  // The title ends inside an emoji: a lone "\ud83d" escape, as Flickr serves titles cut at a byte limit.
  bool lone_surrogate_title = false;
};

enum class SearchFault {
  k500,              // HTTP 500 with an HTML page that echoes the request (API key included)
  kSlow,             // a correct answer, slow_seconds late
  kMalformed,        // HTTP 200, JSON cut off
  kTemporary,        // stat fail 105 "Service currently unavailable"
  kInvalidKey,       // stat fail 100, whatever key was sent
  k429,              // HTTP 429 with Retry-After: retry_after
  kExcessiveOffset,  // stat fail 20, a permanent failure of this query
  kEchoRequest,      // HTTP 200 with an HTML page quoting the request, API key included (a misconfigured proxy)
  k503RetryAfter,    // HTTP 503 with Retry-After: retry_after
};

inline uint64_t Fnv1a(const std::string& text) {
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

// A JPEG of random shapes; the same seed gives the same bytes.
inline std::string MakeJpeg(uint64_t seed, int width, int height, int quality = 90) {
  cv::RNG rng(seed);
  cv::Mat image(height, width, CV_8UC3, cv::Scalar(rng.uniform(0, 256), rng.uniform(0, 256), rng.uniform(0, 256)));
  for (int i = 0; i < 6; ++i) {
    const cv::Scalar color(rng.uniform(0, 256), rng.uniform(0, 256), rng.uniform(0, 256));
    const cv::Point center(rng.uniform(0, width), rng.uniform(0, height));
    if (i % 2 == 0) {
      cv::circle(image, center, rng.uniform(width / 8 + 1, width / 2 + 2), color, cv::FILLED);
    } else {
      cv::rectangle(image, center, cv::Point(rng.uniform(0, width), rng.uniform(0, height)), color, cv::FILLED);
    }
  }
  std::vector<uchar> bytes;
  cv::imencode(".jpg", image, bytes, {cv::IMWRITE_JPEG_QUALITY, quality});
  return std::string(bytes.begin(), bytes.end());
}

class FakeFlickr {
 public:
  // Sizes served: m is 40x30, z 64x48, l 128x96 (tiny: tests decode thousands).
  static constexpr int kWidthZ = 64, kHeightZ = 48;

  explicit FakeFlickr(std::string api_key, int server_threads = 16) : api_key_(std::move(api_key)) {
    server_.new_task_queue = [server_threads] { return new httplib::ThreadPool(server_threads); };
    // httplib writes headers and body separately: without TCP_NODELAY, Nagle plus the client's delayed ACK
    // add ~40 ms to every response.
    server_.set_tcp_nodelay(true);
    server_.Get("/services/rest/", [this](const httplib::Request& req, httplib::Response& res) { Search(req, res); });
    server_.Get(R"(/img/(.+)_([mzl])\.jpg)",
                [this](const httplib::Request& req, httplib::Response& res) { Image(req, res); });
    port_ = server_.bind_to_any_port("127.0.0.1");
    if (port_ <= 0) throw std::runtime_error("FakeFlickr: cannot bind 127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 500 && !server_.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ~FakeFlickr() {
    server_.stop();
    thread_.join();
  }

  std::string base() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::string endpoint() const { return base() + "/services/rest/"; }
  std::string image_url(const std::string& id, char size = 'z') const {
    return base() + "/img/" + id + "_" + size + ".jpg";
  }

  // What a search for `text` returns, in relevance order (the server filters by min_upload_date itself
  // unless told not to).
  void SetResults(const std::string& text, std::vector<FakePhoto> photos) {
    std::lock_guard<std::mutex> lock(mutex_);
    results_[text] = std::move(photos);
    for (const FakePhoto& p : results_[text]) photos_[p.id] = p;
  }
  // Texts without explicit results get `count` generated photos, ids derived from the text.
  void SetGeneratedResults(int count) {
    std::lock_guard<std::mutex> lock(mutex_);
    generated_count_ = count;
  }
  // One fault per upcoming search for `text`, in order; later searches are answered normally.
  void QueueSearchFaults(const std::string& text, std::vector<SearchFault> faults) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (SearchFault f : faults) faults_[text].push_back(f);
  }
  void SetPermanentFault(const std::string& text, SearchFault fault) {
    std::lock_guard<std::mutex> lock(mutex_);
    permanent_faults_[text] = fault;
  }
  void SetHonourMinUploadDate(bool honour) { honour_min_upload_date_ = honour; }
  void SetSlowSeconds(double seconds) { slow_seconds_ = seconds; }
  void SetRetryAfter(const std::string& value) { retry_after_ = value; }
  // Answers "pages":0 on every page (with the right "total" and full pages), as Flickr sometimes does.
  void SetReportPagesZero(bool zero) { report_pages_zero_ = zero; }
  // Called at the start of every search request with the running count (1-based); may block.
  void SetOnSearch(std::function<void(int)> hook) { on_search_ = std::move(hook); }

  int search_requests(const std::string& text) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = search_counts_.find(text);
    return it == search_counts_.end() ? 0 : it->second;
  }
  std::map<std::string, int> search_counts() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return search_counts_;
  }
  int total_search_requests() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return total_searches_;
  }
  int image_requests(const std::string& id) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = image_counts_.find(id);
    return it == image_counts_.end() ? 0 : it->second;
  }
  std::map<std::string, int> image_counts() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return image_counts_;
  }
  std::vector<std::string> protocol_violations() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return violations_;
  }
  // The search texts in the order the requests came.
  std::vector<std::string> search_order() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return search_order_;
  }
  std::multimap<std::string, std::string> last_search_params() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return last_params_;
  }
  // The JPEG served for a photo at size z (what a correct crawl stores).
  std::string JpegOf(const std::string& id) { return Jpeg(id, 'z'); }

 private:
  static std::string Param(const httplib::Request& req, const char* name) {
    return req.has_param(name) ? req.get_param_value(name) : "";
  }

  void Violation(const std::string& what) { violations_.push_back(what); }

  void CheckProtocol(const httplib::Request& req) {
    static const std::set<std::string> kAllowed = {
        "method", "api_key",  "text", "min_upload_date", "sort",   "content_type",  "media",
        "extras", "per_page", "page", "license",         "format", "nojsoncallback"};
    for (const auto& [name, value] : req.params) {
      if (kAllowed.count(name) == 0) Violation("unexpected parameter " + name);
      if (req.get_param_value_count(name) != 1) Violation("parameter " + name + " repeated");
    }
    auto expect = [&](const char* name, const std::string& value) {
      if (Param(req, name) != value) Violation(std::string(name) + "=" + Param(req, name) + ", expected " + value);
    };
    expect("method", "flickr.photos.search");
    expect("sort", "relevance");
    expect("content_type", "1");
    expect("media", "photos");
    expect("extras", "date_upload,date_taken,license,owner_name,url_m,url_z,url_l");
    expect("format", "json");
    expect("nojsoncallback", "1");
    if (Param(req, "text").empty()) Violation("text missing");
    const std::string since = Param(req, "min_upload_date");
    if (since.empty() || since.find_first_not_of("0123456789") != std::string::npos) {
      Violation("min_upload_date is not Unix seconds: " + since);
    }
    const int per_page = std::atoi(Param(req, "per_page").c_str());
    if (per_page < 1 || per_page > 500) Violation("per_page out of 1..500: " + Param(req, "per_page"));
  }

  std::vector<FakePhoto> ResultsLocked(const std::string& text) {
    auto it = results_.find(text);
    if (it != results_.end()) return it->second;
    std::vector<FakePhoto> photos;
    const uint64_t base = Fnv1a(text) % 1000000000ull;
    for (int i = 0; i < generated_count_; ++i) {
      FakePhoto p;
      p.id = std::to_string(base) + std::to_string(100 + i);
      photos_.emplace(p.id, p);
      photos.push_back(p);
    }
    return photos;
  }

  static void Send(httplib::Response& res, const nlohmann::json& body) {
    std::string text = body.dump();
    // Flickr escapes every slash: "https:\/\/live.staticflickr.com\/..."
    std::string escaped;
    for (char c : text) {
      if (c == '/') escaped += '\\';
      escaped += c;
    }
    for (size_t at = escaped.find(kLoneSurrogateMarker); at != std::string::npos;
         at = escaped.find(kLoneSurrogateMarker, at)) {
      escaped.replace(at, std::string(kLoneSurrogateMarker).size(), "\\ud83d");
    }
    res.set_content(escaped, "application/json");
  }

  void Search(const httplib::Request& req, httplib::Response& res) {
    int count;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      count = ++total_searches_;
      ++search_counts_[Param(req, "text")];
      search_order_.push_back(Param(req, "text"));
      last_params_ = req.params;
      CheckProtocol(req);
    }
    if (on_search_) on_search_(count);
    const std::string text = Param(req, "text");
    std::optional<SearchFault> fault;
    std::vector<FakePhoto> photos;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = faults_.find(text); it != faults_.end() && !it->second.empty()) {
        fault = it->second.front();
        it->second.pop_front();
      } else if (auto p = permanent_faults_.find(text); p != permanent_faults_.end()) {
        fault = p->second;
      }
      photos = ResultsLocked(text);
    }
    if (Param(req, "api_key") != api_key_ || fault == SearchFault::kInvalidKey) {
      Send(res, {{"stat", "fail"}, {"code", 100}, {"message", "Invalid API Key (Key has invalid format)"}});
      return;
    }
    if (fault == SearchFault::k500) {
      res.status = 500;
      res.set_content(
          "<html><body><h1>500 Internal Server Error</h1><p>while serving " + req.target + "</p></body></html>",
          "text/html");
      return;
    }
    if (fault == SearchFault::kEchoRequest) {
      res.set_content("<html><body>api_key=" + api_key_ + " cannot serve " + req.target + "</body></html>",
                      "text/html");
      return;
    }
    if (fault == SearchFault::k503RetryAfter) {
      res.status = 503;
      res.set_header("Retry-After", retry_after_);
      res.set_content("Service Unavailable", "text/plain");
      return;
    }
    if (fault == SearchFault::k429) {
      res.status = 429;
      res.set_header("Retry-After", retry_after_);
      res.set_content("Too Many Requests", "text/plain");
      return;
    }
    if (fault == SearchFault::kTemporary) {
      Send(res, {{"stat", "fail"}, {"code", 105}, {"message", "Service currently unavailable"}});
      return;
    }
    if (fault == SearchFault::kExcessiveOffset) {
      Send(res, {{"stat", "fail"}, {"code", "20"}, {"message", "Excessive photo offset in search"}});
      return;
    }
    if (fault == SearchFault::kSlow) {
      std::this_thread::sleep_for(std::chrono::duration<double>(slow_seconds_));
    }
    const int64_t since = std::atoll(Param(req, "min_upload_date").c_str());
    if (honour_min_upload_date_) {
      std::vector<FakePhoto> kept;
      for (const FakePhoto& p : photos) {
        if (!p.date_upload || *p.date_upload >= since) kept.push_back(p);
      }
      photos = std::move(kept);
    }
    const int per_page = std::max(1, std::atoi(Param(req, "per_page").c_str()));
    const int page = std::max(1, std::atoi(Param(req, "page").c_str()));
    const int total = static_cast<int>(photos.size());
    const int pages = (total + per_page - 1) / per_page;
    nlohmann::json list = nlohmann::json::array();
    for (int i = (page - 1) * per_page; i < std::min(total, page * per_page); ++i)
      list.push_back(PhotoJson(photos[i], count));
    nlohmann::json body = {
        {"photos", {{"page", page}, {"pages", report_pages_zero_ ? 0 : pages}, {"perpage", per_page}, {"photo", list}}},
        {"stat", "ok"}};
    // Flickr sends "total" as a string in some responses and as a number in others.
    if (count % 2 == 0) {
      body["photos"]["total"] = std::to_string(total);
    } else {
      body["photos"]["total"] = total;
    }
    if (fault == SearchFault::kMalformed) {
      std::string cut = body.dump();
      res.set_content(cut.substr(0, cut.size() / 2), "application/json");
      return;
    }
    Send(res, body);
  }

  static constexpr const char* kLoneSurrogateMarker = "@LONE-SURROGATE@";

  nlohmann::json PhotoJson(const FakePhoto& p, int count) const {
    const std::string title = "photo " + p.id + (p.lone_surrogate_title ? kLoneSurrogateMarker : "");
    nlohmann::json j = {{"id", p.id},     {"owner", p.owner}, {"secret", "abc123"}, {"server", "65535"}, {"farm", 66},
                        {"title", title}, {"ispublic", 1},    {"isfriend", 0},      {"isfamily", 0}};
    if (p.with_extras) {
      j["license"] = p.license;
      j["ownername"] = p.owner_name;
      j["datetaken"] = p.date_taken;
      j["datetakengranularity"] = "0";
      j["datetakenunknown"] = 0;
    }
    if (p.with_extras && p.date_upload) j["dateupload"] = std::to_string(*p.date_upload);
    if (p.with_urls) {
      const int sizes[3][2] = {{40, 30}, {kWidthZ, kHeightZ}, {128, 96}};
      const char names[3] = {'m', 'z', 'l'};
      for (int s = 0; s < 3; ++s) {
        const std::string n(1, names[s]);
        j["url_" + n] = image_url(p.id, names[s]);
        // Numbers in one response, strings in the next, as the sizes API does.
        if (count % 2 == 0) {
          j["width_" + n] = sizes[s][0];
          j["height_" + n] = sizes[s][1];
        } else {
          j["width_" + n] = std::to_string(sizes[s][0]);
          j["height_" + n] = std::to_string(sizes[s][1]);
        }
      }
    }
    return j;
  }

  // The JPEG of a photo at a size, generated outside the lock (the server answers in parallel) and cached.
  std::string Jpeg(const std::string& id, char size) {
    const std::string key = id + "_" + size;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = jpegs_.find(key); it != jpegs_.end()) return it->second;
    }
    const int w = size == 'm' ? 40 : size == 'z' ? kWidthZ : 128;
    const int h = size == 'm' ? 30 : size == 'z' ? kHeightZ : 96;
    std::string jpeg = MakeJpeg(Fnv1a(id), w, h);
    std::lock_guard<std::mutex> lock(mutex_);
    return jpegs_.emplace(key, std::move(jpeg)).first->second;
  }

  void Image(const httplib::Request& req, httplib::Response& res) {
    const std::string id = req.matches[1];
    const char size = std::string(req.matches[2])[0];
    int count;
    FakePhoto photo;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      count = ++image_counts_[id];
      if (auto it = photos_.find(id); it != photos_.end()) photo = it->second;
    }
    switch (photo.body) {
      case ImageBody::kHtml:
        res.set_content(
            "<!DOCTYPE html><html><head><title>Photo unavailable</title></head><body>This photo is "
            "no longer available</body></html>",
            "text/html; charset=utf-8");
        return;
      case ImageBody::kNotImage:
        res.set_content(std::string("\x00\x13\x37\x42 this is not an image \x01\x02\x03", 29), "image/jpeg");
        return;
      case ImageBody::kTruncated: {
        const std::string jpeg = Jpeg(id, size);
        res.set_content(jpeg.substr(0, jpeg.size() * 6 / 10), "image/jpeg");
        return;
      }
      case ImageBody::kNotFound:
        res.status = 404;
        res.set_content("Not Found", "text/plain");
        return;
      case ImageBody::k500Once:
        if (count == 1) {
          res.status = 500;
          res.set_content("Internal Server Error", "text/plain");
          return;
        }
        break;
      case ImageBody::kSameAs:
        res.set_content(Jpeg(photo.same_as, size), "image/jpeg");
        return;
      case ImageBody::kJpeg:
        break;
    }
    res.set_content(Jpeg(id, size), "image/jpeg");
  }

  std::string api_key_;
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  mutable std::mutex mutex_;
  std::map<std::string, std::vector<FakePhoto>> results_;
  std::map<std::string, FakePhoto> photos_;
  std::map<std::string, std::deque<SearchFault>> faults_;
  std::map<std::string, SearchFault> permanent_faults_;
  std::map<std::string, std::string> jpegs_;
  std::map<std::string, int> search_counts_;
  std::vector<std::string> search_order_;
  std::map<std::string, int> image_counts_;
  std::multimap<std::string, std::string> last_params_;
  std::vector<std::string> violations_;
  int total_searches_ = 0;
  int generated_count_ = 0;
  std::atomic<bool> honour_min_upload_date_{true};
  std::atomic<bool> report_pages_zero_{false};
  std::atomic<double> slow_seconds_{1.0};
  std::string retry_after_ = "2";
  std::function<void(int)> on_search_;
};

}  // namespace evalsuite::flickr::testing
