#include "datasets/flickr/search_response.h"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/json_fields.h"
#include "common/json_guard.h"

namespace evalsuite::flickr {
namespace {

using nlohmann::json;

// A JSON number (a fraction cut off), or a string holding an integer; nullopt otherwise (including "" and
// anything outside int64's range: a float such as 1e300 converted to an integer would be undefined behaviour).
std::optional<int64_t> Integer(const json& value) {
  if (value.is_number_float()) return IntegerValue(json(std::trunc(value.get<double>())));
  if (value.is_number()) return IntegerValue(value);
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    int64_t parsed = 0;
    const char* end = text.data() + text.size();
    // from_chars: digits only (an optional '-'), no exception and no wrap-around on overflow.
    const auto [stop, error] = std::from_chars(text.data(), end, parsed);
    if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
    return parsed;
  }
  return std::nullopt;
}

std::optional<int64_t> IntegerField(const json& object, const char* key) {
  auto it = object.find(key);
  return it == object.end() ? std::nullopt : Integer(*it);
}

// Strings stay strings; numbers are printed without a fraction ("license":5 and "license":"5" agree).
std::string TextField(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return "";
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number()) {
    const std::optional<int64_t> integer = Integer(*it);
    return integer ? std::to_string(*integer) : "";
  }
  if (it->is_object() && it->contains("_content")) return TextField(*it, "_content");
  return "";
}

PhotoUrl UrlField(const json& photo, const char* size) {
  PhotoUrl url;
  url.url = TextField(photo, (std::string("url_") + size).c_str());
  url.width = static_cast<int>(IntegerField(photo, (std::string("width_") + size).c_str()).value_or(0));
  url.height = static_cast<int>(IntegerField(photo, (std::string("height_") + size).c_str()).value_or(0));
  return url;
}

std::string_view StripJsonp(std::string_view body) {
  const size_t begin = body.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (begin == std::string_view::npos) return body;
  body.remove_prefix(begin);
  constexpr std::string_view kWrapper = "jsonFlickrApi(";
  if (body.substr(0, kWrapper.size()) == kWrapper) {
    const size_t close = body.rfind(')');
    if (close != std::string_view::npos && close > kWrapper.size()) {
      return body.substr(kWrapper.size(), close - kWrapper.size());
    }
  }
  return body;
}

// What the body looked like, without quoting it: a response can echo the request URL, API key included.
std::string DescribeBody(std::string_view body) {
  const size_t first = body.find_first_not_of(" \t\r\n");
  const bool html = first != std::string_view::npos && body[first] == '<';
  return std::to_string(body.size()) + " bytes" + (html ? ", an HTML/XML page" : "");
}

}  // namespace

SearchResponse ParseSearchResponse(std::string_view body, const std::string& where) {
  // Flickr serves titles cut inside an emoji (a lone \ud83d escape: valid grammar, no character) and, rarely,
  // raw control characters: repaired here, so one odd title never costs the page its other photos.
  JsonRepairs repairs;
  const std::string text = RepairJsonText(StripJsonp(body), &repairs);
  if (JsonNestingDepth(text) > kMaxJsonDepth) {
    throw InputError(where, "the response nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  json root;
  try {
    root = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    throw InputError(where, "the response is not valid JSON (" + DescribeBody(body) + "; syntax error at byte " +
                                std::to_string(e.byte) + ")");
  } catch (const json::exception& e) {  // out_of_range 406: a number such as 1e999 that overflows a double
    throw InputError(where, "the response is not usable JSON (" + DescribeBody(body) + "; a number out of range)");
  }
  if (!root.is_object()) throw InputError(where, "the response is JSON but not an object");
  const std::string stat = TextField(root, "stat");
  SearchResponse response;
  response.page.repaired_characters = repairs.total();
  if (stat == "fail") {
    response.failure.code = static_cast<int>(IntegerField(root, "code").value_or(0));
    response.failure.message = TextField(root, "message");
    return response;
  }
  if (stat != "ok") throw InputError(where, "the response has no \"stat\":\"ok\" or \"fail\"");
  auto photos = root.find("photos");
  if (photos == root.end() || !photos->is_object()) {
    throw InputError(where, "\"stat\":\"ok\" without a \"photos\" object");
  }
  SearchPage& page = response.page;
  page.page = IntegerField(*photos, "page").value_or(0);
  page.pages = IntegerField(*photos, "pages").value_or(0);
  page.per_page = IntegerField(*photos, "perpage").value_or(IntegerField(*photos, "per_page").value_or(0));
  page.total = IntegerField(*photos, "total").value_or(0);
  auto list = photos->find("photo");
  if (list != photos->end() && list->is_array()) {
    for (size_t position = 0; position < list->size(); ++position) {
      const json& entry = (*list)[position];
      if (!entry.is_object() || TextField(entry, "id").empty()) {
        ++page.skipped_photos;
        page.skipped.push_back("photo " + std::to_string(position + 1) + " of the page " +
                               (entry.is_object() ? "has no id" : "is not an object"));
        continue;
      }
      FlickrPhoto photo;
      photo.id = TextField(entry, "id");
      photo.owner = TextField(entry, "owner");
      photo.owner_name = TextField(entry, "ownername");
      photo.title = TextField(entry, "title");
      photo.license = TextField(entry, "license");
      photo.date_upload = IntegerField(entry, "dateupload");
      photo.date_taken = TextField(entry, "datetaken");
      photo.url_m = UrlField(entry, "m");
      photo.url_z = UrlField(entry, "z");
      photo.url_l = UrlField(entry, "l");
      page.photos.push_back(std::move(photo));
    }
  }
  response.ok = true;
  return response;
}

}  // namespace evalsuite::flickr
