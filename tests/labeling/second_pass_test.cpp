// The debiasing pass: frozen images served again only to labelers who did not judge them (real SQLite stores,
// the real server over loopback), and the comparison of the passes computed by hand.
#include "labeling/second_pass.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "common/error.h"
#include "labeling/holdout_freeze.h"
#include "labeling/holdout_sampling.h"
#include "labeling/label_server.h"
#include "tests/labeling/labeling_fixture.h"
#include "tests/support/test_support.h"

namespace evalsuite::labeling {
namespace {

using evalsuite::testing::TempDir;
using nlohmann::json;

// Six images. Pass 1: 1.0 1.0 0.9 0.7 0.5 0.1; pass 2 (10 votes each): 0.7 1.0 0.5 0.7 0.3 (none). Five with
// both: means 4.1/5 = 0.82 and 3.2/5 = 0.64, shift -0.18; pass-1 bin [.8,1] (three images): 0.9667 -> 0.7333.
// The model is right on images 0, 1, 3, 5. The naive bin-reweighted figure groups by pass-2 bin: 0 and 3 in
// [.6,.8) (both right), 1 in [.8,1] (right), 2 in [.4,.6) (wrong), 4 in [.2,.4) (wrong): observed 3/5 = 0.6;
// target {.5 on [.4,.6), .5 on [.8,1]}: .5 x 0 + .5 x 1 = 0.5. Target from pass 1 (shares 1/6, 0, 1/6, 1/6,
// 3/6): (1/6 x 0 + 1/6 x 1 + 3/6 x 1) / (5/6) = 0.8. The corrected figure is the binomial-mixture model's on
// the same votes (its arithmetic and its bias are tested in tests/stats/selection_frequency_correction_test.cpp).
TEST(SecondPassTest, ShiftByHandAndTheCorrectionGetsEachImagesVotes) {
  const double nan = std::nan("");
  const std::vector<FrequencyPair> f = {{1.0, 0.7, 10, 7}, {1.0, 1.0, 10, 10}, {0.9, 0.5, 10, 5},
                                        {0.7, 0.7, 10, 7}, {0.5, 0.3, 10, 3},  {0.1, nan, 0, 0}};
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
  const CorrectedAccuracy& top1 = r.models[0].top1;
  EXPECT_EQ(top1.images, 5u);
  EXPECT_NEAR(top1.observed, 0.6, 1e-12);
  EXPECT_NEAR(top1.correction.naive, 0.5, 1e-12);
  const stats::SelectionCorrection direct = stats::CorrectForSelectionFrequency(
      {{10, 7, true}, {10, 10, true}, {10, 5, false}, {10, 7, true}, {10, 3, false}}, {0, 0, 0.5, 0, 0.5});
  ASSERT_TRUE(top1.correction.withheld.empty()) << top1.correction.withheld;
  EXPECT_DOUBLE_EQ(top1.correction.estimate, direct.estimate);
  EXPECT_NEAR(top1.bias, 0.6 - direct.estimate, 1e-12);

  const SecondPassReport own = CompareSecondPass(f, models, std::nullopt);
  EXPECT_EQ(own.target_source, "pass-1 frequencies");
  EXPECT_NEAR(own.models[0].top1.correction.naive, 0.8, 1e-12);
  const json j = ToJson(own);
  EXPECT_NEAR(j["frequency_shift"].get<double>(), -0.18, 1e-12);
  EXPECT_NEAR(j["models"][0]["top1"]["naive_bin_reweighted"].get<double>(), 0.8, 1e-12);
  EXPECT_TRUE(j["models"][0]["top1"]["withheld"].is_null());
  EXPECT_TRUE(j["interval"].is_null());
  EXPECT_NE(j["method"].get<std::string>().find("Engstrom et al. 2020, section 5.3"), std::string::npos);
  const std::string text = RenderSecondPassText(own);
  EXPECT_NE(
      text.find(fmt::format("top-1 observed 60.0%, corrected {:.1f}%", own.models[0].top1.correction.estimate * 100)),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("no interval"), std::string::npos) << text;

  // Two votes per image: withheld, with the reason, in the text and the JSON.
  std::vector<FrequencyPair> two = f;
  for (FrequencyPair& p : two) {
    if (p.pass2_votes > 0) {
      p.pass2_votes = 2;
      p.pass2_yes = p.pass2 >= 0.5 ? 2 : 0;
    }
  }
  const SecondPassReport few = CompareSecondPass(two, models, std::nullopt);
  EXPECT_TRUE(std::isnan(few.models[0].top1.correction.estimate));
  EXPECT_NE(RenderSecondPassText(few).find("corrected: withheld"), std::string::npos) << RenderSecondPassText(few);
  EXPECT_NE(RenderSecondPassText(few).find("Withheld: the median image has 2 pass-2 vote(s)"), std::string::npos);
  EXPECT_NE(ToJson(few)["models"][0]["top1"]["withheld"].get<std::string>().find("needs at least 10"),
            std::string::npos);

  // An older predictions file without top-5 outcomes: top-5 is n/a, top-1 unchanged.
  const SecondPassReport no_top5 = CompareSecondPass(f, {{"m", "g", {1, 1, 0, 1, 0, 1}, {}}}, std::nullopt);
  EXPECT_EQ(no_top5.models[0].top5.images, 0u);
  EXPECT_TRUE(std::isnan(no_top5.models[0].top5.correction.estimate));
  EXPECT_NE(RenderSecondPassText(no_top5).find("top-5 n/a"), std::string::npos) << RenderSecondPassText(no_top5);
}

// Issue 36 item 15: without models (label debias without --eval) there is no dangling "Accuracy corrected..."
// header, but a line saying how to get one.
TEST(SecondPassTest, WithoutModelsNoAccuracyHeader) {
  const SecondPassReport r = CompareSecondPass({{1.0, 0.7, 10, 7}}, {}, std::nullopt);
  const std::string text = RenderSecondPassText(r);
  EXPECT_EQ(text.find("Accuracy corrected"), std::string::npos) << text;
  EXPECT_NE(text.find("No model accuracy to correct: give --eval"), std::string::npos) << text;
}

// Issue 34 item 10 (a): matched-frequency aims every class at its own histogram's targets, so the holdout's aim
// is their sum, not the pooled histogram, which weights classes by their reference size. Class a: 30 reference
// images, all in [.8,1]; class b: 10, all in [0,.2). Ten per class: aim {10, 0, 0, 0, 10}, shares .5 and .5; the
// pooled histogram {10, 0, 0, 0, 30} would give .25 and .75 (what label debias used before).
TEST(SecondPassTest, TargetIsTheSamplingsPerClassAimNotThePooledHistogram) {
  ReferenceHistogram reference;
  reference.by_class["a"] = {0, 0, 0, 0, 30};
  reference.by_class["b"] = {10, 0, 0, 0, 0};
  reference.pooled = {10, 0, 0, 0, 30};
  EXPECT_EQ(SamplingAim(reference, {"a", "b"}, 10), (std::array<std::size_t, 5>{10, 0, 0, 0, 10}));
  // A manifest from before the aim was recorded: recomputed from its histogram over the classes.
  const json old_rule = {{"sampling", {{"per_class", 10}, {"reference", {{"histogram", HistogramToJson(reference)}}}}}};
  const auto recomputed = SamplingTarget(old_rule, {"a", "b"}, "holdout");
  ASSERT_TRUE(recomputed.has_value());
  EXPECT_EQ(*recomputed, (std::array<double, 5>{10, 0, 0, 0, 10}));
  // The recorded aim wins.
  json new_rule = old_rule;
  new_rule["sampling"]["aim_by_bin"] = {4, 0, 0, 0, 16};
  EXPECT_EQ(*SamplingTarget(new_rule, {"a", "b"}, "holdout"), (std::array<double, 5>{4, 0, 0, 0, 16}));
  new_rule["sampling"]["aim_by_bin"] = {4, 0};
  EXPECT_THROW(SamplingTarget(new_rule, {"a", "b"}, "holdout"), Error);
  // A freeze that aimed at no histogram: no target (debias uses the pass-1 frequencies).
  EXPECT_FALSE(SamplingTarget(json{{"rule", "majority"}}, {"a"}, "holdout").has_value());
  const SecondPassReport r =
      CompareSecondPass({{1.0, 0.9, 10, 9}}, {}, SamplingTarget(old_rule, {"a", "b"}, "holdout"));
  EXPECT_NEAR(r.target[0], 0.5, 1e-12);
  EXPECT_NEAR(r.target[4], 0.5, 1e-12);
}

// Pass 1: ann judged photo1 of each class, ben every photo; ann also labeled n03417042/photo3 and undid it (issue
// 36 item 13: she has seen it). The frozen holdout (majority) holds the nine photos. Pass 2: ann gets only the
// five she never saw, ben none, dan all nine; a decision ann may not make is refused, and pass-2 decisions go to
// the pass-2 store only.
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
  pass1.AppendLabel("n03417042/photo3", "ann", Label::kIncorrect, 1);
  ASSERT_TRUE(pass1.AppendUndo("ann", std::string("n03417042/photo3")).has_value());
  const FreezeSummary frozen = FreezeHoldout(folder.manifest, folder.dir, CurrentDecisions(pass1.Events()),
                                             ParseFreezeRule("majority", 1), dir / "holdout", "");
  ASSERT_EQ(frozen.selected, 9u);
  const datasets::Holdout holdout = datasets::ReadHoldout(dir / "holdout");
  testing::CandidateFolder second{dir / "holdout", SecondPassManifest(folder.manifest, holdout, "holdout")};
  ASSERT_EQ(second.manifest.items.size(), 9u);

  LabelStore pass2(dir / "holdout" / kSecondPassStoreFile);
  ServerOptions options = testing::RunningServer::DefaultOptions();
  options.assignment.excluded = ItemsSeenBy(pass1.Events());
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
  EXPECT_EQ(ann.size(), 5u);
  for (const std::string& id : ann) EXPECT_EQ(id.find("photo1"), std::string::npos) << id;
  EXPECT_EQ(ann.count("n03417042/photo3"), 0u) << "labeled and undone in pass 1: seen";
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
  EXPECT_EQ(pass1.Events().size(), 14u);  // pass 1 untouched

  datasets::CandidateManifest other = folder.manifest;
  other.items.pop_back();
  other.items.erase(other.items.begin());  // the first frozen image is no longer a candidate
  EXPECT_THROW(SecondPassManifest(other, holdout, "holdout"), Error);
}

}  // namespace
}  // namespace evalsuite::labeling
