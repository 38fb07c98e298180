// Issue 27's acceptance test: one store holding a run of every outcome, read by every reader. `study show`, the
// report (report.json's model and report.md) and the holdout's models from the store (`holdout eval
// --models-from-store --which at_target` selects through store::SelectRunModels) must give the same counts, median
// TTA, CoV and selected runs, because they all ask analysis/run_counting.h.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "reports/report.h"
#include "store/run_models.h"
#include "store/run_store.h"
#include "study/execution/run_recorder.h"
#include "study/study_runner.h"
#include "study/study_summary.h"
#include "tests/study/fake_entries.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

namespace fs = std::filesystem;
using evalsuite::testing::TempDir;
using evalsuite::testing::WriteFile;
using nlohmann::json;

constexpr double kThreshold = 0.9;

store::RunRecord Attempt(const std::string& entry, int index, analysis::EndedAs status,
                         const std::vector<std::pair<double, double>>& points, double train_seconds,
                         const std::string& error = "") {
  store::RunRecord run;
  run.entry = entry;
  run.run_index = index;
  run.threads = 1;
  run.seeds.run = 100 + index;
  run.log.status = status;
  int epoch = 0;
  for (const auto& [time, metric] : points)
    run.log.points.push_back({double(++epoch), time, time, metric, std::nullopt});
  run.log.train_seconds = train_seconds;
  run.log.wall_seconds = train_seconds;
  run.log.error = error;
  // As the executors mark a process that died before training or of its environment (study/failure_cause.h).
  run.did_not_run = error.rfind("did not run: ", 0) == 0 || error.rfind("died of its environment: ", 0) == 0;
  return run;
}

// A run folder as a built-in run leaves it: model/at_target.pt once it reached (written at the crossing, so also
// by runs that were later cut or crashed).
void GiveModel(const fs::path& root, store::RunRecord& run, const std::string& which = "at_target") {
  run.run_dir =
      (root / (run.entry + "-" + std::to_string(run.run_index) + "-a" + std::to_string(run.attempt))).string();
  WriteFile(fs::path(run.run_dir) / "model" / (which + ".pt"), "model");
}

struct Fixture {
  TempDir dir;
  std::unique_ptr<store::RunStore> store;
  Fixture() {
    store = store::RunStore::Open(dir / "store.db");
    const fs::path runs = dir / "runs";
    // A study of one built-in entry.
    const int64_t study = store->CreateStudy("s", "study", {{"runs", 8}}, {{"host", "fixture"}});
    store::EntryRecord e;
    e.name = "e";
    e.threshold = kThreshold;
    store->UpsertEntry(study, e);
    using analysis::EndedAs;
    store::RunRecord reached = Attempt("e", 0, EndedAs::kReached, {{10, 0.5}, {20, 0.92}, {30, 0.93}}, 30);
    GiveModel(runs, reached);
    store::RunRecord never = Attempt("e", 1, EndedAs::kNotReached, {{10, 0.5}, {20, 0.8}, {30, 0.85}}, 30);
    GiveModel(runs, never, "final");
    store::RunRecord failed_early = Attempt("e", 2, EndedAs::kFailed, {}, 2, "exited without recording any evaluation");
    GiveModel(runs, failed_early, "final");
    store::RunRecord crashed =
        Attempt("e", 3, EndedAs::kFailed, {{10, 0.6}, {15, 0.91}}, 0, "killed by signal 11 (SIGSEGV)");
    crashed.signal = 11;
    GiveModel(runs, crashed);
    store::RunRecord interrupted = Attempt("e", 4, EndedAs::kNoEnd, {{10, 0.95}}, 0);
    GiveModel(runs, interrupted);
    store::RunRecord did_not_run = Attempt("e", 5, EndedAs::kFailed, {}, 0, "did not run: killed by signal 4 (SIGILL)");
    did_not_run.signal = 4;
    // A Slurm task requeued once: its cut try is kept aside as an incomplete attempt, the second try reached.
    store::RunRecord cut_try = Attempt("e", 6, EndedAs::kNoEnd, {{5, 0.5}, {8, 0.95}}, 0);
    cut_try.execution = {{"executor", "slurm"}, {"slurm", {{"job_id", "41_6"}, {"state", "REQUEUED"}}}};
    GiveModel(runs, cut_try);
    store::RunRecord requeued = Attempt("e", 6, EndedAs::kReached, {{9, 0.7}, {18, 0.91}}, 20);
    requeued.attempt = 1;
    requeued.execution = {{"executor", "slurm"}, {"slurm", {{"job_id", "41_6"}, {"state", "COMPLETED"}}}};
    GiveModel(runs, requeued);
    // Trained, reached, then died of its machine (a full disk): left out of every figure and run again by resume.
    store::RunRecord environment =
        Attempt("e", 7, EndedAs::kFailed, {{10, 0.95}}, 0, "died of its environment: no space left on device");
    GiveModel(runs, environment);
    for (const store::RunRecord* run :
         {&reached, &never, &failed_early, &crashed, &interrupted, &did_not_run, &cut_try, &requeued, &environment}) {
      store->InsertRun(study, *run);
    }

    // An import: one run with its end record, one without (nothing will resume it: MLPerf counts it as failed).
    const int64_t imported = store->CreateStudy("imp", "import", json::object(), json::object());
    store::EntryRecord i;
    i.name = "sys/bench";
    i.source = "jsonl";
    i.threshold = kThreshold;
    store->UpsertEntry(imported, i);
    store->InsertRun(imported, Attempt("sys/bench", 0, EndedAs::kReached, {{6, 0.5}, {10, 0.95}}, 12));
    store->InsertRun(imported, Attempt("sys/bench", 1, EndedAs::kNoEnd, {{10, 0.5}, {20, 0.8}}, 0));
  }
};

