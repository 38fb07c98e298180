#include "datasets/flickr/crawl_manifest.h"

#include <map>

#include "common/environment.h"
#include "datasets/flickr/upload_cutoff.h"

namespace evalsuite::flickr {

using nlohmann::json;

datasets::CandidateManifest BuildCrawlManifest(const std::vector<CrawledClass>& classes, const CrawlOptions& options,
                                               const json& failed_queries, int64_t download_failures) {
  datasets::CandidateManifest manifest;
  json short_classes = json::array();
  std::map<std::string, std::vector<std::string>> classes_of_query;
  for (const CrawledClass& c : classes) {
    for (const std::string& query : c.queries) classes_of_query[query].push_back(c.cls->wnid);
  }
  // Classes that share a search text (WordNet's two "crane"s) were searched once and may hold the same
  // photos: the labelers and the freeze must know.
  json shared_queries = json::array();
  for (const auto& [text, wnids] : classes_of_query) {
    if (wnids.size() > 1) shared_queries.push_back({{"query", text}, {"wnids", wnids}});
  }
  for (const CrawledClass& crawled : classes) {
    datasets::CandidateClass c;
    c.index = crawled.cls->index;
    c.wnid = crawled.cls->wnid;
    c.synonyms = crawled.cls->synonyms;
    c.gloss = crawled.cls->gloss;
    manifest.classes[c.wnid] = c;
    manifest.items.insert(manifest.items.end(), crawled.items->begin(), crawled.items->end());
    for (const json& r : *crawled.rejected) manifest.rejected.push_back(r);
    if (static_cast<int>(crawled.items->size()) < options.per_class) {
      short_classes.push_back({{"wnid", crawled.cls->wnid}, {"found", crawled.items->size()}});
    }
  }
  json source = {{"tool", "evalsuite holdout crawl"},
                 {"evalsuite_version", EvalsuiteVersion()},
                 {"api", "flickr.photos.search"},
                 {"endpoint", EndpointForRecord(options.endpoint)},
                 {"since", FormatUtc(options.min_upload_date)},
                 {"min_upload_date", options.min_upload_date},
                 {"per_class", options.per_class},
                 {"per_page", options.per_page},
                 {"max_pages", options.max_pages},
                 {"max_synonyms", options.max_synonyms},
                 {"sort", "relevance"},
                 {"content_type", 1},
                 {"media", "photos"},
                 {"extras", kSearchExtras},
                 {"license", options.license},
                 {"sizes", options.sizes},
                 {"ranking", "synonym lists interleaved by relevance rank, repeated photos skipped"},
                 {"rate", options.rate.ToString()},
                 {"classes_requested", classes.size()},
                 {"classes_short", short_classes},
                 {"shared_queries", shared_queries},
                 {"failed_queries", failed_queries},
                 {"download_failures", download_failures},
                 {"finished_at", UtcNowIso8601()}};
  for (const auto& [key, value] : options.source_extra.items()) source[key] = value;
  manifest.source = std::move(source);
  return manifest;
}

datasets::Candidate CrawlCandidate(const CrawlClass& cls, const std::string& query, int rank, const FlickrPhoto& photo,
                                   const std::string& url, const StoredDownload& download) {
  datasets::Candidate c;
  c.id = cls.wnid + "/" + photo.id;
  c.class_index = cls.index;
  c.wnid = cls.wnid;
  c.query = query;
  c.rank = rank;
  c.flickr_id = photo.id;
  c.owner = photo.owner;
  c.owner_name = photo.owner_name;
  c.license = photo.license;
  c.date_upload = *photo.date_upload;
  c.date_taken = photo.date_taken;
  c.url = url;
  c.path = download.path;
  c.sha256 = download.sha256;
  c.width = download.width;
  c.height = download.height;
  return c;
}

}  // namespace evalsuite::flickr
