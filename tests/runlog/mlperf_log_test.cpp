// MLPerf result logs in all three line formats, with the marker after other output, glued records, garbage
// and malformed lines; fixtures are written here from the documented formats.
#include "runlog/mlperf_log.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/error.h"
#include "tests/support/test_support.h"

namespace evalsuite::runlog {
namespace {

using testing::TempDir;
using testing::WriteFile;

std::string MllogLine(long time_ms, const std::string& key, const std::string& value,
                      const std::string& metadata = "{}") {
  return ":::MLLOG {\"namespace\": \"\", \"time_ms\": " + std::to_string(time_ms) +
         ", \"event_type\": \"POINT_IN_TIME\", \"key\": \"" + key + "\", \"value\": " + value +
         ", \"metadata\": " + metadata + "}";
}

// v0.7+: marker at the start, after a rank prefix, after "[1,0]<stdout>:" (four colons), CRLF, garbage lines,
// a record whose JSON is cut, uninteresting keys.
std::string V07Log() {
  std::string log;
  log += "+ echo 'Beginning trial 1 of 5'\n";
  log += "Beginning trial 1 of 5\n";
  log += MllogLine(1000, "submission_benchmark", "\"resnet\"") + "\n";
  log += MllogLine(1001, "submission_org", "\"ACME\"") + "\n";
  log += "[1,0]<stdout>:" + MllogLine(1500, "seed", "42") + "\n";
  log += "0: " + MllogLine(1600, "global_batch_size", "3264") + "\r\n";
  log += "random garbage: with: colons ::: and ::ML but no marker\n";
  log += MllogLine(2000, "run_start", "null") + "\n";
  log += MllogLine(2100, "weights_initialization", "null", "{\"tensor\": \"conv1\"}") + "\n";
  log += MllogLine(62000, "eval_accuracy", "0.5", "{\"epoch_num\": 1}") + "\n";
  log +=
      ":::MLLOG {\"namespace\": \"\", \"time_ms\": 90000, \"key\": \"eval_accuracy\", \"value\": 0.6, \"meta\n";  // line
                                                                                                                  // 11
  log += MllogLine(122000, "eval_accuracy", "0.76", "{\"epoch_num\": 2.5}") + "\n";
  log += MllogLine(122100, "run_stop", "null", "{\"status\": \"success\"}") + "\r\n";
  log += "ENDING TIMING RUN";  // no final newline
  return log;
}

TEST(MlperfLogTest, ReadsV07WithMarkerAnywhereAndGarbage) {
  MlperfRun run = ParseMlperfLog(V07Log(), "result_0.txt");
  EXPECT_EQ(run.format, MlperfLogFormat::kV07);
  EXPECT_EQ(run.benchmark, "resnet");
  EXPECT_EQ(run.submission.value("submission_org", ""), "ACME");
  ASSERT_TRUE(run.seed.has_value());
  EXPECT_EQ(run.seed->get<int>(), 42);
  ASSERT_TRUE(run.global_batch_size.has_value());
  EXPECT_EQ(*run.global_batch_size, 3264);
  ASSERT_TRUE(run.run_start_ms && run.run_stop_ms);
  EXPECT_EQ(*run.run_start_ms, 2000);
  EXPECT_EQ(*run.run_stop_ms, 122100);
  EXPECT_EQ(run.stop_status, "success");
  EXPECT_TRUE(run.Succeeded());
  ASSERT_TRUE(run.MinutesToTrain().has_value());
  EXPECT_DOUBLE_EQ(*run.MinutesToTrain(), 120100.0 / 60 / 1000);
  ASSERT_EQ(run.evals.size(), 2u);
  EXPECT_DOUBLE_EQ(run.evals[1].value.get<double>(), 0.76);
  EXPECT_EQ(run.EpochsToConverge(), 2.5);
  // The cut record is the only complaint, named by file and line.
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_EQ(run.warnings[0].rfind("result_0.txt:11: ", 0), 0u) << run.warnings[0];
}

TEST(MlperfLogTest, ReadsV06SecondsAndAbortedStatus) {
  const std::string log =
      "Some output before\n"
      ":::MLL 1558516300.000 submission_benchmark: {\"value\": \"resnet\", \"metadata\": {\"lineno\": 1}}\n"
      ":::MLL 1558516300.100 global_batch_size: {\"value\": 1024, \"metadata\": {\"lineno\": 1}}\n"
      "0: :::MLL 1558516310.500 run_start: {\"value\": null, \"metadata\": {\"lineno\": 2}}\n"
      ":::MLL 1558516333.790 eval_accuracy: {\"value\": 0.7613, \"metadata\": {\"epoch_num\": 64}}\n"
      ":::MLL notanumber eval_accuracy: {\"value\": 0.8, \"metadata\": {\"epoch_num\": 65}}\n"
      ":::MLL 1558516340.000 run_stop: {\"value\": null, \"metadata\": {\"status\": \"aborted\"}}\n";
  MlperfRun run = ParseMlperfLog(log, "v06.txt");
  EXPECT_EQ(run.format, MlperfLogFormat::kV06);
  EXPECT_EQ(run.benchmark, "resnet");
  EXPECT_EQ(run.global_batch_size, 1024);
  ASSERT_TRUE(run.run_start_ms.has_value());
  EXPECT_NEAR(*run.run_start_ms, 1558516310500.0, 1e-3);
  EXPECT_EQ(run.stop_status, "aborted");
  EXPECT_FALSE(run.Succeeded());
  EXPECT_FALSE(run.MinutesToTrain().has_value());
  ASSERT_EQ(run.evals.size(), 1u);
  EXPECT_EQ(run.evals[0].epoch, 64);
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_NE(run.warnings[0].find("v06.txt:6:"), std::string::npos) << run.warnings[0];
}

TEST(MlperfLogTest, ReadsV05) {
  const std::string log =
      "I1202 00:00:00 starting\n"
      ":::MLPv0.5.0 resnet 1543785258.927179813 (benchmark_cnn.py:1271) run_start\n"
      ":::MLPv0.5.0 resnet 1543785260.0 (resnet_main.py:10) run_set_random_seed: 7\n"
      ":::MLPv0.5.0 resnet 1543785261.0 (resnet_main.py:11) input_batch_size: 1024\n"
      ":::MLPv0.5.0 resnet 1543785300.5 (resnet_main.py:12) eval_accuracy: {\"epoch\": 1, \"value\": 0.5}\n"
      ":::MLPv0.5.0 resnet 1543785318.927179813 (resnet_main.py:13) run_stop: {\"success\": true}\n"
      ":::MLPv0.5.0 resnet 1543785319.0 (resnet_main.py:14) run_final\n";
  MlperfRun run = ParseMlperfLog(log, "v05.txt");
  EXPECT_EQ(run.format, MlperfLogFormat::kV05);
  EXPECT_EQ(run.benchmark, "resnet");
  ASSERT_TRUE(run.seed.has_value());
  EXPECT_EQ(run.seed->get<int>(), 7);
  EXPECT_EQ(run.global_batch_size, 1024);
  EXPECT_TRUE(run.Succeeded());
  ASSERT_TRUE(run.MinutesToTrain().has_value());
  EXPECT_NEAR(*run.MinutesToTrain(), 1.0, 1e-6);
  ASSERT_EQ(run.evals.size(), 1u);
  EXPECT_EQ(run.evals[0].epoch, 1);
  EXPECT_DOUBLE_EQ(run.evals[0].value.get<double>(), 0.5);
  EXPECT_TRUE(run.warnings.empty());
}

// Issue 14 point 6: Google's v0.5 logs write {"success": "true"} (a string), NVIDIA's end with a bare run_stop.
// Before, the first read as aborted and the second as failed, together unscoring 16 of 35 v0.5 folders.
TEST(MlperfLogTest, V05SuccessAsAStringAndBareRunStop) {
  const std::string head =
      ":::MLPv0.5.0 transformer 1543785258.0 (t.py:1) run_start\n"
      ":::MLPv0.5.0 transformer 1543785300.0 (t.py:2) eval_accuracy: {\"epoch\": 1, \"value\": 25.3}\n";
  MlperfRun google = ParseMlperfLog(head +
                                        ":::MLPv0.5.0 transformer 1543785318.0 (t.py:3) run_stop: "
                                        "{\"success\": \"true\"}\n",
                                    "google.txt");
  EXPECT_TRUE(google.Succeeded());
  EXPECT_FALSE(google.stop_status_assumed);
  MlperfRun google_failed = ParseMlperfLog(head +
                                               ":::MLPv0.5.0 transformer 1543785318.0 (t.py:3) run_stop: "
                                               "{\"success\": \"false\"}\n",
                                           "google.txt");
  EXPECT_FALSE(google_failed.Succeeded());
  EXPECT_EQ(google_failed.stop_status, "aborted");
  MlperfRun nvidia = ParseMlperfLog(head + ":::MLPv0.5.0 transformer 1543785318.0 (t.py:3) run_stop\n", "nv.txt");
  EXPECT_TRUE(nvidia.Succeeded());
  EXPECT_TRUE(nvidia.stop_status_assumed);
  EXPECT_EQ(nvidia.run_stop_line, 3);
  EXPECT_EQ(nvidia.run_start_line, 1);
  EXPECT_TRUE(nvidia.warnings.empty()) << nvidia.warnings.front();
  // A bare run_stop in the MLLOG format is still a run that did not succeed.
  MlperfRun v07 =
      ParseMlperfLog(MllogLine(1, "run_start", "null") + "\n" + MllogLine(2, "run_stop", "null") + "\n", "v07.txt");
  EXPECT_FALSE(v07.Succeeded());
}

// samples_count, step_num and metric (stable diffusion's FID and CLIP) are kept per evaluation, with its line.
TEST(MlperfLogTest, EvalMetadataForConvergencePoints) {
  const std::string log = MllogLine(1, "run_start", "null") + "\n" +
                          MllogLine(2, "eval_accuracy", "101.6", "{\"samples_count\": 2048000, \"metric\": \"FID\"}") +
                          "\n" + MllogLine(3, "eval_error", "0.9", "{\"step_num\": 3000}") + "\n" +
                          MllogLine(4, "run_stop", "null", "{\"status\": \"success\"}") + "\n";
  MlperfRun run = ParseMlperfLog(log, "sd.txt");
  ASSERT_EQ(run.evals.size(), 2u);
  EXPECT_EQ(run.evals[0].samples_count, 2048000);
  EXPECT_EQ(run.evals[0].metric, "FID");
  EXPECT_EQ(run.evals[0].line, 2);
  EXPECT_EQ(run.evals[1].step_num, 3000);
  EXPECT_EQ(run.evals[1].line, 3);
}

TEST(MlperfLogTest, GluedRecordsOnOneLineTakeTheLast) {
  const std::string log = MllogLine(0, "run_start", "null") + "\n" + MllogLine(50, "weights_initialization", "null") +
                          MllogLine(60000, "run_stop", "null", "{\"status\": \"success\"}") + "\n";
  MlperfRun run = ParseMlperfLog(log, "glued.txt");
  ASSERT_TRUE(run.run_stop_ms.has_value());
  EXPECT_EQ(*run.run_stop_ms, 60000);
  EXPECT_EQ(run.MinutesToTrain(), 1.0);
}

TEST(MlperfLogTest, MissingRunStopIsAFailureWithWarning) {
  const std::string log =
      MllogLine(0, "run_start", "null") + "\n" + MllogLine(100, "eval_accuracy", "0.1", "{\"epoch_num\": 1}") + "\n";
  MlperfRun run = ParseMlperfLog(log, "cut.txt");
  EXPECT_FALSE(run.Succeeded());
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_NE(run.warnings[0].find("no run_stop"), std::string::npos);
  RunLog stored = ToRunLog(run, [](const MlperfEval& e) { return e.value.get<double>(); });
  EXPECT_EQ(stored.status, analysis::EndedAs::kFailed);
  EXPECT_EQ(stored.error, "no run_stop in the log");
}

TEST(MlperfLogTest, NoMarkersIsAWarningNotAnError) {
  MlperfRun run = ParseMlperfLog("just some text\nwith two lines\n", "plain.txt");
  EXPECT_EQ(run.records, 0u);
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_FALSE(LooksLikeMlperfLog("just some text"));
  EXPECT_TRUE(LooksLikeMlperfLog("x " + MllogLine(0, "run_start", "null")));
}

TEST(MlperfLogTest, RecordWithoutKeyIsWarnedWithLine) {
  const std::string log = "a\nb\n:::MLLOG {\"namespace\": \"\", \"time_ms\": 5}\n";
  MlperfRun run = ParseMlperfLog(log, "nokey.txt");
  ASSERT_FALSE(run.warnings.empty());
  EXPECT_EQ(run.warnings[0].rfind("nokey.txt:3: ", 0), 0u) << run.warnings[0];
}

TEST(MlperfLogTest, ObjectValuesEscapesAndOtherKeyOrdersAreReadToo) {
  std::string log;
  log += MllogLine(0, "run_start", "null") + "\n";
  // maskrcnn logs an object value; an escaped string; keys in another order; garbage glued after the object.
  log += MllogLine(1000, "eval_accuracy", "{\"BBOX\": 0.38, \"SEGM\": 0.34}", "{\"epoch_num\": 12}") + "\n";
  log += MllogLine(1100, "submission_benchmark", "\"mask\\u0072cnn\"") + "\n";
  log += ":::MLLOG {\"key\": \"seed\", \"value\": 9, \"time_ms\": 1200, \"namespace\": \"\"}\n";
  log += MllogLine(1300, "eval_accuracy", "0.4", "{\"epoch_num\": 13}") + "} trailing\n";  // line 5
  log +=
      ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1400, \"key\": \"eval_accuracy\", \"value\": 0.4x, "
      "\"metadata\": {}}\n";  // line 6
  log += MllogLine(60000, "run_stop", "null", "{\"status\": \"success\", \"note\": \"a \\\"status\\\" word\"}") + "\n";
  MlperfRun run = ParseMlperfLog(log, "mask.txt");
  ASSERT_EQ(run.evals.size(), 1u);
  EXPECT_TRUE(run.evals[0].value.is_object());
  EXPECT_DOUBLE_EQ(run.evals[0].value["SEGM"].get<double>(), 0.34);
  EXPECT_EQ(run.evals[0].epoch, 12);
  EXPECT_EQ(run.benchmark, "maskrcnn");
  ASSERT_TRUE(run.seed.has_value());
  EXPECT_EQ(run.seed->get<int>(), 9);
  EXPECT_EQ(run.stop_status, "success");
  ASSERT_EQ(run.warnings.size(), 2u);
  EXPECT_EQ(run.warnings[0].rfind("mask.txt:5: ", 0), 0u) << run.warnings[0];
  EXPECT_EQ(run.warnings[1].rfind("mask.txt:6: ", 0), 0u) << run.warnings[1];
}

TEST(MlperfLogTest, ToRunLogMeasuresFromRunStart) {
  MlperfRun run = ParseMlperfLog(V07Log(), "result_0.txt");
  RunLog log = ToRunLog(run, [](const MlperfEval& e) { return e.value.get<double>(); });
  EXPECT_EQ(log.status, analysis::EndedAs::kReached);
  ASSERT_EQ(log.points.size(), 2u);
  EXPECT_DOUBLE_EQ(log.points[0].train_seconds, 60.0);
  EXPECT_DOUBLE_EQ(log.points[1].train_seconds, 120.0);
  EXPECT_DOUBLE_EQ(log.points[1].epoch, 2.5);
  EXPECT_DOUBLE_EQ(log.train_seconds, 120.1);
  EXPECT_EQ(log.header.value("seed", 0), 42);
}

TEST(MlperfLogTest, ReadsFilesAndNamesUnreadableOnes) {
  TempDir dir;
  WriteFile(dir / "result_0.txt", V07Log());
  MlperfRun run = ReadMlperfLog(dir / "result_0.txt");
  EXPECT_TRUE(run.Succeeded());
  EXPECT_EQ(run.bytes, V07Log().size());
  WriteFile(dir / "empty.txt", "");
  EXPECT_EQ(ReadMlperfLog(dir / "empty.txt").records, 0u);
  try {
    ReadMlperfLog(dir / "missing.txt");
    FAIL() << "expected an IoError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kIo);
    EXPECT_NE(std::string(e.what()).find("missing.txt"), std::string::npos);
  }
}

// The official parser drops a run for any record it cannot read as JSON, whatever its key (a corrupted line as
// "value": nullLambdaorkspace... in a real log); the compliance check counts every key and compares the values of
// keys logged more than once.
TEST(MlperfLogTest, UnreadableRecordsOfAnyKeyAreParseErrorsAndKeysAreCounted) {
  std::string log;
  log += MllogLine(1000, "submission_benchmark", "\"bert\"") + "\n";
  log += MllogLine(1001, "opt_lamb_epsilon", "1e-06") + "\n";
  log += MllogLine(1002, "opt_lamb_epsilon", "1e-06") + "\n";
  log += MllogLine(1003, "opt_base_learning_rate", "0.1") + "\n";
  log += MllogLine(1004, "opt_base_learning_rate", "0.2") + "\n";
  log +=
      ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1005, \"event_type\": \"POINT_IN_TIME\", \"key\": "
      "\"opt_weight_decay\", \"value\": nullLambdaorkspace, \"metadata\": {}}\n";
  log += MllogLine(1006, "train_loss", "NaN") + "\n";  // Python's json reads NaN: not an error
  log += MllogLine(2000, "init_start", "null") + "\n";
  log += MllogLine(2000 + 31 * 60000, "init_stop", "null") + "\n";
  const MlperfRun run = ParseMlperfLog(log, "result_0.txt");
  ASSERT_EQ(run.parse_errors.size(), 1u);
  EXPECT_EQ(run.parse_errors[0].line, 6);
  EXPECT_NE(run.parse_errors[0].why.find("opt_weight_decay"), std::string::npos) << run.parse_errors[0].why;
  EXPECT_EQ(run.keys.at("opt_lamb_epsilon").count, 2u);
  EXPECT_FALSE(run.keys.at("opt_lamb_epsilon").values_differ);
  EXPECT_TRUE(run.keys.at("opt_base_learning_rate").values_differ);
  EXPECT_EQ(run.keys.at("opt_base_learning_rate").first_line, 4);
  EXPECT_EQ(run.keys.count("opt_weight_decay"), 0u);  // an unreadable record is not counted
  ASSERT_TRUE(run.init_ms.has_value());
  EXPECT_DOUBLE_EQ(*run.init_ms, 31 * 60000.0);
  EXPECT_EQ(run.init_line, 9);
  EXPECT_EQ(run.keys.at("train_loss").count, 1u);
}

}  // namespace
}  // namespace evalsuite::runlog
