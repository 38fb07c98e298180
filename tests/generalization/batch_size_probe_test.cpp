// The batch size chosen at start-up: the choice logic on fake models that advance a fake clock (exact,
// deterministic figures: a per-call overhead and a per-image cost with a cache knee), the time, memory and
// holdout-size bounds, a model failing at large batches, and one real TorchScript model through the evaluator.
#include "generalization/batch_size_probe.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "common/error.h"
#include "generalization/holdout_evaluation.h"
#include "tests/generalization/tiny_fixtures.h"
#include "tests/support/test_support.h"

namespace evalsuite::generalization {
namespace {

// A call of n images costs overhead + n x per_image seconds on the fake clock, n x per_image x knee_factor
// above `knee` images (activations no longer fit the cache); throws above `fails_above`.
class FakeClockClassifier : public Classifier {
 public:
  FakeClockClassifier(double* clock, double overhead, double per_image)
      : clock_(clock), overhead_(overhead), per_image_(per_image) {}
  int num_outputs() const override { return 10; }
  void TopK(const float* batch, int n, int32_t* top, float* scores) override {
    ++calls;
    largest = std::max(largest, n);
    if (n > fails_above) throw std::runtime_error("RuntimeError: shape mismatch");
    EXPECT_TRUE(std::isfinite(batch[static_cast<size_t>(n) * 4 - 1]));  // the synthetic input is written
    *clock_ += overhead_ + n * per_image_ * (n > knee ? knee_factor : 1.0);
    std::fill(top, top + static_cast<ptrdiff_t>(n) * kTopK, 0);
    if (scores != nullptr) std::fill(scores, scores + static_cast<ptrdiff_t>(n) * kTopK, 0.2f);
  }
  int knee = 1 << 30;
  double knee_factor = 1.0;
  int fails_above = 1 << 30;
  int calls = 0;
  int largest = 0;

