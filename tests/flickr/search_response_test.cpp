// The search-response parser against the shapes Flickr really sends (shapes from ../shared/data/flickr,
// written here by hand, plus the shared samples themselves when present).
#include "datasets/flickr/search_response.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "tests/support/test_support.h"

namespace evalsuite::flickr {
namespace {

TEST(SearchResponseTest, TotalAsStringEscapedSlashesAndUrlDimensionsAsNumbers) {
  const std::string body =
      R"j({"photos":{"page":1,"pages":64,"perpage":250,"total":"15849","photo":[{"id":"48788868917",)j"
      R"j("owner":"142275750@N02","secret":"474f051e76","server":"65535","farm":66,"title":"Egypt 93",)j"
      R"j("ispublic":1,"isfriend":0,"isfamily":0,"url_m":"https:\/\/live.staticflickr.com\/65535\/)j"
      R"j(48788868917_474f051e76.jpg","height_m":341,"width_m":500}]},"stat":"ok"})j";
  const SearchResponse response = ParseSearchResponse(body, "test");
  ASSERT_TRUE(response.ok);
  EXPECT_EQ(response.page.total, 15849);
  EXPECT_EQ(response.page.pages, 64);
  EXPECT_EQ(response.page.per_page, 250);
  ASSERT_EQ(response.page.photos.size(), 1u);
  const FlickrPhoto& photo = response.page.photos[0];
  EXPECT_EQ(photo.id, "48788868917");
  EXPECT_EQ(photo.url_m.url, "https://live.staticflickr.com/65535/48788868917_474f051e76.jpg");
  EXPECT_EQ(photo.url_m.width, 500);
  EXPECT_EQ(photo.url_m.height, 341);
  EXPECT_TRUE(photo.url_z.url.empty());  // extras not sent: empty, not an error
  EXPECT_FALSE(photo.date_upload.has_value());
}

TEST(SearchResponseTest, TotalAsNumberAndExtrasAsStrings) {
  const std::string body =
      R"j({"photos":{"page":"2","pages":"3","perpage":"19","total":9234,"photo":[{"id":"9990655265",)j"
      R"j("owner":"89165847@N00","title":"Dressed as Media","license":"5","description":{"_content":" "},)j"
      R"j("dateupload":"1380418058","datetaken":"2013-09-07 21:46:16","datetakengranularity":"0",)j"
      R"j("ownername":"mikecogh","url_z":"https:\/\/x\/z.jpg","width_z":"640","height_z":"426"},)j"
      R"j({"id":5795142131,"license":4,"dateupload":1307161596}]},"stat":"ok"})j";
  const SearchResponse response = ParseSearchResponse(body, "test");
  ASSERT_TRUE(response.ok);
  EXPECT_EQ(response.page.total, 9234);
  EXPECT_EQ(response.page.page, 2);
  ASSERT_EQ(response.page.photos.size(), 2u);
  EXPECT_EQ(response.page.photos[0].license, "5");
  EXPECT_EQ(response.page.photos[0].owner_name, "mikecogh");
  EXPECT_EQ(response.page.photos[0].date_upload, 1380418058);
  EXPECT_EQ(response.page.photos[0].date_taken, "2013-09-07 21:46:16");
  EXPECT_EQ(response.page.photos[0].url_z.width, 640);
  EXPECT_EQ(response.page.photos[0].url_z.url, "https://x/z.jpg");
  EXPECT_EQ(response.page.photos[1].id, "5795142131");  // a numeric id still becomes the same string
  EXPECT_EQ(response.page.photos[1].license, "4");
  EXPECT_EQ(response.page.photos[1].date_upload, 1307161596);
}

TEST(SearchResponseTest, StatFailIsAResultWithCodeAndMessage) {
  const SearchResponse numeric =
      ParseSearchResponse(R"j({"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"})j", "t");
  EXPECT_FALSE(numeric.ok);
  EXPECT_EQ(numeric.failure.code, 100);
  EXPECT_EQ(numeric.failure.message, "Invalid API Key (Key has invalid format)");
  const SearchResponse text = ParseSearchResponse(R"j({"stat":"fail","code":"20","message":"Excessive"})j", "t");
  EXPECT_EQ(text.failure.code, 20);
}

TEST(SearchResponseTest, JsonpWrapperEmptyResultsAndBrokenEntries) {
  const SearchResponse wrapped = ParseSearchResponse(
      R"j(jsonFlickrApi({"photos":{"page":1,"pages":0,"perpage":20,"total":"0","photo":[]},"stat":"ok"}))j", "t");
  ASSERT_TRUE(wrapped.ok);
  EXPECT_TRUE(wrapped.page.photos.empty());
  const SearchResponse broken =
      ParseSearchResponse(R"j({"photos":{"photo":[{"title":"no id"},42,{"id":"7"}]},"stat":"ok"})j", "t");
  ASSERT_TRUE(broken.ok);
  EXPECT_EQ(broken.page.photos.size(), 1u);
  EXPECT_EQ(broken.page.skipped_photos, 2);
}

