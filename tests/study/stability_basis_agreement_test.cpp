// `study show` and the report judge an entry's stability on the same basis and give the same verdict
// (stats/entry_verdict.h decides for both): a fixture store whose plan says `[stability] basis = "epochs"`, with runs
// whose epochs to target are steady while their time per epoch is not, so that judged on TTA and judged on epochs to
// target the verdicts differ. Both outputs name the basis they judged on, also when the rule asks for epochs and a
// counted run logged none (then both judge TTA and say so).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "reports/report.h"
#include "store/run_store.h"
#include "study/study_summary.h"
#include "tests/support/epoch_run_fixtures.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

using evalsuite::testing::TempDir;
using nlohmann::json;
using ::testing::HasSubstr;

// Epochs to target 19..21 (CoV 4.1%, spread 2 epochs on a 1-epoch grid), time per epoch 10..22 s (CoV of TTA ~26%):
// on epochs the entry is STABLE, on time NOT STABLE.
std::vector<store::RunRecord> SteadyEpochsNoisyMachine() {
  const int epochs[] = {19, 20, 21, 20, 19, 21, 20, 20, 19, 21};
  const double per_epoch[] = {10, 16, 22, 12, 19, 14, 21, 11, 17, 20};
  std::vector<store::RunRecord> runs;
  for (int i = 0; i < 10; ++i) runs.push_back(evalsuite::testing::StoredEpochRun(i, epochs[i], per_epoch[i]));
  return runs;
}

struct Outputs {
  reports::ReportModel report;
  json model;  // report.json's object (reports::ToJson)
  std::string markdown, study_show;
};

Outputs Render(const std::vector<store::RunRecord>& runs, const std::string& basis) {
  TempDir dir;
  auto store = store::RunStore::Open(dir / "s.db");
  const json plan = {
      {"stability", {{"max_cov_upper", 0.10}, {"min_hit_rate", 0.9}, {"min_reached", 3}, {"basis", basis}}}};
  const int64_t id = store->CreateStudy("s", "study", plan, json::object());
  store::EntryRecord entry;
  entry.name = "e";
  entry.threshold = 0.9;
  store->UpsertEntry(id, entry);
  for (const store::RunRecord& run : runs) store->InsertRun(id, run);
  Outputs out;
  out.report = reports::BuildStabilityReport(BuildReportInput(*store, {*store->FindStudy("s")}));
  out.model = reports::ToJson(out.report);
  out.markdown = reports::RenderMarkdown(out.report);
  out.study_show = FormatStudySummary(*store, *store->FindStudy("s"));
  return out;
}

std::vector<std::string> CellsOf(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  while (start < line.size()) {
    std::size_t at = line.find("  ", start);
    std::string cell = line.substr(start, at == std::string::npos ? std::string::npos : at - start);
    while (!cell.empty() && cell.front() == ' ') cell.erase(cell.begin());
    if (!cell.empty()) cells.push_back(cell);
    if (at == std::string::npos) break;
    start = at + 2;
  }
  return cells;
}

std::string FirstLineStartingWith(const std::string& text, const std::string& start) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(start, 0) == 0) return line;
  }
  return "";
}

// What `study show` says of entry "e": its verdict and the basis it names, by their columns' headings.
struct ShownVerdict {
  std::string result, judged_on;
};

ShownVerdict ShownFor(const std::string& study_show) {
  const std::vector<std::string> header = CellsOf(FirstLineStartingWith(study_show, "entry "));
  const std::vector<std::string> row = CellsOf(FirstLineStartingWith(study_show, "e "));
  EXPECT_EQ(header.size(), row.size()) << study_show;
  ShownVerdict shown;
  for (std::size_t c = 0; c < header.size() && c < row.size(); ++c) {
    if (header[c] == "verdict") shown.result = row[c];
    if (header[c] == "judged on") shown.judged_on = row[c];
  }
  return shown;
}

// report.md's card: "**e** — Result: **STABLE**", then "- ... CoV of <basis> ...".
std::string MarkdownResult(const std::string& markdown) {
  const std::string start = "**e** — Result: **";
  const std::size_t at = markdown.find(start);
  if (at == std::string::npos) return "";
  const std::size_t from = at + start.size();
  return markdown.substr(from, markdown.find("**", from) - from);
}

