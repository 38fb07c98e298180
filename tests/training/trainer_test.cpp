// Short training runs on real Fashion-MNIST (small subsets, one thread): every entry learns, the same seed
// gives the same curve, the log and the end status say what happened. Skips when Debian's
// dataset-fashion-mnist is not installed.
#include "training/trainer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <regex>
#include <sstream>

#include "common/error.h"
#include "common/seeds.h"
#include "datasets/fashion_mnist/fashion_mnist.h"
#include "entries/builtin_entries.h"
#include "runlog/jsonl_run_log.h"
#include "tests/support/test_support.h"
#include "training/hardware_profile.h"
#include "training/model_cost.h"

namespace evalsuite::training {
namespace {

using ::testing::HasSubstr;
using testing::ReadFile;
using testing::TempDir;

// Step timings of fast's two forms where bf16 is 4x slower per image: 0.3 ms per image at batch 256 (76.8 ms per
// step) against 0.075 at batch 64.
nlohmann::json SlowBf16Steps() {
  auto row = [](const char* precision, int batch, double seconds) {
    return nlohmann::json{{"entry", "fast"}, {"precision", precision},      {"batch_size", batch},
                          {"threads", 1},    {"seconds_per_step", seconds}, {"steps_timed", 5}};
  };
  return {{entries::kStepProbesKey, {row("bf16", 256, 0.3e-3 * 256), row("fp32", 64, 0.075e-3 * 64)}}};
}

class TrainerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (std::filesystem::is_directory(datasets::kDefaultFashionMnistDir)) {
      data_ = std::make_unique<datasets::FashionMnist>(datasets::LoadFashionMnist());
    }
  }
  static void TearDownTestSuite() { data_.reset(); }
  void SetUp() override {
    if (!data_) GTEST_SKIP() << datasets::kDefaultFashionMnistDir << " is absent (dataset-fashion-mnist)";
  }
  static TrainOptions Quick(size_t subset, int epochs, uint64_t seed = 1) {
    TrainOptions options;
    options.seed = seed;
    options.threads = 1;
    options.epochs = epochs;
    options.train_subset = subset;
    return options;
  }
  static std::unique_ptr<datasets::FashionMnist> data_;
};
std::unique_ptr<datasets::FashionMnist> TrainerTest::data_;

TEST_F(TrainerTest, EveryEntryBeatsChanceAfterOneShortEpoch) {
  for (const entries::BuiltinEntry& entry : entries::BuiltinEntries()) {
    // At least 24 steps, so that batch norm's running statistics (momentum 0.1) have left their initial
    // values behind before the evaluation uses them. large-batch needs more: its warm-up is a fraction of the
    // run, and a few steps of warm-up to a learning rate of 0.4 leave the first epoch's loss above ln 10; it
    // gets three epochs of 16 steps.
    const bool large = entry.recipe.batch_size >= 1024;
    const size_t subset = large ? 16384 : std::max<size_t>(4096, 24 * static_cast<size_t>(entry.recipe.batch_size));
    const TrainResult result = Train(entry, *data_, Quick(subset, large ? 3 : 1));
    ASSERT_EQ(result.run.status, analysis::EndedAs::kNotReached) << entry.name << ": " << result.run.error;
    ASSERT_EQ(result.run.points.size(), large ? 3u : 1u) << entry.name;
    EXPECT_GT(result.run.points.back().metric, 0.2) << entry.name;  // chance is 0.1
    EXPECT_GT(result.run.points.back().train_seconds, 0) << entry.name;
  }
}

