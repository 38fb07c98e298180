// A run that dies before its first evaluation "did not run": in a real study, an external entry killed by SIGILL
// at start-up and one whose command does not exist get no stability verdict but DID NOT RUN with the cause and a
// hint, in the report, `study show` and the progress lines; an entry that crashes after reaching the target
// still counts as reached; `study resume` runs the runs that did not run again.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/study/fake_entries.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

TEST(DidNotRunCliTest, ACrashBeforeTheFirstEvaluationIsShownAsDidNotRunWithItsCause) {
  TempDir dir;
  study::testing::WriteFakeEntry(dir.path());
  WriteFile(dir / "s.toml",
            "name = \"cpu\"\nruns = 2\nseed = 3\nthreshold = 0.85\njobs = 2\nentries = [\n"
            "  { name = \"sigill\", command = \"sh {study_dir}/fake_entry.sh {log} {seed} illegal\" },\n"
            "  { name = \"missing\", command = \"{study_dir}/no-such-entry {log}\" },\n"
            "  { name = \"crashy\", command = \"sh {study_dir}/fake_entry.sh {log} {seed} crash\" },\n"
            "]\n");
  const std::string store = (dir / "cpu.db").string();
  auto run = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--out",
                           (dir / "runs").string(), "--progress", "plain"});
  EXPECT_NE(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.err.find("sigill #0 (seed"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("DID NOT RUN - killed by signal 4 (SIGILL)"), std::string::npos) << run.err;

  auto report = RunEvalsuite({"report", store, "--out", (dir / "report").string()});
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  const auto model = nlohmann::json::parse(ReadFile(dir / "report" / "report.json"));
  std::map<std::string, nlohmann::json> verdicts, entries, table;
  for (const auto& v : model["verdicts"]) verdicts[v["entry"]] = v;
  for (const auto& e : model["entries"]) entries[e["name"]] = e;
  for (const auto& t : model["table"]) table[t["entry"]] = t;

  EXPECT_EQ(verdicts["sigill"]["result"], "DID NOT RUN");
  const std::string sigill_reasons = verdicts["sigill"]["reasons"].dump();
  EXPECT_NE(sigill_reasons.find("SIGILL"), std::string::npos) << sigill_reasons;
  EXPECT_NE(sigill_reasons.find("ONEDNN_MAX_CPU_ISA"), std::string::npos) << sigill_reasons;
  EXPECT_EQ(entries["sigill"]["runs"][0]["status"], "did_not_run");
  EXPECT_EQ(entries["sigill"]["runs"][0]["counted"], false);
  EXPECT_EQ(table["sigill"]["runs"], 0);

  EXPECT_EQ(verdicts["missing"]["result"], "DID NOT RUN");
  EXPECT_NE(verdicts["missing"]["reasons"].dump().find("command not found"), std::string::npos)
      << verdicts["missing"]["reasons"].dump();

  // Trained, reached 0.85 at its second evaluation, then crashed: a failed run that still counts as reached.
  EXPECT_EQ(entries["crashy"]["runs"][0]["status"], "failed");
  EXPECT_EQ(table["crashy"]["runs"], 2);
  EXPECT_EQ(table["crashy"]["reached"], 2);
  EXPECT_NE(verdicts["crashy"]["result"], "DID NOT RUN");

  const std::string md = ReadFile(dir / "report" / "report.md");
  EXPECT_NE(md.find("DID NOT RUN"), std::string::npos);

  // The report's environment says what the CPU is, which of its ISA flags matter, whether AMX executes and the
  // oneDNN cap in force (so that a reader of a SIGILL report sees the machine's side of it).
  const nlohmann::json& cpu = model["environment"]["cpu"];
  EXPECT_FALSE(cpu.value("model", "").empty()) << cpu.dump();
  for (const char* flag : {"avx512f", "avx512_bf16", "amx_bf16", "amx_tile"}) {
    EXPECT_TRUE(cpu["isa_flags"].contains(flag)) << flag << " " << cpu.dump();
  }
  EXPECT_TRUE(cpu["amx_usable"].is_boolean()) << cpu.dump();
  EXPECT_TRUE(cpu["onednn_max_cpu_isa"].contains("value")) << cpu.dump();
  EXPECT_TRUE(cpu["onednn_max_cpu_isa"]["source"].is_string()) << cpu.dump();
  EXPECT_NE(md.find("amx_usable"), std::string::npos);
  EXPECT_NE(md.find("onednn_max_cpu_isa"), std::string::npos);

  auto show = RunEvalsuite({"study", "show", "cpu", "--store", store});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  // crashy: 2 runs, 2 reached, 0 failed (reached, then crashed: not counted twice).
  EXPECT_NE(show.out.find("crashy   0.85       2/2   2        0"), std::string::npos) << show.out;
  const size_t said = show.out.find("sigill DID NOT RUN here");
  ASSERT_NE(said, std::string::npos) << show.out;
  EXPECT_LT(said, show.out.find("threshold")) << "said before the table:\n" << show.out;

  // Resume runs what did not run again (a new attempt each), and leaves the crashed-after-training runs alone.
  auto resume = RunEvalsuite({"study", "resume", "cpu", "--store", store, "--progress", "none"});
  EXPECT_NE(resume.exit_code, 2) << resume.err;
  EXPECT_TRUE(fs::exists(dir / "runs" / "sigill" / "run-000.attempt-1")) << resume.out << resume.err;
  EXPECT_FALSE(fs::exists(dir / "runs" / "crashy" / "run-000.attempt-1"));
}

}  // namespace
}  // namespace evalsuite

