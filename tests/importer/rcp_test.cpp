// RCP checks as mlcommons/logging's rcp_checker.py does them. Expected reference statistics come from the official
// checker itself (RCP_Checker('training', '2.0.0', <benchmark>) of ../shared/peers/mlperf_logging run with Debian's
// python3: its 'RCP Mean', 'RCP Stdev', 'Min Epochs', pruned_rcp_data and _create_interp_rcp), and t-quantiles
// are checked against the printed table value t_{0.95, 10} = 1.812461.
#include "stats/rcp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "importer/importer.h"
#include "importer/rcp_check.h"
#include "importer/rcp_embedded.h"
#include "tests/support/test_support.h"

namespace evalsuite::importer {
namespace {

namespace fs = std::filesystem;

// The bisection stops at an absolute width of 1e-4.
constexpr double kBisection = 1e-4;

TEST(RcpStatsTest, OneSidedPValueIsTheLowerTail) {
  // t = 0: one half. t = -1.812461 with df 10: 0.05 (the printed table value).
  EXPECT_NEAR(stats::OneSidedPooledTTestPValue(5, 1, 6, 5, 1, 6), 0.5, 1e-12);
  // mean difference -1.812461 * sqrt(1/6 + 1/6) with unit stdev gives t = -1.812461.
  const double d = 1.812461 * std::sqrt(1.0 / 6 + 1.0 / 6);
  EXPECT_NEAR(stats::OneSidedPooledTTestPValue(5 - d, 1, 6, 5, 1, 6), 0.05, 1e-6);
  EXPECT_NEAR(stats::OneSidedPooledTTestPValue(5 + d, 1, 6, 5, 1, 6), 0.95, 1e-6);
}

TEST(RcpStatsTest, MinEpochsBisectionMatchesClosedForm) {
  const double exact = stats::RcpMinAcceptableMeanExact(35.15384615384615, 0.532938710021193, 13, 3);
  const double bisection = stats::RcpMinAcceptableMean(35.15384615384615, 0.532938710021193, 13, 3);
  EXPECT_NEAR(bisection, exact, kBisection);
  EXPECT_EQ(stats::RcpMinAcceptableMean(14, 0, 8, 3), 14);  // stdev 0: the mean itself
}

// The checker's bisection as it is written (a p-value per step, compared with alpha): the reference the faster
// bisection (one t quantile, compared with t) must agree with.
double BisectionOnPValues(double mean, double stdev, std::size_t n_reference, std::size_t n_submission) {
  double mean_max = mean, mean_min = 0.0, mean_mid = mean / 2;
  while (mean_max - mean_min > kBisection) {
    const double p = stats::OneSidedPooledTTestPValue(mean_mid, stdev, static_cast<double>(n_reference), mean, stdev,
                                                      static_cast<double>(n_submission));
    (p > 0.05 ? mean_max : mean_min) = mean_mid;
    mean_mid = (mean_min + mean_max) / 2;
  }
  return mean_mid;
}

TEST(RcpStatsTest, TheBisectionDecidesAsThePValuesDoOnEveryBuiltInRcp) {
  // Every record of every built-in RCP file, with every submission size a ruleset uses for its benchmark (and the
  // interpolated points' 2 x runs references): the same min_epochs to the last bit.
  std::size_t compared = 0;
  for (std::size_t f = 0; f < kEmbeddedRcpFiles_count; ++f) {
    const std::vector<RcpRecord> records = ParseRcpRecords(kEmbeddedRcpFiles[f].text, kEmbeddedRcpFiles[f].path);
    for (const RcpRecord& record : records) {
      for (std::size_t submission_runs : {5u, 10u}) {
        for (std::size_t drop : {1u, 4u}) {
          if (record.epochs.size() <= 2 * drop) continue;
          const stats::RcpPoint point =
              stats::MakeRcpPoint(record.name, record.batch_size, record.epochs, drop, submission_runs);
          if (point.stdev == 0) continue;
          ASSERT_EQ(point.min_epochs, BisectionOnPValues(point.mean, point.stdev, point.kept_runs, submission_runs - 2))
              << kEmbeddedRcpFiles[f].path << " " << record.name;
          ASSERT_EQ(stats::RcpMinAcceptableMean(point.mean, point.stdev, 2 * submission_runs, submission_runs - 2),
                    BisectionOnPValues(point.mean, point.stdev, 2 * submission_runs, submission_runs - 2))
              << kEmbeddedRcpFiles[f].path << " " << record.name << " interpolated";
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 400u);
}

TEST(RcpStatsTest, ReferencePointsLikeTheChecker) {
  // resnet_ref_3264 of training_2.0.0 (its epochs copied here): 15 runs, drop 1 each side.
  const std::vector<double> resnet = {36, 35, 34, 34, 36, 35, 35, 35, 35, 37, 35, 35, 35, 36, 35};
  stats::RcpPoint p = stats::MakeRcpPoint("resnet_ref_3264", 3264, resnet, 1, 5);
  EXPECT_EQ(p.kept_runs, 13u);
  EXPECT_NEAR(p.mean, 35.15384615384615, 1e-12);
  // numpy.std over all 15 reference runs, not the 13 kept (the checker's spread).
  EXPECT_NEAR(p.stdev, 0.7483314773547882, 1e-12);
  EXPECT_NEAR(p.min_epochs, 34.3096450658945, 1e-9);
  EXPECT_NEAR(p.max_speedup, 1.0246053576576002, 1e-9);
}

TEST(RcpStatsTest, EvaluateAndNormalize) {
  stats::RcpPoint p =
      stats::MakeRcpPoint("r", 3264, {36, 35, 34, 34, 36, 35, 35, 35, 35, 37, 35, 35, 35, 36, 35}, 1, 5);
  stats::RcpVerdict same = stats::EvaluateRcp(p, {35, 35, 35, 35, 35}, 1);
  EXPECT_TRUE(same.pass);
  EXPECT_DOUBLE_EQ(same.submission_mean, 35);
  EXPECT_NEAR(same.norm_factor, 35.15384615384615 / 35, 1e-15);
  stats::RcpVerdict slow = stats::EvaluateRcp(p, {36, 36, 37, 37, 1e9}, 1);
  EXPECT_TRUE(slow.pass);
  EXPECT_EQ(slow.norm_factor, 1.0);
  stats::RcpVerdict fast = stats::EvaluateRcp(p, {33, 34, 34, 34, 40}, 1);
  EXPECT_EQ(fast.pass, false);
}

struct SharedRcp {
  std::vector<RcpRecord> resnet;
  std::vector<RcpRecord> bert;
};

class SharedRcpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto shared = testing::SharedDataDir();
    if (!shared || !fs::exists(*shared / "mlperf" / "rcp" / "training_2.0.0")) GTEST_SKIP() << "no shared RCPs";
    dir_ = *shared / "mlperf" / "rcp" / "training_2.0.0";
    resnet_ = ReadRcpFile(dir_ / "rcps_resnet.json");
    bert_ = ReadRcpFile(dir_ / "rcps_bert.json");
  }
  fs::path dir_;
  std::vector<RcpRecord> resnet_, bert_;
};

const BenchmarkRule& Rule(const char* name) { return *FindRuleset("2.0.0")->Find(name); }

std::vector<RcpRun> Runs(const std::vector<double>& epochs, double batch) {
  std::vector<RcpRun> runs;
  for (double e : epochs) runs.push_back({"result", e, batch});
  return runs;
}

TEST_F(SharedRcpTest, FullPassExactBatchSizes) {
  // GIGABYTE bert (BS 448): last eval epoch_num of its 10 runs.
  const std::vector<double> bert = {2700096, 2550016, 2550016, 2550016, 2850176,
                                    2850176, 2400384, 2700096, 2850176, 2700096};
  RcpOutcome b = CheckRunsAgainstRcp(bert_, Rule("bert"), "2.0.0", Runs(bert, 448), RcpPass::kFull);
  EXPECT_EQ(b.pass, true);
  EXPECT_EQ(b.message, "RCP found");
  ASSERT_TRUE(b.reference && b.result);
  EXPECT_EQ(b.reference->name, "bert_ref_448");
  EXPECT_NEAR(b.reference->mean, 2621696.0, 1e-6);
  EXPECT_NEAR(b.reference->stdev, 169650.35400422834, 1e-6);
  EXPECT_NEAR(b.reference->min_epochs, 2498362.7216735, 1e-6);
  EXPECT_DOUBLE_EQ(b.result->submission_mean, 2681336.0);
  EXPECT_EQ(b.result->norm_factor, 1.0);
  // GIGABYTE resnet (BS 3264): all five runs converged at epoch 35, faster than the RCP mean 35.1538...
  RcpOutcome r =
      CheckRunsAgainstRcp(resnet_, Rule("resnet"), "2.0.0", Runs({35, 35, 35, 35, 35}, 3264), RcpPass::kFull);
  EXPECT_EQ(r.pass, true);
  ASSERT_TRUE(r.result);
  EXPECT_NEAR(r.result->norm_factor, 1.0043956043956044, 1e-12);
}

TEST_F(SharedRcpTest, PrunedPassInterpolatesWherePruned) {
  // Pruning drops bert_ref_448; 448 is then interpolated between bert_ref_256 and bert_ref_3072.
  const std::vector<double> bert = {2700096, 2550016, 2550016, 2550016, 2850176,
                                    2850176, 2400384, 2700096, 2850176, 2700096};
  RcpOutcome b = CheckRunsAgainstRcp(bert_, Rule("bert"), "2.0.0", Runs(bert, 448), RcpPass::kPruned);
  EXPECT_EQ(b.pass, true);
  EXPECT_EQ(b.message, "RCP Interpolation");
  ASSERT_TRUE(b.reference);
  EXPECT_NEAR(b.reference->mean, 2563897.6767676766, 1e-6);
  EXPECT_NEAR(b.reference->stdev, 214841.1253524826, 1e-6);
  EXPECT_NEAR(b.reference->min_epochs, 2410606.1346874926, 1e-6);

  std::vector<stats::RcpPoint> points;
  for (const RcpRecord& r : resnet_) points.push_back(stats::MakeRcpPoint(r.name, r.batch_size, r.epochs, 1, 5));
  std::sort(points.begin(), points.end(), [](auto& a, auto& b) { return a.batch_size < b.batch_size; });
  std::vector<stats::RcpPoint> pruned = stats::PruneRcps(points, 5, "resnet");
  std::vector<std::string> names;
  for (const auto& p : pruned) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"resnet_ref_1632", "resnet_ref_3264", "resnet_ref_32768",
                                             "resnet_ref_49152", "resnet_ref_67840"}));
}