// What one reader says about one entry.
struct Figures {
  int runs = -1, reached = -1, interrupted = -1, did_not_run = -1;
  std::optional<double> median;  // nullopt: "not reached"
  std::optional<double> cov;     // percent
};

std::optional<double> LeadingNumber(const std::string& text) {
  const char* begin = text.c_str();
  while (*begin == ' ') ++begin;
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  if (end == begin) return std::nullopt;
  return value;
}

std::vector<std::string> SplitOn(const std::string& line, const std::string& separator) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = line.find(separator, start);
    std::string cell = line.substr(start, at == std::string::npos ? std::string::npos : at - start);
    while (!cell.empty() && cell.front() == ' ') cell.erase(cell.begin());
    while (!cell.empty() && cell.back() == ' ') cell.pop_back();
    if (!cell.empty()) cells.push_back(cell);
    if (at == std::string::npos) return cells;
    start = at + separator.size();
  }
}

std::string LineStartingWith(const std::string& text, const std::string& start) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(start, 0) == 0) return line;
  }
  ADD_FAILURE() << "no line starts with \"" << start << "\" in:\n" << text;
  return "";
}

// study show: entry, threshold, runs, reached, failed, interrupted, did not run, median TTA, CoV, hit rate, verdict.
Figures FromStudyShow(store::RunStore& store, const std::string& study, const std::string& entry) {
  const std::string text = FormatStudySummary(store, *store.FindStudy(study));
  const std::vector<std::string> cells = SplitOn(LineStartingWith(text, entry + " "), "  ");
  Figures f;
  if (cells.size() < 10) return f;
  f.runs = std::stoi(cells[2]);
  f.reached = std::stoi(cells[3]);
  f.interrupted = std::stoi(cells[5]);
  f.did_not_run = std::stoi(cells[6]);
  f.median = LeadingNumber(cells[7]);
  f.cov = LeadingNumber(cells[8]);
  return f;
}

reports::ReportModel Model(store::RunStore& store, const std::string& study) {
  return reports::BuildStabilityReport(BuildReportInput(store, {*store.FindStudy(study)}));
}

