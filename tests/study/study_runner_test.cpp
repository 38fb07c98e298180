// The scheduler and the study runner with fake external entries: every run in its own process; a crash, a
// non-zero exit and a timeout become failed runs with the signal, exit status and stderr; a stopped study
// keeps its interrupted attempt (points included) and resume runs only what is missing.
#include "study/study_runner.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "common/error.h"
#include "study/execution/run_folder_record.h"
#include "study/plans/study_plan_loader.h"
#include "tests/study/fake_entries.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

using evalsuite::testing::TempDir;

StudyPlan FakePlan(const TempDir& dir, const std::string& body, PlanOverrides overrides = {}) {
  return testing::FakeStudyPlan(dir, body, std::move(overrides));
}

StudyRunOptions Options(const TempDir& dir) {
  StudyRunOptions options;
  options.store_file = dir / "store.db";
  options.scheduler.poll_seconds = 0.01;
  options.scheduler.kill_grace_seconds = 0.5;
  return options;
}

std::map<std::string, std::vector<store::RunRecord>> RunsByEntry(const std::filesystem::path& store_file,
                                                                 const std::string& study) {
  auto store = store::RunStore::Open(store_file, false);
  std::map<std::string, std::vector<store::RunRecord>> by_entry;
  for (store::RunRecord& r : store->LoadRuns(store->FindStudy(study)->id)) by_entry[r.entry].push_back(std::move(r));
  return by_entry;
}

TEST(StudyRunnerTest, RecordsCrashesFailuresAndTimeoutsAndGoesOn) {
  TempDir dir;
  StudyPlan plan = FakePlan(dir, R"(
name = "mixed"
runs = 2
jobs = 2
threshold = 0.85
entries = [
  { name = "ok", command = "sh {study_dir}/fake_entry.sh {log} {seed} ok" },
  { name = "crash", command = "sh {study_dir}/fake_entry.sh {log} {seed} crash" },
  { name = "fail", command = "sh {study_dir}/fake_entry.sh {log} {seed} fail" },
  { name = "hang", command = "sh {study_dir}/fake_entry.sh {log} {seed} hang", timeout_seconds = 0.5 },
  { name = "high", command = "sh {study_dir}/fake_entry.sh {log} {seed} ok", threshold = 0.99 },
  { name = "pipe", command = "sh {study_dir}/fake_entry.sh {log} {seed} ok 3 | cat" },
]
)");
  StudyOutcome outcome = RunStudy(plan, Options(dir));
  EXPECT_EQ(outcome.planned, 12);
  EXPECT_EQ(outcome.ran, 12);
  // crash, fail and hang reached 0.85 before they died: their TTA stands and they count as reached, as study show's
  // table counts them (analysis::CountsAsFailed, issue 30 item 5).
  EXPECT_EQ(outcome.failed, 0);
  EXPECT_TRUE(outcome.complete());

  auto runs = RunsByEntry(dir / "store.db", "mixed");
  for (const auto& [entry, list] : runs) ASSERT_EQ(list.size(), 2u) << entry;
  for (const store::RunRecord& r : runs["ok"]) {
    EXPECT_EQ(r.log.status, analysis::EndedAs::kReached);
    EXPECT_EQ(r.exit_status, 0);
    EXPECT_EQ(r.log.points.size(), 3u);
    EXPECT_EQ(r.seeds.run, plan.FindRun("ok", r.run_index)->seed);
    EXPECT_EQ(r.seeds.init, r.seeds.run.value_or(0) + 1);  // the entry's own seeds are kept
    EXPECT_EQ(r.threads, plan.threads);
  }
  for (const store::RunRecord& r : runs["crash"]) {
    EXPECT_EQ(r.log.status, analysis::EndedAs::kFailed);
    EXPECT_EQ(r.signal, 11);
    EXPECT_NE(r.log.error.find("SIGSEGV"), std::string::npos) << r.log.error;
    EXPECT_NE(r.stderr_tail.find("about to crash"), std::string::npos);
    EXPECT_EQ(r.log.points.size(), 3u);  // what it wrote before crashing is kept
  }
  for (const store::RunRecord& r : runs["fail"]) {
    EXPECT_EQ(r.log.status, analysis::EndedAs::kFailed);
    EXPECT_EQ(r.exit_status, 3);
    EXPECT_NE(r.stderr_tail.find("boom"), std::string::npos);
  }
  for (const store::RunRecord& r : runs["hang"]) {
    EXPECT_EQ(r.log.status, analysis::EndedAs::kFailed);
    EXPECT_NE(r.log.error.find("timed out"), std::string::npos) << r.log.error;
    EXPECT_TRUE(r.signal.has_value());
  }
  for (const store::RunRecord& r : runs["high"]) EXPECT_EQ(r.log.status, analysis::EndedAs::kNotReached);
  for (const store::RunRecord& r : runs["pipe"])
    EXPECT_EQ(r.log.status, analysis::EndedAs::kReached);  // not exec-able: still runs
}

