// The JSON Lines run log's fields for people, as docs/reference/run-log.md prints them (`evalsuite reference`
// writes it). Data only: jsonl_run_log.cpp reads the log; tests/runlog/jsonl_schema_test.cpp checks that every
// field marked required here is one without which the reader skips the record, and that the page's example parses.
#pragma once

#include <string>
#include <vector>

namespace evalsuite::runlog {

struct JsonlFieldDoc {
  std::string record;  // "header", "eval" or "end"
  std::string field;
  std::string type;
  bool required = false;  // the record is skipped (with a file:line warning) without it
  std::string meaning;
};

const std::vector<JsonlFieldDoc>& JsonlSchema();

// A complete three-record log (header, two evaluations, end) that the reader takes without a warning.
const std::string& JsonlExampleLog();

// The page: the example and one table per record type.
std::string JsonlSchemaMarkdown();

}  // namespace evalsuite::runlog
