// The SQLite run store: a run and its points, seeds and process facts survive a round trip; attempts are
// numbered; study names are unique; a file that is not a store is refused with its name.
#include "store/run_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>

#include "common/error.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

using evalsuite::testing::ReadFile;
using evalsuite::testing::TempDir;
using evalsuite::testing::WriteFile;

store::RunRecord SampleRun(const std::string& entry, int index, analysis::EndedAs status) {
  store::RunRecord run;
  run.entry = entry;
  run.run_index = index;
  run.seeds = analysis::RunSeedsFromJson({{"run", 12345678901234567890ULL}, {"init", 7}});
  run.threads = 2;
  run.log.status = status;
  run.log.header = {{"entry", entry}, {"threads", 2}};
  run.log.points.push_back({1, 10.5, 11.0, 0.80, 0.5});
  run.log.points.push_back({2, 21.0, 22.5, 0.91, std::nullopt});
  run.log.train_seconds = 21.0;
  run.log.wall_seconds = 23.0;
  run.log.warnings = {"log.jsonl:3: skipped"};
  run.run_dir = "/tmp/run";
  return run;
}

TEST(RunStoreTest, RoundTripsStudyEntriesRunsPointsAndSeeds) {
  TempDir dir;
  auto store = store::RunStore::Open(dir / "s.db");
  nlohmann::json plan = {{"name", "s"}, {"runs", 3}};
  int64_t id = store->CreateStudy("s", "study", plan, {{"host", "h"}});
  store::EntryRecord entry;
  entry.name = "baseline";
  entry.description = "the baseline";
  entry.threshold = 0.9;
  entry.extra_thresholds = {0.85, 0.92};
  entry.extra = {{"epochs", 10}};
  store->UpsertEntry(id, entry);
  entry.description = "changed";
  store->UpsertEntry(id, entry);  // an upsert, not a second row

  store::RunRecord failed = SampleRun("baseline", 1, analysis::EndedAs::kFailed);
  failed.exit_status = std::nullopt;
  failed.signal = 11;
  failed.stderr_tail = "Segmentation fault";
  failed.log.error = "killed by signal 11";
  store->InsertRun(id, SampleRun("baseline", 0, analysis::EndedAs::kReached));
  store->InsertRun(id, failed);
  store->InsertRun(id, SampleRun("baseline", 2, analysis::EndedAs::kNoEnd));
  store->InsertRun(id, SampleRun("baseline", 2, analysis::EndedAs::kNotReached));
  store.reset();

  auto reopened = store::RunStore::Open(dir / "s.db", /*create_if_missing=*/false);
  auto studies = reopened->ListStudies();
  ASSERT_EQ(studies.size(), 1u);
  EXPECT_EQ(studies[0].name, "s");
  EXPECT_EQ(studies[0].plan, plan);
  EXPECT_EQ(studies[0].environment["host"], "h");
  EXPECT_EQ(studies[0].runs_recorded, 3);  // the incomplete attempt is not a recorded run

  auto entries = reopened->LoadEntries(id);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].description, "changed");
  EXPECT_EQ(entries[0].extra_thresholds, (std::vector<double>{0.85, 0.92}));
  EXPECT_EQ(entries[0].extra["epochs"], 10);

  auto runs = reopened->LoadRuns(id);
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0].log.status, analysis::EndedAs::kReached);
  ASSERT_EQ(runs[0].log.points.size(), 2u);
  EXPECT_DOUBLE_EQ(runs[0].log.points[1].metric, 0.91);
  EXPECT_DOUBLE_EQ(*runs[0].log.points[0].train_loss, 0.5);
  EXPECT_FALSE(runs[0].log.points[1].train_loss.has_value());
  EXPECT_EQ(runs[0].seeds.run, 12345678901234567890ULL);
  EXPECT_EQ(runs[0].seeds.init, 7u);
  EXPECT_EQ(runs[0].log.warnings.size(), 1u);
  EXPECT_EQ(runs[1].signal, 11);
  EXPECT_FALSE(runs[1].exit_status.has_value());
  EXPECT_EQ(runs[1].stderr_tail, "Segmentation fault");
  EXPECT_EQ(runs[2].attempt, 0);
  EXPECT_EQ(runs[2].log.status, analysis::EndedAs::kNoEnd);
  EXPECT_FALSE(store::IsFinishedRun(runs[2]));
  EXPECT_EQ(runs[3].attempt, 1);
  EXPECT_TRUE(store::IsFinishedRun(runs[3]));
}

TEST(RunStoreTest, KeepsNanMetricsAsNan) {
  TempDir dir;
  auto store = store::RunStore::Open(dir / "s.db");
  int64_t id = store->CreateStudy("s", "study", {}, {});
  store::RunRecord run = SampleRun("e", 0, analysis::EndedAs::kNotReached);
  run.log.points[1].metric = std::nan("");
  store->InsertRun(id, run);
  EXPECT_TRUE(std::isnan(store->LoadRuns(id)[0].log.points[1].metric));
}

