#include "datasets/flickr/crawler.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <limits>
#include <map>
#include <set>
#include <unordered_set>

#include "common/atomic_file.h"
#include "common/error.h"
#include "datasets/flickr/crawl_manifest.h"
#include "datasets/flickr/crawl_state.h"
#include "datasets/flickr/downloader.h"
#include "datasets/flickr/shared_call_ledger.h"
#include "datasets/flickr/upload_cutoff.h"

namespace evalsuite::flickr {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Adds the wall time of a scope to a counter.
class ScopedTimer {
 public:
  explicit ScopedTimer(double* total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() { *total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  double* total_;
  std::chrono::steady_clock::time_point start_;
};

struct QueryRun {
  std::string text;
  std::vector<FlickrPhoto> photos;  // relevance order, pages appended
  int pages_fetched = 0;
  int64_t pages_known = 0;
  int64_t total_known = 0;           // "total" as the last page said it
  int64_t entries_fetched = 0;       // photo entries received, usable or not
  int64_t last_page_entries = 0;     // a full last page (per_page entries) suggests more
  std::vector<std::string> skipped;  // unusable entries, with the page and reason
  bool failed = false;               // its last fetch failed: no more pages from it in this run
  bool pending = false;              // a fetch of it failed for now and waits in the retry queue
};

// A search page to ask again once `due` has come: a failure worth retrying (timeout, 5xx, 429, cut-off JSON)
// waits here instead of in a sleep, so that every other class's searches go on meanwhile.
struct DeferredFetch {
  size_t position;  // class
  size_t query;     // index in its queries
  int page;
  int attempt;  // the attempt this will be (2 = the first retry)
  double due;   // options.clock() time
  double wait;  // what it was told to wait
};

struct ClassRun {
  const CrawlClass* cls = nullptr;
  std::vector<QueryRun> queries;
  bool done = false;
  std::vector<datasets::Candidate> items;
  json rejected = json::array();
};

struct Ranked {
  const QueryRun* query;
  const FlickrPhoto* photo;
};

class Crawl {
 public:
  Crawl(const std::vector<CrawlClass>& classes, const CrawlOptions& options);
  CrawlResult Run();

 private:
  enum class Fetch { kDone, kFailed, kDeferred };
  void SearchClass(size_t position);
  Fetch FetchPage(size_t position, size_t query_index, int page, int attempt = 1);
  bool FetchMorePages(size_t position);
  // Runs the queued retries that are due (all of them with `force`, the earliest only); true when one ran.
  bool RunDeferred(bool force_earliest);
  double EarliestDue() const {
    double due = std::numeric_limits<double>::infinity();
    for (const DeferredFetch& d : deferred_) due = std::min(due, d.due);
    return due;
  }
  void Walk(size_t class_position);
  void Record(DownloadResult result);
  void DrainFinished();
  const PhotoUrl* PickUrl(const FlickrPhoto& photo) const;
  datasets::CandidateManifest BuildManifest() const;
  void Log(const std::string& line) const {
    if (options_.log) options_.log(line);
  }

  const std::vector<CrawlClass>& classes_;
  CrawlOptions options_;
  CrawlStats stats_;
  std::unique_ptr<CrawlState> state_;
  std::unique_ptr<RateLimiter> limiter_;
  std::unique_ptr<HttpClient> api_http_;
  std::unique_ptr<FlickrSearchClient> search_;
  std::unique_ptr<DownloadPool> pool_;
  std::vector<ClassRun> runs_;
  std::map<std::string, StoredDownload> downloads_;        // final outcomes, by URL
  std::map<std::string, std::string> transient_failures_;  // this run only, by URL
  std::map<std::string, std::vector<size_t>> in_flight_;   // URL -> classes waiting for it
  std::set<size_t> dirty_;                                 // classes to walk again
  json failed_queries_ = json::array();
  std::vector<DeferredFetch> deferred_;
  RetryPolicy retry_;  // the crawl's own retries; the search client makes one attempt per call
  int consecutive_failures_ = 0;
  int classes_done_ = 0;
};

int DefaultPerPage(int per_class) { return std::min(kMaxPerPage, std::max(20, 4 * per_class)); }

// The page size an earlier crawl of this folder stored. The state file is the user's (it may be edited or cut): a
// value that is not a whole number is an error naming the file and the setting, not std::stoi's bare exception.
int StoredPerPage(const std::string& text, const fs::path& state_file) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw InputError(state_file.string() + ": setting per_page", "'" + text + "' is not a whole number");
  }
  return value;
}

Crawl::Crawl(const std::vector<CrawlClass>& classes, const CrawlOptions& options)
    : classes_(classes), options_(options) {
  if (options_.per_class < 1) throw UsageError("--per-class", "must be at least 1");
  if (options_.out_dir.empty()) throw UsageError("--out", "is required");
  if (options_.api_key.empty()) throw UsageError("FLICKR_API_KEY", "is empty: set it to your Flickr API key");
  if (options_.sizes.empty()) throw UsageError("--size", "names no size");
  for (const std::string& size : options_.sizes) {
    if (size != "m" && size != "z" && size != "l") throw UsageError("--size", "'" + size + "' is not m, z or l");
  }
  std::error_code ec;
  fs::create_directories(options_.out_dir, ec);
  if (ec) throw IoError(options_.out_dir.string(), "cannot create the crawl folder: " + ec.message());
  state_ = std::make_unique<CrawlState>(options_.out_dir / kCrawlStateFile);
  if (options_.per_page == 0) {
    const auto stored = state_->FindSetting("per_page");
    options_.per_page =
        stored ? StoredPerPage(*stored, options_.out_dir / kCrawlStateFile) : DefaultPerPage(options_.per_class);
  }
  if (options_.per_page < 1 || options_.per_page > kMaxPerPage) {
    throw UsageError("--per-page", "must be between 1 and 500 (Flickr's maximum)");
  }
  // What the stored searches depend on: resuming with other values would mix two different crawls.
  state_->CheckOrStoreSettings({{"min_upload_date", std::to_string(options_.min_upload_date)},
                                {"per_page", std::to_string(options_.per_page)},
                                {"license", options_.license}});

  if (options_.rate.enabled()) {
    // A call lasts at most the HTTP timeout (connect time included), plus a second for the kernel's buffers.
    const std::filesystem::path ledger =
        options_.rate_ledger.empty() ? options_.out_dir / kCrawlStateFile : options_.rate_ledger;
    limiter_ = std::make_unique<RateLimiter>(
        options_.rate, options_.clock, options_.sleeper,
        std::make_unique<SharedCallLedger>(ledger, ApiKeyFingerprint(options_.api_key)), options_.timeout_seconds + 1);
  } else {
    limiter_ = std::make_unique<RateLimiter>(options_.rate, options_.clock, options_.sleeper);
  }
  api_http_ = options_.make_client();
  SearchClientOptions search;
  search.endpoint = options_.endpoint;
  search.api_key = options_.api_key;
  search.http.timeout_seconds = options_.timeout_seconds;
  search.http.accept_gzip = true;
  search.http.connect_timeout_seconds = std::min(options_.timeout_seconds, 10.0);
  retry_ = options_.retry;
  search.retry = options_.retry;
  search.retry.max_attempts = 1;  // retried by the crawl itself, later, so that one query's backoff stalls nothing
  search.limiter = limiter_.get();
  search.sleeper = options_.sleeper;
  search.clock = options_.clock;
  search_ = std::make_unique<FlickrSearchClient>(*api_http_, search);

  {
    ScopedTimer timer(&stats_.state_seconds);
    downloads_ = state_->LoadDownloads();
  }
  stats_.downloads_reused = static_cast<int64_t>(downloads_.size());
  DownloadPoolOptions pool;
  pool.threads = options_.download_threads;
  pool.crawl_dir = options_.out_dir;
  pool.state_file = state_->file();
  pool.http.timeout_seconds = options_.timeout_seconds;
  pool.http.connect_timeout_seconds = std::min(options_.timeout_seconds, 10.0);
  pool.retry = options_.retry;
  pool.sleeper = options_.sleeper;
  pool.make_client = options_.make_client;
  pool_ = std::make_unique<DownloadPool>(pool);

  runs_.resize(classes_.size());
  std::set<std::string> wnids;
  for (size_t i = 0; i < classes_.size(); ++i) {
    runs_[i].cls = &classes_[i];
    if (!wnids.insert(classes_[i].wnid).second) throw UsageError("--classes", classes_[i].wnid + " is listed twice");
  }
}

const PhotoUrl* Crawl::PickUrl(const FlickrPhoto& photo) const {
  for (const std::string& size : options_.sizes) {
    const PhotoUrl* url = size == "m" ? &photo.url_m : size == "z" ? &photo.url_z : &photo.url_l;
    if (!url->url.empty()) return url;
  }
  return nullptr;
}

Crawl::Fetch Crawl::FetchPage(size_t position, size_t query_index, int page, int attempt) {
  ClassRun& run = runs_[position];
  QueryRun& query = run.queries[query_index];
  std::optional<StoredSearch> stored;
  {
    ScopedTimer timer(&stats_.state_seconds);
    stored = state_->FindSearch(query.text, page);
  }
  if (stored) {
    ++stats_.searches_reused;
  } else {
    SearchQuery request;
    request.text = query.text;
    request.min_upload_date = options_.min_upload_date;
    request.per_page = options_.per_page;
    request.page = page;
    request.license = options_.license;
    SearchOutcome outcome = search_->Search(request);  // throws on an invalid API key
    if (!outcome.ok && outcome.retryable && attempt < std::max(1, retry_.max_attempts)) {
      double wait = BackoffSeconds(retry_, attempt);
      if (outcome.retry_after_seconds) wait = std::min(*outcome.retry_after_seconds, retry_.max_retry_after_seconds);
      deferred_.push_back({position, query_index, page, attempt + 1, options_.clock() + wait, wait});
      query.pending = true;
      return Fetch::kDeferred;
    }
    query.pending = false;
    if (!outcome.ok) {
      if (attempt > 1) outcome.error += " (after " + std::to_string(attempt) + " attempts)";
      query.failed = true;
      ++stats_.failed_queries;
      failed_queries_.push_back({{"wnid", run.cls->wnid},
                                 {"query", query.text},
                                 {"page", page},
                                 {"code", outcome.flickr_code},
                                 {"error", outcome.error}});
      Log("warning: " + run.cls->wnid + " \"" + query.text + "\" page " + std::to_string(page) +
          ": search failed: " + outcome.error);
      if (++consecutive_failures_ >= options_.max_consecutive_failed_queries) {
        throw ExternalError("flickr.photos.search", std::to_string(consecutive_failures_) +
                                                        " searches failed in a row (last: " + outcome.error +
                                                        "); stopping. Finished work is kept in " +
                                                        state_->file().string() + " and a rerun resumes.");
      }
      return Fetch::kFailed;
    }
    consecutive_failures_ = 0;
    ++stats_.searches_run;
    stored.emplace();
    stored->pages = outcome.page.pages;
    stored->total = outcome.page.total;
    stored->entries = static_cast<int64_t>(outcome.page.photos.size()) + outcome.page.skipped_photos;
    stored->photos = std::move(outcome.page.photos);
    stored->skipped = std::move(outcome.page.skipped);
    ScopedTimer timer(&stats_.state_seconds);
    state_->StoreSearch(run.cls->wnid, query.text, page, *stored);
  }
  query.pages_known = stored->pages;
  query.total_known = stored->total;
  query.pages_fetched = page;
  query.last_page_entries = stored->entries;
  query.entries_fetched += stored->entries;
  for (const std::string& reason : stored->skipped) {
    query.skipped.push_back("page " + std::to_string(page) + ": " + reason);
  }
  query.photos.insert(query.photos.end(), std::make_move_iterator(stored->photos.begin()),
                      std::make_move_iterator(stored->photos.end()));
  return Fetch::kDone;
}

void Crawl::SearchClass(size_t position) {
  ClassRun& run = runs_[position];
  const auto& synonyms = run.cls->synonyms;
  const size_t count =
      options_.max_synonyms > 0 ? std::min<size_t>(synonyms.size(), options_.max_synonyms) : synonyms.size();
  std::set<std::string> asked;
  for (size_t i = 0; i < count; ++i) {
    if (!asked.insert(synonyms[i]).second) continue;  // the same text twice would only repeat a call
    QueryRun query;
    query.text = synonyms[i];
    run.queries.push_back(std::move(query));
  }
  for (size_t q = 0; q < run.queries.size(); ++q) FetchPage(position, q, 1);
}

bool Crawl::FetchMorePages(size_t position) {
  ClassRun& run = runs_[position];
  bool fetched = false;
  for (size_t q = 0; q < run.queries.size(); ++q) {
    QueryRun& query = run.queries[q];
    if (query.failed || query.pending || query.pages_fetched == 0) continue;
    if (query.pages_fetched >= options_.max_pages) continue;
    if (static_cast<int64_t>(query.pages_fetched) * options_.per_page >= kMaxSearchResults) continue;
    // "pages" alone is not trusted (Flickr has answered pages=0 with a full page and total=45): more pages
    // exist when "pages" says so, when "total" says more than was received, or when the last page was full.
    const bool more = query.pages_fetched < query.pages_known || query.entries_fetched < query.total_known ||
                      (query.last_page_entries > 0 && query.last_page_entries >= options_.per_page);
    if (!more) continue;
    // Deferred counts as fetched: the class waits for it rather than being settled without it.
    fetched = FetchPage(position, q, query.pages_fetched + 1) != Fetch::kFailed || fetched;
  }
  return fetched;
}

bool Crawl::RunDeferred(bool force_earliest) {
  if (deferred_.empty()) return false;
  auto earliest = std::min_element(deferred_.begin(), deferred_.end(),
                                   [](const DeferredFetch& a, const DeferredFetch& b) { return a.due < b.due; });
  if (!force_earliest && earliest->due > options_.clock()) return false;
  const DeferredFetch fetch = *earliest;
  deferred_.erase(earliest);
  stats_.backoff_seconds += fetch.wait;
  FetchPage(fetch.position, fetch.query, fetch.page, fetch.attempt);
  dirty_.insert(fetch.position);  // walked again: with the page, or knowing it failed
  return true;
}

void Crawl::Walk(size_t position) {
  ClassRun& run = runs_[position];
  if (run.done) return;
  for (const QueryRun& query : run.queries) {
    if (query.pending) return;  // walked again when its retry has run
  }
  const size_t k = static_cast<size_t>(options_.per_class);
  while (true) {
    // Interleave the synonyms' relevance lists, skipping photos already seen.
    std::vector<Ranked> merged;
    std::unordered_set<std::string> seen;
    size_t longest = 0;
    for (const QueryRun& query : run.queries) longest = std::max(longest, query.photos.size());
    for (size_t at = 0; at < longest; ++at) {
      for (const QueryRun& query : run.queries) {
        if (at < query.photos.size() && seen.insert(query.photos[at].id).second) {
          merged.push_back({&query, &query.photos[at]});
        }
      }
    }

    std::vector<std::pair<Ranked, const StoredDownload*>> accepted;
    json rejected = json::array();
    for (const QueryRun& query : run.queries) {
      for (const std::string& reason : query.skipped) {
        rejected.push_back({{"wnid", run.cls->wnid}, {"query", query.text}, {"code", "bad-entry"}, {"reason", reason}});
      }
    }
    std::map<std::string, std::string> first_with_sha;  // sha256 -> flickr id
    size_t waiting = 0;
    for (const Ranked& ranked : merged) {
      if (accepted.size() + waiting >= k) break;
      const FlickrPhoto& photo = *ranked.photo;
      auto reject = [&](const std::string& code, const std::string& reason, const std::string& url) {
        rejected.push_back({{"wnid", run.cls->wnid},
                            {"flickr_id", photo.id},
                            {"query", ranked.query->text},
                            {"url", url},
                            {"code", code},
                            {"reason", reason}});
      };
      if (!photo.date_upload) {
        reject("no-upload-date", "the response has no dateupload, so the cutoff cannot be checked", "");
        continue;
      }
      if (*photo.date_upload < options_.min_upload_date) {
        reject(
            "before-cutoff",
            "uploaded " + FormatUtc(*photo.date_upload) + ", before the cutoff " + FormatUtc(options_.min_upload_date),
            "");
        continue;
      }
      const PhotoUrl* url = PickUrl(*ranked.photo);
      if (url == nullptr) {
        reject("no-url", "the response has none of the sizes asked for (url_z, url_m, url_l)", "");
        continue;
      }
      if (auto done = downloads_.find(url->url); done != downloads_.end()) {
        const StoredDownload& download = done->second;
        if (!download.stored) {
          reject(download.reason_code, download.reason, url->url);
          continue;
        }
        auto [first, fresh] = first_with_sha.emplace(download.sha256, photo.id);
        if (!fresh) {
          reject("same-image", "the same bytes as Flickr photo " + first->second + ", ranked higher", url->url);
          continue;
        }
        accepted.push_back({ranked, &download});
        continue;
      }
      if (auto failed = transient_failures_.find(url->url); failed != transient_failures_.end()) {
        reject("download-failed", failed->second + "; a rerun tries again", url->url);
        continue;
      }
      ++waiting;
      std::vector<size_t>& waiters = in_flight_[url->url];
      if (waiters.empty()) pool_->Submit(url->url);
      if (std::find(waiters.begin(), waiters.end(), position) == waiters.end()) waiters.push_back(position);
    }
    if (waiting > 0) return;  // walked again when those downloads finish
    if (accepted.size() < k && FetchMorePages(position)) continue;

    for (size_t rank = 0; rank < accepted.size(); ++rank) {
      const FlickrPhoto& photo = *accepted[rank].first.photo;
      run.items.push_back(CrawlCandidate(*run.cls, accepted[rank].first.query->text, static_cast<int>(rank) + 1, photo,
                                         PickUrl(photo)->url, *accepted[rank].second));
    }
    run.rejected = std::move(rejected);
    run.done = true;
    ++classes_done_;
    const std::string name = run.cls->synonyms.empty() ? "" : " " + run.cls->synonyms.front();
    Log("[" + std::to_string(classes_done_) + "/" + std::to_string(runs_.size()) + "] " + run.cls->wnid + name + ": " +
        std::to_string(run.items.size()) + " of " + std::to_string(k) + " candidates, " +
        std::to_string(run.rejected.size()) + " rejected");
    return;
  }
}

void Crawl::Record(DownloadResult result) {
  stats_.download_network_seconds += result.network_seconds;
  stats_.download_work_seconds += result.work_seconds;
  if (result.final) {
    ++stats_.downloads_run;
    if (!result.recorded) {
      ScopedTimer timer(&stats_.state_seconds);
      state_->StoreDownload(result.url, result.record);
    }
    downloads_[result.url] = result.record;
  } else {
    ++stats_.download_failures;
    transient_failures_[result.url] = result.failure;
    Log("warning: download failed: " + result.failure);
  }
  auto waiting = in_flight_.find(result.url);
  if (waiting != in_flight_.end()) {
    dirty_.insert(waiting->second.begin(), waiting->second.end());
    in_flight_.erase(waiting);
  }
}

void Crawl::DrainFinished() {
  while (auto result = pool_->TryNext()) Record(std::move(*result));
}

datasets::CandidateManifest Crawl::BuildManifest() const {
  std::vector<CrawledClass> crawled;
  for (const ClassRun& run : runs_) {
    CrawledClass c{run.cls, {}, &run.items, &run.rejected};
    for (const QueryRun& query : run.queries) c.queries.push_back(query.text);
    crawled.push_back(std::move(c));
  }
  return BuildCrawlManifest(crawled, options_, failed_queries_, stats_.download_failures);
}

CrawlResult Crawl::Run() {
  const auto start = std::chrono::steady_clock::now();
  size_t next = 0;
  try {
    while (true) {
      DrainFinished();
      const std::set<size_t> dirty = std::move(dirty_);
      dirty_.clear();
      for (size_t position : dirty) Walk(position);
      if (RunDeferred(/*force_earliest=*/false)) continue;  // retries whose time has come
      if (next < runs_.size()) {
        SearchClass(next);
        dirty_.insert(next);
        ++next;
        continue;
      }
      if (pool_->pending() > 0) {
        ScopedTimer timer(&stats_.download_wait_seconds);
        if (deferred_.empty()) {
          Record(pool_->Next());
        } else if (auto result = pool_->NextWithin(std::max(0.0, EarliestDue() - options_.clock()))) {
          Record(std::move(*result));
        } else {
          RunDeferred(/*force_earliest=*/true);  // waited for downloads until the retry was due
        }
        continue;
      }
      if (!deferred_.empty()) {
        // Nothing else to do: wait for the earliest retry (the sleeper, so tests record it), then run it.
        const double wait = std::max(0.0, EarliestDue() - options_.clock());
        if (wait > 0) options_.sleeper(wait);
        RunDeferred(/*force_earliest=*/true);
        continue;
      }
      if (dirty_.empty()) break;
    }
  } catch (...) {
    DrainFinished();  // keep every download that finished before the crawl stopped
    throw;
  }
  for (const ClassRun& run : runs_) {
    if (!run.done) throw Error(ErrorKind::kInternal, run.cls->wnid, "the crawl ended with the class unfinished");
  }

  CrawlResult result;
  result.manifest = BuildManifest();
  const std::string text = Redact(datasets::ToJson(result.manifest).dump(2) + "\n", options_.api_key);
  WriteFileAtomically(options_.out_dir / datasets::kCandidateManifestFile, text);

  const SearchStats& search = search_->stats();
  stats_.classes = static_cast<int>(runs_.size());
  for (const ClassRun& run : runs_) {
    if (static_cast<int>(run.items.size()) < options_.per_class) ++stats_.classes_short;
  }
  stats_.items = static_cast<int64_t>(result.manifest.items.size());
  stats_.rejected = static_cast<int64_t>(result.manifest.rejected.size());
  stats_.api_calls = search.calls;
  stats_.search_network_seconds = search.network_seconds;
  stats_.search_parse_seconds = search.parse_seconds;
  stats_.rate_wait_seconds = search.rate_wait_seconds;
  stats_.backoff_seconds += search.backoff_seconds;
  stats_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.stats = stats_;
  result.warnings = stats_.failed_queries > 0 || stats_.download_failures > 0;
  return result;
}

}  // namespace

CrawlResult RunCrawl(const std::vector<CrawlClass>& classes, const CrawlOptions& options) {
  Crawl crawl(classes, options);
  return crawl.Run();
}

}  // namespace evalsuite::flickr