TEST(StabilityBasisAgreementTest, TheFixtureGivesDifferentVerdictsOnTimeAndOnEpochs) {
  const Outputs on_time = Render(SteadyEpochsNoisyMachine(), "time");
  const Outputs on_epochs = Render(SteadyEpochsNoisyMachine(), "epochs");
  EXPECT_EQ(on_time.model["verdicts"][0]["result"], "NOT STABLE") << on_time.model["verdicts"][0].dump(2);
  EXPECT_EQ(on_epochs.model["verdicts"][0]["result"], "STABLE") << on_epochs.model["verdicts"][0].dump(2);
}

TEST(StabilityBasisAgreementTest, StudyShowAndTheReportJudgeOnEpochsWhenThePlanSaysSo) {
  const Outputs out = Render(SteadyEpochsNoisyMachine(), "epochs");
  const json& verdict = out.model["verdicts"][0];
  ASSERT_EQ(verdict["basis"], "epochs");
  const ShownVerdict shown = ShownFor(out.study_show);
  EXPECT_EQ(shown.result, verdict["result"].get<std::string>()) << out.study_show;
  EXPECT_EQ(MarkdownResult(out.markdown), verdict["result"].get<std::string>()) << out.markdown;
  // Both name the basis: the card's CoV line and study show's column say epochs to target.
  EXPECT_THAT(out.markdown, HasSubstr("CoV of epochs to target (the rule's basis)"));
  EXPECT_EQ(shown.judged_on, "epochs to target") << out.study_show;
  EXPECT_THAT(out.study_show, HasSubstr("basis: epochs to target ([stability] basis = \"epochs\")"));
}

TEST(StabilityBasisAgreementTest, StudyShowAndTheReportJudgeOnTimeByDefault) {
  const Outputs out = Render(SteadyEpochsNoisyMachine(), "time");
  const json& verdict = out.model["verdicts"][0];
  ASSERT_EQ(verdict["basis"], "time");
  const ShownVerdict shown = ShownFor(out.study_show);
  EXPECT_EQ(shown.result, verdict["result"].get<std::string>()) << out.study_show;
  EXPECT_EQ(MarkdownResult(out.markdown), verdict["result"].get<std::string>()) << out.markdown;
  EXPECT_THAT(out.markdown, HasSubstr("CoV of TTA"));
  EXPECT_EQ(shown.judged_on, "TTA") << out.study_show;
  EXPECT_THAT(out.study_show, HasSubstr("basis: time (TTA"));
}

// A counted run that failed before its first evaluation logged no epochs: epochs to target is undefined for the
// entry, and both outputs judge TTA and name it. The machine was busy, and the card's first line, which says so,
// does not claim the verdict was judged on epochs.
TEST(StabilityBasisAgreementTest, BothFallBackToTimeAndSaySoWhenARunLoggedNoEpochs) {
  std::vector<store::RunRecord> runs = SteadyEpochsNoisyMachine();
  for (store::RunRecord& run : runs) {
    run.execution = {{"executor", "local"},
                     {"contention",
                      {{"other_busy_cores", 0.9},
                       {"steal_fraction", 0.0},
                       {"load_average_1m", {{"mean", 3.0}}},
                       {"cpu_pressure_some", nullptr},
                       {"cores", 2}}}};
  }
  store::RunRecord failed;
  failed.entry = "e";
  failed.run_index = 10;
  failed.threads = 1;
  failed.log.status = analysis::EndedAs::kFailed;
  failed.log.error = "exited without recording any evaluation";
  failed.log.train_seconds = 3;
  runs.push_back(failed);
  const Outputs out = Render(runs, "epochs");
  const json& verdict = out.model["verdicts"][0];
  ASSERT_EQ(verdict["basis"], "time");
  const ShownVerdict shown = ShownFor(out.study_show);
  EXPECT_EQ(shown.result, verdict["result"].get<std::string>()) << out.study_show;
  EXPECT_EQ(MarkdownResult(out.markdown), verdict["result"].get<std::string>()) << out.markdown;
  EXPECT_EQ(shown.judged_on, "TTA (no epochs logged)") << out.study_show;
  EXPECT_THAT(out.markdown, HasSubstr("not every run logged epochs: judged on TTA"));
  ASSERT_TRUE(verdict["first_line"].is_string()) << verdict.dump(2);
  EXPECT_THAT(verdict["first_line"].get<std::string>(), HasSubstr("the machine was busy during 10 of 10 runs"));
  EXPECT_THAT(verdict["first_line"].get<std::string>(), ::testing::Not(HasSubstr("judged on epochs")));
}

}  // namespace
}  // namespace evalsuite::study
