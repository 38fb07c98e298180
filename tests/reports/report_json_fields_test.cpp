// docs/reference/report-json.md cannot drift from report.json: every key the report writes at a documented level is
// in the field table (reports/report_json_fields.h), and every key the table says is always written is written.
#include "reports/report_json_fields.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "reports/given_sections.h"
#include "reports/report.h"
#include "tests/reports/report_fixture.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

// The objects reached by `path` from `node` ("entries[].runs[]": every run of every entry; "": node itself).
void ObjectsAt(const json& node, const std::string& path, std::vector<const json*>& out) {
  if (path.empty()) {
    if (node.is_object()) out.push_back(&node);
    return;
  }
  const size_t dot = path.find('.');
  std::string step = path.substr(0, dot);
  const std::string rest = dot == std::string::npos ? "" : path.substr(dot + 1);
  const bool each = step.size() > 2 && step.compare(step.size() - 2, 2, "[]") == 0;
  if (each) step.resize(step.size() - 2);
  if (!node.is_object() || !node.contains(step)) return;
  const json& child = node.at(step);
  if (!each) return ObjectsAt(child, rest, out);
  if (child.is_array()) {
    for (const json& element : child) ObjectsAt(element, rest, out);
  }
}

std::map<std::string, std::set<std::string>> DocumentedKeys(bool always_only) {
  std::map<std::string, std::set<std::string>> keys;
  for (const ReportJsonFieldDoc& field : ReportJsonFields()) {
    if (always_only && !field.present_when.empty()) continue;
    const size_t dot = field.path.rfind('.');
    keys[dot == std::string::npos ? "" : field.path.substr(0, dot)].insert(
        dot == std::string::npos ? field.path : field.path.substr(dot + 1));
  }
  return keys;
}

json SyntheticReportWithSections() {
  StabilityReportInput input = testing::SyntheticInput();
  AddGeneralizationSection(input, testing::GeneralizationSection(), "test");
  input.entries.push_back(testing::VarianceDesignEntry());
  input.settings.variance = analysis::VarianceSettings{{"init", "data_order"}, 3, 2};
  return ToJson(BuildStabilityReport(input));
}

TEST(ReportJsonFieldsTest, EveryWrittenKeyIsDocumented) {
  const json report = SyntheticReportWithSections();
  const auto documented = DocumentedKeys(false);
  for (const std::string& object : ReportJsonDocumentedObjects()) {
    std::vector<const json*> found;
    ObjectsAt(report, object, found);
    ASSERT_FALSE(found.empty()) << "the synthetic report has no " << object;
    for (const json* node : found) {
      for (const auto& [key, value] : node->items()) {
        EXPECT_EQ(documented.count(object) ? documented.at(object).count(key) : 0u, 1u)
            << "report.json writes " << (object.empty() ? "" : object + ".") << key
            << " but reports/report_json_fields.cpp does not document it";
      }
    }
  }
}

TEST(ReportJsonFieldsTest, EveryKeyDocumentedAsAlwaysWrittenIsWritten) {
  const json report = SyntheticReportWithSections();
  for (const auto& [object, keys] : DocumentedKeys(true)) {
    std::vector<const json*> found;
    ObjectsAt(report, object, found);
    ASSERT_FALSE(found.empty()) << object;
    for (const std::string& key : keys) {
      const bool written = std::all_of(found.begin(), found.end(), [&key](const json* n) { return n->contains(key); });
      EXPECT_TRUE(written) << (object.empty() ? "" : object + ".") << key
                           << " is documented as always written, and the report lacks it";
    }
  }
}

TEST(ReportJsonFieldsTest, EveryDocumentedPathSitsInADocumentedObjectAndOnThePage) {
  const std::vector<std::string>& objects = ReportJsonDocumentedObjects();
  const std::string page = ReportJsonFieldsMarkdown();
  std::set<std::string> seen;
  for (const ReportJsonFieldDoc& field : ReportJsonFields()) {
    EXPECT_TRUE(seen.insert(field.path).second) << "documented twice: " << field.path;
    const size_t dot = field.path.rfind('.');
    const std::string parent = dot == std::string::npos ? "" : field.path.substr(0, dot);
    EXPECT_NE(std::find(objects.begin(), objects.end(), parent), objects.end()) << field.path;
    EXPECT_FALSE(field.type.empty()) << field.path;
    EXPECT_FALSE(field.meaning.empty()) << field.path;
    const std::string key = dot == std::string::npos ? field.path : field.path.substr(dot + 1);
    EXPECT_NE(page.find("| `" + key + "` |"), std::string::npos) << field.path;
  }
}

}  // namespace
}  // namespace evalsuite::reports