// Stops the study (as SIGINT would) once `after` runs have finished and a running run has written a point.
class StopAfter : public ProgressReporter {
 public:
  StopAfter(int after, std::atomic<bool>* stop) : after_(after), stop_(stop) {}
  void StudyStarted(const std::string&, int, int, int, int) override {}
  void RunStarted(const RunningRunView&) override {}
  void Update(const std::vector<RunningRunView>& running) override {
    for (const auto& r : running) {
      if (finished_ >= after_ && r.epoch) stop_->store(true);
    }
  }
  void RunFinished(const store::RunRecord&, double) override { ++finished_; }
  void StudyFinished() override {}

 private:
  int after_;
  int finished_ = 0;
  std::atomic<bool>* stop_;
};

TEST(StudyRunnerTest, StoppedStudyKeepsItsIncompleteAttemptAndResumeRunsOnlyTheMissingRuns) {
  TempDir dir;
  StudyPlan plan = FakePlan(dir, R"(
name = "stoppable"
runs = 3
jobs = 1
threshold = 0.85
entries = [
  { name = "a", command = "sh {study_dir}/fake_entry.sh {log} {seed} slow 3 0.1" },
  { name = "b", command = "sh {study_dir}/fake_entry.sh {log} {seed} slow 3 0.1" },
]
)");
  std::atomic<bool> stop{false};
  StopAfter reporter(2, &stop);
  StudyRunOptions options = Options(dir);
  options.progress = &reporter;
  options.stop = &stop;
  options.scheduler.progress_seconds = 0.02;
  StudyOutcome first = RunStudy(plan, options);
  EXPECT_TRUE(first.stopped);
  EXPECT_EQ(first.ran, 2);
  EXPECT_EQ(first.interrupted_kept, 1);

  auto runs = RunsByEntry(dir / "store.db", "stoppable");
  int incomplete = 0;
  std::set<int64_t> finished_ids;
  for (const auto& [entry, list] : runs) {
    for (const store::RunRecord& r : list) {
      if (store::IsFinishedRun(r)) {
        finished_ids.insert(r.id);
      } else {
        ++incomplete;
        EXPECT_FALSE(r.log.points.empty());  // the interrupted run's points are kept
        EXPECT_NE(r.log.error.find("interrupted"), std::string::npos);
      }
    }
  }
  EXPECT_EQ(incomplete, 1);
  EXPECT_EQ(finished_ids.size(), 2u);

  StudyRunOptions resume_options = Options(dir);
  StudyOutcome second = ResumeStudy(std::nullopt, resume_options);
  EXPECT_EQ(second.finished_before, 2);
  EXPECT_EQ(second.ran, 4);
  EXPECT_TRUE(second.complete());

  runs = RunsByEntry(dir / "store.db", "stoppable");
  std::set<std::pair<std::string, int>> done;
  int finished = 0;
  for (const auto& [entry, list] : runs) {
    for (const store::RunRecord& r : list) {
      if (!store::IsFinishedRun(r)) continue;
      ++finished;
      EXPECT_TRUE(done.insert({r.entry, r.run_index}).second) << "run recorded twice";
    }
  }
  EXPECT_EQ(finished, 6);
  // One folder rule for every executor: each finished run is in run-NNN, where a user looks first; the try the stop
  // cut (recorded in run-NNN) was moved aside to run-NNN.attempt-1 on resume, and its record followed it.
  int moved = 0;
  for (const auto& [entry, list] : runs) {
    for (const store::RunRecord& r : list) {
      const std::string folder = std::filesystem::path(r.run_dir).filename().string();
      if (store::IsFinishedRun(r)) {
        EXPECT_EQ(folder.find(".attempt"), std::string::npos) << r.run_dir;
      } else {
        ++moved;
        EXPECT_NE(folder.find(".attempt-1"), std::string::npos) << r.run_dir;
        EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(r.run_dir) / "log.jsonl")) << r.run_dir;
      }
    }
  }
  EXPECT_EQ(moved, 1);
  for (int64_t id : finished_ids) {
    bool kept = false;
    for (const auto& [entry, list] : runs) {
      for (const store::RunRecord& r : list) kept |= r.id == id;
    }
    EXPECT_TRUE(kept);
  }
  // Nothing left: a further resume of this study runs nothing.
  EXPECT_EQ(ResumeStudy(std::string("stoppable"), resume_options).ran, 0);
  EXPECT_THROW(ResumeStudy(std::nullopt, resume_options), Error);  // no unfinished study
}

