// Issue 30 item 7: an MLPerf benchmark that converges in samples (BERT logs samples in epoch_num) is labelled in
// samples, not epochs, and an imported run's unknown thread count reads "—", not 0.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "reports/model_tables.h"
#include "reports/report.h"
#include "tests/reports/report_fixture.h"

namespace evalsuite::reports {
namespace {

StabilityReportInput ImportedInput(const char* convergence_unit) {
  StabilityReportInput input;
  analysis::Entry e;
  e.name = "bert";
  e.source = "mlperf";
  e.metric = "eval_accuracy";
  e.threshold = 0.9;
  e.extra = {{"target", {{"convergence_unit", convergence_unit}}}};
  for (int i = 0; i < 3; ++i) {
    analysis::Run run = testing::ReachingRun(i, 100 + 5 * i);
    for (std::size_t k = 0; k < run.points.size(); ++k) run.epochs.push_back(150000.0 * static_cast<double>(k + 1));
    run.threads = 0;  // unknown: the log does not say
    e.runs.push_back(run);
  }
  input.entries.push_back(e);
  return input;
}

TEST(ProgressUnitTest, SamplesAreLabelledSamplesAndUnknownThreadsADash) {
  const ReportModel model_report = BuildStabilityReport(ImportedInput("samples"));
  const nlohmann::json model = ToJson(model_report);
  const nlohmann::json& entry = model["entries"][0];
  EXPECT_EQ(entry["progress_unit"], "samples");
  const ReportTable runs = RunsTable(model_report.entries[0]);
  EXPECT_EQ(runs.header[3], "Samples to target");
  EXPECT_EQ(runs.rows[0][6], "—");
  const ReportTable table = StabilityTable(model_report.table);
  EXPECT_NE(table.rows[0][11].find("samples"), std::string::npos) << table.rows[0][11];
  EXPECT_EQ(table.rows[0][11].find(" ep"), std::string::npos) << table.rows[0][11];
}

TEST(ProgressUnitTest, EpochsStayEpochs) {
  const ReportModel model_report = BuildStabilityReport(ImportedInput("epochs"));
  const nlohmann::json model = ToJson(model_report);
  EXPECT_EQ(RunsTable(model_report.entries[0]).header[3], "Epochs to target");
}

// Issue 35 item 4: the unit the importer named (extra.progress_unit) heads the column and labels the grid: lora's
// evaluation index was headed "Samples to target", bert's samples "Epochs to target".
TEST(ProgressUnitTest, TheImportersNamedUnitHeadsTheColumnAndTheGrid) {
  for (const auto& [unit, heading, symbol] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"evaluations", "Evaluations to target", " evals"},
           {"steps", "Steps to target", " steps"},
           {"samples", "Samples to target", " samples"}}) {
    StabilityReportInput input = ImportedInput("epochs");  // an older store's key, overridden by progress_unit
    input.entries[0].extra["progress_unit"] = unit;
    const ReportModel model_report = BuildStabilityReport(input);
    const nlohmann::json model = ToJson(model_report);
    EXPECT_EQ(model["entries"][0]["progress_unit"], unit);
    EXPECT_EQ(RunsTable(model_report.entries[0]).header[3], heading);
    const ReportTable table = StabilityTable(model_report.table);
    EXPECT_NE(table.rows[0][11].find(symbol), std::string::npos) << table.rows[0][11];
    EXPECT_EQ(table.rows[0][11].find(" ep"), std::string::npos) << table.rows[0][11];
  }
}

}  // namespace
}  // namespace evalsuite::reports
