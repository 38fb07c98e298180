// Issue 30 item 1: the rules every run-log format shares (run_log_checks.h), fed the bad inputs through each
// format's own reader: a negative or non-finite time, a time that goes backwards, a metric off its scale, epochs out
// of order, and an end record that contradicts the evaluations. Each is skipped with a warning naming file:line.
#include "runlog/run_log_checks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/run_counting.h"
#include "runlog/dawnbench_log.h"
#include "runlog/jsonl_run_log.h"
#include "runlog/mlperf_log.h"
#include "runlog/regex_log.h"
#include "stats/curve.h"
#include "tests/runlog/warning_match.h"

namespace evalsuite::runlog {
namespace {

// The run's curve as analysis builds it (analysis/run_counting.h).
stats::RunCurve ToRunCurve(const RunLog& log) {
  analysis::Run run;
  for (const EvalPoint& p : log.points) run.points.push_back({p.train_seconds, p.metric});
  run.time_spent = log.train_seconds;
  return analysis::TimeCurveOf(run);
}

std::string Warnings(const RunLog& log) {
  std::string all;
  for (const std::string& w : log.warnings) all += w + "\n";
  return all;
}

// The issue's log: a negative time (with a metric of 1.7) between valid evaluations, and an end record saying
// not_reached. The run's TTA at 0.9 must not be -5 s: the evaluation is skipped and the run does not reach.
TEST(RunLogChecksTest, JsonlNegativeTimeIsSkippedWithFileAndLine) {
  const std::string text =
      "{\"type\":\"header\",\"entry\":\"e\",\"metric\":\"val_top1\",\"threshold\":0.9}\n"
      "{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":10,\"metric\":0.5}\n"
      "{\"type\":\"eval\",\"epoch\":2,\"train_seconds\":20,\"metric\":0.6}\n"
      "{\"type\":\"eval\",\"epoch\":3,\"train_seconds\":30,\"metric\":0.7}\n"
      "{\"type\":\"eval\",\"epoch\":4,\"train_seconds\":-5,\"metric\":1.7}\n"
      "{\"type\":\"eval\",\"epoch\":5,\"train_seconds\":50,\"metric\":0.8}\n"
      "{\"type\":\"end\",\"status\":\"not_reached\",\"train_seconds\":50}\n";
  const RunLog log = ParseJsonlRunLog(text, "run.jsonl");
  ASSERT_EQ(log.points.size(), 4u) << Warnings(log);
  EXPECT_TRUE(HasWarning(log, "run.jsonl:5: training time -5 s is not a finite number >= 0; evaluation skipped"))
      << Warnings(log);
  EXPECT_FALSE(stats::TimeToTarget(ToRunCurve(log).points, 0.9).has_value());
  for (const EvalPoint& p : log.points) EXPECT_GE(p.train_seconds, 0);
}

TEST(RunLogChecksTest, JsonlBackwardsTimeMetricOffScaleAndEpochOutOfOrder) {
  const std::string text =
      "{\"type\":\"header\",\"entry\":\"e\",\"threshold\":0.9}\n"
      "{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":10,\"metric\":0.5}\n"
      "{\"type\":\"eval\",\"epoch\":2,\"train_seconds\":8,\"metric\":0.6}\n"
      "{\"type\":\"eval\",\"epoch\":2,\"train_seconds\":20,\"metric\":91}\n"
      "{\"type\":\"eval\",\"epoch\":0.5,\"train_seconds\":25,\"metric\":0.7}\n"
      "{\"type\":\"eval\",\"epoch\":3,\"train_seconds\":30,\"metric\":0.95}\n"
      "{\"type\":\"end\",\"status\":\"reached\"}\n";
  const RunLog log = ParseJsonlRunLog(text, "r.jsonl");
  ASSERT_EQ(log.points.size(), 2u) << Warnings(log);
  EXPECT_TRUE(HasWarning(log, "r.jsonl:3: training time 8 s goes backwards")) << Warnings(log);
  EXPECT_TRUE(HasWarning(log, "r.jsonl:4: metric 91 is not a fraction in [0, 1]")) << Warnings(log);
  EXPECT_TRUE(HasWarning(log, "r.jsonl:5: epoch 0.50 comes after epoch 1 (out of order)")) << Warnings(log);
}

TEST(RunLogChecksTest, JsonlHeaderDeclaresTheMetricsScale) {
  const std::string text =
      "{\"type\":\"header\",\"entry\":\"e\",\"metric\":\"top1_percent\",\"metric_range\":[0,100]}\n"
      "{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":10,\"metric\":55}\n"
      "{\"type\":\"eval\",\"epoch\":2,\"train_seconds\":20,\"metric\":101}\n";
  const RunLog log = ParseJsonlRunLog(text, "p.jsonl");
  ASSERT_EQ(log.points.size(), 1u) << Warnings(log);
  EXPECT_TRUE(HasWarning(log, "p.jsonl:3: metric 101 is not within the header's metric_range [0,100]"))
      << Warnings(log);
}

TEST(RunLogChecksTest, EndRecordThatContradictsTheEvaluationsIsSaid) {
  const std::string text =
      "{\"type\":\"header\",\"entry\":\"e\",\"threshold\":0.9}\n"
      "{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":10,\"metric\":0.95}\n"
      "{\"type\":\"end\",\"status\":\"not_reached\"}\n";
  const RunLog log = ParseJsonlRunLog(text, "c.jsonl");
  EXPECT_TRUE(HasWarning(log, "c.jsonl: the end record says not_reached, but an evaluation is at or above"))
      << Warnings(log);
}

TEST(RunLogChecksTest, DawnbenchRowsOffScaleOrGoingBackwardsAreSkipped) {
  DawnbenchEntry entry = ParseDawnbenchTsv(
      "epoch\thours\ttop1Accuracy\n1\t0.1\t50\n2\t-0.2\t96\n3\t0.05\t60\n4\t0.4\t140\n5\tnan\t95\n6\t0.5\t95\n",
      "d.tsv");
  const RunLog log = ToRunLog(entry, "top1Accuracy", 94, 0.01);
  EXPECT_TRUE(HasWarning(log, "d.tsv:3: training time -720 s is not a finite number >= 0")) << Warnings(log);
  EXPECT_TRUE(HasWarning(log, "d.tsv:4: training time 180 s goes backwards")) << Warnings(log);
  EXPECT_TRUE(HasWarning(log, "d.tsv:5: metric 1.4 is not a fraction in [0, 1]")) << Warnings(log);
  EXPECT_TRUE(HasWarning(log, "d.tsv:6: training time nan s")) << Warnings(log);
  ASSERT_EQ(log.points.size(), 2u);
  EXPECT_EQ(log.status, analysis::EndedAs::kReached);
  EXPECT_DOUBLE_EQ(*stats::TimeToTarget(ToRunCurve(log).points, 0.94), 0.5 * 3600);
}

TEST(RunLogChecksTest, RegexEpochOutOfOrderIsSkipped) {
  RegexLogOptions options;
  options.patterns = {R"(epoch=(?<epoch>\S+) acc=(?<accuracy>\S+) t=(?<time>\S+))"};
  const RunLog log =
      RegexLogReader(options).Parse("epoch=3 acc=0.5 t=1\nepoch=2 acc=0.6 t=2\nepoch=4 acc=0.7 t=3\n", "out.txt");
  ASSERT_EQ(log.points.size(), 2u) << Warnings(log);
  EXPECT_TRUE(HasWarning(log, "out.txt:2: epoch 2 comes after epoch 3 (out of order)")) << Warnings(log);
}

TEST(RunLogChecksTest, MlperfEvaluationBeforeRunStartIsLeftOutOfTheCurveOnly) {
  const std::string text =
      ":::MLLOG {\"key\": \"submission_benchmark\", \"value\": \"bert\", \"time_ms\": 1000}\n"
      ":::MLLOG {\"key\": \"eval_accuracy\", \"value\": 0.5, \"time_ms\": 1500, \"metadata\": {\"epoch_num\": 1}}\n"
      ":::MLLOG {\"key\": \"run_start\", \"value\": null, \"time_ms\": 2000}\n"
      ":::MLLOG {\"key\": \"eval_accuracy\", \"value\": 0.73, \"time_ms\": 62000, \"metadata\": {\"epoch_num\": 2}}\n"
      ":::MLLOG {\"key\": \"run_stop\", \"value\": null, \"time_ms\": 62000, \"metadata\": {\"status\": "
      "\"success\"}}\n";
  const MlperfRun run = ParseMlperfLog(text, "result_0.txt");
  const RunLog log = ToRunLog(run, [](const MlperfEval& e) { return e.value.get<double>(); });
  ASSERT_EQ(log.points.size(), 1u) << Warnings(log);
  EXPECT_TRUE(HasWarning(log, "result_0.txt:2: training time -0.5 s is not a finite number >= 0")) << Warnings(log);
  EXPECT_DOUBLE_EQ(*run.MinutesToTrain(), 1.0);  // the official score reads run_start and run_stop only
}

// Stable diffusion's official logs evaluate checkpoints out of time order: MLPerf's curve keeps them as logged.
TEST(RunLogChecksTest, MlperfEvaluationsOutOfTimeOrderAreKept) {
  const std::string text =
      ":::MLLOG {\"key\": \"run_start\", \"value\": null, \"time_ms\": 1000}\n"
      ":::MLLOG {\"key\": \"eval_accuracy\", \"value\": 0.5, \"time_ms\": 9000, \"metadata\": {\"epoch_num\": 1}}\n"
      ":::MLLOG {\"key\": \"eval_accuracy\", \"value\": 0.6, \"time_ms\": 5000, \"metadata\": {\"epoch_num\": 2}}\n"
      ":::MLLOG {\"key\": \"run_stop\", \"value\": null, \"time_ms\": 10000, \"metadata\": {\"status\": "
      "\"success\"}}\n";
  const RunLog log = ToRunLog(ParseMlperfLog(text, "r.txt"), [](const MlperfEval& e) { return e.value.get<double>(); });
  EXPECT_EQ(log.points.size(), 2u) << Warnings(log);
  EXPECT_TRUE(log.warnings.empty()) << Warnings(log);
}

TEST(RunLogChecksTest, CheckRunLogKeepsValidPointsAndRepeatedEpochs) {
  RunLog log;
  log.points = {{1, 10, 10, 0.5}, {1, 12, 12, 0.55}, {2, 20, 20, 0.6}};
  CheckRunLog(log, "f", FractionScale());
  EXPECT_EQ(log.points.size(), 3u);
  EXPECT_TRUE(log.warnings.empty()) << Warnings(log);
  log.points.push_back({3, std::numeric_limits<double>::infinity(), 0, 0.7});
  CheckRunLog(log, "f", std::nullopt);
  EXPECT_EQ(log.points.size(), 3u);
  EXPECT_TRUE(HasWarning(log, "f: evaluation 4: training time inf s")) << Warnings(log);
}

// Issue 50 item 10: "total training time 219.434 s is shorter than an evaluation's (219.434 s)" was printed for a
// total one ulp below the last evaluation's time. A rounding difference is no contradiction; a real one is said.
TEST(RunLogChecksTest, TotalTimeShortByRoundingOnlyIsNoContradiction) {
  RunLog log;
  log.points = {{1, 100, 100, 0.5}, {2, 219.434, 219.434, 0.9}};
  log.train_seconds = std::nextafter(219.434, 0.0);
  CheckRunLog(log, "f", FractionScale());
  EXPECT_TRUE(log.warnings.empty()) << Warnings(log);
  EXPECT_EQ(log.train_seconds, 219.434);  // TTA never lies past the run's end
  log.train_seconds = 219.434 - 1e-7;     // summed in float32 by a logger: still rounding
  CheckRunLog(log, "f", FractionScale());
  EXPECT_TRUE(log.warnings.empty()) << Warnings(log);
  log.train_seconds = 219.0;  // 0.434 s short: a real contradiction
  CheckRunLog(log, "f", FractionScale());
  EXPECT_TRUE(HasWarning(log, "f: total training time 219 s is shorter than an evaluation's (219.434 s)"))
      << Warnings(log);
  EXPECT_EQ(log.train_seconds, 219.434);
}

}  // namespace
}  // namespace evalsuite::runlog
