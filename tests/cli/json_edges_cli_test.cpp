// JSON decoded at the edge (issue 53): a field of the wrong type in a file the user gives is an input error naming
// the file and the field, never nlohmann's type_error surfacing as an internal error, and nothing is stored.
#include <filesystem>
#include <string>

#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

std::string JsonLinesRun(const std::string& metric) {
  return "{\"type\": \"header\", \"entry\": \"fast\", \"metric\": " + metric + ", \"threshold\": 0.9}\n" +
         "{\"type\": \"eval\", \"epoch\": 1, \"train_seconds\": 10.0, \"metric\": 0.85}\n" +
         "{\"type\": \"eval\", \"epoch\": 2, \"train_seconds\": 20.0, \"metric\": 0.92}\n" +
         "{\"type\": \"end\", \"status\": \"reached\"}\n";
}

TEST(JsonEdgesCliTest, AHeaderMetricThatIsNotANameIsAnInputErrorNamingFileAndField) {
  TempDir dir;
  WriteFile(dir / "runs" / "fast" / "seed1.jsonl", JsonLinesRun("3"));
  const fs::path store = dir / "s.db";
  auto run = RunEvalsuite({"import", (dir / "runs").string(), "--store", store.string()});
  EXPECT_EQ(run.exit_code, 1) << run.err;  // an input error, not 70 (internal)
  EXPECT_EQ(run.err.find("internal error"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("seed1.jsonl: header.metric: must be the metric's name, a string, not 3"), std::string::npos)
      << run.err;
  EXPECT_FALSE(fs::exists(store)) << "a refused import stored something";
}

TEST(JsonEdgesCliTest, AHeaderWithoutAMetricNameIsImportedAsMetric) {
  TempDir dir;
  std::string log = JsonLinesRun("\"val_top1\"");
  log.replace(log.find(", \"metric\": \"val_top1\""), std::string(", \"metric\": \"val_top1\"").size(), "");
  WriteFile(dir / "runs" / "fast" / "seed1.jsonl", log);
  auto run = RunEvalsuite({"import", (dir / "runs").string(), "--no-store"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("1 reached metric >= 0.9"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace evalsuite
