// The JSON Lines reference table (jsonl_schema.h) against the reader: the page's example log reads without a
// warning, and each field marked required is one without which the reader skips its record.
#include "runlog/jsonl_schema.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "runlog/jsonl_run_log.h"

namespace evalsuite::runlog {
namespace {

TEST(JsonlSchemaTest, TheExampleLogReadsWithoutAWarning) {
  const RunLog log = ParseJsonlRunLog(JsonlExampleLog(), "example.jsonl");
  EXPECT_TRUE(log.warnings.empty()) << log.warnings.front();
  ASSERT_EQ(log.points.size(), 2u);
  EXPECT_EQ(log.status, analysis::EndedAs::kReached);
  EXPECT_EQ(log.header.value("entry", ""), "my-fast-config");
}

// The example's record of each type with one field removed: a required field's absence skips the record, an
// optional one's does not.
TEST(JsonlSchemaTest, RequiredIsWhatTheReaderSkipsARecordWithout) {
  for (const JsonlFieldDoc& doc : JsonlSchema()) {
    std::stringstream lines(JsonlExampleLog());
    std::string text;
    int records_of_type = 0;
    for (std::string line; std::getline(lines, line);) {
      nlohmann::json record = nlohmann::json::parse(line);
      if (record["type"] == doc.record && records_of_type++ == 0) record.erase(doc.field);
      text += record.dump() + "\n";
    }
    ASSERT_GT(records_of_type, 0) << doc.record;
    const RunLog log = ParseJsonlRunLog(text, "example.jsonl");
    bool skipped = false;
    for (const std::string& warning : log.warnings)
      skipped = skipped || warning.find("line skipped") != std::string::npos;
    EXPECT_EQ(skipped, doc.required) << doc.record << "." << doc.field << ": "
                                     << (log.warnings.empty() ? "no warning" : log.warnings.front());
  }
}

TEST(JsonlSchemaTest, ThePageShowsTheExampleAndEveryField) {
  const std::string page = JsonlSchemaMarkdown();
  EXPECT_NE(page.find(JsonlExampleLog()), std::string::npos);
  for (const JsonlFieldDoc& doc : JsonlSchema()) {
    EXPECT_NE(page.find("| `" + doc.field + "` | " + doc.type), std::string::npos) << doc.field;
  }
}

}  // namespace
}  // namespace evalsuite::runlog