Figures FromReportJson(const json& model, const std::string& entry) {
  Figures f;
  for (const json& row : model["table"]) {
    if (row["entry"] != entry) continue;
    f.runs = row["runs"];
    f.reached = row["reached"];
    if (row["median_tta"].is_number()) f.median = row["median_tta"].get<double>();
    if (row["cov"].is_number()) f.cov = 100 * row["cov"].get<double>();
  }
  for (const json& e : model["entries"]) {
    if (e["name"] != entry) continue;
    f.interrupted = f.did_not_run = 0;
    for (const json& run : e["runs"]) {
      f.interrupted += run["status"] == "incomplete" && run["counted"] == false;
      f.did_not_run += run["status"] == "did_not_run";
    }
  }
  return f;
}

// report.md's stability table: Entry, Target, Runs, Reached, CoV of TTA, CoV of epochs, Runs reaching, Median TTA.
Figures FromReportMarkdown(const reports::ReportModel& model, const std::string& entry) {
  const std::vector<std::string> cells =
      SplitOn(LineStartingWith(reports::RenderMarkdown(model), "| " + entry + " |"), "|");
  Figures f;
  if (cells.size() < 8) return f;
  f.runs = std::stoi(cells[2]);
  f.reached = std::stoi(cells[3]);
  f.cov = LeadingNumber(cells[4]);
  f.median = LeadingNumber(cells[7]);
  return f;
}

void ExpectSameFigures(const Figures& a, const Figures& b, const std::string& what) {
  EXPECT_EQ(a.runs, b.runs) << what;
  EXPECT_EQ(a.reached, b.reached) << what;
  ASSERT_EQ(a.median.has_value(), b.median.has_value()) << what;
  if (a.median) EXPECT_NEAR(*a.median, *b.median, 0.05) << what;  // printed with one or two decimals
  ASSERT_EQ(a.cov.has_value(), b.cov.has_value()) << what;
  if (a.cov) EXPECT_NEAR(*a.cov, *b.cov, 0.05) << what;
}

TEST(RunOutcomesAgreementTest, StudyShowAndTheReportCountTheSameRunsOfEveryOutcome) {
  Fixture fixture;
  store::RunStore& store = *fixture.store;
  const reports::ReportModel report = Model(store, "s");
  const json model = reports::ToJson(report);
  const Figures show = FromStudyShow(store, "s", "e");
  const Figures json_figures = FromReportJson(model, "e");
  const Figures md = FromReportMarkdown(report, "e");
  // Counted: reached, never reached, failed before its first evaluation, crashed after reaching, the requeued
  // Slurm run once. Left out: interrupted (and the requeued run's cut try), did not run, died of its environment.
  EXPECT_EQ(json_figures.runs, 5);
  EXPECT_EQ(json_figures.reached, 3);
  EXPECT_EQ(json_figures.interrupted, 2);
  EXPECT_EQ(json_figures.did_not_run, 2);
  // Kaplan-Meier over 15, 18, 20 (reached) and 2, 30 (censored): S = 0.5 from 18 to 20, so the median is their
  // midpoint (R's survfit and statsmodels' convention).
  ASSERT_TRUE(json_figures.median);
  EXPECT_DOUBLE_EQ(*json_figures.median, 19);
  ASSERT_TRUE(json_figures.cov);  // sd(15, 18, 20) / mean = 2.5166 / 17.667
  EXPECT_NEAR(*json_figures.cov, 14.245, 0.01);
  ExpectSameFigures(show, json_figures, "study show vs report.json");
  EXPECT_EQ(show.interrupted, json_figures.interrupted);
  EXPECT_EQ(show.did_not_run, json_figures.did_not_run);
  ExpectSameFigures(md, json_figures, "report.md vs report.json");
}

