// Per-class sampling (ImageNetV2's MatchedFrequency, Threshold, TopImages) on a fixture whose selection
// frequencies and reference histogram are known: the counts per bin are computed by hand in the comments.
#include "labeling/holdout_sampling.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "common/error.h"
#include "tests/support/test_support.h"

namespace evalsuite::labeling {
namespace {

// Two classes of 15 candidates, ten votes each (frequency = correct / 10):
//   nA: bin 0 {0.0, 0.1}, bin 1 {}, bin 2 {0.4, 0.5 x4}, bin 3 {0.6, 0.7}, bin 4 {0.8, 0.9, 1.0 x4}
//   nB: bin 2 {0.4 x2, 0.5 x2}, bin 3 {0.6 x2, 0.7}, bin 4 {0.8 x3, 0.9 x2, 1.0 x3}
struct Fixture {
  datasets::CandidateManifest manifest;
  AgreementReport agreement;
  std::vector<bool> eligible;
  void Add(const std::string& wnid, int class_index, const std::vector<int>& correct_of_10) {
    manifest.classes[wnid] = datasets::CandidateClass{class_index, wnid, {wnid}, ""};
    for (int correct : correct_of_10) {
      datasets::Candidate c;
      c.wnid = wnid;
      c.class_index = class_index;
      c.rank = static_cast<int>(agreement.items.size()) + 1;
      c.id = wnid + "/" + std::to_string(c.rank);
      manifest.items.push_back(c);
      ItemAgreement item;
      item.item_id = c.id;
      item.wnid = wnid;
      item.class_index = class_index;
      item.correct = static_cast<std::size_t>(correct);
      item.incorrect = static_cast<std::size_t>(10 - correct);
      agreement.items.push_back(item);
      eligible.push_back(true);
    }
  }
  Fixture() {
    Add("nA", 0, {0, 1, 4, 5, 5, 5, 5, 6, 7, 8, 9, 10, 10, 10, 10});
    Add("nB", 1, {4, 4, 5, 5, 6, 6, 7, 8, 8, 8, 9, 9, 10, 10, 10});
  }
  double Frequency(std::size_t i) const { return agreement.items[i].selection_frequency(); }
};

ReferenceHistogram Reference() {
  ReferenceHistogram reference;
  reference.by_class["nA"] = {1, 1, 2, 3, 3};
  reference.pooled = {0, 0, 1, 1, 2};  // nB is not in the reference: the pooled histogram applies
  reference.description = {{"kind", "test"}};
  return reference;
}

TEST(HoldoutSamplingTest, BinsAreImageNetV2s) {
  EXPECT_EQ(FrequencyBin(0.0), 0);
  EXPECT_EQ(FrequencyBin(0.19), 0);
  EXPECT_EQ(FrequencyBin(0.2), 1);
  EXPECT_EQ(FrequencyBin(0.6), 3);
  EXPECT_EQ(FrequencyBin(0.8), 4);
  EXPECT_EQ(FrequencyBin(1.0), 4);
  EXPECT_EQ(FrequencyBin(1.01), -1);
  EXPECT_EQ(FrequencyBin(std::nan("")), -1);
}

// Largest remainder: {1,1,1,0,0} of 10 is 3.33 each, floors 3+3+3, the tenth to the lowest bin.
// {0,0,1,1,2} of 10: 2.5, 2.5, 5, floors 2+2+5, the tenth to bin 2 (a tie goes to the lower bin).
TEST(HoldoutSamplingTest, BinTargetsAddUpByLargestRemainder) {
  using Targets = std::array<std::size_t, kFrequencyBins>;
  EXPECT_EQ(BinTargets({1, 1, 1, 0, 0}, 10), (Targets{4, 3, 3, 0, 0}));
  EXPECT_EQ(BinTargets({0, 0, 1, 1, 2}, 10), (Targets{0, 0, 3, 2, 5}));
  EXPECT_EQ(BinTargets({1, 1, 2, 3, 3}, 10), (Targets{1, 1, 2, 3, 3}));
  EXPECT_EQ(BinTargets({0.1, 0.2, 0.3, 0.2, 0.2}, 4), (Targets{0, 1, 1, 1, 1}));  // .4 .8 1.2 .8 .8
  EXPECT_EQ(BinTargets({0, 0, 0, 0, 0}, 10), (Targets{0, 0, 0, 0, 0}));
}

// nA wants {1, 1, 2, 3, 3}: it has 2, 0, 5, 2, 6, so it gets {1, 0, 2, 2, 3} = 8 and lacks one image in bin 1
// and one in bin 3. nB (pooled) wants {0, 0, 3, 2, 5} and has 4, 3, 8: filled.
TEST(HoldoutSamplingTest, MatchedFrequencyGivesTheHandComputedCountsPerBin) {
  const Fixture f;
  SamplingPlan plan = ParseSamplingPlan("matched-frequency", 10, 10, 7);
  plan.reference = Reference();
  const SamplingOutcome outcome = SampleHoldout(f.manifest, f.agreement, f.eligible, plan);
  std::map<std::string, std::array<std::size_t, kFrequencyBins>> per_class;
  for (std::size_t i : outcome.chosen) {
    ++per_class[f.manifest.items[i].wnid][static_cast<std::size_t>(FrequencyBin(f.Frequency(i)))];
  }
  using Counts = std::array<std::size_t, kFrequencyBins>;
  EXPECT_EQ(per_class["nA"], (Counts{1, 0, 2, 2, 3}));
  EXPECT_EQ(per_class["nB"], (Counts{0, 0, 3, 2, 5}));
  EXPECT_EQ(outcome.chosen_by_bin, (Counts{1, 0, 5, 4, 8}));
  ASSERT_EQ(outcome.short_classes.size(), 1u);
  EXPECT_EQ(outcome.short_classes[0].wnid, "nA");
  EXPECT_EQ(outcome.short_classes[0].lacking, 2u);
  EXPECT_EQ(outcome.short_classes[0].lacking_by_bin, (Counts{0, 1, 0, 1, 0}));
  EXPECT_EQ(outcome.pooled_reference_classes, std::vector<std::string>{"nB"});
  // The aim, for label debias: every class's targets summed (nA {1,1,2,3,3} + nB {0,0,3,2,5}), short or not.
  EXPECT_EQ(outcome.aim_by_bin, (Counts{1, 1, 5, 5, 8}));
  EXPECT_EQ(outcome.aim_by_bin, SamplingAim(plan.reference.value(), {"nA", "nB"}, 10));
  EXPECT_TRUE(outcome.thin_reference_classes.empty());  // how many images made the histogram is not known here

  const nlohmann::json record = SamplingToJson(plan, outcome);
  EXPECT_EQ(record["variant"], "matched-frequency");
  EXPECT_EQ(record["seed"], 7);
  EXPECT_EQ(record["min_votes"], 10);
  EXPECT_EQ(record["reference"]["kind"], "test");
  EXPECT_EQ(record["short_classes"][0]["lacking"], 2);
  EXPECT_EQ(record["bins"], nlohmann::json({0.0, 0.2, 0.4, 0.6, 0.8, 1.0}));
  EXPECT_EQ(record["aim_by_bin"], nlohmann::json({1, 1, 5, 5, 8}));
}

// Issue 36 item 14: a class whose histogram rests on fewer than 20 reference images (ImageNetV2's minimum) is
// sampled all the same but listed, with its count; 20 is enough. A file's whole-number counts give the count,
// shares do not.
TEST(HoldoutSamplingTest, ClassesMatchedAgainstFewReferenceImagesAreListed) {
  const Fixture f;
  SamplingPlan plan = ParseSamplingPlan("matched-frequency", 10, 10, 7);
  plan.reference = Reference();
  plan.reference->images_by_class["nA"] = 19;
  SamplingOutcome outcome = SampleHoldout(f.manifest, f.agreement, f.eligible, plan);
  ASSERT_EQ(outcome.thin_reference_classes.size(), 1u);
  EXPECT_EQ(outcome.thin_reference_classes[0].wnid, "nA");
  EXPECT_EQ(outcome.thin_reference_classes[0].images, 19u);
  const nlohmann::json record = SamplingToJson(plan, outcome);
  EXPECT_EQ(record["reference_min_images_per_class"], kMinReferenceImagesPerClass);
  EXPECT_EQ(record["thin_reference_classes"][0]["images"], 19);
  plan.reference->images_by_class["nA"] = kMinReferenceImagesPerClass;
  EXPECT_TRUE(SampleHoldout(f.manifest, f.agreement, f.eligible, plan).thin_reference_classes.empty());

  evalsuite::testing::TempDir dir;
  std::ofstream(dir / "h.json") << R"({"classes": {"nA": [0, 0, 0, 0, 1], "nB": [0.1, 0.2, 0.3, 0.2, 0.2]}})";
  const ReferenceHistogram file = ReadReferenceHistogram(dir / "h.json");
  EXPECT_EQ(file.images_by_class.at("nA"), 1u);
  EXPECT_EQ(file.images_by_class.count("nB"), 0u);
  plan.reference = file;
  outcome = SampleHoldout(f.manifest, f.agreement, f.eligible, plan);
  ASSERT_EQ(outcome.thin_reference_classes.size(), 1u);  // one image sends all ten of nA's targets to [.8,1]
  EXPECT_EQ(outcome.thin_reference_classes[0].wnid, "nA");
}

TEST(HoldoutSamplingTest, TheDrawIsFixedByTheSeedAndVariesWithIt) {
  const Fixture f;
  SamplingPlan plan = ParseSamplingPlan("matched-frequency", 10, 10, 7);
  plan.reference = Reference();
  const std::vector<std::size_t> first = SampleHoldout(f.manifest, f.agreement, f.eligible, plan).chosen;
  EXPECT_EQ(SampleHoldout(f.manifest, f.agreement, f.eligible, plan).chosen, first);
  std::set<std::vector<std::size_t>> draws;
  for (uint64_t seed = 0; seed < 8; ++seed) {
    plan.seed = seed;
    draws.insert(SampleHoldout(f.manifest, f.agreement, f.eligible, plan).chosen);
  }
  EXPECT_GT(draws.size(), 4u);  // nA alone has C(5,2) * C(6,3) = 200 possible draws
  // A class's draw depends on the seed and its wnid only: removing nB leaves nA's draw as it was.
  Fixture only_a;
  only_a.manifest.classes.erase("nB");
  for (std::size_t i = 15; i < 30; ++i) only_a.eligible[i] = false;
  plan.seed = 7;
  std::vector<std::size_t> a_first;
  for (std::size_t i : first) {
    if (i < 15) a_first.push_back(i);
  }
  EXPECT_EQ(SampleHoldout(only_a.manifest, only_a.agreement, only_a.eligible, plan).chosen, a_first);
}

// Threshold 0.7: nA has 7 such images (0.7, 0.8, 0.9, 1.0 x4), nB 9: both short of 10. Top 4: the four 1.0s of
// nA (ranks 12-15) and the three 1.0s of nB with its best 0.9 (rank 26, the better-ranked of two).
TEST(HoldoutSamplingTest, ThresholdAndTopImages) {
  const Fixture f;
  const SamplingOutcome threshold =
      SampleHoldout(f.manifest, f.agreement, f.eligible, ParseSamplingPlan("threshold:0.7", 10, 10, 1));
  EXPECT_EQ(threshold.chosen.size(), 16u);
  for (std::size_t i : threshold.chosen) EXPECT_GE(f.Frequency(i), 0.7);
  ASSERT_EQ(threshold.short_classes.size(), 2u);
  EXPECT_EQ(threshold.short_classes[0].lacking, 3u);
  EXPECT_EQ(threshold.short_classes[1].lacking, 1u);

  const SamplingOutcome top = SampleHoldout(f.manifest, f.agreement, f.eligible, ParseSamplingPlan("top:4", {}, 10, 0));
  std::vector<std::string> ids;
  for (std::size_t i : top.chosen) ids.push_back(f.manifest.items[i].id);
  EXPECT_EQ(ids, (std::vector<std::string>{"nA/12", "nA/13", "nA/14", "nA/15", "nB/26", "nB/28", "nB/29", "nB/30"}));
  EXPECT_TRUE(top.short_classes.empty());
}

TEST(HoldoutSamplingTest, BadSpecificationsAndHistogramFilesAreNamed) {
  for (const char* bad : {"matched", "threshold:", "threshold:1.5", "threshold:x", "top:0", "top:2.5", ""}) {
    EXPECT_THROW(ParseSamplingPlan(bad, 10, 10, 0), Error) << bad;
  }
  EXPECT_THROW(ParseSamplingPlan("top:5", 10, 10, 0), Error);  // contradicts --per-class
  EXPECT_EQ(ParseSamplingPlan("top:5", 5, 10, 0).per_class, 5u);
  EXPECT_EQ(ParseSamplingPlan("matched-frequency", {}, 10, 0).per_class, 10u);  // ImageNetV2's ten

  evalsuite::testing::TempDir dir;
  auto write = [&](const std::string& text) {
    std::ofstream(dir / "h.json") << text;
    return dir / "h.json";
  };
  const ReferenceHistogram ok = ReadReferenceHistogram(write(R"({"classes": {"nA": [1, 1, 2, 3, 3]}})"));
  EXPECT_EQ(ok.pooled, (BinCounts{1, 1, 2, 3, 3}));
  EXPECT_EQ(ok.description["kind"], "file");
  for (const auto& [text, field] : std::vector<std::pair<std::string, std::string>>{
           {R"({"pooled": [1, 2, 3]})", "pooled"},
           {R"({"pooled": [1, 2, 3, -1, 0]})", "pooled[3]"},
           {R"({"classes": {"nA": [0, 0, 0, 0, 0]}})", "classes.nA"},
           {R"({"bins": [0, 0.25, 0.5, 0.75, 1], "pooled": [1, 1, 1, 1, 1]})", "bins"},
           {R"({})", "no histogram"},
           {R"([1, 2)", "not valid JSON"}}) {
    try {
      ReadReferenceHistogram(write(text));
      ADD_FAILURE() << text;
    } catch (const Error& e) {
      const std::string all = e.where() + " " + e.message();
      EXPECT_NE(all.find(field), std::string::npos) << all;
      EXPECT_NE(all.find("h.json"), std::string::npos) << all;
    }
  }
}

}  // namespace
}  // namespace evalsuite::labeling
