// json_guard: the nesting limit (checked before parsing), errors that name the place, UTF-8 repair as
// Python's bytes.decode("utf-8", "replace") does it.
#include "evalsuite/common/json_guard.h"

#include <gtest/gtest.h>

#include "evalsuite/common/error.h"

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
  EXPECT_EQ(ToValidUtf8("a\xff" "b"), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(ToValidUtf8("\xe2\x82"), "\xEF\xBF\xBD");                 // truncated 3-byte sequence: one U+FFFD
  EXPECT_EQ(ToValidUtf8("\xed\xa0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate: three
  EXPECT_EQ(ToValidUtf8("\xc0\xaf"), "\xEF\xBF\xBD\xEF\xBF\xBD");     // overlong: two
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));                      // above U+10FFFF
  EXPECT_TRUE(IsValidUtf8("\xf0\x9f\x98\x80"));
}

}  // namespace
}  // namespace evalsuite