TEST(SearchResponseTest, MalformedResponsesNameWhereAndNeverQuoteTheBody) {
  try {
    ParseSearchResponse(R"j({"photos":{"page":1,"photo":[{"id":"1","secret":"api_key=SECRET)j", "search \"tench\"");
    FAIL() << "expected an InputError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_EQ(e.where(), "search \"tench\"");
    EXPECT_NE(e.message().find("not valid JSON"), std::string::npos);
    EXPECT_EQ(std::string(e.what()).find("SECRET"), std::string::npos);
  }
  EXPECT_THROW(ParseSearchResponse("<html>500</html>", "t"), Error);
  EXPECT_THROW(ParseSearchResponse(R"j({"photos":{}})j", "t"), Error);  // no stat
  EXPECT_THROW(ParseSearchResponse(R"j({"stat":"ok"})j", "t"), Error);  // no photos
  EXPECT_THROW(ParseSearchResponse(R"j([1,2])j", "t"), Error);
}

TEST(SearchResponseTest, ANumberOverflowingADoubleIsAnInputErrorNamingWhere) {
  // nlohmann throws out_of_range 406 for 1e999, which escaped the parse_error handler (found by fuzzing).
  try {
    ParseSearchResponse(R"j({"stat":"ok","photos":{"page":1,"total":1e999,"photo":[]}})j", "search \"tench\"");
    FAIL() << "expected an InputError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_EQ(e.where(), "search \"tench\"");
    EXPECT_NE(e.message().find("number out of range"), std::string::npos) << e.message();
  }
}

TEST(SearchResponseTest, NumbersOutsideInt64AreLeftOutNotWrappedOrThrown) {
  // Before: "total":"9999999999999999999" threw std::out_of_range from std::stoll (escaping the parser) and
  // "pages":1e300 was a float converted to int64 out of range (undefined behaviour; INT64_MIN on x86).
  const SearchResponse big = ParseSearchResponse(
      R"j({"stat":"ok","photos":{"page":1,"pages":1e300,"total":"9999999999999999999","perpage":-1e30,)j"
      R"j("photo":[{"id":"7","license":1e300,"dateupload":"-9999999999999999999","width_m":2.5}]}})j",
      "search");
  ASSERT_TRUE(big.ok);
  EXPECT_EQ(big.page.pages, 0);
  EXPECT_EQ(big.page.total, 0);
  EXPECT_EQ(big.page.per_page, 0);
  ASSERT_EQ(big.page.photos.size(), 1u);
  EXPECT_EQ(big.page.photos[0].license, "");
  EXPECT_FALSE(big.page.photos[0].date_upload.has_value());
  EXPECT_EQ(big.page.photos[0].url_m.width, 2);  // a fraction is cut off, as before
  const SearchResponse edge = ParseSearchResponse(
      R"j({"stat":"ok","photos":{"total":"9223372036854775807","pages":"-12","photo":[]}})j", "search");
  EXPECT_EQ(edge.page.total, INT64_MAX);
  EXPECT_EQ(edge.page.pages, -12);
}

TEST(SearchResponseTest, SharedSamplesParse) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  const auto dir = shared / "flickr";
  const SearchResponse strings =
      ParseSearchResponse(evalsuite::testing::ReadFile(dir / "sample_search_url_m_string_total.json"), "string");
  ASSERT_TRUE(strings.ok);
  EXPECT_EQ(strings.page.total, 15849);
  EXPECT_EQ(strings.page.photos.size(), 2u);
  const SearchResponse numbers =
      ParseSearchResponse(evalsuite::testing::ReadFile(dir / "sample_search_url_m_int_total.json"), "int");
  EXPECT_EQ(numbers.page.total, 9234);
  const SearchResponse extras =
      ParseSearchResponse(evalsuite::testing::ReadFile(dir / "sample_search_extras_dates_license.json"), "extras");
  ASSERT_EQ(extras.page.photos.size(), 3u);
  EXPECT_EQ(extras.page.photos[2].license, "3");
  EXPECT_EQ(extras.page.photos[2].date_upload, 1280530063);
  EXPECT_EQ(extras.page.photos[1].title, "John Galliano/Christian Dior Newspaper Dress");
  const SearchResponse fail = ParseSearchResponse(evalsuite::testing::ReadFile(dir / "flickrex_fail.json"), "fail");
  EXPECT_FALSE(fail.ok);
  EXPECT_EQ(fail.failure.code, 112);
}

}  // namespace
}  // namespace evalsuite::flickr
