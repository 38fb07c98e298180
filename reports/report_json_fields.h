// report.json's fields for people, as docs/reference/report-json.md prints them (`evalsuite reference` writes it).
// Data only: report_json.cpp writes the file; tests/reports/report_json_fields_test.cpp builds a report and fails
// when a key it writes at a documented level is missing here, or a key documented here (and not marked optional) is
// not written, so the page cannot drift from ToJson.
#pragma once

#include <string>
#include <vector>

namespace evalsuite::reports {

struct ReportJsonFieldDoc {
  std::string path;  // "entries[].runs[].tta": [] steps into every element of an array
  std::string type;  // JSON type(s), "number or null" where a figure can be withheld
  std::string meaning;
  std::string present_when;  // empty: always written; otherwise when (an optional section or field)
};

// Every key at the documented levels: the top level, rule, verdicts[], table[], entries[], entries[].runs[],
// entries[].stats, comparisons[], methods[] and variance_sources[]. Deeper objects are described at their parent.
const std::vector<ReportJsonFieldDoc>& ReportJsonFields();

// The objects whose keys ReportJsonFields lists completely ("" is the top level).
const std::vector<std::string>& ReportJsonDocumentedObjects();

std::string ReportJsonFieldsMarkdown();

}  // namespace evalsuite::reports
