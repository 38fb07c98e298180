// The MLPerf log scanner (runlog/mlperf_scan.h) against the simple loops it replaced: StringEnd finds a
// string's closing quote and FindQuotedName a field's name 16 bytes at a time, and BalancedObject and
// PlausibleJsonTokens must decide every record exactly as before, escapes, cut strings and block boundaries included.
#include "runlog/mlperf_scan.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace evalsuite::runlog::mlperf_scan {
namespace {

// The loops as they were: one byte at a time, a backslash skipping the byte after it.
const char* ByteStringEnd(const char* c, const char* end) {
  for (; c < end && *c != '"'; ++c) {
    if (*c == '\\') ++c;
  }
  return c < end ? c : end;
}

bool ByteBalancedObject(const char* p, const char* end) {
  if (p >= end || *p != '{' || end[-1] != '}') return false;
  int depth = 0;
  for (const char* c = p; c < end; ++c) {
    switch (*c) {
      case '"':
        for (++c; c < end && *c != '"'; ++c) {
          if (*c == '\\') ++c;
        }
        if (c >= end) return false;
        break;
      case '{':
      case '[':
        ++depth;
        break;
      case '}':
      case ']':
        if (--depth < 0 || (depth == 0 && c != end - 1)) return false;
        break;
      default:
        break;
    }
  }
  return depth == 0;
}

bool BytePlausibleJsonTokens(const char* p, const char* end) {
  for (const char* c = p; c < end;) {
    const char ch = *c;
    if (ch == '"') {
      for (++c; c < end && *c != '"'; ++c) {
        if (*c == '\\') ++c;
      }
      ++c;
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '{' || ch == '}' || ch == '[' || ch == ']' || ch == ',' || ch == ':' ||
        ch == '-' || ch == '+' || ch == '.' || (ch >= '0' && ch <= '9')) {
      ++c;
      continue;
    }
    const char* w = c;
    while (c < end && ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'))) ++c;
    const std::string_view word(w, static_cast<std::size_t>(c - w));
    if (word == "true" || word == "false" || word == "null" || word == "NaN" || word == "Infinity") continue;
    if ((word == "e" || word == "E") && w > p && w[-1] >= '0' && w[-1] <= '9') continue;
    return false;
  }
  return true;
}

// Records built from the bytes that matter, lengths around the 16-byte blocks, quotes and backslashes at block
// edges, strings cut at the end.
std::vector<std::string> Records() {
  std::vector<std::string> out = {
      R"({"namespace": "", "time_ms": 1652207554577, "event_type": "POINT_IN_TIME", "key": "eval_accuracy", )"
      R"("value": 0.7611, "metadata": {"file": "/workspace/image_classification/runner.py", "lineno": 226}})",
      R"({"key": "a\"b", "value": "c:\\", "metadata": {}})",
      R"({"key": "cut", "value": "no end)",
      R"({"key": "x", "value": nullLambdaorkspace})",
      R"({"value": 1e-06, "v2": -Infinity, "v3": NaN})",
      "{\"a\": \"" + std::string(15, 'x') + "\\\"" + std::string(30, 'y') + "\"}",
      "{\"a\": \"" + std::string(14, 'x') + "\\\\\"}",
      "{\"a\": \"" + std::string(16, 'x') + "\\",
  };
  std::mt19937 random(20261127);
  const std::string alphabet = "\"\\{}[]:, aeflnrstuxNI019.-+E";
  for (int i = 0; i < 20000; ++i) {
    const std::size_t length = random() % 70;
    std::string text = "{";
    for (std::size_t j = 0; j < length; ++j) {
      // Mostly plain bytes, as in a file path, so that 16-byte blocks with nothing to find are common too.
      text += random() % 3 == 0 ? alphabet[random() % alphabet.size()] : 'p';
    }
    if (random() % 2 == 0) text += '}';
    out.push_back(std::move(text));
  }
  return out;
}

TEST(MlperfScanTest, StringEndFindsTheClosingQuoteTheByteLoopFinds) {
  for (const std::string& record : Records()) {
    const char* end = record.data() + record.size();
    for (const char* start = record.data(); start <= end; ++start) {
      ASSERT_EQ(StringEnd(start, end), ByteStringEnd(start, end)) << record << " from byte " << (start - record.data());
    }
  }
}

TEST(MlperfScanTest, ShapeChecksDecideAsTheByteLoopsDid) {
  int balanced = 0, plausible = 0;
  for (const std::string& record : Records()) {
    const char* begin = record.data();
    const char* end = begin + record.size();
    ASSERT_EQ(BalancedObject(begin, end), ByteBalancedObject(begin, end)) << record;
    ASSERT_EQ(PlausibleJsonTokens(begin, end), BytePlausibleJsonTokens(begin, end)) << record;
    ASSERT_EQ(PlausibleJsonObject(begin, end), ByteBalancedObject(begin, end) && BytePlausibleJsonTokens(begin, end))
        << record;
    balanced += BalancedObject(begin, end) ? 1 : 0;
    plausible += PlausibleJsonTokens(begin, end) ? 1 : 0;
  }
  // Both answers occur often enough to have been compared.
  EXPECT_GT(balanced, 500);
  EXPECT_GT(plausible, 500);
  const std::string real = Records()[0];
  EXPECT_TRUE(BalancedObject(real.data(), real.data() + real.size()));
  EXPECT_TRUE(PlausibleJsonTokens(real.data(), real.data() + real.size()));
  const std::string glued = Records()[3];
  EXPECT_FALSE(PlausibleJsonTokens(glued.data(), glued.data() + glued.size()));
}

TEST(MlperfScanTest, FindQuotedNameFindsWhatStringViewFindFinds) {
  int found = 0;
  for (const std::string& name : {std::string("\"value\""), std::string("\"e\""), std::string("\"metadata\"")}) {
    std::vector<std::string> texts = Records();
    // Texts of pieces of the name, whole names and other bytes, so that the name starts at every offset of a block.
    std::mt19937 random(7);
    const std::vector<std::string> pieces = {name, name.substr(0, 2), "\"", "p", "pppppppp", ": "};
    for (int i = 0; i < 3000; ++i) {
      std::string text;
      for (std::size_t n = random() % 12; n > 0; --n) text += pieces[random() % pieces.size()];
      texts.push_back(std::move(text));
    }
    // Names near the end of a text and overlapping ones.
    texts.push_back(std::string(20, 'p') + name);
    texts.push_back(std::string(13, 'p') + "\"" + name + "\"" + name);
    for (const std::string& text : texts) {
      const char* end = text.data() + text.size();
      for (std::size_t from = 0; from <= text.size(); from += 7) {
        const std::size_t at = std::string_view(text).find(name, from);
        const char* want = at == std::string_view::npos ? nullptr : text.data() + at;
        ASSERT_EQ(FindQuotedName(text.data() + from, end, name), want) << text << " from " << from;
        found += want != nullptr ? 1 : 0;
      }
    }
  }
  EXPECT_GT(found, 1000);
}

}  // namespace
}  // namespace evalsuite::runlog::mlperf_scan