TEST(RunOutcomesAgreementTest, AnImportedRunWithoutItsEndCountsTheSameEverywhere) {
  Fixture fixture;
  store::RunStore& store = *fixture.store;
  const reports::ReportModel report = Model(store, "imp");
  const json model = reports::ToJson(report);
  const Figures json_figures = FromReportJson(model, "sys/bench");
  EXPECT_EQ(json_figures.runs, 2);
  EXPECT_EQ(json_figures.reached, 1);
  EXPECT_EQ(json_figures.interrupted, 0);
  ExpectSameFigures(FromStudyShow(store, "imp", "sys/bench"), json_figures, "study show vs report.json");
  ExpectSameFigures(FromReportMarkdown(report, "sys/bench"), json_figures, "report.md vs report.json");
}

TEST(RunOutcomesAgreementTest, TheHoldoutEvaluatesTheModelsOfTheRunsTheReportCountsAsReached) {
  Fixture fixture;
  store::RunStore& store = *fixture.store;
  std::set<std::string> counted_and_reached;
  const reports::ReportModel report = Model(store, "s");
  const json model = reports::ToJson(report);
  for (const json& e : model["entries"]) {
    for (const json& run : e["runs"]) {
      if (run["counted"] == true && run["tta"].is_number()) {
        counted_and_reached.insert(e["name"].get<std::string>() + "-run" + run["index"].dump());
      }
    }
  }
  EXPECT_EQ(counted_and_reached, (std::set<std::string>{"e-run0", "e-run3", "e-run6"}));
  const store::RunModelSelection selection = store::SelectRunModels(store, *store.FindStudy("s"), "at_target");
  std::set<std::string> selected;
  for (const store::RunModelFile& model : selection.models) {
    selected.insert(model.entry + "-run" + std::to_string(model.run_index));
    EXPECT_TRUE(fs::exists(model.file)) << model.file;
  }
  EXPECT_EQ(selected, counted_and_reached);
  // The requeued run's model is its finished try's, not the cut one's.
  for (const store::RunModelFile& model : selection.models) {
    if (model.run_index == 6) EXPECT_NE(model.file.string().find("e-6-a1"), std::string::npos) << model.file;
  }
  EXPECT_EQ(selection.counted_without_model, 2);  // never reached, failed before its first evaluation
}

