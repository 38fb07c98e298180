// Parser of flickr.photos.search responses (format=json, nojsoncallback=1), tolerant of what the service
// really sends: numbers as numbers or as strings ("total":"15849" and "total":9234), escaped slashes
// ("https:\/\/live.staticflickr.com\/..."), extras missing from some photos, and the JSONP wrapper
// jsonFlickrApi(...) should nojsoncallback be ignored, lone surrogate escapes and invalid UTF-8 in titles (read
// as U+FFFD); one unusable photo entry is skipped with its reason, the rest of the page kept.
// {"stat":"fail","code":N,"message":"..."} is a result (SearchResponse::failure), not an exception: the caller decides
// which codes stop a crawl.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace evalsuite::flickr {

struct PhotoUrl {
  std::string url;  // empty when the size was not returned
  int width = 0;
  int height = 0;
};

struct FlickrPhoto {
  std::string id;
  std::string owner;       // NSID, "35034362831@N01"
  std::string owner_name;  // extras=owner_name
  std::string title;
  std::string license;                 // extras=license: "0".."10", as a string whatever type was sent
  std::optional<int64_t> date_upload;  // extras=date_upload, Unix seconds; nullopt when missing
  std::string date_taken;              // extras=date_taken, "2013-09-07 21:46:16"
  PhotoUrl url_m, url_z, url_l;
};

struct SearchPage {
  int64_t page = 0, pages = 0, per_page = 0, total = 0;
  std::vector<FlickrPhoto> photos;
  int skipped_photos = 0;            // entries without an id, or not objects
  std::vector<std::string> skipped;  // why each was skipped ("photo 3 of the page has no id")
  int repaired_characters = 0;       // lone surrogates, invalid UTF-8, raw control characters made readable
};

struct FlickrFailure {
  int code = 0;
  std::string message;
};

struct SearchResponse {
  bool ok = false;
  SearchPage page;        // when ok
  FlickrFailure failure;  // when !ok
};

// Throws InputError naming `where` when the body is not JSON, not an object, has no "stat", or has
// "stat":"ok" without "photos".
SearchResponse ParseSearchResponse(std::string_view body, const std::string& where);

}  // namespace evalsuite::flickr