TEST_F(SharedRcpTest, InterpolationBelowAndAboveAllReferences) {
  // BS 2000 between 1632 and 3264, converging too fast: fails, and would be normalized by 1.0406.
  RcpOutcome fast =
      CheckRunsAgainstRcp(resnet_, Rule("resnet"), "2.0.0", Runs({33, 33, 34, 34, 34}, 2000), RcpPass::kFull);
  EXPECT_EQ(fast.pass, false);
  EXPECT_EQ(fast.message, "RCP Interpolation");
  ASSERT_TRUE(fast.reference && fast.result);
  EXPECT_NEAR(fast.reference->mean, 35.034690799396685, 1e-12);
  EXPECT_NEAR(fast.reference->min_epochs, 33.84206071050998, 1e-9);
  EXPECT_NEAR(fast.result->norm_factor, 1.0406343801800997, 1e-12);
  // Below every reference: compared with the smallest one.
  RcpOutcome small =
      CheckRunsAgainstRcp(resnet_, Rule("resnet"), "2.0.0", Runs({34, 34, 35, 35, 36}, 1000), RcpPass::kFull);
  EXPECT_EQ(small.pass, true);
  EXPECT_EQ(small.message, "RCP not found but slower convergence on smaller batch size");
  // Above every reference: an RCP is missing.
  RcpOutcome big =
      CheckRunsAgainstRcp(resnet_, Rule("resnet"), "2.0.0", Runs({35, 35, 35, 35, 35}, 100000), RcpPass::kFull);
  EXPECT_EQ(big.pass, false);
  EXPECT_EQ(big.message, "Missing RCP, please submit RCP with BS = 100000");
}

