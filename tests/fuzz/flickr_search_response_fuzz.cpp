// Fuzz target: flickr.photos.search responses as `holdout crawl` reads them off the network. Whatever the body,
// the parser returns a page or throws evalsuite::Error, and what it returns can be written as JSON (valid UTF-8).
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "datasets/flickr/search_response.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const evalsuite::flickr::SearchResponse response =
        evalsuite::flickr::ParseSearchResponse(evalsuite::fuzz::Text(data, size), "fuzz");
    nlohmann::json out = {{"message", response.failure.message}, {"skipped", response.page.skipped}};
    for (const auto& photo : response.page.photos) {
      out["photos"].push_back({photo.id, photo.owner, photo.owner_name, photo.title, photo.license, photo.date_taken,
                               photo.url_m.url, photo.url_z.url, photo.url_l.url});
    }
    (void)out.dump();  // throws (type_error 316) on invalid UTF-8: a crash here is a finding
  } catch (const evalsuite::Error&) {
  }
  return 0;
}