TEST(StudyRunnerTest, KeepsAttemptFoldersAKilledStudyLeftBehind) {
  TempDir dir;
  StudyPlan plan = FakePlan(dir, R"(
name = "left"
runs = 1
threshold = 0.85
entries = [{ name = "a", command = "sh {study_dir}/fake_entry.sh {log} {seed} ok" }]
)");
  // As if the study was killed while run 0 was running: the store has the study but not the run.
  {
    auto store = store::RunStore::Open(dir / "store.db");
    store->CreateStudy(plan.name, "study", PlanToJson(plan), {});
  }
  std::filesystem::path left = std::filesystem::path(plan.out_dir) / "a" / "run-000";
  std::filesystem::create_directories(left);
  // What the executor writes before the run's process starts (run_folder_record.h).
  WriteRunFolderRecord(left, plan, *plan.FindEntry("a"), *plan.FindRun("a", 0),
                       StudyIdentity(plan.name, dir / "store.db", 1));
  evalsuite::testing::WriteFile(left / "log.jsonl",
                                "{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":2,\"metric\":0.5}\n{\"type\":\"ev");
  StudyOutcome outcome = ResumeStudy(std::string("left"), Options(dir));
  EXPECT_EQ(outcome.interrupted_kept, 1);
  EXPECT_EQ(outcome.ran, 1);
  auto runs = RunsByEntry(dir / "store.db", "left")["a"];
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].log.status, analysis::EndedAs::kNoEnd);
  EXPECT_EQ(runs[0].log.points.size(), 1u);
  EXPECT_EQ(runs[1].log.status, analysis::EndedAs::kReached);
  // One rule for every executor: the finished run is in run-000, the cut try moved aside to run-000.attempt-1.
  EXPECT_EQ(std::filesystem::path(runs[0].run_dir), std::filesystem::path(left.string() + ".attempt-1"));
  EXPECT_EQ(std::filesystem::path(runs[1].run_dir), left);
  EXPECT_EQ(evalsuite::testing::ReadFile(std::filesystem::path(runs[0].run_dir) / "log.jsonl").find("\"type\":\"end\""),
            std::string::npos);
  EXPECT_NE(evalsuite::testing::ReadFile(left / "log.jsonl").find("\"type\":\"end\""), std::string::npos);
}

