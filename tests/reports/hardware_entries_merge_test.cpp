// `report --section hardware=F` on a study whose store has rows of its own: one row per entry, the store's.
#include "reports/hardware_entries_merge.h"

#include <gtest/gtest.h>

namespace evalsuite::reports {
namespace {

using nlohmann::json;

std::vector<std::string> Names(const json& section) {
  std::vector<std::string> names;
  for (const json& e : section["entries"]) names.push_back(e["entry"].get<std::string>());
  return names;
}

// Regression: the store's rows were appended to the file's, so a built-in entry that both the file
// (`evalsuite machine --entries`) and the study's runs had was shown twice, with two different MFUs.
TEST(HardwareEntriesMerge, AnEntryInBothIsShownOnceFromTheStore) {
  json section = {{"machine", {{"peak_fp32_flops", 1e12}}},
                  {"entries", {{{"entry", "baseline"}, {"mfu", 0.20}}, {{"entry", "fast"}, {"mfu", 0.15}}}}};
  const json store = {{"entries", {{{"entry", "baseline"}, {"mfu", 0.26}}, {{"entry", "ext"}, {"mfu", 0.4}}}}};
  EXPECT_EQ(MergeHardwareEntries(section, store), std::vector<std::string>{"baseline"});
  EXPECT_EQ(Names(section), (std::vector<std::string>{"fast", "baseline", "ext"}));
  EXPECT_DOUBLE_EQ(section["entries"][1]["mfu"].get<double>(), 0.26);
  EXPECT_DOUBLE_EQ(section["machine"]["peak_fp32_flops"].get<double>(), 1e12);  // the rest of the file kept
}

TEST(HardwareEntriesMerge, MissingOrMalformedPartsAreTolerated) {
  json no_entries = {{"machine", json::object()}};
  EXPECT_TRUE(MergeHardwareEntries(no_entries, {{"entries", {{{"entry", "a"}}}}}).empty());
  EXPECT_EQ(Names(no_entries), std::vector<std::string>{"a"});

  json file = {{"entries", {{{"entry", "a"}}, 7, {{"mfu", 1}}}}};   // a number and an unnamed row are kept as they are
  EXPECT_TRUE(MergeHardwareEntries(file, json::object()).empty());  // nothing from the store: unchanged
  EXPECT_EQ(file["entries"].size(), 3u);
  EXPECT_TRUE(MergeHardwareEntries(file, {{"entries", "not an array"}}).empty());
  EXPECT_EQ(file["entries"].size(), 3u);
  EXPECT_EQ(MergeHardwareEntries(file, {{"entries", {{{"entry", "a"}, {"mfu", 0.5}}}}}), std::vector<std::string>{"a"});
  EXPECT_EQ(file["entries"].size(), 3u);  // 7, the unnamed row, the store's "a"
}

}  // namespace
}  // namespace evalsuite::reports