// The bf16 recipes also train one short epoch in bf16 (forced): the kernels the precision choice picks where the
// ceilings favour bf16 work on this CPU, whatever it is.
TEST_F(TrainerTest, Bf16EntriesTrainOneShortEpochInForcedBf16) {
  for (const entries::BuiltinEntry& entry : entries::BuiltinEntries()) {
    if (entry.recipe.precision != "bf16") continue;
    TrainOptions options = Quick(std::max<size_t>(4096, 24 * static_cast<size_t>(entry.recipe.batch_size)), 1);
    options.precision = entries::ChoosePrecision(entry, "bf16", nullptr, {});
    const TrainResult result = Train(entry, *data_, options);
    ASSERT_EQ(result.run.status, analysis::EndedAs::kNotReached) << entry.name << ": " << result.run.error;
    EXPECT_GT(result.run.points.back().metric, 0.2) << entry.name;
    EXPECT_EQ(result.precision.precision, "bf16");
    EXPECT_EQ(result.run.header.at("precision"), "bf16") << entry.name;  // the word declared_hardware.h reads
    EXPECT_EQ(result.run.header.at("precision_choice").at("decided_by"), "forced") << entry.name;
    EXPECT_EQ(result.run.header.at("hyperparameters").at("precision"), "bf16") << entry.name;
  }
}

// The choice is recorded in the run header and obeyed: without ceilings `fast` trains in fp32 and says why; forced
// fp32 is fp32.
TEST_F(TrainerTest, PrecisionChoiceIsRecordedInTheHeaderAndObeyed) {
  const entries::BuiltinEntry& fast = entries::BuiltinEntryOrThrow("fast");
  const TrainResult unmeasured = Train(fast, *data_, Quick(2048, 1));
  EXPECT_EQ(unmeasured.precision.precision, "fp32");
  EXPECT_EQ(unmeasured.run.header.at("precision_choice").at("precision"), "fp32");
  EXPECT_EQ(unmeasured.run.header.at("precision_choice").at("recipe"), "bf16");
  EXPECT_EQ(unmeasured.run.header.at("precision_choice").at("decided_by"), "no step timings");
  EXPECT_EQ(unmeasured.run.header.at("hyperparameters").at("precision"), "fp32");
  // Steps that say bf16 is 4x slower per image (a CPU without native bf16): fp32, with the figures in the reason and
  // both forms' in the record.
  TrainOptions options = Quick(2048, 1);
  options.precision = entries::ChoosePrecision(fast, "auto", SlowBf16Steps(), {0.91});
  const TrainResult slow_bf16 = Train(fast, *data_, options);
  EXPECT_EQ(slow_bf16.run.header.at("precision_choice").at("precision"), "fp32");
  EXPECT_EQ(slow_bf16.run.header.at("precision_choice").at("decided_by"), "measured steps");
  EXPECT_THAT(slow_bf16.run.header.at("precision_choice").at("reason").get<std::string>(),
              HasSubstr("76.8 ms per step"));
  EXPECT_EQ(slow_bf16.run.header.at("precision_choice").at("measured").at("forms").size(), 2u);
}

// In fp32 `fast` trains its fp32 form (batch 64, its own one-cycle), and every record of the run says so: the header's
// hyperparameters, the choice's recipe_form and reason, the result's recipe and the FLOP accounting's batch. In bf16
// it trains the recipe as written.
TEST_F(TrainerTest, FastInFp32TrainsItsFp32FormAndTheRecordSaysSo) {
  const entries::BuiltinEntry& fast = entries::BuiltinEntryOrThrow("fast");
  ASSERT_TRUE(fast.fp32_form);
  TrainOptions options = Quick(2048, 1);
  options.precision = entries::ChoosePrecision(fast, "fp32", nullptr, {});
  const TrainResult fp32 = Train(fast, *data_, options);
  ASSERT_EQ(fp32.run.status, analysis::EndedAs::kNotReached) << fp32.run.error;
  EXPECT_EQ(fp32.run.header.at("hyperparameters").at("batch_size"), fast.fp32_form->batch_size);
  EXPECT_EQ(fp32.run.header.at("hyperparameters").at("learning_rate"), fast.fp32_form->learning_rate);
  EXPECT_EQ(fp32.run.header.at("hyperparameters").at("precision"), "fp32");
  EXPECT_EQ(fp32.run.header.at("precision_choice").at("recipe_form"), "fp32 form");
  EXPECT_THAT(fp32.run.header.at("precision_choice").at("reason").get<std::string>(), HasSubstr("fp32 form"));
  EXPECT_EQ(fp32.recipe.batch_size, fast.fp32_form->batch_size);
  EXPECT_EQ(fp32.hardware.at("phases").at(0).at("steps"), (2048 + 63) / 64);

  options.precision = entries::ChoosePrecision(fast, "bf16", nullptr, {});
  const TrainResult bf16 = Train(fast, *data_, options);
  EXPECT_EQ(bf16.run.header.at("hyperparameters").at("batch_size"), fast.recipe.batch_size);
  EXPECT_EQ(bf16.run.header.at("precision_choice").at("recipe_form"), "as written");
  EXPECT_EQ(bf16.recipe.precision, "bf16");
}