TEST(StudyRunnerTest, SameNameWithAnotherPlanIsRefusedAndTheSamePlanContinues) {
  TempDir dir;
  const std::string body = R"(
name = "same"
runs = 1
threshold = 0.85
entries = [{ name = "a", command = "sh {study_dir}/fake_entry.sh {log} {seed} ok" }]
)";
  StudyPlan plan = FakePlan(dir, body);
  EXPECT_EQ(RunStudy(plan, Options(dir)).ran, 1);
  StudyOutcome again = RunStudy(plan, Options(dir));
  EXPECT_TRUE(again.resumed);
  EXPECT_EQ(again.ran, 0);
  // A changed command makes runs differently: another study, refused with the field that differs.
  std::string changed = body;
  changed.replace(changed.find("ok\""), 3, "ok 4\"");
  try {
    RunStudy(FakePlan(dir, changed), Options(dir));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("entries[a].command"), std::string::npos) << e.what();
  }
  EXPECT_EQ(RunsByEntry(dir / "store.db", "same")["a"].size(), 1u);  // nothing recorded by the refused call
}

TEST(StudyRunnerTest, MoreRunsOrAnotherAnalysisSettingContinueTheStudyAndKeepEveryRun) {
  TempDir dir;
  const std::string body = R"(
name = "grow"
runs = 2
threshold = 0.85
entries = [{ name = "a", command = "sh {study_dir}/fake_entry.sh {log} {seed} ok" },
           { name = "b", command = "sh {study_dir}/fake_entry.sh {log} {seed} ok 4" }]
)";
  StudyPlan pilot = FakePlan(dir, body);
  ASSERT_EQ(RunStudy(pilot, Options(dir)).ran, 4);
  const auto before = RunsByEntry(dir / "store.db", "grow");
  // Extending the pilot to 3 runs, and asking a comparison: the 4 finished runs stay, only 2 more run.
  PlanOverrides more;
  more.runs = 3;
  const StudyPlan extended = FakePlan(dir, body + "compare = [[\"a\", \"b\"]]\n", more);
  const StudyOutcome outcome = RunStudy(extended, Options(dir));
  EXPECT_TRUE(outcome.resumed);
  EXPECT_EQ(outcome.finished_before, 4);
  EXPECT_EQ(outcome.ran, 2);
  EXPECT_NE(outcome.plan_change.find("runs 2 -> 3"), std::string::npos) << outcome.plan_change;
  auto after = RunsByEntry(dir / "store.db", "grow");
  ASSERT_EQ(after["a"].size(), 3u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(after["a"][i].id, before.at("a")[i].id);  // the same records, not runs made again
    EXPECT_EQ(after["a"][i].seeds.run, before.at("a")[i].seeds.run);
  }
  // The store's plan is the extended one: resume and the report read it.
  auto store = store::RunStore::Open(dir / "store.db", false);
  EXPECT_EQ(PlanFromJson(store->FindStudy("grow")->plan).runs, 3);
  EXPECT_EQ(PlanFromJson(store->FindStudy("grow")->plan).analysis.compare.size(), 1u);
  store.reset();
  // Fewer runs than are recorded would drop recorded runs from the plan: refused, nothing changed.
  PlanOverrides fewer;
  fewer.runs = 1;
  try {
    RunStudy(FakePlan(dir, body, fewer), Options(dir));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("leaves out"), std::string::npos) << e.what();
  }
}