// Issue 37's acceptance test: a study with a schedule, so that `study list` and `study resume` have a plan to count
// against. Ten planned runs of one entry: the nine attempts of the fixture above, and two runs redone after they
// did not finish (one that did not run, one interrupted). Counted: 0, 1, 2, 3, 6 (its finished try), 8 and 9 (their
// redone attempts): 7 of 10; resume runs 4 (interrupted), 5 (did not run) and 7 (died of its environment) again.
TEST(RunOutcomesAgreementTest, StudyListShowResumeTheReportAndTheHoldoutCountTheSameRuns) {
  TempDir dir;
  const StudyPlan plan = testing::FakeStudyPlan(
      dir,
      "name = \"planned\"\nruns = 10\nseed = 1\nthreshold = 0.9\n"
      "entries = [{ name = \"e\", command = \"sh {study_dir}/fake_entry.sh {log} {seed} ok\" }]\n");
  std::unique_ptr<store::RunStore> opened = store::RunStore::Open(dir / "store.db");
  store::RunStore& store = *opened;
  const int64_t study = store.CreateStudy("planned", "study", PlanToJson(plan), {{"host", "fixture"}});
  store::EntryRecord e;
  e.name = "e";
  e.threshold = kThreshold;
  store.UpsertEntry(study, e);
  using analysis::EndedAs;
  const fs::path runs = dir / "runs";
  std::vector<store::RunRecord> attempts = {
      Attempt("e", 0, EndedAs::kReached, {{10, 0.5}, {20, 0.92}, {30, 0.93}}, 30),
      Attempt("e", 1, EndedAs::kNotReached, {{10, 0.5}, {20, 0.8}, {30, 0.85}}, 30),
      Attempt("e", 2, EndedAs::kFailed, {}, 2, "exited without recording any evaluation"),
      Attempt("e", 3, EndedAs::kFailed, {{10, 0.6}, {15, 0.91}}, 0, "killed by signal 11 (SIGSEGV)"),
      Attempt("e", 4, EndedAs::kNoEnd, {{10, 0.95}}, 0),
      Attempt("e", 5, EndedAs::kFailed, {}, 0, "did not run: killed by signal 4 (SIGILL)"),
      Attempt("e", 6, EndedAs::kNoEnd, {{5, 0.5}, {8, 0.95}}, 0),
      Attempt("e", 6, EndedAs::kReached, {{9, 0.7}, {18, 0.91}}, 20),
      Attempt("e", 7, EndedAs::kFailed, {{10, 0.95}}, 0, "died of its environment: no space left on device"),
      Attempt("e", 8, EndedAs::kFailed, {}, 0, "did not run: command not found"),
      Attempt("e", 8, EndedAs::kReached, {{7, 0.6}, {14, 0.93}}, 16),
      Attempt("e", 9, EndedAs::kNoEnd, {{10, 0.5}}, 0),
      Attempt("e", 9, EndedAs::kNotReached, {{10, 0.5}, {20, 0.7}}, 25),
  };
  attempts[7].attempt = attempts[10].attempt = attempts[12].attempt = 1;
  for (store::RunRecord& run : attempts) {
    GiveModel(runs, run);
    store.InsertRun(study, run);
  }
  const store::StudyInfo info = *store.FindStudy("planned");

  // study list: the counted runs against the plan, and whether resume has work.
  const std::string list = FormatStudyList(store);
  const std::vector<std::string> list_cells =
      SplitOn(LineStartingWith(list, "  " + std::to_string(info.id) + "  "), "  ");
  ASSERT_GE(list_cells.size(), 6u) << list;
  EXPECT_EQ(list_cells[4], "7/10") << list;
  EXPECT_EQ(list_cells[5].rfind("unfinished", 0), 0u) << list;
  EXPECT_EQ(info.runs_recorded, 7);

  // study resume: the planned runs it counts as done and the ones it runs again.
  StudyOutcome outcome;
  RunRecorder recorder(store, info.id, plan, outcome, nullptr, nullptr);
  std::set<int> to_do;
  for (const PlannedRun& run : plan.schedule) {
    if (!recorder.IsDone(run)) to_do.insert(run.index);
  }
  EXPECT_EQ(to_do, (std::set<int>{4, 5, 7}));
  EXPECT_EQ(recorder.DonePlannedRuns(), 7);
  EXPECT_EQ(CountFinishedPlannedRuns(plan, store.LoadRuns(info.id)), 7);

  // study show and the report.
  const reports::ReportModel report = Model(store, "planned");
  const json model = reports::ToJson(report);
  const Figures json_figures = FromReportJson(model, "e");
  EXPECT_EQ(json_figures.runs, 7);
  EXPECT_EQ(json_figures.reached, 4);
  EXPECT_EQ(json_figures.interrupted, 3);
  EXPECT_EQ(json_figures.did_not_run, 3);
  const Figures show = FromStudyShow(store, "planned", "e");
  ExpectSameFigures(show, json_figures, "study show vs report.json");
  EXPECT_EQ(show.interrupted, json_figures.interrupted);
  EXPECT_EQ(show.did_not_run, json_figures.did_not_run);
  ExpectSameFigures(FromReportMarkdown(report, "e"), json_figures, "report.md vs report.json");

  // The holdout: the latest counted attempt of each counted run that left a model.
  const store::RunModelSelection selection = store::SelectRunModels(store, info, "at_target");
  std::set<int> selected;
  for (const store::RunModelFile& m : selection.models) {
    selected.insert(m.run_index);
    if (m.run_index == 6 || m.run_index == 8 || m.run_index == 9) {
      EXPECT_NE(m.file.string().find("-a1"), std::string::npos) << m.file;
    }
  }
  EXPECT_EQ(selected, (std::set<int>{0, 1, 2, 3, 6, 8, 9}));
  EXPECT_EQ(static_cast<int>(selected.size()) + selection.counted_without_model, json_figures.runs);
}

}  // namespace
}  // namespace evalsuite::study