// `evalsuite machine --entries` profiles each entry as a study on this machine would train it: in the precision the
// ceilings choose, with the recipe that then runs. It used to train `fast` in fp32 (no ceilings passed) and label the
// figures bf16, batch 256.
TEST_F(TrainerTest, HardwareProfileTrainsAndLabelsWhatTheCeilingsChoose) {
  const entries::BuiltinEntry& fast = entries::BuiltinEntryOrThrow("fast");
  MachineCeilings slow_bf16;
  slow_bf16.threads = 1;
  slow_bf16.probes.push_back({"conv_fp32", "conv", "fp32", "", 1e9, {117.5e9}});
  slow_bf16.probes.push_back({"conv_bf16", "conv", "bf16", "", 1e9, {28.4e9}});
  slow_bf16.peak_fp32_flops = 117.5e9;
  slow_bf16.peak_bf16_flops = 28.4e9;
  slow_bf16.bandwidth_bytes = 20e9;
  slow_bf16.step_probes = SlowBf16Steps()[entries::kStepProbesKey];
  ProfileOptions profile;
  profile.threads = 1;
  profile.train_subset = 1024;
  profile.validation_subset = 200;
  const nlohmann::json fp32 = ProfileEntryHardware(fast, *data_, slow_bf16, profile);
  EXPECT_EQ(fp32.at("precision"), "fp32");
  EXPECT_EQ(fp32.at("precision_choice").at("recipe_form"), "fp32 form");
  EXPECT_EQ(fp32.at("batch_size"), fast.fp32_form->batch_size);

  MachineCeilings native_bf16 = slow_bf16;
  native_bf16.probes[1].per_second = {200e9};
  native_bf16.peak_bf16_flops = 200e9;
  native_bf16.step_probes[0]["seconds_per_step"] = 1e-3;  // 0.004 ms per image against the fp32 form's 0.075
  const nlohmann::json bf16 = ProfileEntryHardware(fast, *data_, native_bf16, profile);
  EXPECT_EQ(bf16.at("precision"), "bf16");
  EXPECT_EQ(bf16.at("batch_size"), fast.recipe.batch_size);
}

TEST_F(TrainerTest, SameSeedAndThreadsGiveTheIdenticalCurve) {
  const entries::BuiltinEntry& entry = *entries::FindBuiltinEntry("baseline");
  const TrainResult a = Train(entry, *data_, Quick(2000, 2, 7));
  const TrainResult b = Train(entry, *data_, Quick(2000, 2, 7));
  ASSERT_EQ(a.run.points.size(), 2u);
  ASSERT_EQ(b.run.points.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(a.run.points[i].metric, b.run.points[i].metric) << "epoch " << i + 1;
    EXPECT_EQ(*a.run.points[i].train_loss, *b.run.points[i].train_loss) << "epoch " << i + 1;
  }
  const TrainResult other = Train(entry, *data_, Quick(2000, 2, 8));
  EXPECT_NE(*other.run.points[1].train_loss, *a.run.points[1].train_loss);
}