TEST_F(SharedRcpTest, NotConvergedRunsAndBatchMismatch) {
  std::vector<RcpRun> runs = Runs({35, 35, 35, 35, 35}, 3264);
  runs[0].epochs.reset();
  EXPECT_TRUE(CheckRunsAgainstRcp(resnet_, Rule("resnet"), "2.0.0", runs, RcpPass::kFull)
                  .pass.value_or(false));  // one failure is the slowest
  runs[1].epochs.reset();
  EXPECT_EQ(CheckRunsAgainstRcp(resnet_, Rule("resnet"), "2.0.0", runs, RcpPass::kFull).message,
            "Insufficient convergence");
  std::vector<RcpRun> mixed = Runs({35, 35, 35, 35, 35}, 3264);
  mixed[2].global_batch_size = 1632;
  EXPECT_EQ(CheckRunsAgainstRcp(resnet_, Rule("resnet"), "2.0.0", mixed, RcpPass::kFull).message,
            "Batch sizes in files do not match");
}

TEST_F(SharedRcpTest, ImportChecksTheSharedSubmission) {
  auto shared = testing::SharedDataDir();
  const fs::path org = *shared / "mlperf" / "training_results_v2.0" / "GIGABYTE";
  if (!fs::exists(org)) GTEST_SKIP() << "no GIGABYTE results";
  ImportOptions options;
  options.paths = {org};
  options.rcp = dir_;
  ImportResult result = Import(options);
  const nlohmann::json json = ToJson(result);
  int checked = 0;
  for (const auto& g : json["groups"]) {
    ASSERT_TRUE(g.contains("rcp"));
    EXPECT_TRUE(g["rcp"]["pass"].get<bool>()) << g["rcp"].dump();
    if (g["benchmark"] == "resnet") EXPECT_NEAR(g["rcp"]["norm_factor"].get<double>(), 1.0043956043956044, 1e-12);
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

}  // namespace
}  // namespace evalsuite::importer