 private:
  double* clock_;
  double overhead_, per_image_;
};

BatchProbeOptions FakeOptions(double* clock, size_t images) {
  BatchProbeOptions options;
  options.images = images;
  options.now = [clock] { return *clock; };
  options.peak_memory_bytes = [] { return int64_t{0}; };
  return options;
}

double RateOf(const BatchProbeResult& r, int batch) {
  for (const auto& [b, rate] : r.rates)
    if (b == batch) return rate;
  return -1;
}

TEST(ChooseBatch, SmallestWithinTheTieFractionOfTheBest) {
  EXPECT_EQ(ChooseBatch({{8, 100}, {16, 150}, {32, 200}, {64, 198}}, 0.03), 32);
  EXPECT_EQ(ChooseBatch({{8, 100}, {16, 150}, {32, 195}, {64, 200}}, 0.03), 32);  // 2.5% slower: inside the noise
  EXPECT_EQ(ChooseBatch({{8, 100}, {16, 150}, {32, 193}, {64, 200}}, 0.03), 64);  // 3.5% slower: a real difference
  EXPECT_EQ(ChooseBatch({{64, 200}, {8, 200}}, 0.03), 8);                         // order of measuring is irrelevant
  EXPECT_EQ(ChooseBatch({{8, 100}, {16, 150}, {32, 195}, {64, 200}}, 0.0), 64);
  EXPECT_THROW(ChooseBatch({}, 0.03), Error);
}

TEST(BatchSizeProbe, PicksTheFastestAndStopsPastTheKnee) {
  double clock = 0;
  // 5 ms per call + 1 ms per image, 1.3 ms per image above 64: images/s 32/0.037 = 864.9 (the default, first),
  // 64/0.069 = 927.5, 128/(0.005 + 0.1664) = 746.8 (19% below the best: 256 is not tried), then downwards
  // 16/0.021 = 761.9 (18% below: 8 is not tried).
  FakeClockClassifier model(&clock, 5e-3, 1e-3);
  model.knee = 64;
  model.knee_factor = 1.3;
  const BatchProbeResult r = ProbeBatchSize({{&model, 4}}, FakeOptions(&clock, 1000000));
  ASSERT_TRUE(r.measured) << r.reason;
  EXPECT_EQ(r.batch, 64);
  ASSERT_EQ(r.rates.size(), 4u);
  EXPECT_EQ(r.rates[0].first, 32);
  EXPECT_NEAR(RateOf(r, 32), 32 / 0.037, 1e-6);
  EXPECT_NEAR(RateOf(r, 64), 64 / 0.069, 1e-6);
  EXPECT_NEAR(RateOf(r, 128), 128 / 0.1714, 1e-6);
  EXPECT_NEAR(RateOf(r, 16), 16 / 0.021, 1e-6);
  ASSERT_EQ(r.skipped.size(), 2u);
  EXPECT_EQ(r.skipped[0].first, 256);
  EXPECT_NE(r.skipped[0].second.find("batch 128 was already 19% slower than the best"), std::string::npos)
      << r.skipped[0].second;
  EXPECT_EQ(r.skipped[1].first, 8);
  EXPECT_NE(r.skipped[1].second.find("batch 16 was already 18% slower"), std::string::npos) << r.skipped[1].second;
  EXPECT_EQ(model.largest, 128);
  // Within the default budget of 2.5 s (the fake clock counts only model time).
  EXPECT_LE(r.seconds, 2.5);
  const nlohmann::json j = BatchProbeJson(r);
  EXPECT_EQ(j["batch"], 64);
  EXPECT_EQ(j["candidates"].size(), 4u);
  EXPECT_EQ(j["not_measured"][0]["batch"], 256);
  EXPECT_NE(DescribeBatchProbe(r).find("batch 64 chosen by measuring"), std::string::npos) << DescribeBatchProbe(r);
}

TEST(BatchSizeProbe, NearTiesGoToTheSmallerBatch) {
  double clock = 0;
  // 0.1 ms per call, 1 ms per image: every batch from 8 up is within 1.3% of the best.
  FakeClockClassifier model(&clock, 1e-4, 1e-3);
  const BatchProbeResult r = ProbeBatchSize({{&model, 4}}, FakeOptions(&clock, 1000000));
  ASSERT_TRUE(r.measured);
  EXPECT_GT(r.rates.size(), 1u);
  EXPECT_EQ(r.batch, 8);
}

TEST(BatchSizeProbe, EveryModelOfTheRunIsTimedTogether) {
  double clock = 0;
  // Alone, `fast` is best at 8 (no overhead); `slow`'s overhead makes the pair best at a large batch.
  FakeClockClassifier fast(&clock, 0, 1e-4);
  FakeClockClassifier slow(&clock, 20e-3, 1e-4);
  const BatchProbeResult r = ProbeBatchSize({{&fast, 4}, {&slow, 8}}, FakeOptions(&clock, 10000000));
  ASSERT_TRUE(r.measured);
  // 16: 16 / (0.02 + 32 x 1e-4) = 689.7 images/s; 256: 256 / (0.02 + 512e-4) = 3595.5.
  EXPECT_NEAR(RateOf(r, 16), 16 / 0.0232, 1e-6);
  EXPECT_NEAR(RateOf(r, 256), 256 / 0.0712, 1e-6);
  EXPECT_EQ(r.batch, 256);
  EXPECT_EQ(fast.calls, slow.calls);
}

TEST(BatchSizeProbe, TimeBudgetIsAShareOfTheExpectedWork) {
  double clock = 0;
  FakeClockClassifier model(&clock, 1e-3, 1e-3);  // about 1000 images/s at large batches
  // 3000 images: about 3 s of work, so the probe may take 10% of it, about 0.3 s.
  const BatchProbeResult r = ProbeBatchSize({{&model, 4}}, FakeOptions(&clock, 3000));
  ASSERT_TRUE(r.measured) << r.reason;
  // 32 and 64 measured (969.7 and 984.6 images/s); then 128 (predicted 0.26 s more), 256, 16 and 8 (about
  // 0.06 s more each, with 0.008 s left) no longer fit.
  ASSERT_EQ(r.rates.size(), 2u);
  EXPECT_NEAR(r.budget_seconds, 0.10 * 3000 / (64 / 0.065), 1e-9);
  EXPECT_LE(r.seconds, r.budget_seconds + 1e-9);
  EXPECT_EQ(r.batch, 32);  // 969.7 is within 3% of 984.6
  ASSERT_EQ(r.skipped.size(), 4u);
  for (const auto& [batch, why] : r.skipped) EXPECT_NE(why.find("time budget"), std::string::npos) << why;
  EXPECT_EQ(r.skipped.back().first, 8);

  // A very large holdout: the cap of max_seconds holds.
  double clock2 = 0;
  FakeClockClassifier slow(&clock2, 0, 50e-3);  // 20 images/s (resnet50-like on two cores)
  BatchProbeOptions from8 = FakeOptions(&clock2, 1000000);
  from8.fallback = 8;
  const BatchProbeResult big = ProbeBatchSize({{&slow, 4}}, from8);
  ASSERT_TRUE(big.measured);
  EXPECT_LE(big.seconds, 2.5);
  EXPECT_EQ(big.budget_seconds, 2.5);
  // The one-image call (0.05 s), 8 (warm-up and one timed call, 0.8 s) and 16 (1.6 s) fit; 32 (3.2 s) would not.
  EXPECT_EQ(big.rates.size(), 2u);
  EXPECT_NEAR(big.seconds, 2.45, 1e-9);

  // When the default (32) does not fit the budget, no smaller size is chosen against it unmeasured.
  double clock3 = 0;
  FakeClockClassifier slow32(&clock3, 0, 50e-3);
  const BatchProbeResult none = ProbeBatchSize({{&slow32, 4}}, FakeOptions(&clock3, 1000000));
  EXPECT_FALSE(none.measured);
  EXPECT_EQ(none.batch, 32);
  EXPECT_EQ(slow32.calls, 1);
  EXPECT_NE(none.reason.find("measuring even batch 32 would take longer than the time budget (2.50 s: 10% of the "
                             "expected work, at most 2.5 s); batch 32"),
            std::string::npos)
      << none.reason;
}

TEST(BatchSizeProbe, TinyHoldoutsAreNotProbed) {
  double clock = 0;
  FakeClockClassifier model(&clock, 1e-3, 1e-3);
  BatchProbeOptions options = FakeOptions(&clock, 20);
  options.fallback = 32;
  const BatchProbeResult r = ProbeBatchSize({{&model, 4}}, options);
  EXPECT_FALSE(r.measured);
  EXPECT_EQ(r.batch, 32);
  EXPECT_EQ(model.calls, 0);
  EXPECT_NE(r.reason.find("too few"), std::string::npos) << r.reason;
  EXPECT_NE(DescribeBatchProbe(r).find("not measured"), std::string::npos);

  // 40 images of a slow model: enough for batch 8 by size, but measuring it would cost more than 10% of the
  // work (the one-image call says 50 ms per image: 2 s of work, a budget of 0.2 s; batch 8 twice is 0.8 s).
  double clock2 = 0;
  FakeClockClassifier slow(&clock2, 0, 50e-3);
  BatchProbeOptions small = FakeOptions(&clock2, 40);
  small.largest_set = 40;
  const BatchProbeResult none = ProbeBatchSize({{&slow, 4}}, small);
  EXPECT_FALSE(none.measured);
  EXPECT_EQ(slow.calls, 1);  // the one-image call only
  EXPECT_NE(none.reason.find("measuring even batch 8 would take longer than the time budget (0.20 s"),
            std::string::npos)
      << none.reason;
}

TEST(BatchSizeProbe, LargestSetBoundsTheBatch) {
  double clock = 0;
  FakeClockClassifier model(&clock, 5e-3, 1e-4);  // overhead-bound: larger is always faster
  BatchProbeOptions options = FakeOptions(&clock, 1000000);
  options.largest_set = 200;  // at least four batches: 50 at most
  const BatchProbeResult r = ProbeBatchSize({{&model, 4}}, options);
  ASSERT_TRUE(r.measured);
  EXPECT_EQ(r.batch, 32);
  EXPECT_EQ(model.largest, 32);
  ASSERT_EQ(r.skipped.size(), 4u);  // 64, 128 and 256 by size; 8 after 16 was slower
  EXPECT_NE(r.skipped[0].second.find("quarter of the 200 images"), std::string::npos) << r.skipped[0].second;
}

TEST(BatchSizeProbe, PredictedMemoryBoundsTheBatch) {
  double clock = 0;
  FakeClockClassifier model(&clock, 5e-3, 1e-4);
  BatchProbeOptions options = FakeOptions(&clock, 1000000);
  // The high-water mark grows by 10 MiB per image of the largest batch run so far.
  options.peak_memory_bytes = [&model] { return int64_t{100} * (1 << 20) + int64_t{model.largest} * (10 << 20); };
  options.memory_budget_bytes = int64_t{500} << 20;
  const BatchProbeResult r = ProbeBatchSize({{&model, 4}}, options);
  ASSERT_TRUE(r.measured);
  // Growth per image 10 MiB (measured from the high-water mark before the one-image call, so a fixed cost
  // would count as per-image: conservative): 32 fits in 500 MiB, 64 would need 640 MiB.
  EXPECT_EQ(model.largest, 32);
  EXPECT_EQ(r.batch, 32);
  ASSERT_EQ(r.skipped.size(), 4u);  // 64, 128, 256 by memory; 8 after 16 was slower
  EXPECT_EQ(r.skipped[0].first, 64);
  EXPECT_NE(r.skipped[0].second.find("memory budget"), std::string::npos) << r.skipped[0].second;

  // The pipeline's own buffers count too, before anything runs.
  options.peak_memory_bytes = [] { return int64_t{0}; };
  options.pipeline_bytes_per_image = int64_t{4} << 20;  // 128 x 4 MiB = 512 MiB > 500 MiB
  const BatchProbeResult buffers = ProbeBatchSize({{&model, 4}}, options);
  EXPECT_EQ(buffers.batch, 64);
  EXPECT_NE(buffers.skipped[0].second.find("batch buffers"), std::string::npos) << buffers.skipped[0].second;
}

TEST(BatchSizeProbe, AModelFailingAtLargeBatchesEndsTheProbeThere) {
  double clock = 0;
  FakeClockClassifier model(&clock, 5e-3, 1e-4);
  model.fails_above = 16;
  const BatchProbeResult r = ProbeBatchSize({{&model, 4}}, FakeOptions(&clock, 1000000));
  ASSERT_TRUE(r.measured);
  EXPECT_EQ(r.batch, 16);
  ASSERT_EQ(r.skipped.size(), 4u);
  EXPECT_NE(r.skipped[0].second.find("failed at batch 32: RuntimeError: shape mismatch"), std::string::npos)
      << r.skipped[0].second;

  double clock2 = 0;
  FakeClockClassifier broken(&clock2, 0, 1e-3);
  broken.fails_above = 0;
  BatchProbeOptions options = FakeOptions(&clock2, 1000000);
  options.fallback = 32;
  const BatchProbeResult none = ProbeBatchSize({{&broken, 4}}, options);
  EXPECT_FALSE(none.measured);
  EXPECT_EQ(none.batch, 32);  // the pipeline will report the failure with the model's name
  EXPECT_NE(none.reason.find("failed on one image"), std::string::npos) << none.reason;
}

// A real TorchScript model timed on the real clock, through the evaluator as `holdout eval` runs it: the chosen
// batch is one it measured, the probe is recorded in the image set's JSON, and the results equal a given batch's.
TEST(BatchSizeProbe, RealModelThroughTheEvaluator) {
  testing::TempDir dir;
  fixtures::WriteTinyHoldout(dir / "holdout", 3);
  fixtures::SaveBrightnessModel(dir / "model.pt", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  ModelSpec model;
  model.name = "brightness";
  model.file = dir / "model.pt";
  EvaluationOptions options;
  options.default_preprocess = DefaultPreprocessFor("fashion-mnist");
  options.pipeline.threads = 1;
  options.pipeline.batch = 4;
  HoldoutEvaluator given({model}, options);
  const nlohmann::json expected = given.Evaluate(dir / "holdout");
  EXPECT_EQ(expected["pipeline"]["batch_choice"]["reason"], "given (--batch)");

  HoldoutEvaluator probed({model}, options);
  BatchProbeOptions probe;
  probe.images = 1000000000;  // as if the run were large, so that the probe measures (a model of microseconds)
  probe.max_seconds = 0.5;
  const BatchProbeResult r = probed.ChooseBatchSize(probe);
  ASSERT_TRUE(r.measured) << r.reason;
  EXPECT_GE(r.rates.size(), 2u) << BatchProbeJson(r).dump();
  bool measured = false;
  for (const auto& [batch, rate] : r.rates) {
    EXPECT_GT(rate, 0);
    measured = measured || batch == r.batch;
  }
  EXPECT_TRUE(measured);
  EXPECT_LT(r.seconds, 0.5 + 2.0);  // the budget, with room for a loaded machine's scheduling
  const nlohmann::json j = probed.Evaluate(dir / "holdout");
  EXPECT_EQ(j["pipeline"]["batch"], r.batch);
  EXPECT_EQ(j["pipeline"]["batch_choice"]["batch"], r.batch);
  EXPECT_TRUE(j["pipeline"]["batch_choice"]["measured"].get<bool>());
  EXPECT_EQ(j["models"], expected["models"]);
}

}  // namespace
}  // namespace evalsuite::generalization
