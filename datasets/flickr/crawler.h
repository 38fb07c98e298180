// The holdout crawl: for each class, flickr.photos.search once per synonym (uploaded after the cutoff, by
// relevance), the top k photos across synonyms without repeating one, downloaded, checked and stored once,
// written out as the candidate manifest (datasets/images/candidate_manifest.h) for the labeling tool.
//
// Ranking across synonyms: the synonyms' relevance lists are interleaved (1st of each synonym in WordNet
// order, then the 2nd of each, ...) and a photo seen before is skipped. The k candidates of a class are the
// first k in that order that pass every check: uploaded at or after the cutoff (checked here again,
// whatever the server sent), a URL in a wanted size, a download that decodes as an image and is not the same
// image as a better-ranked candidate. Every photo passed over is listed in the manifest's `rejected` with
// its reason. The outcome does not depend on download order or on interruptions: a rerun computes the same
// walk from the persisted state (crawl.db) and only does the work still missing.
#pragma once

#include <cstdint>
#include <vector>

#include "datasets/flickr/crawl_options.h"
#include "datasets/images/candidate_manifest.h"

namespace evalsuite::flickr {

struct CrawlStats {
  int classes = 0;
  int classes_short = 0;  // fewer than per_class candidates
  int64_t items = 0;
  int64_t rejected = 0;
  int64_t searches_run = 0;     // search pages asked from the API in this run
  int64_t searches_reused = 0;  // search pages read back from crawl.db
  int64_t api_calls = 0;        // HTTP requests to the API, retries included
  int64_t failed_queries = 0;
  int64_t downloads_run = 0;      // downloads finished in this run (stored or rejected)
  int64_t downloads_reused = 0;   // download outcomes known from crawl.db when the run started
  int64_t download_failures = 0;  // transient failures left for a rerun
  double wall_seconds = 0;
  // Where the main thread's time went: waiting on API responses, waiting for downloads it needs, the rest
  // (parsing, SQLite, ranking) is evalsuite's own work.
  double search_network_seconds = 0;
  double search_parse_seconds = 0;
  double rate_wait_seconds = 0;
  double backoff_seconds = 0;
  double download_wait_seconds = 0;
  double state_seconds = 0;  // SQLite reads and writes
  // Summed over download workers.
  double download_network_seconds = 0;
  double download_work_seconds = 0;  // decode check, SHA-256, writing the file
};

struct CrawlResult {
  datasets::CandidateManifest manifest;
  CrawlStats stats;
  bool warnings = false;  // failed queries or downloads a rerun may fix
};

// Runs (or resumes) the crawl in options.out_dir and writes out_dir/candidates.json. Throws UsageError for
// bad options or settings that contradict the folder's earlier crawl, ExternalError when Flickr rejects the
// API key or too many queries fail in a row; whatever finished before is in crawl.db either way.
CrawlResult RunCrawl(const std::vector<CrawlClass>& classes, const CrawlOptions& options);

}  // namespace evalsuite::flickr
