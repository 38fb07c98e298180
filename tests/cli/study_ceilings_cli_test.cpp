// Machine ceilings recorded once per study, with its environment (study/plans/ceilings_record.h), as a user
// runs it: `study run` measures them with a real `evalsuite machine --quick` child and `study resume` does not
// measure again; a hand-set ceilings file gives the exact MFU in the report; --machine-ceilings skip measures
// nothing; a bad ceilings file is an error naming the file, before the study exists.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/study/fake_entries.h"
#include "tests/support/store_query.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::Query;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

std::string OneRunStudy(const std::string& name, const std::string& extra = "") {
  return "name = \"" + name + "\"\nruns = 1\nseed = 5\nthreshold = 0.85\njobs = 1\nthreads = 1\n" + extra +
         "entries = [{ name = \"alpha\", command = \"sh {study_dir}/fake_entry.sh {log} {seed} ok\" }]\n";
}

json StudyCeilings(const std::string& store) {
  const auto rows = Query(store, "SELECT environment FROM studies");
  if (rows.size() != 1) return json();
  return json::parse(rows[0][0]).value("machine_ceilings", json());
}

TEST(StudyCeilingsCliTest, MeasuredOnceAtTheStartAndNotAgainOnResume) {
  TempDir dir;
  study::testing::WriteFakeEntry(dir.path());
  WriteFile(dir / "s.toml", OneRunStudy("measured"));
  const std::string store = (dir / "s.db").string();
  const fs::path runs = dir / "runs";
  auto run = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--out", runs.string(),
                           "--progress", "none", "--machine-ceilings", "measure"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("machine ceilings (this study's machine"), std::string::npos) << run.out;
  const json recorded = StudyCeilings(store);
  ASSERT_TRUE(recorded.is_object()) << recorded;
  EXPECT_EQ(recorded["source"], "measured");
  EXPECT_EQ(recorded["machine"]["threads"], 1);  // the runs' thread count
  EXPECT_GT(recorded["machine"]["peak_fp32_flops"].get<double>(), 0);
  EXPECT_GT(recorded["machine"]["bandwidth_bytes"].get<double>(), 0);
  EXPECT_GE(recorded["machine"]["probes"].size(), 3u);
  // Both forms of each bf16 entry (fast, bf16), timed a few steps each with the runs' threads: the study's record of
  // what its runs' precision choice reads (entries/precision_choice.h), kept for the report.
  ASSERT_EQ(recorded["machine"]["step_probes"].size(), 4u) << recorded["machine"];
  for (const json& row : recorded["machine"]["step_probes"]) {
    EXPECT_EQ(row["threads"], 1);
    EXPECT_GT(row["seconds_per_step"].get<double>(), 0);
  }
  ASSERT_TRUE(fs::exists(runs / "machine_ceilings.json"));

  // Resume: the study has its ceilings, so the probe does not run again (its output file is not written anew).
  fs::remove(runs / "machine_ceilings.json");
  auto resume = RunEvalsuite({"study", "resume", "measured", "--store", store, "--progress", "none"});
  ASSERT_EQ(resume.exit_code, 0) << resume.out << resume.err;
  EXPECT_FALSE(fs::exists(runs / "machine_ceilings.json"));
  EXPECT_EQ(resume.out.find("machine ceilings"), std::string::npos) << resume.out;
  EXPECT_EQ(StudyCeilings(store), recorded);
  const auto invocations = Query(store, "SELECT command, environment FROM invocations ORDER BY id");
  ASSERT_EQ(invocations.size(), 2u);
  EXPECT_TRUE(json::parse(invocations[0][1]).contains("machine_ceilings"));   // recorded when measured
  EXPECT_FALSE(json::parse(invocations[1][1]).contains("machine_ceilings"));  // nothing new on resume

  auto report = RunEvalsuite({"report", store, "--out", (dir / "report").string()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string md = ReadFile(dir / "report" / "report.md");
  EXPECT_NE(md.find("| ceilings used | measured in this study |"), std::string::npos) << md;
}

TEST(StudyCeilingsCliTest, HandSetCeilingsFileGivesTheExactMfuInTheReport) {
  TempDir dir;
  study::testing::WriteFakeEntry(dir.path());
  // A file as `evalsuite machine --json` writes it, with hand-set peaks; named by the plan key, relative to the
  // study file's folder.
  WriteFile(dir / "ceilings.json", R"({"machine": {"peak_fp32_flops": 40e9, "peak_bf16_flops": 160e9,
                                        "bandwidth_bytes": 10e9, "measured_at": "2026-11-23T00:00:00Z"}})");
  WriteFile(dir / "s.toml", OneRunStudy("from-file", "machine_ceilings = \"ceilings.json\"\n"));
  const std::string store = (dir / "s.db").string();
  auto run = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--out",
                           (dir / "runs").string(), "--progress", "none"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const json recorded = StudyCeilings(store);
  EXPECT_EQ(recorded["source"], "file");
  EXPECT_EQ(recorded["file"], (dir / "ceilings.json").string());
  EXPECT_FALSE(fs::exists(dir / "runs" / "machine_ceilings.json"));  // read, not measured

  // A profile written on another machine (peak 1 TFLOP/s): the study's own ceilings are what MFU divides by.
  WriteFile(dir / "section.json", R"({"machine": {"peak_fp32_flops": 1e12, "bandwidth_bytes": 1e11},
    "entries": [{"entry": "alpha", "precision": "fp32", "intensity": 2, "achieved_flops": 15e9, "mfu": 0.015}]})");
  auto report = RunEvalsuite({"report", store, "--out", (dir / "report").string(), "--section",
                              "hardware=" + (dir / "section.json").string()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const json model = json::parse(ReadFile(dir / "report" / "report.json"));
  const json& entry = model["hardware"]["entries"][0];
  EXPECT_DOUBLE_EQ(entry["mfu"].get<double>(), 0.375);  // 15 / 40 GFLOP/s
  EXPECT_EQ(entry["bound"], "memory-bound");            // 75% of the 20 GFLOP/s the slope allows at 2 FLOP/byte
  EXPECT_EQ(model["hardware"]["machine"]["ridge_fp32"].get<double>(), 4.0);
  const std::string md = ReadFile(dir / "report" / "report.md");
  EXPECT_NE(md.find("| ceilings used | file " + (dir / "ceilings.json").string()), std::string::npos) << md;
  EXPECT_NE(md.find("37.5%"), std::string::npos) << md;
}

TEST(StudyCeilingsCliTest, SkipMeasuresNothing) {
  TempDir dir;
  study::testing::WriteFakeEntry(dir.path());
  WriteFile(dir / "s.toml", OneRunStudy("skipped"));
  const std::string store = (dir / "s.db").string();
  testing::ScopedEnv measure_by_default("EVALSUITE_MACHINE_CEILINGS", "measure");  // the flag wins over it
  auto run = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--out",
                           (dir / "runs").string(), "--progress", "none", "--machine-ceilings", "skip"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const json recorded = StudyCeilings(store);
  EXPECT_EQ(recorded["source"], "theoretical");
  EXPECT_NE(recorded["measurement"].get<std::string>().find("skipped"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "runs" / "machine_ceilings.json"));
  auto report = RunEvalsuite({"report", store, "--out", (dir / "report").string()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(ReadFile(dir / "report" / "report.md").find("## Hardware"), std::string::npos);
}

TEST(StudyCeilingsCliTest, BadCeilingsFileIsAnErrorNamingTheFile) {
  TempDir dir;
  study::testing::WriteFakeEntry(dir.path());
  WriteFile(dir / "s.toml", OneRunStudy("bad"));
  WriteFile(dir / "bad.json", R"({"machine": {"peak_fp32_flops": "fast", "bandwidth_bytes": 1e10}})");
  const std::string store = (dir / "s.db").string();
  auto run =
      RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--out", (dir / "runs").string(),
                    "--progress", "none", "--machine-ceilings", (dir / "bad.json").string()});
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find((dir / "bad.json").string()), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("peak_fp32_flops"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(store));  // nothing created under a bad file (the ceilings are read before the store)

  auto missing =
      RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--out", (dir / "runs").string(),
                    "--progress", "none", "--machine-ceilings", (dir / "absent.json").string()});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find((dir / "absent.json").string()), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace evalsuite
