// Latency percentiles, throughput and cost of fake classifiers whose per-image time is known: one that advances a
// fake clock (exact figures) and one that really sleeps (the measured times can only be longer).
#include "generalization/latency.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "common/error.h"
#include "generalization/dawnbench_inference.h"
#include "tests/support/test_support.h"

namespace evalsuite::generalization {
namespace {

// Image i (its first float holds i) costs kCost[i % 4] ms plus 2 ms per call.
constexpr double kCost[] = {1, 2, 3, 10};

// Advances the fake clock by each image's cost instead of sleeping it.
class PerImageCostClassifier : public Classifier {
 public:
  explicit PerImageCostClassifier(double* clock) : clock_(clock) {}
  int num_outputs() const override { return 10; }
  void TopK(const float* batch, int n, int32_t* top, float* /*scores*/ = nullptr) override {
    *clock_ += 2e-3;
    for (int i = 0; i < n; ++i) *clock_ += kCost[static_cast<int>(batch[i]) % 4] * 1e-3;
    std::fill(top, top + static_cast<ptrdiff_t>(n) * kTopK, 0);
  }

 private:
  double* clock_;
};

class SleepingClassifier : public Classifier {
 public:
  int num_outputs() const override { return 10; }
  void TopK(const float* batch, int n, int32_t* top, float* /*scores*/ = nullptr) override {
    for (int i = 0; i < n; ++i) {
      std::this_thread::sleep_for(
          std::chrono::microseconds(static_cast<int>(kCost[static_cast<int>(batch[i]) % 4] * 1000)));
    }
    std::fill(top, top + static_cast<ptrdiff_t>(n) * kTopK, 0);
  }
};

std::vector<float> Images(int n) {
  std::vector<float> images;
  for (int i = 0; i < n; ++i) images.push_back(static_cast<float>(i));  // one float per image
  return images;
}

TEST(Latency, PercentilesOfAKnownFakeModel) {
  double clock = 0;
  PerImageCostClassifier model(&clock);
  LatencyOptions options;
  options.now = [&clock] { return clock; };
  options.batch_sizes = {1, 4, 8};
  options.min_throughput_seconds = 0.1;
  options.price_per_hour = 3.6;  // 0.001 USD per second
  const LatencyResult r = MeasureLatency(model, Images(8), 1, options);
  // Latencies 3,4,5,12,3,4,5,12 ms: numpy.percentile(..., [50, 90, 99]) = 4.5, 12, 12; mean 6.
  //   /usr/bin/python3 -c "import numpy as np; print(np.percentile([3,4,5,12,3,4,5,12],[50,90,99]))"
  ASSERT_EQ(r.seconds.size(), 8u);
  EXPECT_NEAR(r.p50, 4.5e-3, 1e-12);
  EXPECT_NEAR(r.p90, 12e-3, 1e-12);
  EXPECT_NEAR(r.p99, 12e-3, 1e-12);
  EXPECT_NEAR(r.mean, 6e-3, 1e-12);
  // Batch 8: 8 images in 2 + 32 ms; batch 4: 4 in 2 + 16; batch 1: 8 in 48 ms.
  ASSERT_EQ(r.throughput.size(), 3u);
  EXPECT_NEAR(r.throughput[0].images_per_second, 8 / 48e-3, 1e-6);
  EXPECT_NEAR(r.throughput[2].images_per_second, 8 / 34e-3, 1e-6);
  EXPECT_NEAR(r.throughput[2].low, r.throughput[2].high, 1e-6);  // a fake clock does not move
  EXPECT_TRUE(r.tied_with_best.empty());
  EXPECT_EQ(r.best_batch, 8);
  ASSERT_TRUE(r.cost_per_10k_batch1);
  EXPECT_NEAR(*r.cost_per_10k_batch1, 10000 * 6e-3 * 0.001, 1e-12);  // DAWNBench's cost: 0.06 USD
  EXPECT_NEAR(*r.cost_per_10k_best, 10000 / (8 / 34e-3) * 0.001, 1e-12);
  const nlohmann::json j = LatencyResultToJson(r);
  EXPECT_NEAR(j["latency_ms"]["p50"].get<double>(), 4.5, 1e-9);
  EXPECT_LE(j["latency_ms"]["p50_low"].get<double>(), 4.5);
  EXPECT_GE(j["latency_ms"]["p50_high"].get<double>(), 4.5);
}

TEST(Latency, SleepingModelIsNeverFasterThanItsSleeps) {
  SleepingClassifier model;
  LatencyOptions options;
  options.warmup = 1;
  options.batch_sizes = {1, 4};
  options.min_throughput_seconds = 0.01;
  const LatencyResult r = MeasureLatency(model, Images(8), 1, options);
  // Sleeps of 1, 2, 3, 10, 1, 2, 3, 10 ms: numpy.percentile gives p50 2.5, p90 10; mean 4.
  EXPECT_GE(r.p50, 2.5e-3);
  EXPECT_GE(r.p90, 10e-3);
  EXPECT_GE(r.mean, 4e-3);
  EXPECT_LE(r.p50, r.p90);
  EXPECT_LE(r.p90, r.p99);
  EXPECT_FALSE(r.cost_per_10k_batch1);
  for (const Throughput& t : r.throughput) {
    EXPECT_LE(t.high, 1 / 4e-3) << t.batch;  // at most 1 per 4 ms mean
    EXPECT_LE(t.low, t.images_per_second);
    EXPECT_LE(t.images_per_second, t.high);
  }
}

// A machine whose load triples halfway through the run (another job starting). Each call costs 2 ms plus 1 ms per
// image while the machine is quiet, three times that once the clock passes `step`.
class LoadStepClassifier : public Classifier {
 public:
  LoadStepClassifier(double* clock, double step) : clock_(clock), step_(step) {}
  int num_outputs() const override { return 10; }
  void TopK(const float* /*batch*/, int n, int32_t* top, float* /*scores*/ = nullptr) override {
    *clock_ += (*clock_ < step_ ? 1.0 : 3.0) * (2e-3 + n * 1e-3);
    std::fill(top, top + static_cast<ptrdiff_t>(n) * kTopK, 0);
  }