TEST_F(TrainerTest, SeedsAreDerivedPerSourceOfRandomness) {
  const RunSeeds seeds = DeriveStreamSeeds(7);
  EXPECT_EQ(seeds.run, 7u);
  EXPECT_EQ(seeds.init, DeriveSeed(7, 1));
  EXPECT_EQ(seeds.data_order, DeriveSeed(7, 2));
  EXPECT_EQ(seeds.augmentation, DeriveSeed(7, 3));
  EXPECT_NE(seeds.init, seeds.data_order);
  EXPECT_NE(seeds.data_order, seeds.augmentation);
  EXPECT_NE(DeriveStreamSeeds(8).init, seeds.init);
}

TEST_F(TrainerTest, LogRecordsHeaderEvaluationsAndEnd) {
  TempDir dir;
  const auto log_file = dir / "run.jsonl";
  TrainOptions options = Quick(1500, 2, 3);
  options.target = 0.5;
  auto writer = std::make_unique<runlog::JsonlRunLogWriter>(log_file);
  options.log = writer.get();
  std::vector<double> seen;
  options.on_eval = [&](const runlog::EvalPoint& p) { seen.push_back(p.metric); };
  const TrainResult result = Train(*entries::FindBuiltinEntry("progressive-resize"), *data_, options);
  writer.reset();

  const runlog::RunLog log = runlog::ReadJsonlRunLog(log_file);
  EXPECT_TRUE(log.warnings.empty());
  EXPECT_EQ(log.header["entry"], "progressive-resize");
  EXPECT_EQ(log.header["threads"], 1);
  EXPECT_EQ(log.header["seeds"]["run"], 3);
  EXPECT_EQ(log.header["seeds"]["init"], DeriveSeed(3, 1));
  EXPECT_EQ(log.header["hyperparameters"]["epochs"], 2);
  EXPECT_EQ(log.header["hyperparameters"]["train_subset"], 1500);
  EXPECT_EQ(log.header["data"]["train_images"], 1500);
  EXPECT_EQ(log.header["data"]["validation_images"], 5000);
  EXPECT_TRUE(log.header["library_versions"].contains("libtorch"));
  EXPECT_TRUE(std::regex_match(log.header["library_versions"].value("onednn", ""), std::regex(R"(\d+\.\d+\.\d+)")))
      << log.header["library_versions"];
  EXPECT_TRUE(log.header["environment"].contains("host"));
  EXPECT_EQ(log.header["environment"]["threads"], 1);
  ASSERT_TRUE(log.header["environment"].contains("allocator"));
  EXPECT_EQ(log.header["environment"]["allocator"]["allocator"], "glibc malloc");
  EXPECT_TRUE(log.header.contains("start_time"));
  ASSERT_EQ(log.points.size(), 2u);
  ASSERT_EQ(seen.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(log.points[i].epoch, static_cast<double>(i + 1));
    EXPECT_EQ(log.points[i].metric, seen[i]);
    EXPECT_TRUE(log.points[i].train_loss.has_value());
    EXPECT_LT(log.points[i].train_seconds, log.points[i].wall_seconds);  // evaluation is excluded
  }
  EXPECT_GT(log.points[1].train_seconds, log.points[0].train_seconds);
  // Progressive resizing: the first of two epochs at low resolution (the raw records carry it).
  const std::string text = ReadFile(log_file);
  EXPECT_THAT(text, HasSubstr("\"resolution\":14"));
  EXPECT_THAT(text, HasSubstr("\"resolution\":28"));
  // The end record agrees with the result: TTA is the training time of the first evaluation at the target.
  EXPECT_EQ(log.status, result.run.status);
  if (log.status == analysis::EndedAs::kReached) {
    ASSERT_TRUE(result.tta_seconds.has_value());
    const auto first =
        std::find_if(log.points.begin(), log.points.end(), [](const runlog::EvalPoint& p) { return p.metric >= 0.5; });
    EXPECT_DOUBLE_EQ(*result.tta_seconds, first->train_seconds);
  }
  // The end record's hardware block: one phase per resolution with the counted FLOPs per sample, every sample
  // trained, phase seconds adding up to the run's training time, and a time breakdown inside the wall time.
  const nlohmann::json end = nlohmann::json::parse(text.substr(text.rfind('\n', text.size() - 2) + 1));
  ASSERT_EQ(end["type"], "end");
  const nlohmann::json& hw = end.at("hardware");
  EXPECT_EQ(hw, result.hardware);
  ASSERT_EQ(hw["phases"].size(), 2u);
  const entries::Recipe& recipe = entries::FindBuiltinEntry("progressive-resize")->recipe;
  double phase_seconds = 0;
  for (size_t i = 0; i < 2; ++i) {
    const nlohmann::json& phase = hw["phases"][i];
    const int side = i == 0 ? 14 : 28;
    EXPECT_EQ(phase["side"], side);
    EXPECT_EQ(phase["samples"], 1500);
    EXPECT_DOUBLE_EQ(phase["flops_per_sample"].get<double>(),
                     CountConvNetCost(recipe.model, side, recipe.batch_size, "fp32").TrainingFlops());
    EXPECT_GT(phase["achieved_flops"].get<double>(), 0);
    phase_seconds += phase["seconds"].get<double>();
  }
  EXPECT_NEAR(phase_seconds, result.run.train_seconds, 1e-9);
  const nlohmann::json& time = hw["time"];
  double parts = 0;
  for (const char* key : {"data", "forward", "backward", "optimizer", "evaluation", "idle"}) {
    EXPECT_GE(time[key].get<double>(), 0) << key;
    parts += time[key].get<double>();
  }
  EXPECT_GT(time["forward"].get<double>(), 0);
  EXPECT_GT(time["backward"].get<double>(), 0);
  EXPECT_NEAR(parts, time["wall"].get<double>(), 1e-6);
  EXPECT_GT(hw["memory"]["peak_rss"].get<double>(), hw["memory"]["dataset"].get<double>());
  // 1500 training and 5000 validation images as floats, plus the 14x14 copy of the training images.
  EXPECT_DOUBLE_EQ(hw["memory"]["dataset"].get<double>(), 4.0 * (1500 * 784 + 5000 * 784 + 1500 * 196));
}