TEST(StudyRunnerTest, ANewStoreRefusesRunFoldersThatAChangedCommandLeftUnderTheSameOut) {
  // Issue 50 item 1: a study run into old.db, then B's command changed and the same study file run into a brand-new
  // new.db under the same --out. Before, the new store adopted the old folders ("6 finished before the last stop").
  TempDir dir;
  const std::string body = R"(
name = "stale"
runs = 2
threshold = 0.85
entries = [{ name = "a", command = "sh {study_dir}/fake_entry.sh {log} {seed} ok" },
           { name = "b", command = "sh {study_dir}/fake_entry.sh {log} {seed} ok 4" }]
)";
  StudyRunOptions old_store = Options(dir);
  old_store.store_file = dir / "old.db";
  ASSERT_EQ(RunStudy(FakePlan(dir, body), old_store).ran, 4);
  std::string changed = body;
  changed.replace(changed.find("ok 4"), 4, "ok 5");
  StudyRunOptions new_store = Options(dir);
  new_store.store_file = dir / "new.db";
  try {
    RunStudy(FakePlan(dir, changed), new_store);
    FAIL() << "expected the old folders to be refused";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("2 run folders"), std::string::npos) << message;  // b's two, not a's
    EXPECT_NE(message.find("b/run-000"), std::string::npos) << message;
    EXPECT_NE(message.find("entry.command"), std::string::npos) << message;
    EXPECT_NE(message.find("old.db"), std::string::npos) << message;  // which study made them
    EXPECT_NE(message.find("--out"), std::string::npos) << message;   // what to do
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "new.db"));  // a refused new study leaves no store behind
  // A fresh folder runs every run anew.
  StudyPlan elsewhere = FakePlan(dir, changed);
  elsewhere.out_dir = (dir / "fresh").string();
  const StudyOutcome outcome = RunStudy(elsewhere, new_store);
  EXPECT_EQ(outcome.ran, 4);
  EXPECT_EQ(outcome.ingested_on_resume, 0);
}

TEST(StudyRunnerTest, ANewStoreOfTheSamePlanAdoptsItsFinishedFoldersAndSaysWhereTheyCameFrom) {
  TempDir dir;
  const std::string body = R"(
name = "again"
runs = 2
threshold = 0.85
entries = [{ name = "a", command = "sh {study_dir}/fake_entry.sh {log} {seed} ok" }]
)";
  StudyRunOptions first = Options(dir);
  first.store_file = dir / "first.db";
  ASSERT_EQ(RunStudy(FakePlan(dir, body), first).ran, 2);
  StudyRunOptions second = Options(dir);
  second.store_file = dir / "second.db";
  const StudyOutcome outcome = RunStudy(FakePlan(dir, body), second);
  EXPECT_EQ(outcome.ran, 0);
  EXPECT_EQ(outcome.ingested_on_resume, 2);
  EXPECT_EQ(outcome.adopted_from_other_studies, 2);
  EXPECT_NE(outcome.adopted_from.find("first.db"), std::string::npos) << outcome.adopted_from;
}

TEST(StudyRunnerTest, AFolderWithoutARecordOfWhatMadeItIsNeverAdopted) {
  TempDir dir;
  StudyPlan plan = FakePlan(dir, R"(
name = "foreign"
runs = 1
threshold = 0.85
entries = [{ name = "a", command = "sh {study_dir}/fake_entry.sh {log} {seed} ok" }]
)");
  const std::filesystem::path left = std::filesystem::path(plan.out_dir) / "a" / "run-000";
  std::filesystem::create_directories(left);
  evalsuite::testing::WriteFile(left / "log.jsonl",
                                "{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":2,\"metric\":0.9}\n"
                                "{\"type\":\"end\",\"status\":\"reached\",\"train_seconds\":2}\n");
  try {
    RunStudy(plan, Options(dir));
    FAIL() << "expected the folder to be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("evalsuite-run.json"), std::string::npos) << e.what();
  }
  // An empty folder (made, then killed before anything was written) holds nothing to adopt: the run starts there.
  std::filesystem::remove_all(left);
  std::filesystem::create_directories(left);
  EXPECT_EQ(RunStudy(plan, Options(dir)).ran, 1);
}

TEST(StudyRunnerTest, AMissingProgramIsAFailedRunNotAStudyError) {
  TempDir dir;
  StudyPlan plan = FakePlan(dir, R"(
name = "missing"
runs = 1
threshold = 0.85
entries = [{ name = "a", command = "/nonexistent/program {log}" }]
)");
  const StudyOutcome outcome = RunStudy(plan, Options(dir));
  EXPECT_EQ(outcome.did_not_run, 1);  // died before its first evaluation: not also counted as failed
  EXPECT_EQ(outcome.failed, 0);
  auto runs = RunsByEntry(dir / "store.db", "missing")["a"];
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].exit_status, 127);
  EXPECT_NE(runs[0].stderr_tail.find("nonexistent"), std::string::npos);
}

