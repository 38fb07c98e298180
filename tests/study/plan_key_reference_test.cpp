// The study file's reference table (plan_key_reference.h) against the readers it describes: the keys each table
// accepts (read off the readers' own "unknown key ... (known: ...)" error) and each integer key's bounds (the value
// just outside is refused naming the key, the bounds themselves are not). A key added to a reader without a line in
// the table, or a range changed on one side only, fails here.
#include "study/plans/plan_key_reference.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "common/error.h"
#include "study/plans/study_plan.h"
#include "study/plans/study_plan_loader.h"

namespace evalsuite::study {
namespace {

// A plan in which `key = value` stands in `table`; the rest is the least each table needs to reach its reader.
std::string PlanWith(const std::string& table, const std::string& key, const std::string& value) {
  const std::string line = key + " = " + value + "\n";
  const std::string external =
      "[[entries]]\nname = \"a\"\ncommand = \"true {log}\"\nthreshold = 0.9\n"
      "[[entries]]\nname = \"b\"\ncommand = \"true {log}\"\nthreshold = 0.9\n";
  if (table.empty()) return line + external;
  if (table == "entries[]") {
    return "[[entries]]\nname = \"a\"\ncommand = \"true {log}\"\nthreshold = 0.9\n" + line;
  }
  if (table == "sequential") {
    std::string keys = "question = [\"a\", \"b\"]\n";
    if (key != "min_runs") keys += "min_runs = 2\n";
    if (key != "max_runs") keys += "max_runs = 10000\n";
    return external + "[sequential]\n" + keys + line;
  }
  if (table == "slurm") return "executor = \"slurm\"\n" + external + "[slurm]\n" + line;
  return external + "[" + table + "]\n" + line;
}

// The error ParseStudyPlan gives, or "" when the plan is accepted.
std::string PlanError(const std::string& text) {
  try {
    ParseStudyPlan(text, "/studies/s.toml", PlanOverrides{}, 2);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::set<std::string> KnownKeysOf(const std::string& table) {
  const std::string error = PlanError(PlanWith(table, "zz_not_a_key", "1"));
  const std::size_t from = error.find("(known: ");
  if (from == std::string::npos) {
    ADD_FAILURE() << "no list of known keys for table '" << table << "' in: " << error;
    return {};
  }
  std::set<std::string> keys;
  std::stringstream list(error.substr(from + 8, error.rfind(')') - from - 8));
  for (std::string key; std::getline(list, key, ',');) keys.insert(key.substr(key.find_first_not_of(' ')));
  return keys;
}

std::string KeyPath(const PlanKeyDoc& doc) {
  if (doc.table.empty()) return doc.key;
  if (doc.table == "entries[]") return "entries[0]." + doc.key;
  return doc.table + "." + doc.key;
}

TEST(PlanKeyReferenceTest, EveryTableListsExactlyTheKeysItsReaderAccepts) {
  for (const std::string table : {"", "entries[]", "stability", "sequential", "slurm", "variance"}) {
    std::set<std::string> documented;
    for (const PlanKeyDoc& doc : PlanKeyReference()) {
      if (doc.table == table) documented.insert(doc.key);
    }
    EXPECT_EQ(documented, KnownKeysOf(table)) << "table '" << table
                                              << "': update study/plans/plan_key_reference.cpp, then "
                                                 "regenerate docs/reference (see reference_pages_cli_test.cpp)";
  }
}

TEST(PlanKeyReferenceTest, EveryIntegerKeysBoundsAreTheReadersOwn) {
  int checked = 0;
  for (const PlanKeyDoc& doc : PlanKeyReference()) {
    if (!doc.min || !doc.max) continue;
    ++checked;
    const std::string path = KeyPath(doc);
    const std::string below = std::to_string(*doc.min - 1);
    EXPECT_NE(PlanError(PlanWith(doc.table, doc.key, below)).find("key '" + path + "': must be"), std::string::npos)
        << path << " = " << below << " was not refused: " << PlanError(PlanWith(doc.table, doc.key, below));
    if (*doc.max < INT64_MAX) {  // TOML has no integer above INT64_MAX to try
      const std::string above = std::to_string(*doc.max + 1);
      EXPECT_NE(PlanError(PlanWith(doc.table, doc.key, above)).find("key '" + path + "': must be"), std::string::npos)
          << path << " = " << above << " was not refused: " << PlanError(PlanWith(doc.table, doc.key, above));
    }
    for (const int64_t bound : {*doc.min, *doc.max}) {
      const std::string error = PlanError(PlanWith(doc.table, doc.key, std::to_string(bound)));
      EXPECT_EQ(error.find("key '" + path + "': must be"), std::string::npos)
          << path << " = " << bound << " is documented as allowed but refused: " << error;
    }
  }
  EXPECT_GT(checked, 15);
}

TEST(PlanKeyReferenceTest, ThePageHasARowPerKeyAndATablePerSection) {
  const std::string page = PlanKeyReferenceMarkdown();
  for (const PlanKeyDoc& doc : PlanKeyReference()) {
    EXPECT_NE(page.find("| `" + doc.key + "` | " + doc.type), std::string::npos) << doc.key;
  }
  for (const char* heading : {"## Top level", "## `[[entries]]`", "## `[stability]`", "## `[sequential]`",
                              "## `[slurm]`", "## `[variance]`"}) {
    EXPECT_NE(page.find(heading), std::string::npos) << heading;
  }
}

}  // namespace
}  // namespace evalsuite::study