TEST_F(TrainerTest, StopAtTargetEndsAtTheFirstEvaluationAtTheTarget) {
  TrainOptions options = Quick(2000, 3, 5);
  options.target = 0.3;
  options.stop_at_target = true;
  const TrainResult result = Train(*entries::FindBuiltinEntry("baseline"), *data_, options);
  EXPECT_EQ(result.run.status, analysis::EndedAs::kReached);
  EXPECT_EQ(result.epochs_run, 1);
  ASSERT_TRUE(result.tta_seconds.has_value());
  EXPECT_DOUBLE_EQ(*result.tta_seconds, result.run.points[0].train_seconds);
}

TEST_F(TrainerTest, EvalsPerEpochAddEvenlySpacedPointsWithoutChangingTheTraining) {
  // 2,560 images at batch 128: 20 steps per epoch, evaluations after steps 5, 10, 15 and 20.
  TrainOptions once = Quick(2560, 2, 7);
  TrainOptions four = once;
  four.evals_per_epoch = 4;
  const entries::BuiltinEntry& baseline = *entries::FindBuiltinEntry("baseline");
  const TrainResult coarse = Train(baseline, *data_, once);
  const TrainResult fine = Train(baseline, *data_, four);
  ASSERT_EQ(coarse.run.points.size(), 2u);
  ASSERT_EQ(fine.run.points.size(), 8u);
  EXPECT_EQ(fine.evals_per_epoch, 4);
  EXPECT_EQ(fine.run.header["hyperparameters"]["evals_per_epoch"], 4);
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_DOUBLE_EQ(fine.run.points[i].epoch, 0.25 * static_cast<double>(i + 1));
    if (i > 0) EXPECT_GT(fine.run.points[i].train_seconds, fine.run.points[i - 1].train_seconds);
  }
  // Evaluating changes nothing in training (no RNG draws, batch-norm statistics untouched in eval mode): at the
  // epoch ends the fine run scores exactly what the once-per-epoch run scores.
  EXPECT_EQ(fine.run.points[3].metric, coarse.run.points[0].metric);
  EXPECT_EQ(fine.run.points[7].metric, coarse.run.points[1].metric);
  EXPECT_EQ(fine.epochs_run, 2);
}

