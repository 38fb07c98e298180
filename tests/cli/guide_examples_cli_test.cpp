// The guides' examples run: every shell block of README.md and docs/*.md marked runnable is executed with the built
// binaries, and the output lines the guide quotes are checked. The marker, on the line before a ```sh block:
//
//   <!-- runnable -->            run it; it must exit 0
//   <!-- runnable exit=3 -->     it must exit 3 (done with warnings)
//   <!-- runnable shared -->     it reads ../shared/data: skipped (with the rest of the page) when that is absent
//
// A ```text block right after it quotes the output (stdout and stderr together): each of its lines must appear, as
// a substring, in a later line of the output than the previous one; a line "..." stands for lines left out, and a
// line ending in " ..." for a line cut short (the part before it is what must appear). stdout reaches the pipe in
// blocks and stderr at once, so a page quotes no order between the two. The
// blocks of one page run in order in one scratch folder (a page builds on its earlier steps), as if from the project
// folder: `examples/` and `studies/` are there, `evalsuite` is on PATH, and with the shared data the MLPerf rounds
// (`training_results_v4.0/`, ...), `dawnbench/` and `framework_logs/` stand in for the user's own clones.
// EVALSUITE_MACHINE_CEILINGS=skip spares each study the machine probe (2-3 s; no quoted line depends on it), and
// /usr/bin comes before the rest of PATH: a version manager's python3 shim (pyenv's) cost 1-2 s per run started on
// a busy 2-core machine, the examples' whole time (quoted lines depend on no Python but the standard library).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunCommand;
using testing::SourceDir;
using testing::TempDir;

struct Example {
  int line = 0;  // of the ```sh fence, for messages
  std::string script;
  std::vector<std::string> quoted;  // the ```text block's lines
  int exit_code = 0;
  bool needs_shared = false;
};

std::string Trimmed(const std::string& text) {
  const std::size_t end = text.find_last_not_of(" \t\r");
  return end == std::string::npos ? "" : text.substr(0, end + 1);
}

// The runnable blocks of a Markdown page, in order.
std::vector<Example> RunnableExamples(const std::string& page) {
  std::vector<std::string> lines;
  std::stringstream in(page);
  for (std::string line; std::getline(in, line);) lines.push_back(Trimmed(line));
  std::vector<Example> examples;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("<!-- runnable", 0) != 0) continue;
    Example example;
    std::stringstream options(lines[i].substr(13));
    for (std::string word; options >> word;) {
      if (word == "shared") example.needs_shared = true;
      if (word.rfind("exit=", 0) == 0) example.exit_code = std::stoi(word.substr(5));
    }
    std::size_t j = i + 1;
    if (j >= lines.size() || lines[j] != "```sh") {
      ADD_FAILURE() << "line " << i + 1 << ": a runnable marker must stand right before a ```sh block";
      continue;
    }
    example.line = static_cast<int>(j + 1);
    for (++j; j < lines.size() && lines[j] != "```"; ++j) example.script += lines[j] + "\n";
    std::size_t k = j + 1;
    while (k < lines.size() && lines[k].empty()) ++k;
    if (k < lines.size() && lines[k] == "```text") {
      for (++k; k < lines.size() && lines[k] != "```"; ++k) example.quoted.push_back(lines[k]);
    }
    examples.push_back(example);
  }
  return examples;
}

// "" when every quoted line is found, in order, in the output; else which line was not, and where the search began.
std::string MissingQuotedLine(const std::vector<std::string>& quoted, const std::string& output) {
  std::vector<std::string> lines;
  std::stringstream in(output);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::size_t next = 0;
  for (const std::string& want : quoted) {
    if (want == "..." || want.empty()) continue;
    const bool cut = want.size() > 4 && want.compare(want.size() - 4, 4, " ...") == 0;
    const std::string part = cut ? want.substr(0, want.size() - 4) : want;
    std::size_t found = next;
    while (found < lines.size() && lines[found].find(part) == std::string::npos) ++found;
    if (found == lines.size()) {
      return "quoted line not found after output line " + std::to_string(next) + ": \"" + want + "\"";
    }
    next = found + 1;
  }
  return "";
}

// The folder the examples run in, laid out as the project folder a user works in.
void PrepareScratch(const fs::path& scratch, bool with_shared) {
  fs::create_directory_symlink(SourceDir() / "examples", scratch / "examples");
  fs::create_directory_symlink(SourceDir() / "studies", scratch / "studies");
  const auto shared = testing::SharedDataDir();
  if (!with_shared || !shared) return;
  for (const auto& round : fs::directory_iterator(*shared / "mlperf")) {
    if (round.path().filename().string().rfind("training_results_", 0) == 0) {
      fs::create_directory_symlink(round.path(), scratch / round.path().filename());
    }
  }
  fs::create_directory_symlink(*shared / "dawnbench", scratch / "dawnbench");
  fs::create_directory_symlink(*shared / "framework_logs", scratch / "framework_logs");
}

