// What a Flickr crawl writes (datasets/images/candidate_manifest.h): each class's candidates in rank order and the
// photos passed over with their reasons, and the source record that lets anyone audit or redo the crawl (the
// search's settings, short classes, search texts that several classes share, failed queries). The crawl itself
// (searching, ranking, downloading) is crawler.h's; what it was asked for is crawl_options.h's.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "datasets/flickr/crawl_options.h"
#include "datasets/flickr/crawl_state.h"
#include "datasets/images/candidate_manifest.h"

namespace evalsuite::flickr {

// One class as the crawl finished it (the pointers are the crawl's, alive while the manifest is built).
struct CrawledClass {
  const CrawlClass* cls = nullptr;
  std::vector<std::string> queries;                         // the search texts asked for it
  const std::vector<datasets::Candidate>* items = nullptr;  // its candidates, best first
  const nlohmann::json* rejected = nullptr;                 // the photos passed over, with their reasons
};

// The manifest of a finished crawl; `failed_queries` and `download_failures` go into its source record.
datasets::CandidateManifest BuildCrawlManifest(const std::vector<CrawledClass>& classes, const CrawlOptions& options,
                                               const nlohmann::json& failed_queries, int64_t download_failures);

// The manifest's record of a photo accepted as its class's `rank`-th candidate (1-based): its search entry, the URL
// it was downloaded from and what the download stored.
datasets::Candidate CrawlCandidate(const CrawlClass& cls, const std::string& query, int rank, const FlickrPhoto& photo,
                                   const std::string& url, const StoredDownload& download);

}  // namespace evalsuite::flickr