// Runs of 0 to 37 evaluations come back point for point, in order, with a NaN metric and missing losses where they
// were, each run's points its own.
TEST(RunStoreTest, EveryPointOfRunsOfManySizesComesBackInOrder) {
  TempDir dir;
  auto store = store::RunStore::Open(dir / "s.db");
  const int64_t id = store->CreateStudy("s", "study", {}, {});
  const std::vector<int> counts = {0, 1, 15, 16, 17, 33, 37};
  for (std::size_t r = 0; r < counts.size(); ++r) {
    store::RunRecord run = SampleRun("e", static_cast<int>(r), analysis::EndedAs::kNotReached);
    run.log.points.clear();
    for (int k = 0; k < counts[r]; ++k) {
      const double metric = k % 7 == 3 ? std::nan("") : 0.5 + 0.01 * k + 0.001 * static_cast<double>(r);
      const std::optional<double> loss = k % 5 == 2 ? std::nullopt : std::optional<double>(2.0 - 0.03 * k);
      run.log.points.push_back({k + 1.0, 10.0 * k + 0.25, 10.0 * k + 0.75, metric, loss});
    }
    store->InsertRun(id, run);
  }
  const std::vector<store::RunRecord> runs = store->LoadRuns(id);
  ASSERT_EQ(runs.size(), counts.size());
  for (std::size_t r = 0; r < counts.size(); ++r) {
    SCOPED_TRACE("run " + std::to_string(r) + " of " + std::to_string(counts[r]) + " points");
    const std::vector<runlog::EvalPoint>& points = runs[r].log.points;
    ASSERT_EQ(points.size(), static_cast<std::size_t>(counts[r]));
    for (int k = 0; k < counts[r]; ++k) {
      const runlog::EvalPoint& p = points[static_cast<std::size_t>(k)];
      EXPECT_EQ(p.epoch, k + 1.0);
      EXPECT_EQ(p.train_seconds, 10.0 * k + 0.25);
      EXPECT_EQ(p.wall_seconds, 10.0 * k + 0.75);
      if (k % 7 == 3) {
        EXPECT_TRUE(std::isnan(p.metric));
      } else {
        EXPECT_EQ(p.metric, 0.5 + 0.01 * k + 0.001 * static_cast<double>(r));
      }
      EXPECT_EQ(p.train_loss.has_value(), k % 5 != 2);
      if (p.train_loss) EXPECT_EQ(*p.train_loss, 2.0 - 0.03 * k);
    }
  }
}

TEST(RunStoreTest, FindsStudiesByNameOrId) {
  TempDir dir;
  auto store = store::RunStore::Open(dir / "s.db");
  int64_t a = store->CreateStudy("alpha", "study", {}, {});
  int64_t b = store->CreateStudy("beta", "import", {}, {});
  EXPECT_EQ(store->FindStudy("alpha")->id, a);
  EXPECT_EQ(store->FindStudy(std::to_string(b))->name, "beta");
  EXPECT_FALSE(store->FindStudy("gamma").has_value());
  store->RecordInvocation(a, "study resume", {{"jobs", 2}}, {});
  EXPECT_EQ(store->FindStudy("alpha")->plan["jobs"], 2);
}

TEST(RunStoreTest, RefusesDuplicateStudyNames) {
  TempDir dir;
  auto store = store::RunStore::Open(dir / "s.db");
  store->CreateStudy("alpha", "study", {}, {});
  try {
    store->CreateStudy("alpha", "study", {}, {});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("alpha"), std::string::npos);
  }
}

