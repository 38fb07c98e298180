// Hostile files through the command line (issue 12 items 1-4): deep nesting, wrong JSON types, invalid UTF-8
// and out-of-range numbers get a clear error naming file, line or field, never a crash or an internal error.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

std::string MllogLine(long t, const std::string& key, const std::string& value, const std::string& metadata = "{}") {
  return ":::MLLOG {\"namespace\": \"\", \"time_ms\": " + std::to_string(t) +
         ", \"event_type\": \"POINT_IN_TIME\", \"key\": \"" + key + "\", \"value\": " + value +
         ", \"metadata\": " + metadata + "}\n";
}

std::string OneRun(const std::string& extra) {
  return MllogLine(1, "submission_benchmark", "\"resnet\"") + extra + MllogLine(2, "run_start", "null") +
         MllogLine(60000, "eval_accuracy", "0.80", "{\"epoch_num\": 1}") +
         MllogLine(61000, "run_stop", "null", "{\"status\": \"success\"}");
}

TEST(HostileInputCliTest, TwoHundredThousandNestedArraysAreRefusedNotACrash) {
  TempDir dir;
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  WriteFile(dir / "r" / "result_0.txt", OneRun(MllogLine(3, "eval_accuracy", deep)));
  auto run = RunEvalsuite({"import", (dir / "r").string(), "--no-store", "--ruleset", "2.1.0"});
  EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 3) << "exit " << run.exit_code << "\n" << run.err;
  EXPECT_NE(run.err.find("result_0.txt:2"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("nested deeper than 64"), std::string::npos) << run.err;

  WriteFile(dir / "j" / "deep.jsonl", "{\"type\":\"header\",\"x\":" + deep + "}\n");
  auto jsonl = RunEvalsuite({"import", (dir / "j" / "deep.jsonl").string(), "--format", "jsonl", "--no-store"});
  EXPECT_NE(jsonl.exit_code, 139);
  EXPECT_NE(jsonl.err.find("deep.jsonl:1"), std::string::npos) << jsonl.err;
}

TEST(HostileInputCliTest, InvalidUtf8InAnMlperfValueIsReplacedAndTheImportIsStored) {
  TempDir dir;
  WriteFile(dir / "r" / "result_0.txt", OneRun(MllogLine(3, "submission_org", "\"caf\xff\"")));
  const std::string store = (dir / "s.db").string();
  auto run = RunEvalsuite(
      {"import", (dir / "r").string(), "--store", store, "--json", (dir / "out.json").string(), "--ruleset", "2.1.0"});
  EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 3) << "exit " << run.exit_code << "\n" << run.err;
  EXPECT_EQ(run.err.find("internal error"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("invalid UTF-8"), std::string::npos) << run.err;
  EXPECT_FALSE(nlohmann::json::parse(ReadFile(dir / "out.json"), nullptr, false).is_discarded());
  auto list = RunEvalsuite({"study", "list", "--store", store});
  EXPECT_NE(list.out.find("import"), std::string::npos) << list.out;
}

TEST(HostileInputCliTest, AWrongTypeInAJsonLinesLogIsALineWarningNotAWholeFileError) {
  TempDir dir;
  WriteFile(dir / "run.jsonl",
            "{\"type\":\"header\",\"entry\":\"x\"}\n{\"type\":1}\n"
            "{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":2,\"metric\":0.9}\n"
            "{\"type\":\"end\",\"status\":[],\"train_seconds\":2}\n");
  auto run = RunEvalsuite({"import", (dir / "run.jsonl").string(), "--format", "jsonl", "--no-store"});
  EXPECT_EQ(run.exit_code, 3) << run.err;
  EXPECT_NE(run.err.find("run.jsonl:2"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("\"type\" must be a string"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("run.jsonl:4"), std::string::npos) << run.err;
}

TEST(HostileInputCliTest, ManifestsWithWrongTypesNameTheField) {
  TempDir dir;
  WriteFile(dir / "holdout" / "manifest.json", "{\"schema_version\":[]}");
  auto holdout = RunEvalsuite(
      {"holdout", "eval", "--holdout", (dir / "holdout").string(), "--model", "m=" + (dir / "m.pt").string()});
  EXPECT_EQ(holdout.err.find("internal error"), std::string::npos) << holdout.err;
  EXPECT_NE(holdout.err.find("schema_version: must be an integer"), std::string::npos) << holdout.err;

  WriteFile(dir / "holdout" / "manifest.json", "{\"schema_version\":1e10}");
  auto huge = RunEvalsuite(
      {"holdout", "eval", "--holdout", (dir / "holdout").string(), "--model", "m=" + (dir / "m.pt").string()});
  EXPECT_NE(huge.err.find("schema_version: must be an integer from 0 to 2147483647"), std::string::npos) << huge.err;

  WriteFile(dir / "crawl" / "candidates.json", "{\"schema_version\":1,\"classes\":1,\"items\":[]}");
  auto dedupe = RunEvalsuite({"holdout", "dedupe", (dir / "crawl").string()});
  EXPECT_EQ(dedupe.err.find("internal error"), std::string::npos) << dedupe.err;
  EXPECT_NE(dedupe.err.find("candidates.json.classes: must be an array, not number"), std::string::npos) << dedupe.err;
}

// stats/ throws std::invalid_argument on input it cannot use; `report` and `study show` turn it into an error naming
// the entry (exit 1), never an internal error (exit 70). A DAWNBench TSV whose hours read "inf" is such input (unless
// the import skips the row, in which case both commands just succeed).
TEST(HostileInputCliTest, StatisticsOnAnInfiniteTimeAreAnInputErrorNamingTheEntry) {
  TempDir dir;
  WriteFile(dir / "in" / "ImageNet" / "train" / "e.tsv",
            "epoch\thours\ttop1Accuracy\ttop5Accuracy\n1\t0.5\t70\t92\n2\tinf\t75\t93.5\n");
  const std::string store = (dir / "s.db").string();
  auto import = RunEvalsuite({"import", (dir / "in").string(), "--store", store});
  ASSERT_TRUE(import.exit_code == 0 || import.exit_code == 3) << "exit " << import.exit_code << "\n" << import.err;
  for (const auto& args : {std::vector<std::string>{"report", store, "--out", (dir / "r").string()},
                           std::vector<std::string>{"study", "show", "--store", store}}) {
    auto run = RunEvalsuite(args);
    EXPECT_NE(run.exit_code, 70) << args[0] << ": " << run.err;
    EXPECT_EQ(run.err.find("internal error"), std::string::npos) << args[0] << ": " << run.err;
    if (run.exit_code != 0) {
      EXPECT_EQ(run.exit_code, 1) << args[0] << ": " << run.err;
      EXPECT_NE(run.err.find("error: entry 'ImageNet/e': "), std::string::npos) << args[0] << ": " << run.err;
    }
  }
}

}  // namespace
}  // namespace evalsuite