namespace evalsuite {
namespace {

// The oneDNN cap reaches external entries through the environment, and the plan key takes it away. The probe is
// told that this CPU's highest level raises SIGILL (EVALSUITE_ISA_PROBE_FAIL=top), as AMX does on the Sapphire
// Rapids VMs that need the cap, so evalsuite caps oneDNN here too.
TEST(OneDnnCapCliTest, ThePlanKeyTurnsTheCapOffForAStudysRuns) {
  TempDir dir;
  WriteFile(dir / "env_entry.sh",
            "#!/bin/sh\nlog=$1\nenv | grep -E '^(ONEDNN_MAX_CPU_ISA|EVALSUITE_ONEDNN_ISA_CAP)=' | sort > \"$2\"\n"
            "echo '{\"type\":\"header\",\"entry\":\"env\"}' > \"$log\"\n"
            "echo '{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":1,\"metric\":0.9}' >> \"$log\"\n"
            "echo '{\"type\":\"end\",\"status\":\"reached\",\"train_seconds\":1}' >> \"$log\"\n");
  auto study = [&](const std::string& name, const std::string& key) {
    WriteFile(dir / (name + ".toml"), "name = \"" + name + "\"\nruns = 1\nthreshold = 0.85\n" + key +
                                          "entries = [ { name = \"env\", command = \"sh {study_dir}/env_entry.sh "
                                          "{log} {run_dir}/env.txt\" } ]\n");
    testing::ScopedEnv simulate("EVALSUITE_ISA_PROBE_FAIL", "top");
    auto run = RunEvalsuite({"study", "run", (dir / (name + ".toml")).string(), "--store", (dir / "s.db").string(),
                             "--out", (dir / name).string(), "--progress", "none"});
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    return ReadFile(dir / name / "env" / "run-000" / "env.txt");
  };

  const std::string on = study("on", "");
  EXPECT_NE(on.find("ONEDNN_MAX_CPU_ISA="), std::string::npos) << on;
  const std::string off = study("off", "onednn_isa_cap = false\n");
  EXPECT_EQ(off.find("ONEDNN_MAX_CPU_ISA"), std::string::npos) << off;
  EXPECT_NE(off.find("EVALSUITE_ONEDNN_ISA_CAP=off"), std::string::npos) << off;
}

// A user's own cap is theirs: recorded as such in the run header of a built-in run.
TEST(OneDnnCapCliTest, AUsersCapIsRecordedAsTheUsersInTheRunHeader) {
  if (!fs::exists("/usr/share/datasets/fashion-mnist")) GTEST_SKIP() << "no Fashion-MNIST";
  TempDir dir;
  testing::ScopedEnv cap("ONEDNN_MAX_CPU_ISA", "AVX2");
  auto run = RunEvalsuite({"train", "baseline", "--seed", "1", "--epochs", "1", "--train-subset", "512", "--threads",
                           "1", "--log", (dir / "log.jsonl").string()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string text = ReadFile(dir / "log.jsonl");
  const auto header = nlohmann::json::parse(text.substr(0, text.find('\n')));
  const auto& record = header["environment"]["cpu"]["onednn_max_cpu_isa"];
  EXPECT_EQ(record["source"], "user");
  EXPECT_EQ(record["value"], "AVX2");
  EXPECT_FALSE(header["environment"]["cpu"]["model"].get<std::string>().empty());
  EXPECT_TRUE(header["environment"]["cpu"]["isa_flags"].contains("amx_tile")) << header["environment"].dump();
  EXPECT_TRUE(header["environment"]["cpu"]["amx_usable"].is_boolean()) << header["environment"].dump();
}

}  // namespace
}  // namespace evalsuite

namespace evalsuite {
namespace {

// An external entry whose log holds {"type":1}: its run fails with the reader's message (file and line), the
// other entry's runs go on, and resume does not stumble over it (it used to abort the study with an internal
// error, every time).
TEST(BadLogCliTest, AnUnreadableExternalLogDidNotRunAndTheStudyGoesOn) {
  TempDir dir;
  study::testing::WriteFakeEntry(dir.path());
  WriteFile(dir / "bad_entry.sh", "#!/bin/sh\necho '{\"type\":1}' > \"$1\"\n");
  WriteFile(dir / "s.toml",
            "name = \"bad\"\nruns = 2\nthreshold = 0.85\nentries = [\n"
            "  { name = \"bad\", command = \"sh {study_dir}/bad_entry.sh {log}\" },\n"
            "  { name = \"good\", command = \"sh {study_dir}/fake_entry.sh {log} {seed} ok\" },\n]\n");
  const std::string store = (dir / "bad.db").string();
  auto run = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--out",
                           (dir / "runs").string(), "--progress", "plain"});
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;  // done, but the bad entry's two runs did not run
  EXPECT_EQ(run.err.find("internal error"), std::string::npos) << run.err;
  EXPECT_NE(run.out.find("4 of 4 runs recorded"), std::string::npos) << run.out;
  auto report = RunEvalsuite({"report", store, "--out", (dir / "report").string()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string json = ReadFile(dir / "report" / "report.json");
  EXPECT_NE(json.find("log.jsonl:1"), std::string::npos) << "the reader's message names file and line";
  // Nothing of its runs could be read: it did not run here (resume tries again), it is not judged NOT STABLE.
  auto show = RunEvalsuite({"study", "show", "bad", "--store", store});
  EXPECT_NE(show.out.find("bad DID NOT RUN here"), std::string::npos) << show.out;
  auto resume = RunEvalsuite({"study", "resume", "bad", "--store", store, "--progress", "none"});
  EXPECT_NE(resume.exit_code, 2) << resume.err;
  EXPECT_EQ(resume.err.find("internal error"), std::string::npos) << resume.err;
}

// A one-entry study (2 runs, `threshold`) of a script that writes `log` (JSON Lines) as it is; `study show`'s output.
CommandResult ShowStudyOfLog(const TempDir& dir, const std::string& log, double threshold) {
  std::string script = "#!/bin/sh\n: > \"$1\"\n";
  for (std::size_t start = 0; start < log.size();) {
    const std::size_t end = log.find('\n', start);
    script += "echo '" + log.substr(start, end - start) + "' >> \"$1\"\n";
    start = end == std::string::npos ? log.size() : end + 1;
  }
  WriteFile(dir / "entry.sh", script);
  WriteFile(dir / "s.toml",
            "name = \"one\"\nruns = 2\nthreshold = " + std::to_string(threshold) +
                "\nentries = [\n  { name = \"one\", command = \"sh {study_dir}/entry.sh {log}\" },\n]\n");
  const std::string store = (dir / "one.db").string();
  const CommandResult run = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--out",
                                          (dir / "runs").string(), "--progress", "none"});
  EXPECT_NE(run.exit_code, 2) << run.out << run.err;
  return RunEvalsuite({"study", "show", "one", "--store", store});
}

// Found by a cold reader: a script that logs its accuracy in percent (92.3) had every run recorded as failed and
// every entry judged NOT STABLE (hit rate 0%), the reason only in the progress lines. Its runs did not run here, and
// `study show` says why before the table: the values look like percentages, write "metric_range": [0, 100].
TEST(BadLogCliTest, APercentLogDidNotRunAndSaysHowToDeclareItsScale) {
  TempDir dir;
  const CommandResult show = ShowStudyOfLog(dir,
                                            R"({"type":"header","entry":"one","metric":"val_top1"}
{"type":"eval","epoch":1,"train_seconds":1,"metric":61.5}
{"type":"eval","epoch":2,"train_seconds":2,"metric":92.3}
{"type":"end","status":"ok","train_seconds":2})",
                                            0.9);
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("one DID NOT RUN here"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("\"metric_range\": [0, 100]"), std::string::npos) << show.out;
  EXPECT_EQ(show.out.find("NOT STABLE"), std::string::npos) << show.out;
}

// A cold reader's script wrote "threshold": 0.9 in its header and the study said 0.95: the study's target decided,
// and nothing said so (run logs' warnings were stored and shown nowhere). `study show` says it before the table.
TEST(BadLogCliTest, AHeadersOwnTargetIsNamedBesideTheStudysOne) {
  TempDir dir;
  const CommandResult show = ShowStudyOfLog(dir,
                                            R"({"type":"header","entry":"one","metric":"val_top1","threshold":0.5}
{"type":"eval","epoch":1,"train_seconds":1,"metric":0.6}
{"type":"eval","epoch":2,"train_seconds":2,"metric":0.9}
{"type":"end","status":"reached","train_seconds":2})",
                                            0.85);
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("one: 2 of its runs' logs drew a warning; the first: "), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("the log's header names the target 0.5; the run is judged against the study's threshold, "
                          "0.85"),
            std::string::npos)
      << show.out;
}

}  // namespace
}  // namespace evalsuite