TEST(RunStoreTest, RefusesAFileThatIsNotAStore) {
  TempDir dir;
  WriteFile(dir / "notes.txt", std::string(200, 'x'));
  try {
    store::RunStore::Open(dir / "notes.txt");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    // Refused by what it is (common/file_kind.h), before SQLite touches it: an input error, exit 1 as before.
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_NE(e.where().find("notes.txt"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("this is not a SQLite file, so not a run store"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(ReadFile(dir / "notes.txt"), std::string(200, 'x'));
  EXPECT_THROW(store::RunStore::Open(dir / "missing.db", /*create_if_missing=*/false), Error);
}

TEST(RunStoreTest, RejectsRunsOfAnUnknownStudy) {
  TempDir dir;
  auto store = store::RunStore::Open(dir / "s.db");
  EXPECT_THROW(store->InsertRun(42, SampleRun("e", 0, analysis::EndedAs::kReached)), Error);
}

// Issue 37: how an attempt ended is a stored column (schema 2). A store of schema 1 said "did not run" only in the
// error's opening words; its first open upgrades it, a reading command's included, and every attempt keeps the status
// schema 1's readers gave it.
TEST(RunStoreTest, ASchemaOneStoreGainsEachAttemptsOutcome) {
  TempDir dir;
  const std::filesystem::path file = dir / "old.db";
  {
    auto store = store::RunStore::Open(file);
    const int64_t study = store->CreateStudy("s", "study", nlohmann::json::object(), nlohmann::json::object());
    const int64_t imported = store->CreateStudy("i", "import", nlohmann::json::object(), nlohmann::json::object());
    store->InsertRun(study, SampleRun("e", 0, analysis::EndedAs::kReached));
    store::RunRecord no_start = SampleRun("e", 1, analysis::EndedAs::kFailed);
    no_start.log.points.clear();
    no_start.log.error = "did not run: killed by signal 4 (SIGILL)";
    no_start.did_not_run = true;
    store->InsertRun(study, no_start);
    store::RunRecord full_disk = SampleRun("e", 2, analysis::EndedAs::kFailed);
    full_disk.log.error = "died of its environment: no space left on device";
    full_disk.did_not_run = true;
    store->InsertRun(study, full_disk);
    store::RunRecord crashed = SampleRun("e", 3, analysis::EndedAs::kFailed);
    crashed.log.error = "killed by signal 11 (SIGSEGV)";
    store->InsertRun(study, crashed);
    store->InsertRun(study, SampleRun("e", 4, analysis::EndedAs::kNoEnd));
    store->InsertRun(imported, SampleRun("x", 0, analysis::EndedAs::kNoEnd));
  }
  {  // Back to schema 1: no outcome column.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(
        sqlite3_exec(db, "ALTER TABLE runs DROP COLUMN outcome; PRAGMA user_version = 1", nullptr, nullptr, nullptr),
        SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);
  }
  auto store = store::RunStore::OpenForReading(file);
  std::vector<analysis::RunStatus> statuses;
  for (const store::RunRecord& run : store->LoadRuns(store->FindStudy("s")->id)) statuses.push_back(*run.status);
  EXPECT_EQ(statuses, (std::vector<analysis::RunStatus>{analysis::RunStatus::kReached, analysis::RunStatus::kDidNotRun,
                                                        analysis::RunStatus::kDidNotRun, analysis::RunStatus::kFailed,
                                                        analysis::RunStatus::kInterrupted}));
  EXPECT_EQ(*store->LoadRuns(store->FindStudy("i")->id).front().status, analysis::RunStatus::kUnended);
  EXPECT_EQ(store->FindStudy("s")->runs_recorded, 2);  // reached and crashed
  EXPECT_EQ(store->FindStudy("i")->runs_recorded, 1);
}

// A reading command (study list, study show, report) left store.db-wal and store.db-shm beside a store it had only
// read: a read-only SQLite connection creates them and may not remove them.
TEST(RunStoreTest, ReadingAStoreLeavesNoWalOrShmFileBehind) {
  TempDir dir;
  const std::filesystem::path file = dir / "s.db";
  {
    auto store = store::RunStore::Open(file);
    store->InsertRun(store->CreateStudy("s", "study", nlohmann::json::object(), nlohmann::json::object()),
                     SampleRun("e", 0, analysis::EndedAs::kReached));
  }
  ASSERT_FALSE(std::filesystem::exists(file.string() + "-wal"));
  {
    auto store = store::RunStore::OpenForReading(file);
    EXPECT_EQ(store->ListStudies().size(), 1u);
    EXPECT_EQ(store->LoadRuns(store->FindStudy("s")->id).size(), 1u);
    // Writing through it is refused.
    EXPECT_THROW(store->CreateStudy("t", "study", nlohmann::json::object(), nlohmann::json::object()), Error);
  }
  EXPECT_FALSE(std::filesystem::exists(file.string() + "-wal"));
  EXPECT_FALSE(std::filesystem::exists(file.string() + "-shm"));
}

// A stored outcome this evalsuite does not know (a hand-edited or damaged store) is an error naming the store and the
// run, not a run silently counted as reached (study list, which counts the runs, says the same).
TEST(RunStoreTest, AnUnknownStoredOutcomeNamesTheStoreAndTheRun) {
  TempDir dir;
  const std::filesystem::path file = dir / "s.db";
  {
    auto store = store::RunStore::Open(file);
    store->InsertRun(store->CreateStudy("s", "study", nlohmann::json::object(), nlohmann::json::object()),
                     SampleRun("e", 0, analysis::EndedAs::kReached));
  }
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "UPDATE runs SET outcome = 'finished-ish'", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  auto store = store::RunStore::OpenForReading(file);
  try {
    store->LoadRuns(1);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(file.string()), std::string::npos) << message;
    EXPECT_NE(message.find("run 1 has unknown outcome 'finished-ish'"), std::string::npos) << message;
  }
  EXPECT_THROW(store->ListStudies(), Error);
}

}  // namespace
}  // namespace evalsuite::study
