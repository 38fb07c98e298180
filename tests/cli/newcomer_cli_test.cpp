// Issue 30: what a newcomer typed in the first minutes, each fed as it was typed: a JSON Lines log with a negative
// time, a fraction threshold on a percent TSV, a wrong --format, an import of a missing file, and a study with a
// missing script. Each must print the right number or a clear error, and store nothing when it fails.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/study/fake_entries.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

// A DAWNBench CIFAR10 entry (accuracy in percent) that reaches 94 % at 0.3 h.
fs::path WriteCifarTsv(const fs::path& root) {
  const fs::path tsv = root / "CIFAR10" / "train" / "basenet.tsv";
  fs::create_directories(tsv.parent_path());
  WriteFile(tsv, "epoch\thours\ttop1Accuracy\n0\t0.0\t10.0\n1\t0.1\t80.5\n2\t0.2\t91.0\n3\t0.3\t94.2\n4\t0.4\t95.0\n");
  WriteFile(tsv.parent_path() / "basenet.json", "{\"author\":\"a\",\"hardware\":\"1 GPU\"}");
  return tsv;
}

TEST(NewcomerCliTest, JsonlNegativeTimeIsSkippedAndNeverATta) {
  TempDir dir;
  WriteFile(dir / "run.jsonl",
            "{\"type\":\"header\",\"entry\":\"e\",\"metric\":\"val_top1\",\"threshold\":0.9}\n"
            "{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":10,\"metric\":0.5}\n"
            "{\"type\":\"eval\",\"epoch\":2,\"train_seconds\":20,\"metric\":0.6}\n"
            "{\"type\":\"eval\",\"epoch\":3,\"train_seconds\":30,\"metric\":0.7}\n"
            "{\"type\":\"eval\",\"epoch\":4,\"train_seconds\":-5,\"metric\":1.7}\n"
            "{\"type\":\"eval\",\"epoch\":5,\"train_seconds\":50,\"metric\":0.8}\n"
            "{\"type\":\"end\",\"status\":\"not_reached\",\"train_seconds\":50}\n");
  const std::string store = (dir / "s.db").string();
  auto r = RunEvalsuite({"import", (dir / "run.jsonl").string(), "--format", "jsonl", "--store", store, "--json",
                         (dir / "o.json").string(), "--study", "neg"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("run.jsonl:5: training time -5 s is not a finite number >= 0"), std::string::npos) << r.err;
  const nlohmann::json json = nlohmann::json::parse(ReadFile(dir / "o.json"));
  EXPECT_EQ(json["groups"][0]["converged"], 0);
  EXPECT_TRUE(json["groups"][0]["tta_minutes"][0].is_null());
  auto show = RunEvalsuite({"study", "show", "neg", "--store", store});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_EQ(show.out.find("-5.0 s"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("not reached"), std::string::npos) << show.out;
}

// study list and the report count an imported run alike, also one whose log has no end record.
TEST(NewcomerCliTest, StudyListCountsAnImportedRunAsTheReportDoes) {
  TempDir dir;
  WriteFile(dir / "cut.jsonl",
            "{\"type\":\"header\",\"entry\":\"e\",\"threshold\":0.9}\n"
            "{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":10,\"metric\":0.5}\n");
  const std::string store = (dir / "s.db").string();
  ASSERT_EQ(RunEvalsuite({"import", (dir / "cut.jsonl").string(), "--store", store, "--study", "cut"}).exit_code, 0);
  auto list = RunEvalsuite({"study", "list", "--store", store});
  EXPECT_NE(list.out.find(" 1  -\n"), std::string::npos) << list.out;  // was 0
  auto report = RunEvalsuite({"report", store, "--out", (dir / "rep").string()});
  EXPECT_NE(report.out.find("1 entry, 1 run:"), std::string::npos) << report.out;
}

TEST(NewcomerCliTest, ThresholdOnTheFractionScaleIsConvertedForAPercentTsv) {
  TempDir dir;
  const fs::path tsv = WriteCifarTsv(dir / "in");
  auto r =
      RunEvalsuite({"import", tsv.string(), "--threshold", "0.94", "--no-store", "--json", (dir / "o.json").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("--threshold 0.94 read as a fraction: top1Accuracy is in percent, so the target is "
                       "top1Accuracy >= 94 %"),
            std::string::npos)
      << r.err;
  const nlohmann::json json = nlohmann::json::parse(ReadFile(dir / "o.json"));
  EXPECT_EQ(json["groups"][0]["threshold"], 94.0);
  EXPECT_EQ(json["groups"][0]["tta_hours"], 0.3);  // not epoch 0's 0.0 h

  r = RunEvalsuite({"import", tsv.string(), "--threshold", "150", "--no-store"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("150 is off the scale of top1Accuracy"), std::string::npos) << r.err;
}

TEST(NewcomerCliTest, WrongFormatIsAnErrorAndNothingIsStored) {
  TempDir dir;
  const fs::path tsv = WriteCifarTsv(dir / "in");
  for (const char* format : {"mlperf", "jsonl"}) {
    const fs::path store = dir / (std::string(format) + ".db");
    auto r = RunEvalsuite({"import", tsv.string(), "--format", format, "--store", store.string()});
    EXPECT_EQ(r.exit_code, 1) << format << ": " << r.err << r.out;
    EXPECT_NE(r.err.find("basenet.tsv"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--format dawnbench"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(store)) << format;
  }
  auto r = RunEvalsuite({"import", (dir / "nosuch.tsv").string(), "--store", (dir / "i.db").string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("nosuch.tsv"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "i.db"));
}

// Not the same as a file named with the wrong --format: a result file of a submission's folder without an MLPerf
// line is a run that did not succeed, as the official summarizer counts it.
TEST(NewcomerCliTest, AnEmptyResultFileInASubmissionStillCountsAsARun) {
  TempDir dir;
  // The round in the path gives the ruleset (2.0.0: resnet, 5 result files); without it the import refuses to guess.
  const fs::path bench = dir / "training_results_v2.0" / "ORG" / "results" / "sys" / "resnet";
  fs::create_directories(bench);
  WriteFile(bench / "result_0.txt", "docker: image not found\n");
  WriteFile(bench / "result_1.txt", "docker: image not found\n");
  auto r = RunEvalsuite(
      {"import", (dir / "training_results_v2.0" / "ORG").string(), "--no-store", "--json", (dir / "o.json").string()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const nlohmann::json json = nlohmann::json::parse(ReadFile(dir / "o.json"));
  ASSERT_EQ(json["groups"].size(), 1u);
  EXPECT_EQ(json["groups"][0]["runs"], 2);
}

TEST(NewcomerCliTest, StudyWithAMissingScriptCountsAgreeAndExitsFour) {
  TempDir dir;
  study::testing::WriteFakeEntry(dir.path());
  WriteFile(
      dir / "s.toml",
      "name = \"newcomer\"\nruns = 3\nseed = 3\nthreshold = 0.85\njobs = 2\nmachine_ceilings = \"skip\"\nentries = [\n"
      "  { name = \"ok\", command = \"sh {study_dir}/fake_entry.sh {log} {seed} ok\" },\n"
      "  { name = \"missing\", command = \"sh {study_dir}/nosuch_script.sh {log}\" },\n"
      "]\n");
  auto r = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", (dir / "s.db").string(), "--out",
                         (dir / "runs").string(), "--progress", "none"});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("(6 now, 0 of them failed, 3 did not run"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nosuch_script.sh"), std::string::npos) << r.out;  // the first stderr line, in the summary
}

}  // namespace
}  // namespace evalsuite
