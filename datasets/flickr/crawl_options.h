// What a crawl is asked for: the classes to search and the crawl's settings. A floor below both the crawl
// (crawler.h) and the manifest it writes (crawl_manifest.h), which read the same settings.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "datasets/flickr/flickr_api.h"
#include "datasets/flickr/http_client.h"
#include "datasets/flickr/rate_limiter.h"
#include "datasets/flickr/retry.h"
#include "datasets/flickr/timing.h"

namespace evalsuite::flickr {

struct CrawlClass {
  int index = -1;
  std::string wnid;
  std::vector<std::string> synonyms;  // search texts, best first (WordNet lemma order)
  std::string gloss;
};

struct CrawlOptions {
  std::filesystem::path out_dir;
  int64_t min_upload_date = 0;  // the cutoff, Unix seconds (UTC)
  int per_class = 5;
  // Photos asked per search call; 0 = what this folder's crawl used before, else max(20, 4 * per_class),
  // at most 500. Four times k leaves room for rejections and duplicates across synonyms at one call each.
  int per_page = 0;
  int max_pages = 5;     // more pages of a query are fetched only when a class is still short
  int max_synonyms = 0;  // 0: all
  std::string license;   // Flickr license ids, "4,5,9"; "" = any
  std::vector<std::string> sizes = {"z", "m", "l"};  // url_<size> preference: 640, 500, 1024 px long side
  std::string endpoint = kFlickrRestEndpoint;
  std::string api_key;  // never written anywhere
  RateLimit rate;       // 3600/h, Flickr's stated limit per key
  // The SQLite file recording this key's API calls (shared_call_ledger.h); crawls that share a key must share
  // it. Empty: crawl.db in out_dir (restarts of this crawl only).
  std::filesystem::path rate_ledger;
  RetryPolicy retry;
  double timeout_seconds = 30;
  int download_threads = 8;
  // A query failing this many times in a row (other than an invalid key, which stops at once) means
  // something systematic; stop rather than spend the hourly budget on failures.
  int max_consecutive_failed_queries = 20;
  nlohmann::json source_extra = nlohmann::json::object();  // merged into manifest.source (class list, WordNet)
  Sleeper sleeper = RealSleep;
  WallClock clock = SystemNowSeconds;
  std::function<std::unique_ptr<HttpClient>()> make_client = [] { return std::make_unique<CurlHttpClient>(); };
  std::function<void(const std::string&)> log;  // progress lines; nullptr: silent
};

}  // namespace evalsuite::flickr
