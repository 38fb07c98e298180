// json_guard: the nesting limit (checked before parsing), errors that name the place, UTF-8 repair as
// Python's bytes.decode("utf-8", "replace") does it.
#include "common/json_guard.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace evalsuite {
namespace {

TEST(JsonGuard, CountsNestingOutsideStringsOnly) {
  EXPECT_EQ(JsonNestingDepth(R"({"a":[1,{"b":2}]})"), 3);
  EXPECT_EQ(JsonNestingDepth(R"({"a":"[[[[\"[[["})"), 1);
  EXPECT_EQ(JsonNestingDepth("42"), 0);
}

TEST(JsonGuard, RefusesDeepNestingBeforeBuildingATree) {
  // 200,000 levels overflowed the stack when the tree was copied; the text is refused before it is parsed.
  const std::string deep = R"({"time_ms":1,"value":)" + std::string(200000, '[') + std::string(200000, ']') + "}";
  try {
    ParseUserJson(deep, "log.txt:7");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "log.txt:7");
    EXPECT_NE(e.message().find("nested deeper than 64"), std::string::npos) << e.message();
  }
  EXPECT_NO_THROW(ParseUserJson(std::string(64, '[') + std::string(64, ']'), "x"));
}

TEST(JsonGuard, SyntaxErrorsNameThePlaceAndNlohmannsReason) {
  std::string error;
  EXPECT_TRUE(TryParseUserJson("{\"a\":", error).is_discarded());
  EXPECT_NE(error.find("not valid JSON"), std::string::npos);
  try {
    ParseUserJson("{\"a\" 1}", "m.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "m.json");
  }
}

TEST(JsonGuard, RepairsInvalidUtf8AsPythonDoes) {
  // Expected values: b"...".decode("utf-8", "replace") in Python 3.11.
  EXPECT_EQ(ToValidUtf8("ok \xc3\xa9"), "ok \xc3\xa9");
  EXPECT_EQ(ToValidUtf8("a\xff"
                        "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(ToValidUtf8("\xe2\x82"), "\xEF\xBF\xBD");  // truncated 3-byte sequence: one U+FFFD
  EXPECT_EQ(ToValidUtf8("\xed\xa0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate: three
  EXPECT_EQ(ToValidUtf8("\xc0\xaf"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong: two
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));                                   // above U+10FFFF
  EXPECT_TRUE(IsValidUtf8("\xf0\x9f\x98\x80"));
}

// The ASCII fast path reads 32, then 8 bytes at a time: a bad or a good non-ASCII sequence at every offset of a long
// ASCII text, including the last bytes of a block and the tail, decides as the sequence alone does.
TEST(JsonGuard, Utf8CheckSeesASequenceAtEveryOffset) {
  for (std::size_t length : {7u, 31u, 32u, 33u, 70u, 100u}) {
    for (std::size_t at = 0; at < length; ++at) {
      std::string bad(length, 'a');
      bad[at] = '\xff';
      EXPECT_FALSE(IsValidUtf8(bad)) << length << " " << at;
      std::string cut(length, 'a');
      cut[at] = '\xe2';  // a three-byte sequence cut short by the ASCII after it
      EXPECT_FALSE(IsValidUtf8(cut)) << length << " " << at;
      std::string good(length, 'a');
      good.insert(at, "\xe2\x82\xac");
      EXPECT_TRUE(IsValidUtf8(good)) << length << " " << at;
    }
  }
}

}  // namespace
}  // namespace evalsuite

namespace evalsuite {
namespace {

TEST(JsonRepair, LoneSurrogateEscapesBecomeReplacementCharactersAndPairsStay) {
  JsonRepairs repairs;
  // A Flickr title cut inside an emoji: "\ud83d" alone. Python: json.loads('"a\\ud83d b"') keeps the lone
  // surrogate; nlohmann refuses it; evalsuite reads it as U+FFFD.
  const std::string fixed = RepairJsonText(R"({"title":"a\ud83d b","ok":"\ud83d\ude00","n":"\u00e9"})", &repairs);
  EXPECT_EQ(repairs.lone_surrogates, 1);
  const nlohmann::json parsed = nlohmann::json::parse(fixed);
  EXPECT_EQ(parsed["title"], "a\xEF\xBF\xBD b");
  EXPECT_EQ(parsed["ok"], "\xF0\x9F\x98\x80");
  EXPECT_EQ(parsed["n"], "\xC3\xA9");
  EXPECT_EQ(RepairJsonText(R"(["\udc00x"])", &repairs), R"(["\uFFFDx"])");
}

TEST(JsonRepair, RawControlCharactersAndInvalidBytesInStringsAreRepaired) {
  JsonRepairs repairs;
  const std::string fixed = RepairJsonText("{\"t\":\"tab\there\xff\"}", &repairs);
  EXPECT_EQ(repairs.control_chars, 1);
  EXPECT_EQ(repairs.invalid_utf8, 1);
  EXPECT_EQ(nlohmann::json::parse(fixed)["t"], "tab\there\xEF\xBF\xBD");
}

TEST(JsonRepair, ValidJsonIsUnchanged) {
  const std::string text = R"({"a":"x\\\"\u0041\ud83d\ude00","b":[1,2]})";
  JsonRepairs repairs;
  EXPECT_EQ(RepairJsonText(text, &repairs), text);
  EXPECT_EQ(repairs.total(), 0);
}

}  // namespace
}  // namespace evalsuite

namespace evalsuite {
namespace {

TEST(JsonGuard, ARawNulByteIsRefusedNotReadAsTheEndOfTheInput) {
  // nlohmann's lexer reads '\0' as the end of the input: "1\0garbage" parsed as 1 before the guard refused it.
  std::string error;
  EXPECT_TRUE(TryParseUserJson(std::string("1\0garbage", 9), error).is_discarded());
  EXPECT_EQ(error, "not valid JSON: a NUL byte at byte 2");
  EXPECT_TRUE(TryParseUserJson(std::string("{\"a\":1}\0", 8), error).is_discarded());
  EXPECT_NE(error.find("NUL byte at byte 8"), std::string::npos) << error;
  try {
    ParseUserJson(std::string("{\"schema_version\":1}\0{", 22), "m.json");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "m.json");
    EXPECT_NE(e.message().find("NUL byte"), std::string::npos) << e.message();
  }
}

TEST(JsonGuard, ANumberOverflowingADoubleIsAParseErrorNotAnEscapingException) {
  // nlohmann throws out_of_range 406 ("number overflow parsing '1e999'"), not a parse_error.
  std::string error;
  EXPECT_TRUE(TryParseUserJson(R"({"schema_version":1e999})", error).is_discarded());
  EXPECT_NE(error.find("not valid JSON"), std::string::npos) << error;
  EXPECT_NE(error.find("1e999"), std::string::npos) << error;
  EXPECT_THROW(ParseUserJson("[-1e400]", "f.json"), Error);
}

TEST(JsonGuard, TheErrorMessageIsValidUtf8WhenTheInputIsNot) {
  // nlohmann quotes the bytes it last read ("last read: '\xff'"); the warning must itself be writable as JSON.
  std::string error;
  EXPECT_TRUE(TryParseUserJson("{\"a\":\xff\xfe}", error).is_discarded());
  EXPECT_TRUE(IsValidUtf8(error)) << error;
  EXPECT_NO_THROW((void)nlohmann::json(error).dump());
}

}  // namespace
}  // namespace evalsuite