 private:
  double* clock_;
  double step_;
};

// Issue 56 item 3: `latency` timed the batch sizes one after another, so a change of load during the run slowed
// only the sizes timed last: one run ranked the batch sizes by when they were timed and stated ranges that another
// run's figures fell outside. Measured in alternating rounds, every size sees both halves of the run, its stated
// range holds its rate on the quiet and on the loaded machine, and the fastest size is never ranked below another
// with ranges that do not overlap.
TEST(Latency, ALoadChangeDuringTheRunStaysInsideEveryStatedRange) {
  double clock = 0;
  LatencyOptions options;
  options.now = [&clock] { return clock; };
  options.warmup = 0;
  options.warmup_per_shape = 1;
  options.batch_sizes = {1, 4, 8};
  options.min_throughput_seconds = 0.6;
  options.repeats = 6;
  // The run's length on this fake clock, measured on a machine that never changes.
  LoadStepClassifier steady(&clock, 1e9);
  MeasureLatency(steady, Images(8), 1, options);
  const double length = clock;
  clock = 0;
  LoadStepClassifier model(&clock, length / 2);
  const LatencyResult r = MeasureLatency(model, Images(8), 1, options);
  for (const Throughput& t : r.throughput) {
    const double quiet = t.batch / (2e-3 + t.batch * 1e-3), loaded = quiet / 3;
    EXPECT_LE(t.low, loaded * 1.001) << "batch " << t.batch;
    EXPECT_GE(t.high, quiet * 0.999) << "batch " << t.batch;
  }
  // Batch 8 is the fastest on either machine: it is the best or tied with it.
  EXPECT_TRUE(r.best_batch == 8 || std::count(r.tied_with_best.begin(), r.tied_with_best.end(), 8) == 1)
      << "best " << r.best_batch;
  // Batch-1 latency: 3 ms quiet, 9 ms loaded; the rounds' p50s span both.
  EXPECT_NEAR(r.p50_low, 3e-3, 1e-9);
  EXPECT_NEAR(r.p50_high, 9e-3, 1e-9);
}

TEST(DawnbenchInference, ReadsTheSharedEntries) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  const std::vector<InferenceEntry> entries = ReadDawnbenchInference(shared / "dawnbench");
  ASSERT_EQ(entries.size(), 5u);
  const auto intel = std::find_if(entries.begin(), entries.end(), [](const InferenceEntry& e) {
    return e.file.find("Intel_resnet50") != std::string::npos;
  });
  ASSERT_NE(intel, entries.end());
  EXPECT_DOUBLE_EQ(intel->latency_ms, 17.38);
  ASSERT_TRUE(intel->cost_per_10k);
  EXPECT_NEAR(*intel->cost_per_10k, 0.0164, 1e-12);  // 1.64e-06 USD per image
  EXPECT_NEAR(*intel->top5, 0.9307, 1e-12);
  EXPECT_FALSE(intel->top1);
}

// Issue 56 item 10: a Fashion-MNIST model was ranked in one table with ImageNet, CIFAR-10 and SQuAD entries, top-1
// beside top-5. Only entries of the holdout's task are compared, on the metric they report.
TEST(DawnbenchInference, ComparesOnlyLikeWithLike) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  const std::vector<InferenceEntry> entries = ReadDawnbenchInference(shared / "dawnbench");
  const DawnbenchComparison fashion = CompareWithDawnbench(entries, "fashion-mnist");
  EXPECT_TRUE(fashion.comparable.empty());
  EXPECT_NE(fashion.note.find("no DAWNBench inference entry is on this holdout's task (fashion-mnist)"),
            std::string::npos)
      << fashion.note;
  EXPECT_EQ(fashion.left_out.size(), 3u);  // ImageNet, CIFAR10, SQuAD
  const DawnbenchComparison imagenet = CompareWithDawnbench(entries, "imagenet-1k");
  EXPECT_EQ(imagenet.task, "ImageNet");
  EXPECT_EQ(imagenet.metric, "top5");
  ASSERT_FALSE(imagenet.comparable.empty());
  for (const InferenceEntry& e : imagenet.comparable) EXPECT_EQ(e.task, "ImageNet") << e.file;
  EXPECT_EQ(imagenet.left_out.count("ImageNet"), 0u);
  EXPECT_NE(imagenet.note.find("left out: CIFAR10"), std::string::npos) << imagenet.note;
  EXPECT_EQ(CompareWithDawnbench(entries, "cifar-10").metric, "top1");
}

TEST(DawnbenchInference, MissingLatencyNamesTheFileAndField) {
  testing::TempDir dir;
  testing::WriteFile(dir / "bad.json", R"({"model": "m", "cost": null})");
  try {
    ReadDawnbenchInference(dir / "bad.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("latency"), std::string::npos) << e.what();
  }
}

// A model or hardware that is not a string is an input error naming the file and field (it was nlohmann's type_error,
// an internal error).
TEST(DawnbenchInference, AModelThatIsNotAStringNamesTheFileAndField) {
  testing::TempDir dir;
  testing::WriteFile(dir / "typed.json", R"({"model": 50, "latency": 17.4})");
  try {
    ReadDawnbenchInference(dir / "typed.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_NE(std::string(e.what()).find("typed.json.model"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace evalsuite::generalization