TEST_F(TrainerTest, EvalsPerEpochAreCappedAtTheStepsAndCanStopMidEpoch) {
  TrainOptions options = Quick(256, 1, 3);  // 2 steps of 128
  options.evals_per_epoch = 100;
  const TrainResult capped = Train(*entries::FindBuiltinEntry("baseline"), *data_, options);
  EXPECT_EQ(capped.evals_per_epoch, 2);
  EXPECT_EQ(capped.run.header["hyperparameters"]["evals_per_epoch"], 2);
  ASSERT_EQ(capped.run.points.size(), 2u);
  EXPECT_DOUBLE_EQ(capped.run.points[0].epoch, 0.5);

  TrainOptions stop = Quick(2560, 2, 5);
  stop.evals_per_epoch = 4;
  stop.target = 0.3;
  stop.stop_at_target = true;
  const TrainResult stopped = Train(*entries::FindBuiltinEntry("baseline"), *data_, stop);
  ASSERT_EQ(stopped.run.status, analysis::EndedAs::kReached);
  ASSERT_FALSE(stopped.run.points.empty());
  EXPECT_GE(stopped.run.points.back().metric, 0.3);
  for (size_t i = 0; i + 1 < stopped.run.points.size(); ++i) EXPECT_LT(stopped.run.points[i].metric, 0.3);
  EXPECT_LT(stopped.run.points.back().epoch, 2.0) << "a 0.3 target is met well before the end";
  EXPECT_DOUBLE_EQ(*stopped.tta_seconds, stopped.run.points.back().train_seconds);

  TrainOptions bad = Quick(256, 1, 3);
  bad.evals_per_epoch = 0;
  EXPECT_THROW(Train(*entries::FindBuiltinEntry("baseline"), *data_, bad), evalsuite::Error);
}

TEST_F(TrainerTest, UnreachableTargetIsNotReachedWithNoTta) {
  TrainOptions options = Quick(1000, 1, 5);
  options.target = 0.999;
  const TrainResult result = Train(*entries::FindBuiltinEntry("baseline"), *data_, options);
  EXPECT_EQ(result.run.status, analysis::EndedAs::kNotReached);
  EXPECT_FALSE(result.tta_seconds.has_value());
}

TEST_F(TrainerTest, DivergingRunEndsAsFailedWithTheReason) {
  entries::BuiltinEntry wild = *entries::FindBuiltinEntry("baseline");
  wild.recipe.learning_rate = 1e12;
  wild.recipe.schedule = "constant";
  TempDir dir;
  auto writer = std::make_unique<runlog::JsonlRunLogWriter>(dir / "run.jsonl");
  TrainOptions options = Quick(2000, 2, 1);
  options.log = writer.get();
  const TrainResult result = Train(wild, *data_, options);
  writer.reset();
  EXPECT_EQ(result.run.status, analysis::EndedAs::kFailed);
  EXPECT_THAT(result.run.error, HasSubstr("diverged"));
  const runlog::RunLog log = runlog::ReadJsonlRunLog(dir / "run.jsonl");
  EXPECT_EQ(log.status, analysis::EndedAs::kFailed);
  EXPECT_THAT(log.error, HasSubstr("diverged"));
}

TEST_F(TrainerTest, BadOptionsNameTheOption) {
  TrainOptions options = Quick(100, 0);
  try {
    Train(*entries::FindBuiltinEntry("baseline"), *data_, options);
    FAIL() << "expected a UsageError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_EQ(e.where(), "--epochs");
  }
}

}  // namespace
}  // namespace evalsuite::training