TEST(StudyRunnerTest, ReadsAnEntrysLogInItsDeclaredFormat) {
  TempDir dir;
  // An entry that writes an MLPerf result log (as a reference implementation would).
  evalsuite::testing::WriteFile(dir / "mlperf_entry.sh", R"(#!/bin/sh
line() { echo ":::MLLOG {\"namespace\": \"\", \"time_ms\": $1, \"event_type\": \"$2\", \"key\": \"$3\", \"value\": $4, \"metadata\": $5}"; }
{
  line 1000 INTERVAL_START run_start null '{}'
  line 61000 POINT_IN_TIME eval_accuracy 0.70 '{"epoch_num": 1}'
  line 121000 POINT_IN_TIME eval_accuracy 0.76 '{"epoch_num": 2}'
  line 121500 INTERVAL_END run_stop null '{"status": "success"}'
} > "$1"
)");
  StudyPlan plan = FakePlan(dir, R"(
name = "formats"
runs = 1
threshold = 0.75
entries = [{ name = "ref", command = "sh {study_dir}/mlperf_entry.sh {log}", log_format = "mlperf" }]
)");
  EXPECT_EQ(RunStudy(plan, Options(dir)).failed, 0);
  auto runs = RunsByEntry(dir / "store.db", "formats")["ref"];
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_EQ(runs[0].log.points.size(), 2u);
  EXPECT_DOUBLE_EQ(runs[0].log.points[1].metric, 0.76);
  EXPECT_DOUBLE_EQ(runs[0].log.points[1].train_seconds, 120);
  EXPECT_EQ(runs[0].log.status, analysis::EndedAs::kReached);
}

}  // namespace
}  // namespace evalsuite::study

namespace evalsuite::study {
namespace {

// wait4's rusage of the supervisor counts every process of the run that was waited for: CPU burnt by a grandchild
// (a shell loop under `sh -c` under the run's shell) is in the run's usage.
TEST(StudyRunnerTest, RecordsTheCpuTimeAndPeakRssOfTheRunsWholeProcessTree) {
  TempDir dir;
  StudyPlan plan = FakePlan(dir, R"(
name = "usage"
runs = 1
threshold = 0.85
entries = [ { name = "burn", command = "sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done' && sh {study_dir}/fake_entry.sh {log} {seed} ok" } ]
)");
  RunStudy(plan, Options(dir));
  auto runs = RunsByEntry(dir / "store.db", "usage");
  ASSERT_EQ(runs["burn"].size(), 1u);
  const nlohmann::json& usage = runs["burn"][0].execution["usage"];
  EXPECT_EQ(runs["burn"][0].execution["executor"], "local");
  EXPECT_GT(usage["user_seconds"].get<double>(), 0.1) << usage.dump();  // the loop: ~0.3 s of CPU in dash
  EXPECT_GT(usage["max_rss_kb"].get<long>(), 0);
  EXPECT_GE(usage["wall_seconds"].get<double>() * 1.05,
            usage["user_seconds"].get<double>() + usage["system_seconds"].get<double>());
}

}  // namespace
}  // namespace evalsuite::study

