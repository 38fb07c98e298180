// The crawl's memory between runs: DIR/crawl.db (SQLite). Every finished search page and every finished
// download is committed the moment it is known, so a crawl killed at any point resumes without repeating
// them. The API key is never stored: the settings row holds what makes two runs comparable (cutoff, k, ...).
// One CrawlState is not thread-safe; the crawl's main thread and each download worker open their own
// (SQLite's WAL mode and busy timeout let them write side by side).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "datasets/flickr/search_response.h"

namespace evalsuite::flickr {

constexpr const char* kCrawlStateFile = "crawl.db";

struct StoredSearch {
  int64_t pages = 0;
  int64_t total = 0;
  std::vector<FlickrPhoto> photos;   // in relevance order
  std::vector<std::string> skipped;  // entries of the page that could not be used, with the reason
  int64_t entries = 0;               // photo entries the page held, usable or not (a full page: per_page)
};

// How one image URL ended. Only final outcomes are stored: a download that failed for a reason a retry
// might fix (timeout, 5xx after all retries) is not, so a rerun tries it again.
struct StoredDownload {
  bool stored = false;  // true: a decodable image at `path`; false: rejected for `reason`
  std::string sha256;
  std::string path;  // "images/<sha256>.<ext>", relative to the crawl folder
  int width = 0;
  int height = 0;
  int64_t bytes = 0;
  std::string reason_code;  // "html", "truncated", "not_an_image", "http_status", ...
  std::string reason;
};

class CrawlState {
 public:
  // Creates or opens DIR/crawl.db. Throws IoError naming the file.
  explicit CrawlState(const std::filesystem::path& file);
  ~CrawlState();
  CrawlState(const CrawlState&) = delete;
  CrawlState& operator=(const CrawlState&) = delete;

  // The settings a resumed crawl must share with the first run. Stored on first use; afterwards a different
  // value for a stored key throws UsageError naming the key and both values.
  void CheckOrStoreSettings(const std::map<std::string, std::string>& settings);
  std::optional<std::string> FindSetting(const std::string& key);

  // A stored page of the search `text`, whichever class asked for it first: classes that share a query
  // (the two "crane" classes) share its pages.
  std::optional<StoredSearch> FindSearch(const std::string& text, int page);
  void StoreSearch(const std::string& wnid, const std::string& text, int page, const StoredSearch& search);
  int64_t searches_stored();

  std::map<std::string, StoredDownload> LoadDownloads();  // by URL
  void StoreDownload(const std::string& url, const StoredDownload& download);

  const std::filesystem::path& file() const { return file_; }

 private:
  void Exec(const std::string& sql);
  // A set-up statement of the constructor, retried while another process holds the file; closes and throws.
  void SetUp(const std::string& sql);
  std::filesystem::path file_;
  void* db_ = nullptr;  // sqlite3*
};

}  // namespace evalsuite::flickr
