// The debiasing pass: frozen images served again only to labelers who did not judge them (real SQLite stores,
// the real server over loopback), and the comparison of the passes computed by hand.
#include "labeling/second_pass.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "evalsuite/common/error.h"
#include "labeling/holdout_freeze.h"
#include "labeling/label_server.h"
#include "tests/labeling/labeling_fixture.h"
#include "tests/support/test_support.h"

namespace evalsuite::labeling {
namespace {

using evalsuite::testing::TempDir;
using nlohmann::json;

// Six images. Pass 1: 1.0 1.0 0.9 0.7 0.5 0.1; pass 2: 0.7 1.0 0.5 0.7 0.3 (none). Five with both: means 4.1/5
// = 0.82 and 3.2/5 = 0.64, shift -0.18; pass-1 bin [.8,1] (three images): 0.9667 -> 0.7333.
// The model is right on images 0, 1, 3, 5. Pass-2 bins: 0 and 3 in [.6,.8) (both right), 1 in [.8,1] (right),
// 2 in [.4,.6) (wrong), 4 in [.2,.4) (wrong): observed 3/5 = 0.6. Target {.5 on [.4,.6), .5 on [.8,1]}:
// corrected .5 x 0 + .5 x 1 = 0.5, bias +0.1. Target from pass 1 (shares 1/6, 0, 1/6, 1/6, 3/6): bin 0 has no
// pass-2 image, so (1/6 x 0 + 1/6 x 1 + 3/6 x 1) / (5/6) = 0.8, bias -0.2. Every pass-2 bin's top-1 is
// constant (one image, or both right), so no resample moves it: the intervals are the points.
// Top-5 is right on all but image 3: observed 4/5; with pass 1's shares, bin [.6,.8) (images 0 and 3) has 1/2,
// so corrected (1/6 x 1 + 1/6 x 1/2 + 3/6 x 1) / (5/6) = 0.9, bias -0.1. A resample's [.6,.8) mean is 0, 1/2
// or 1 (probabilities 1/4, 1/2, 1/4), the corrected value (4 + mean) / 5: 0.8, 0.9 or 1, so the interval is
// [0.8, 1].
TEST(SecondPassTest, ShiftAndCorrectionByHand) {
  const double nan = std::nan("");
  const std::vector<FrequencyPair> f = {{1.0, 0.7}, {1.0, 1.0}, {0.9, 0.5}, {0.7, 0.7}, {0.5, 0.3}, {0.1, nan}};
  const std::vector<ModelOutcome> models = {{"m", "tta-optimized", {1, 1, 0, 1, 0, 1}, {1, 1, 1, 0, 1, 1}}};
  const SecondPassReport r = CompareSecondPass(f, models, std::array<double, 5>{0, 0, 1, 0, 1});
  EXPECT_EQ(r.images, 6u);
  EXPECT_EQ(r.images_with_pass2, 5u);
  EXPECT_NEAR(r.mean_pass1, 0.82, 1e-12);
  EXPECT_NEAR(r.mean_pass2, 0.64, 1e-12);
  EXPECT_NEAR(r.shift, -0.18, 1e-12);
  EXPECT_EQ(r.bin_images[4], 3u);
  EXPECT_EQ(r.bin_images[0], 0u);
  EXPECT_NEAR(r.bin_mean_pass1[4], 2.9 / 3, 1e-12);
  EXPECT_NEAR(r.bin_mean_pass2[4], 2.2 / 3, 1e-12);
  ASSERT_EQ(r.models.size(), 1u);
  EXPECT_NEAR(r.models[0].top1.observed, 0.6, 1e-12);
  EXPECT_NEAR(r.models[0].top1.corrected.estimate, 0.5, 1e-12);
  EXPECT_NEAR(r.models[0].top1.corrected.interval.lower, 0.5, 1e-12);
  EXPECT_NEAR(r.models[0].top1.corrected.interval.upper, 0.5, 1e-12);
  EXPECT_NEAR(r.models[0].top1.bias, 0.1, 1e-12);
  EXPECT_TRUE(r.empty_target_bins.empty());

  const SecondPassReport own = CompareSecondPass(f, models, std::nullopt);
  EXPECT_EQ(own.target_source, "pass-1 frequencies");
  EXPECT_EQ(own.empty_target_bins, std::vector<std::size_t>{0});
  EXPECT_NEAR(own.models[0].top1.corrected.estimate, 0.8, 1e-12);
  EXPECT_NEAR(own.models[0].top1.corrected.interval.lower, 0.8, 1e-12);
  EXPECT_NEAR(own.models[0].top1.corrected.interval.upper, 0.8, 1e-12);
  EXPECT_NEAR(own.models[0].top1.bias, -0.2, 1e-12);
  const CorrectedAccuracy& top5 = own.models[0].top5;
  EXPECT_EQ(top5.images, 5u);
  EXPECT_NEAR(top5.observed, 0.8, 1e-12);
  EXPECT_NEAR(top5.corrected.estimate, 0.9, 1e-12);
  EXPECT_NEAR(top5.corrected.interval.lower, 0.8, 1e-12);
  EXPECT_NEAR(top5.corrected.interval.upper, 1.0, 1e-12);
  EXPECT_NEAR(top5.bias, -0.1, 1e-12);
  const json j = ToJson(own);
  EXPECT_NEAR(j["frequency_shift"].get<double>(), -0.18, 1e-12);
  EXPECT_EQ(j["target_bins_without_pass2_images"], json({"[0.0, 0.2)"}));
  EXPECT_NEAR(j["models"][0]["top5"]["corrected_lower"].get<double>(), 0.8, 1e-12);
  EXPECT_EQ(j["interval"]["resamples"], stats::kStratifiedBootstrapResamples);
  EXPECT_EQ(j["interval"]["seed"], stats::kStratifiedBootstrapSeed);
  EXPECT_NE(j["interval"]["method"].get<std::string>().find("stratified percentile bootstrap"), std::string::npos);
  const std::string text = RenderSecondPassText(own);
  EXPECT_NE(text.find("top-1 observed 60.0%, corrected 80.0% [80.0%, 80.0%], bias -20.0 pts"), std::string::npos)
      << text;
  EXPECT_NE(text.find("top-5 observed 80.0%, corrected 90.0% [80.0%, 100.0%], bias -10.0 pts"), std::string::npos)
      << text;
  EXPECT_NE(text.find("2000 resamples, seed 20200512"), std::string::npos) << text;
  EXPECT_EQ(own.models[0].top1.smallest_bin, 1u);
  EXPECT_NE(text.find("Caution: a weighted pass-2 bin holds only 1 image(s)"), std::string::npos) << text;

  // An older predictions file without top-5 outcomes: top-5 is n/a, top-1 unchanged.
  const SecondPassReport no_top5 = CompareSecondPass(f, {{"m", "g", {1, 1, 0, 1, 0, 1}, {}}}, std::nullopt);
  EXPECT_EQ(no_top5.models[0].top5.images, 0u);
  EXPECT_TRUE(std::isnan(no_top5.models[0].top5.corrected.estimate));
  EXPECT_NE(RenderSecondPassText(no_top5).find("top-5 n/a"), std::string::npos) << RenderSecondPassText(no_top5);
}

// Coverage of the corrected accuracy's interval, simulated. 300 images per holdout, their pass-2 bins fixed in
// proportion {30, 40, 60, 80, 90}; in bin b a model is right (top-1) with probability p1[b] and within top 5
// with p5[b]; the target shares are {.05, .1, .15, .3, .4}, so the true corrected accuracies are
// sum t_b p1[b] = 0.735 and sum t_b p5[b] = 0.878. 400 holdouts, 400 resamples each: each 95% interval must
// hold the truth in at least 95% - 3 standard errors of the simulation (0.95 - 3 x 0.0109 = 0.917) of them,
// and not in nearly all (at most 0.99: an interval that is too wide would pass the first check).
TEST(SecondPassTest, CorrectedAccuracyIntervalCoversTheTruth) {
  const std::array<std::size_t, 5> sizes = {30, 40, 60, 80, 90};
  const std::array<double, 5> bin_frequency = {0.1, 0.3, 0.5, 0.7, 0.9};
  const std::array<double, 5> p1 = {0.3, 0.45, 0.6, 0.75, 0.9}, p5 = {0.6, 0.7, 0.8, 0.9, 0.97};
  const std::array<double, 5> target = {0.05, 0.1, 0.15, 0.3, 0.4};
  double truth1 = 0, truth5 = 0;
  for (std::size_t b = 0; b < 5; ++b) {
    truth1 += target[b] * p1[b];
    truth5 += target[b] * p5[b];
  }
  ASSERT_NEAR(truth1, 0.735, 1e-12);
  ASSERT_NEAR(truth5, 0.878, 1e-12);
  std::mt19937_64 engine(29);
  auto bernoulli = [&](double p) { return (engine() >> 11) * 0x1.0p-53 < p ? 1 : 0; };
  constexpr int kHoldouts = 400;
  int covered1 = 0, covered5 = 0;
  for (int h = 0; h < kHoldouts; ++h) {
    std::vector<FrequencyPair> f;
    ModelOutcome model{"m", "pretrained", {}, {}};
    for (std::size_t b = 0; b < 5; ++b) {
      for (std::size_t i = 0; i < sizes[b]; ++i) {
        f.push_back({1.0, bin_frequency[b]});
        const int top1 = bernoulli(p1[b]);
        model.top1.push_back(top1);
        model.top5.push_back(top1 == 1 ? 1 : bernoulli((p5[b] - p1[b]) / (1 - p1[b])));
      }
    }
    const SecondPassReport r = CompareSecondPass(f, {model}, target, 400, 1000 + h);
    const stats::Interval i1 = r.models[0].top1.corrected.interval, i5 = r.models[0].top5.corrected.interval;
    covered1 += i1.lower <= truth1 && truth1 <= i1.upper;
    covered5 += i5.lower <= truth5 && truth5 <= i5.upper;
    if (h == 0) EXPECT_EQ(RenderSecondPassText(r).find("Caution"), std::string::npos);  // 30 images per bin at least
  }
  const double coverage1 = covered1 / double(kHoldouts), coverage5 = covered5 / double(kHoldouts);
  EXPECT_GE(coverage1, 0.917);
  EXPECT_LE(coverage1, 0.99);
  EXPECT_GE(coverage5, 0.917);
  EXPECT_LE(coverage5, 0.99);
  std::cout << "coverage of the corrected top-1 interval " << coverage1 << ", top-5 " << coverage5 << "\n";
}

// Pass 1: ann judged photo1 of each class, ben every photo. The frozen holdout (majority) holds the nine photos.
// Pass 2: ann gets only the six she did not judge, ben none, dan all nine; a decision ann may not make is
// refused, and pass-2 decisions go to the pass-2 store only.
TEST(SecondPassTest, PassTwoServesEachImageOnlyToLabelersWhoDidNotJudgeIt) {
  TempDir dir;
  const auto folder = testing::MakeCandidateFolder(dir / "candidates");
  LabelStore pass1(dir / "candidates" / "labels.sqlite");
  for (const char* wnid : {"n01440764", "n02102040", "n03417042"}) {
    for (const char* photo : {"/photo1", "/photo2", "/photo3"}) {
      const std::string id = std::string(wnid) + photo;
      if (std::string(photo) == "/photo1") pass1.AppendLabel(id, "ann", Label::kCorrect, 1);
      pass1.AppendLabel(id, "ben", Label::kCorrect, 1);
    }
  }
  const FreezeSummary frozen = FreezeHoldout(folder.manifest, folder.dir, CurrentDecisions(pass1.Events()),
                                             ParseFreezeRule("majority", 1), dir / "holdout", "");
  ASSERT_EQ(frozen.selected, 9u);
  const datasets::Holdout holdout = datasets::ReadHoldout(dir / "holdout");
  testing::CandidateFolder second{dir / "holdout", SecondPassManifest(folder.manifest, holdout, "holdout")};
  ASSERT_EQ(second.manifest.items.size(), 9u);

  LabelStore pass2(dir / "holdout" / kSecondPassStoreFile);
  ServerOptions options = testing::RunningServer::DefaultOptions();
  options.assignment.excluded = ItemsJudgedBy(CurrentDecisions(pass1.Events()));
  testing::RunningServer server(second, pass2, options);
  httplib::Client client("127.0.0.1", server.port());
  auto queue_of = [&](const std::string& labeler) {
    std::set<std::string> ids;
    const json queue = json::parse(client.Get("/api/queue?labeler=" + labeler)->body);
    for (const json& item : queue["items"]) {
      ids.insert(item["id"].get<std::string>());
    }
    return ids;
  };
  const std::set<std::string> ann = queue_of("ann");
  EXPECT_EQ(ann.size(), 6u);
  for (const std::string& id : ann) EXPECT_EQ(id.find("photo1"), std::string::npos) << id;
  EXPECT_TRUE(queue_of("ben").empty());
  EXPECT_EQ(queue_of("dan").size(), 9u);

  const httplib::Headers headers = {{"X-CSRF-Token", server.server().page_token()}};
  auto post = [&](const std::string& labeler, const std::string& item) {
    return client.Post("/api/label", headers, json{{"labeler", labeler}, {"item", item}, {"label", "incorrect"}}.dump(),
                       "application/json");
  };
  const auto refused = post("ann", "n01440764/photo1");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 403) << refused->body;
  EXPECT_NE(refused->body.find("pass 1"), std::string::npos) << refused->body;
  const auto saved = post("ann", "n01440764/photo2");
  ASSERT_TRUE(saved);
  EXPECT_EQ(saved->status, 200) << saved->body;
  EXPECT_EQ(post("dan", "n01440764/photo1")->status, 200);
  EXPECT_EQ(pass2.Events().size(), 2u);
  EXPECT_EQ(pass1.Events().size(), 12u);  // pass 1 untouched

  datasets::CandidateManifest other = folder.manifest;
  other.items.pop_back();
  other.items.erase(other.items.begin());  // the first frozen image is no longer a candidate
  EXPECT_THROW(SecondPassManifest(other, holdout, "holdout"), Error);
}

}  // namespace
}  // namespace evalsuite::labeling