namespace evalsuite::study {
namespace {

// Device and CPU slots: with 4 fake devices and 2 per run, 2 runs at once by default; each run's child sees exactly
// its devices (CUDA, HIP and ROCR variables) and runs on its own CPU, and the store says which.
TEST(StudyRunnerTest, EachRunSeesExactlyItsDevicesAndCpus) {
  TempDir dir;
  StudyPlan plan = FakePlan(dir, R"(
name = "slots"
runs = 4
threshold = 0.85
devices = [0, 1, 2, 3]
devices_per_run = 2
cpus_per_run = 1
entries = [ { name = "seer", command = "sh -c 'echo \"$CUDA_VISIBLE_DEVICES $HIP_VISIBLE_DEVICES $ROCR_VISIBLE_DEVICES $(grep Cpus_allowed_list /proc/self/status | cut -f2)\" > {run_dir}/seen.txt; sleep 0.3' && sh {study_dir}/fake_entry.sh {log} {seed} ok" } ]
)");
  EXPECT_EQ(plan.jobs, 2);  // devices / devices_per_run
  RunStudy(plan, Options(dir));
  auto runs = RunsByEntry(dir / "store.db", "slots");
  ASSERT_EQ(runs["seer"].size(), 4u);
  std::set<std::string> device_sets;
  for (const store::RunRecord& run : runs["seer"]) {
    const nlohmann::json& facts = run.execution;
    ASSERT_TRUE(facts.contains("devices")) << facts.dump();
    std::vector<std::string> devices = facts["devices"].get<std::vector<std::string>>();
    ASSERT_EQ(devices.size(), 2u);
    const std::string visible = devices[0] + "," + devices[1];
    ASSERT_EQ(facts["cpus"].size(), 1u);
    const std::string cpu = std::to_string(facts["cpus"][0].get<int>());
    EXPECT_EQ(evalsuite::testing::ReadFile(std::filesystem::path(run.run_dir) / "seen.txt"),
              visible + " " + visible + " " + visible + " " + cpu + "\n");
    device_sets.insert(visible);
  }
  // Two slots, disjoint halves of the four devices, both used (the first two runs start together).
  EXPECT_EQ(device_sets, std::set<std::string>({"0,1", "2,3"}));
}

}  // namespace
}  // namespace evalsuite::study

namespace evalsuite::study {
namespace {

// The probe runs once per study: at its start, not on resume nor on a second `study run` of the same plan; a
// failing probe leaves the study going with the theoretical peak and the reason recorded.
TEST(StudyRunnerTest, MachineCeilingsAreMeasuredOncePerStudy) {
  evalsuite::testing::TempDir dir;
  const std::string body =
      "name = \"probed\"\nruns = 1\nthreshold = 0.85\n"
      "entries = [{ name = \"ok\", command = \"sh {study_dir}/fake_entry.sh {log} {seed} ok\" }]\n";
  testing::WriteFakeEntry(dir.path());
  PlanOverrides overrides;
  overrides.out_dir = (dir / "runs").string();
  overrides.machine_ceilings = "measure";
  const StudyPlan plan = ParseStudyPlan(body, (dir / "study.toml").string(), overrides, 2);
  StudyRunOptions options;
  options.store_file = dir / "store.db";
  options.scheduler.poll_seconds = 0.01;
  int probes = 0;
  options.measure_ceilings = [&probes](const StudyPlan& p) {
    ++probes;
    return nlohmann::json{{"peak_fp32_flops", 4e10}, {"bandwidth_bytes", 1e10}, {"threads", p.threads}};
  };
  StudyOutcome first = RunStudy(plan, options);
  ASSERT_TRUE(first.ceilings);
  EXPECT_EQ((*first.ceilings)["source"], "measured");
  EXPECT_FALSE(RunStudy(plan, options).ceilings);
  EXPECT_FALSE(ResumeStudy(std::string("probed"), options).ceilings);
  EXPECT_EQ(probes, 1);
  const nlohmann::json env = store::RunStore::Open(options.store_file, false)->FindStudy("probed")->environment;
  EXPECT_EQ(env["machine_ceilings"]["machine"]["peak_fp32_flops"].get<double>(), 4e10);
  EXPECT_EQ(env["machine_ceilings"]["machine"]["threads"], plan.threads);

  StudyPlan other = plan;
  other.name = "probe-fails";
  other.out_dir = (dir / "runs2").string();
  options.measure_ceilings = [](const StudyPlan&) -> nlohmann::json {
    throw ExternalError("evalsuite machine --quick", "exit status 1: no LibTorch here");
  };
  StudyOutcome failed = RunStudy(other, options);
  ASSERT_TRUE(failed.ceilings);
  EXPECT_EQ((*failed.ceilings)["source"], "theoretical");
  EXPECT_NE((*failed.ceilings)["measurement"].get<std::string>().find("no LibTorch here"), std::string::npos);
  EXPECT_EQ(failed.ran, 1);  // the study went on
}

}  // namespace
}  // namespace evalsuite::study
