// Issue 17: training throughput of imported MLPerf runs (importer/mlperf_throughput.h), on fixtures
// written from the MLLOG format (one per way a log records its samples) and on the shared v2.0, v4.0 and v5.1 logs,
// whose expected figures are computed by hand from the lines named in the comments.
#include "importer/mlperf_throughput.h"

#include <gtest/gtest.h>

#include <string>

#include "importer/importer.h"
#include "importer/mlperf_compliance_table.h"
#include "tests/support/test_support.h"

namespace evalsuite::importer {
namespace {

namespace fs = std::filesystem;

std::string Line(long time_ms, const std::string& key, const std::string& value, const std::string& metadata = "{}") {
  return ":::MLLOG {\"namespace\": \"\", \"time_ms\": " + std::to_string(time_ms) +
         ", \"event_type\": \"POINT_IN_TIME\", \"key\": \"" + key + "\", \"value\": " + value +
         ", \"metadata\": " + metadata + "}\n";
}

// run_start at 1,000 ms, run_stop at 2,001,000 ms: 2,000 s of time to train.
std::string Log(const std::string& middle, const std::string& stop_metadata = "{\"status\": \"success\"}") {
  return Line(500, "global_batch_size", "256") + Line(1000, "run_start", "null") + middle +
         Line(2001000, "run_stop", "null", stop_metadata);
}

MlperfThroughput Of(const std::string& text, const std::string& benchmark) {
  return TrainingThroughput(runlog::ParseMlperfLog(text, "result_0.txt"), benchmark);
}

TEST(MlperfThroughputTest, EpochsTimesTheTrainingSetOverTheTimeToTrain) {
  // 35 epochs x 1,281,167 images = 44,840,845 samples in 2,000 s: 22,420.4225 samples/s.
  const MlperfThroughput t =
      Of(Log(Line(1100, "train_samples", "1281167") + Line(1500000, "eval_accuracy", "0.74", "{\"epoch_num\": 31}") +
             Line(2000000, "eval_accuracy", "0.76", "{\"epoch_num\": 35}")),
         "resnet");
  ASSERT_TRUE(t.samples_per_second.has_value()) << t.method;
  EXPECT_DOUBLE_EQ(*t.samples, 44840845.0);
  EXPECT_DOUBLE_EQ(*t.seconds, 2000.0);
  EXPECT_DOUBLE_EQ(*t.samples_per_second, 22420.4225);
  EXPECT_EQ(t.method, "epochs x train_samples");
}

TEST(MlperfThroughputTest, SamplesCountAtRunStopOrAtTheLastEvaluation) {
  // 184,320 samples at run_stop: 92.16 samples/s.
  MlperfThroughput t = Of(Log(Line(1900000, "eval_accuracy", "3.3", "{\"samples_count\": 172032}"),
                              "{\"status\": \"success\", \"samples_count\": 184320}"),
                          "llama31_8b");
  EXPECT_DOUBLE_EQ(*t.samples_per_second, 92.16);
  EXPECT_EQ(t.method, "samples_count at run_stop");
  // Without it at run_stop, the last evaluation's 172,032: 86.016 samples/s.
  t = Of(Log(Line(1900000, "eval_accuracy", "3.3", "{\"samples_count\": 172032}")), "llama31_8b");
  EXPECT_DOUBLE_EQ(*t.samples_per_second, 86.016);
  EXPECT_EQ(t.method, "samples_count of the last evaluation");
}

TEST(MlperfThroughputTest, StepsTimesTheGlobalBatch) {
  // 3,000 steps x 256 = 768,000 samples: 384 samples/s.
  const MlperfThroughput t = Of(Log("", "{\"status\": \"success\", \"step_num\": 3000}"), "stable_diffusion");
  EXPECT_DOUBLE_EQ(*t.samples_per_second, 384.0);
  EXPECT_EQ(t.method, "step_num at run_stop x global_batch_size");
}

TEST(MlperfThroughputTest, BenchmarksWhoseEpochNumIsNotEpochs) {
  // BERT: epoch_num 2,700,096 is samples: 1,350.048 samples/s.
  MlperfThroughput t = Of(Log(Line(2000000, "eval_accuracy", "0.72", "{\"epoch_num\": 2700096}")), "bert");
  EXPECT_DOUBLE_EQ(*t.samples_per_second, 1350.048);
  // GPT-3: epoch_num is tokens; 1,245,708,288 / 2,048 = 608,256 sequences: 304.128 samples/s.
  t = Of(Line(100, "max_sequence_length", "2048") +
             Log(Line(2000000, "eval_accuracy", "2.69", "{\"epoch_num\": 1245708288}")),
         "gpt3");
  EXPECT_DOUBLE_EQ(*t.samples_per_second, 304.128);
  // NVIDIA's RetinaNet logs batches per epoch as train_samples: 4 epochs x 4,572 x 256 = 4,681,728 samples,
  // 2,340.864 samples/s; a real training-set size there is taken as it is.
  t = Of(Log(Line(1100, "train_samples", "4572") + Line(2000000, "eval_accuracy", "0.34", "{\"epoch_num\": 4}")),
         "retinanet");
  EXPECT_DOUBLE_EQ(*t.samples_per_second, 2340.864);
  t = Of(Log(Line(1100, "train_samples", "1170301") + Line(2000000, "eval_accuracy", "0.34", "{\"epoch_num\": 4}")),
         "retinanet");
  EXPECT_DOUBLE_EQ(*t.samples, 4681204.0);
}

// Issue 50 item 4: NVIDIA's v1.0 BERT logs epoch_num = 1 on every evaluation and the samples it trained as
// train_samples at run_stop; epoch_num read as samples gave 1 / 2,000 s = 0.0005 samples/s.
std::string BertV10Evals() {
  return Line(600000, "eval_accuracy", "0.60", "{\"epoch_num\": 1}") +
         Line(1300000, "eval_accuracy", "0.70", "{\"epoch_num\": 1}") +
         Line(2000000, "eval_accuracy", "0.72", "{\"epoch_num\": 1}");
}

TEST(MlperfThroughputTest, BertSamplesComeFromTrainSamplesLoggedAtTheEnd) {
  // 3,000,256 samples in 2,000 s: 1,500.128 samples/s.
  const MlperfThroughput t = Of(Log(BertV10Evals() + Line(2000500, "train_samples", "3000256")), "bert");
  ASSERT_TRUE(t.samples_per_second.has_value()) << t.method;
  EXPECT_DOUBLE_EQ(*t.samples_per_second, 1500.128);
  EXPECT_NE(t.method.find("train_samples logged at the end of training"), std::string::npos) << t.method;
  EXPECT_EQ(t.check, "at least one global batch per evaluation");
}

TEST(MlperfThroughputTest, AProgressFieldThatDoesNotMoveCountsNothing) {
  // The same log without train_samples: no figure, and the reason says why epoch_num is none.
  const MlperfThroughput t = Of(Log(BertV10Evals()), "bert");
  EXPECT_FALSE(t.samples_per_second.has_value()) << *t.samples_per_second;
  EXPECT_EQ(t.method, "epoch_num is 1 on every evaluation before run_stop, so it counts nothing");
}

TEST(MlperfThroughputTest, WithheldWhereTheLogsOwnEstimatesDisagree) {
  // BERT's train_samples at the end (3,000,256) against its last epoch_num (1,000,000): 3 times as many.
  MlperfThroughput t = Of(Log(Line(1000000, "eval_accuracy", "0.70", "{\"epoch_num\": 500000}") +
                              Line(2000000, "eval_accuracy", "0.72", "{\"epoch_num\": 1000000}") +
                              Line(2000500, "train_samples", "3000256")),
                          "bert");
  EXPECT_FALSE(t.samples_per_second.has_value());
  EXPECT_EQ(t.method.rfind("withheld: train_samples logged at the end of training", 0), 0u) << t.method;
  EXPECT_NE(t.method.find("3000256 samples, epoch_num of the last evaluation (BERT counts samples in it) gives "
                          "1000000 (3 times as many)"),
            std::string::npos)
      << t.method;
  // Where they agree (the later rounds log the same number twice) the figure stands, checked against the other.
  t = Of(Log(Line(2000000, "eval_accuracy", "0.72", "{\"epoch_num\": 2700096}") +
             Line(2000500, "train_samples", "2700096")),
         "bert");
  ASSERT_TRUE(t.samples_per_second.has_value()) << t.method;
  EXPECT_DOUBLE_EQ(*t.samples_per_second, 1350.048);
  EXPECT_EQ(t.check, "epoch_num of the last evaluation (BERT counts samples in it)");
  // Fewer samples than one global batch (256) per evaluation: 2 epochs x 100 samples over 3 evaluations.
  t = Of(Log(Line(1100, "train_samples", "100") + Line(600000, "eval_accuracy", "0.5", "{\"epoch_num\": 1}") +
             Line(1300000, "eval_accuracy", "0.6", "{\"epoch_num\": 1.5}") +
             Line(2000000, "eval_accuracy", "0.7", "{\"epoch_num\": 2}")),
         "resnet");
  EXPECT_FALSE(t.samples_per_second.has_value());
  EXPECT_EQ(t.method,
            "withheld: epochs x train_samples gives 200 samples, fewer than one global batch (256) for each of the 3 "
            "evaluations before run_stop (768), so it does not count samples");
}

TEST(MlperfThroughputTest, NoFigureWithoutSamplesOrAnInterval) {
  MlperfThroughput t = Of(Log(Line(2000000, "eval_accuracy", "0.76", "{\"epoch_num\": 35}")), "resnet");
  EXPECT_FALSE(t.samples_per_second.has_value());
  EXPECT_EQ(t.method, "no train_samples to turn epochs into samples");
  t = Of(Line(1000, "run_start", "null") + Line(2000, "eval_accuracy", "0.76", "{\"epoch_num\": 35}"), "resnet");
  EXPECT_FALSE(t.samples_per_second.has_value());
  EXPECT_EQ(t.method, "no run_start to run_stop interval");
}

// Through `evalsuite import`'s group: every run's figure in run_details, the median of the successful runs.
// The other keys ruleset 3.0.0 requires of a closed resnet run, once each, so the official rules count it.
std::string OtherRequiredKeys() {
  std::string out;
  for (const RequiredKey& k : FindComplianceRules("3.0.0", "resnet")->closed.required) {
    if (k.req == "OPTIONAL" || k.key == "submission_benchmark" || k.key == "seed" || k.key == "global_batch_size" ||
        k.key == "run_start" || k.key == "run_stop" || k.key == "train_samples" || k.key == "eval_accuracy") {
      continue;
    }
    out += Line(5, k.key, k.key == "submission_division" ? "\"closed\"" : k.key == "opt_name" ? "\"sgd\"" : "1");
  }
  for (const RequiredKey& k : FindComplianceRules("3.0.0", "resnet")->closed.variants.at("sgd")) {
    out += Line(5, k.key, "1");  // the keys closed_resnet_sgd.yaml requires
  }
  return out;
}

TEST(MlperfThroughputTest, TheImportedGroupCarriesPerRunAndMedianThroughput) {
  evalsuite::testing::TempDir dir;
  const fs::path folder = dir / "results" / "sys" / "resnet";
  fs::create_directories(folder);
  // Runs trained 35 epochs of 1,000 samples in 2,000, 1,000 and 4,000 s: 17.5, 35 and 8.75 samples/s; median 17.5.
  const long stops[] = {2001000, 1001000, 4001000};
  for (int i = 0; i < 3; ++i) {
    evalsuite::testing::WriteFile(folder / ("result_" + std::to_string(i) + ".txt"),
                                  OtherRequiredKeys() + Line(10, "submission_benchmark", "\"resnet\"") +
                                      Line(20, "seed", std::to_string(i + 1)) + Line(500, "global_batch_size", "256") +
                                      Line(1000, "run_start", "null") + Line(1100, "train_samples", "1000") +
                                      Line(stops[i] - 1, "eval_accuracy", "0.76", "{\"epoch_num\": 35}") +
                                      Line(stops[i], "run_stop", "null", "{\"status\": \"success\"}"));
  }
  ImportOptions options;
  options.paths = {dir / "results"};
  options.ruleset = "3.0";
  const ImportResult result = Import(options);
  ASSERT_EQ(result.groups.size(), 1u);
  const nlohmann::json& d = result.groups[0].details;
  EXPECT_DOUBLE_EQ(d["throughput"]["median_samples_per_second"].get<double>(), 17.5);
  EXPECT_EQ(d["throughput"]["runs"], 3);
  EXPECT_DOUBLE_EQ(d["run_details"][1]["samples_per_second"].get<double>(), 35.0);
  EXPECT_DOUBLE_EQ(d["run_details"][1]["samples_trained"].get<double>(), 35000.0);
  EXPECT_NE(FormatSummary(result).find("training throughput 17.5 samples/s (median of 3 successful run(s); epochs x "
                                       "train_samples; run_start to run_stop, evaluation included; global batch 256)"),
            std::string::npos)
      << FormatSummary(result);
}

// Real logs. Expected figures by hand from the lines `grep -E '"key": "(run_start|run_stop|train_samples|
// max_sequence_length)"'` and the last eval_accuracy print, e.g. resnet result_0: 35 x 1,281,167 samples over
// (1652209244420 - 1652207554577) ms = 26,535.5095 samples/s.
TEST(MlperfThroughputTest, SharedLogsOfEveryRound) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  struct Case {
    const char* file;
    const char* benchmark;
    double expected;  // python3 -c "print(SAMPLES / ((STOP - START) / 1000))"
  };
  const Case cases[] = {
      // 35 * 1281167 / 1689.843
      {"mlperf/training_results_v2.0/GIGABYTE/results/G492-ID0_mxnet/resnet/result_0.txt", "resnet",
       26535.509511830387},
      // 184320 (samples_count at run_stop) / 5292.371
      {"mlperf/training_results_v5.1/Lenovo/results/SR680aV3-8xB200_SXM_180GB/llama31_8b/result_10.txt", "llama31_8b",
       34.82749036301499},
      // 4 * 4572 * 256 / 1330.36
      {"mlperf/training_results_v5.1/Lenovo/results/SR680aV3-8xB200_SXM_180GB/retinanet/result_01.txt", "retinanet",
       3519.1436904296584},
      // 1245708288 / 2048 / 3147.895
      {"mlperf/training_results_v4.0/NVIDIA/results/eos_n64_ngc24.04_nemo/gpt3/result_0.txt", "gpt3",
       193.2262670768879},
      // 3000256 (train_samples at run_stop) / 1433.884: the DGX A100, printed as 0.000756874 before
      {"mlperf/training_results_v1.0/NVIDIA/results/dgxa100_ngc21.05_pytorch/bert/result_0.txt", "bert",
       2092.3979903534737},
      // 2250304 / 1064.58
      {"mlperf/training_results_v1.0/NVIDIA/results/dgxa100_ngc21.05_pytorch/bert/result_1.txt", "bert",
       2113.795111687238},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    if (!fs::exists(shared / c.file)) continue;
    const MlperfThroughput t = TrainingThroughput(runlog::ReadMlperfLog(shared / c.file), c.benchmark);
    ASSERT_TRUE(t.samples_per_second.has_value()) << t.method;
    EXPECT_NEAR(*t.samples_per_second, c.expected, 1e-9 * c.expected);
  }
}

// Every result log of every shared round (655 files, v0.6 to v5.1): no figure disagrees with the samples over time
// that the log states elsewhere by more than kCountsAgreeFactor (1.5), and none is below one global batch per
// evaluation over the run. The counts checked here are read straight from the parsed fields, whichever field the
// figure came from; a figure withheld says why.
TEST(MlperfThroughputTest, NoSharedRoundsFigureDisagreesWithTheLogsSamplesOverTime) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  if (!fs::exists(shared / "mlperf")) GTEST_SKIP() << "no shared MLPerf logs";
  std::size_t figures = 0, withheld = 0;
  for (const auto& item : fs::recursive_directory_iterator(shared / "mlperf")) {
    const std::string name = item.path().filename().string();
    if (!item.is_regular_file() || name.rfind("result_", 0) != 0 || item.path().extension() != ".txt") continue;
    SCOPED_TRACE(item.path().string());
    const runlog::MlperfRun run = runlog::ReadMlperfLog(item.path());
    const std::string benchmark = item.path().parent_path().filename().string();
    const MlperfThroughput t = TrainingThroughput(run, benchmark);
    if (t.method.rfind("withheld", 0) == 0) ++withheld;
    if (!t.samples_per_second) continue;
    ++figures;
    const double samples = *t.samples_per_second * *t.seconds;
    const std::size_t evaluations = std::min(run.evals_before_stop, run.evals.size());
    if (run.global_batch_size) EXPECT_GE(samples, *run.global_batch_size * evaluations) << t.method;
    std::vector<double> stated;
    if (run.stop_samples_count) stated.push_back(*run.stop_samples_count);
    if (run.stop_step_num && run.global_batch_size) stated.push_back(*run.stop_step_num * *run.global_batch_size);
    if (benchmark == "bert" && run.train_samples && run.train_samples_ms && run.run_start_ms &&
        *run.train_samples_ms > *run.run_start_ms) {
      stated.push_back(*run.train_samples);
    }
    for (double count : stated) {
      EXPECT_LE(std::max(samples, count) / std::min(samples, count), kCountsAgreeFactor)
          << samples << " by " << t.method << " against " << count;
    }
  }
  EXPECT_GT(figures, 500u);  // a sweep that reads nothing proves nothing
  std::printf("%zu figures, %zu withheld\n", figures, withheld);
}

}  // namespace
}  // namespace evalsuite::importer
