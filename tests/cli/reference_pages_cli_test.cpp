// docs/reference/ is generated from the code (`evalsuite reference`, reference_command.cpp): a committed page that
// differs from a fresh generation fails here, with the command that brings it up to date. Every command's help ends
// with examples and a guide that exists.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::SourceDir;
using testing::TempDir;

constexpr const char* kPages[] = {"commands.md", "study-file.md", "run-log.md", "report-json.md"};

// The first line where two texts differ, for the failure message.
std::string FirstDifference(const std::string& committed, const std::string& fresh) {
  std::stringstream a(committed), b(fresh);
  std::string line_a, line_b;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, line_a)), more_b = static_cast<bool>(std::getline(b, line_b));
    if (!more_a && !more_b) return "(same lines; line ends differ)";
    if (!more_a || !more_b || line_a != line_b) {
      return "line " + std::to_string(line) + ":\n  committed: " + (more_a ? line_a : "(end of file)") +
             "\n  generated: " + (more_b ? line_b : "(end of file)");
    }
  }
}

TEST(ReferencePagesCliTest, CommittedPagesMatchAFreshGeneration) {
  TempDir dir;
  const auto result = RunEvalsuite({"reference", "--out", (dir / "reference").string()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  for (const char* page : kPages) {
    const fs::path committed = SourceDir() / "docs" / "reference" / page;
    ASSERT_TRUE(fs::exists(committed)) << committed << " is missing";
    const std::string fresh = ReadFile(dir / "reference" / page);
    const std::string old = ReadFile(committed);
    EXPECT_TRUE(old == fresh) << "docs/reference/" << page << " differs from what the code generates; regenerate "
                              << "it from the project folder with\n  build/evalsuite/evalsuite reference --out "
                              << "docs/reference\nand commit the result. First difference at "
                              << FirstDifference(old, fresh);
  }
}

TEST(ReferencePagesCliTest, EveryCommandsHelpEndsWithExamplesAndAGuideThatExists) {
  TempDir dir;
  ASSERT_EQ(RunEvalsuite({"reference", "--out", dir.path().string()}).exit_code, 0);
  std::stringstream page(ReadFile(dir / "commands.md"));
  std::string section, line;
  int sections = 0;
  auto check = [&](const std::string& name, const std::string& text) {
    if (name.empty()) return;
    ++sections;
    const std::size_t examples = text.find("\nExamples:\n  ");
    ASSERT_NE(examples, std::string::npos) << name << " has no examples";
    const std::string first = text.substr(examples + 13, text.find('\n', examples + 13) - examples - 13);
    EXPECT_NE(first.find("evalsuite "), std::string::npos) << name << "'s first example runs no evalsuite: " << first;
    const std::size_t guide = text.find("\nGuide: ");
    ASSERT_NE(guide, std::string::npos) << name << " names no guide";
    const std::string path = text.substr(guide + 8, text.find_first_of(" ,\n", guide + 8) - guide - 8);
    EXPECT_TRUE(fs::exists(SourceDir() / path)) << name << "'s guide " << path << " does not exist";
  };
  std::string name;
  while (std::getline(page, line)) {
    if (line.rfind("## ", 0) == 0) {
      check(name, section);
      name = line.substr(3);
      section.clear();
    } else {
      section += line + "\n";
    }
  }
  check(name, section);
  EXPECT_GT(sections, 20);
}

// What a user types reaches the same footer as the reference shows (the front binary serves `compare`).
TEST(ReferencePagesCliTest, HelpOfACommandPointsToItsGuide) {
  const auto result = RunEvalsuite({"compare", "--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("Examples:\n  evalsuite compare evalsuite.db fast baseline\n"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("Guide: docs/compare-and-plan.md"), std::string::npos) << result.out;
}

}  // namespace
}  // namespace evalsuite
