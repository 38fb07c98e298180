#include <gtest/gtest.h>

#include "common/error.h"
#include "reports/report.h"
#include "tests/reports/report_fixture.h"
#include "tests/support/test_support.h"

namespace evalsuite::reports {
namespace {
using evalsuite::testing::ReadFile;
using evalsuite::testing::TempDir;
using nlohmann::json;

TEST(ReportWriterTest, WritesTheFourFilesIntoANewFolder) {
  TempDir dir;
  const StabilityReportInput input = testing::SyntheticInput();
  const ReportModel model_report = BuildStabilityReport(input);
  json model = ToJson(model_report);
  WriteReport(model_report, RunPointsJsonLines(input), dir / "nested" / "out");
  json reread = json::parse(ReadFile(dir / "nested" / "out" / "report.json"));
  EXPECT_EQ(reread, model);
  EXPECT_EQ(model["points_file"], "report-points.jsonl");
  EXPECT_EQ(ReadFile(dir / "nested" / "out" / "report-points.jsonl"), RunPointsJsonLines(input));
  EXPECT_EQ(ReadFile(dir / "nested" / "out" / "report.md"), RenderMarkdown(model_report));
  EXPECT_EQ(ReadFile(dir / "nested" / "out" / "report.html"), RenderHtml(model_report));
}

TEST(ReportWriterTest, NamesTheFileItCannotWrite) {
  TempDir dir;
  std::filesystem::create_directories(dir / "out" / "report.md");  // a folder where the file should go
  try {
    WriteReport(ReportModel{}, "", dir / "out");
    FAIL() << "expected an IoError";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kIo);
    EXPECT_NE(error.where().find("report.md"), std::string::npos) << error.where();
  }
}

TEST(ReportWriterTest, NamesTheFolderItCannotCreate) {
  TempDir dir;
  evalsuite::testing::WriteFile(dir / "file", "x");
  try {
    WriteReport(ReportModel{}, "", dir / "file" / "out");
    FAIL() << "expected an IoError";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kIo);
    EXPECT_NE(error.where().find("file/out"), std::string::npos) << error.where();
  }
}

}  // namespace
}  // namespace evalsuite::reports