std::string ShellQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

class GuideExamplesTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GuideExamplesTest, EveryRunnableExampleRunsAndPrintsWhatThePageQuotes) {
  const fs::path page = SourceDir() / GetParam();
  const std::vector<Example> examples = RunnableExamples(ReadFile(page));
  ASSERT_FALSE(examples.empty()) << GetParam() << " has no runnable example";
  TempDir scratch;
  PrepareScratch(scratch.path(), true);
  const fs::path binaries = fs::path(EVALSUITE_BINARY).parent_path();
  for (const Example& example : examples) {
    if (example.needs_shared && !testing::SharedDataDir()) {
      GTEST_SKIP() << GetParam() << ":" << example.line << " needs ../shared/data, which is absent";
    }
    const std::string script = "exec 2>&1\nset -eo pipefail\ncd " + ShellQuoted(scratch.path().string()) +
                               "\nexport PATH=" + ShellQuoted(binaries.string()) +
                               ":/usr/bin:\"$PATH\" EVALSUITE_MACHINE_CEILINGS=skip\n" + example.script;
    const testing::CommandResult result = RunCommand({"timeout", "300", "bash", "-c", script});
    const std::string output = result.out + result.err;
    const std::string where = GetParam() + ":" + std::to_string(example.line);
    ASSERT_EQ(result.exit_code, example.exit_code)
        << where << ": the example exited " << result.exit_code << "\n--- script\n"
        << example.script << "--- output\n"
        << output;
    const std::string missing = MissingQuotedLine(example.quoted, output);
    EXPECT_EQ(missing, "") << where << ": the page quotes output the tool no longer prints (update the page from "
                           << "the output below)\n--- script\n"
                           << example.script << "--- output\n"
                           << output;
  }
}

// Every page that has runnable examples; a new guide is added here (PagesWithMarkersAreAllListed checks it).
const std::vector<std::string>& GuidePages() {
  static const std::vector<std::string> pages = {
      "README.md",       "docs/own-script.md",         "docs/compare-and-plan.md", "docs/importing.md",
      "docs/audit.md",   "docs/reading-the-report.md", "docs/holdout.md",          "docs/stability-and-hardware.md",
      "docs/variance.md"};
  return pages;
}

INSTANTIATE_TEST_SUITE_P(Pages, GuideExamplesTest, ::testing::ValuesIn(GuidePages()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name;
                           for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

TEST(GuideExamplesCheckTest, PagesWithMarkersAreAllListed) {
  std::vector<std::string> pages = {"README.md"};
  for (const auto& file : fs::recursive_directory_iterator(SourceDir() / "docs")) {
    if (file.path().extension() == ".md") pages.push_back(fs::relative(file.path(), SourceDir()).string());
  }
  for (const std::string& page : pages) {
    if (RunnableExamples(ReadFile(SourceDir() / page)).empty()) continue;
    EXPECT_NE(std::find(GuidePages().begin(), GuidePages().end(), page), GuidePages().end())
        << page << " has runnable examples but is not in GuidePages(), so they never run";
  }
}

// The checker itself: quoted lines must come in order, "..." elides, and a drifted line fails.
TEST(GuideExamplesCheckTest, QuotedLinesMatchInOrderAndADriftedLineFails) {
  const std::string output = "header\nfast: 3 runs\nmedian 4.2 s\nverdict: FASTER\n";
  EXPECT_EQ(MissingQuotedLine({"fast: 3 runs", "...", "verdict: FASTER"}, output), "");
  EXPECT_EQ(MissingQuotedLine({"median 4.2 ..."}, output), "");  // a line cut short
  EXPECT_NE(MissingQuotedLine({"median 4.3 ..."}, output), "");
  EXPECT_NE(MissingQuotedLine({"verdict: FASTER", "fast: 3 runs"}, output), "");  // out of order
  EXPECT_NE(MissingQuotedLine({"verdict: SLOWER"}, output), "");
}

TEST(GuideExamplesCheckTest, MarkersAreReadWithTheirOptionsAndQuotes) {
  const std::vector<Example> examples = RunnableExamples(
      "text\n<!-- runnable exit=3 shared -->\n```sh\necho a\n```\n\n```text\na\n...\n```\n```sh\nnot runnable\n```\n");
  ASSERT_EQ(examples.size(), 1u);
  EXPECT_EQ(examples[0].script, "echo a\n");
  EXPECT_EQ(examples[0].exit_code, 3);
  EXPECT_TRUE(examples[0].needs_shared);
  EXPECT_EQ(examples[0].quoted, (std::vector<std::string>{"a", "..."}));
}

}  // namespace
}  // namespace evalsuite
