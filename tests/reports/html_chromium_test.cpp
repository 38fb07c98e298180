// The HTML report as a browser sees it: Debian's chromium (headless) loads report.html from disk, and the
// rendered DOM must hold every chart as an <svg class="chart"> with drawn paths, and no script element (the
// hostile entry name stays text). A screenshot is taken too; set EVALSUITE_REPORT_ARTIFACTS_DIR to keep
// report.html and report.png for a look. Chromium missing is a failure: scripts/setup.sh installs it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>

#include "reports/given_sections.h"
#include "reports/report.h"
#include "tests/reports/report_fixture.h"
#include "tests/support/test_support.h"

namespace evalsuite::reports {
namespace {
namespace fs = std::filesystem;
using evalsuite::testing::RunCommand;
using evalsuite::testing::TempDir;

const char* const kChromium = "/usr/bin/chromium";

std::vector<std::string> ChromiumArgs(const fs::path& profile) {
  // `timeout` bounds a browser that hangs; the flags keep it off the network and quiet.
  return {"timeout",
          "120",
          kChromium,
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--hide-scrollbars",
          "--user-data-dir=" + profile.string()};
}

// The svg.chart elements of a serialized DOM: data-chart name and the element's markup.
std::vector<std::pair<std::string, std::string>> Charts(const std::string& dom) {
  std::vector<std::pair<std::string, std::string>> charts;
  std::regex open("<svg class=\"chart\" data-chart=\"([a-z-]+)\"");
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), open); it != std::sregex_iterator(); ++it) {
    std::size_t start = static_cast<std::size_t>(it->position(0));
    std::size_t end = dom.find("</svg>", start);
    charts.emplace_back((*it)[1].str(), dom.substr(start, end == std::string::npos ? std::string::npos : end - start));
  }
  return charts;
}

class HtmlChromiumTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(kChromium)) << kChromium << " is missing: run scripts/setup.sh to install chromium";
    StabilityReportInput input = testing::SyntheticInput("fast <script>alert(1)</script>");
    AddGeneralizationSection(input, testing::GeneralizationSection(), "test");
    evalsuite::testing::WriteFile(html_path_, RenderHtml(BuildStabilityReport(input)));
  }

  TempDir dir_;
  fs::path html_path_ = dir_ / "report.html";
};

TEST_F(HtmlChromiumTest, RenderedDomHasEveryChartWithDrawnPaths) {
  auto args = ChromiumArgs(dir_ / "profile-dom");
  args.push_back("--dump-dom");
  args.push_back("file://" + html_path_.string());
  auto result = RunCommand(args);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::string& dom = result.out;
  ASSERT_NE(dom.find("</html>"), std::string::npos) << "no DOM from chromium:\n" << result.err;

  std::map<std::string, int> counts;
  for (const auto& [name, markup] : Charts(dom)) {
    ++counts[name];
    EXPECT_NE(markup.find("<path"), std::string::npos) << name << " has no path";
    EXPECT_NE(markup.find("<title>"), std::string::npos) << name << " has no title";
    EXPECT_NE(markup.find("class=\"tick\""), std::string::npos) << name << " has no tick labels";
    EXPECT_NE(markup.find("class=\"legend\""), std::string::npos) << name << " has no legend";
  }
  EXPECT_EQ(counts["accuracy-vs-time"], 3);
  EXPECT_EQ(counts["threshold-sensitivity"], 3);
  EXPECT_EQ(counts["tta-per-run"], 1);
  EXPECT_EQ(counts["kaplan-meier"], 1);
  EXPECT_EQ(counts["generalization-accuracy"], 1);
  // The hostile entry name was parsed as text: the browser built no script element from it.
  EXPECT_EQ(dom.find("<script"), std::string::npos);
  EXPECT_NE(dom.find("fast &lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
}

TEST_F(HtmlChromiumTest, ScreenshotIsTaken) {
  fs::path png = dir_ / "report.png";
  auto args = ChromiumArgs(dir_ / "profile-shot");
  args.push_back("--screenshot=" + png.string());
  args.push_back("--window-size=1280,2400");
  args.push_back("file://" + html_path_.string());
  auto result = RunCommand(args);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  ASSERT_TRUE(fs::exists(png)) << result.err;
  std::string bytes = evalsuite::testing::ReadFile(png);
  ASSERT_GT(bytes.size(), 20000u) << "a blank page compresses to almost nothing";
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
  if (const char* keep = std::getenv("EVALSUITE_REPORT_ARTIFACTS_DIR")) {
    fs::create_directories(keep);
    fs::copy_file(png, fs::path(keep) / "report.png", fs::copy_options::overwrite_existing);
    fs::copy_file(html_path_, fs::path(keep) / "report.html", fs::copy_options::overwrite_existing);
  }
}

}  // namespace
}  // namespace evalsuite::reports
