// Freezing: rules, minimum labelers, controls left out, copies verified by VerifyHoldout, refusals.
#include "labeling/holdout_freeze.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "datasets/images/holdout_manifest.h"
#include "labeling/holdout_sampling.h"
#include "tests/labeling/labeling_fixture.h"
#include "tests/support/test_support.h"

namespace evalsuite::labeling {
namespace {

namespace fs = std::filesystem;
using evalsuite::testing::TempDir;
using evalsuite::testing::WriteFile;

class HoldoutFreezeTest : public ::testing::Test {
 protected:
  HoldoutFreezeTest()
      : folder_(testing::MakeCandidateFolder(dir_ / "candidates")), store_(dir_ / "candidates" / "labels.sqlite") {
    // Three labelers. photo1 of each class: 3 correct; photo2: 2 of 3 correct; photo3: 1 of 3 correct;
    // the springer control: 3 correct (wrongly) but a control never enters the holdout.
    for (const char* wnid : {"n01440764", "n02102040", "n03417042"}) {
      const std::string w(wnid);
      Label(w + "/photo1", "ccc");
      Label(w + "/photo2", "cci");
      Label(w + "/photo3", "ciu");
    }
    Label("n02102040/control", "ccc");
  }
  void Label(const std::string& item, const std::string& labels) {
    const char* names[] = {"ann", "ben", "cat"};
    for (std::size_t k = 0; k < labels.size(); ++k) {
      store_.AppendLabel(item, names[k],
                         labels[k] == 'c'   ? labeling::Label::kCorrect
                         : labels[k] == 'i' ? labeling::Label::kIncorrect
                                            : labeling::Label::kUnsure,
                         1);
    }
  }
  FreezeSummary Freeze(const std::string& rule, std::size_t min_labelers, const fs::path& out) {
    return FreezeHoldout(folder_.manifest, folder_.dir, CurrentDecisions(store_.Events()),
                         ParseFreezeRule(rule, min_labelers), out, "");
  }

  TempDir dir_;
  testing::CandidateFolder folder_;
  LabelStore store_;
};

TEST_F(HoldoutFreezeTest, MajorityKeepsItemsMostLabelersCalledCorrectAndTheResultVerifies) {
  const fs::path out = dir_ / "holdout";
  const FreezeSummary summary = Freeze("majority", 2, out);
  EXPECT_EQ(summary.candidates, 10u);
  EXPECT_EQ(summary.selected, 6u);  // photo1 and photo2 of each class
  EXPECT_EQ(summary.rejected_by_rule, 3u);
  EXPECT_EQ(summary.controls_left_out, 1u);

  const datasets::Holdout holdout = datasets::ReadHoldout(out);
  EXPECT_TRUE(datasets::VerifyHoldout(holdout, out).empty());
  EXPECT_EQ(holdout.version_hash, summary.holdout.version_hash);
  EXPECT_EQ(holdout.version_hash.size(), 64u);
  EXPECT_EQ(holdout.name, "holdout");
  EXPECT_EQ(holdout.rule["rule"], "majority");
  EXPECT_EQ(holdout.rule["min_labelers"], 2);
  ASSERT_EQ(holdout.items.size(), 6u);
  EXPECT_EQ(holdout.items[0].id, "n01440764/photo1");  // class by class, by rank
  EXPECT_EQ(holdout.items[0].class_index, 0);
  EXPECT_EQ(holdout.items[0].class_name, "tench");
  EXPECT_EQ(holdout.items[0].labels["correct"], 3);
  EXPECT_DOUBLE_EQ(holdout.items[0].frequency, 1.0);
  EXPECT_EQ(holdout.items[1].labels["incorrect"], 1);
  EXPECT_NEAR(holdout.items[1].frequency, 2.0 / 3.0, 1e-12);
  EXPECT_EQ(holdout.items[5].wnid, "n03417042");
  EXPECT_EQ(holdout.items[5].class_index, 569);
  for (const auto& item : holdout.items) {
    EXPECT_NE(item.id, "n02102040/control");
    EXPECT_TRUE(fs::exists(out / item.path));
  }
  // No staging folder is left beside it.
  for (const auto& entry : fs::directory_iterator(dir_.path())) {
    EXPECT_EQ(entry.path().filename().string().find(".freezing-"), std::string::npos);
  }

  // Tampering is caught by the holdout's own verification.
  WriteFile(out / holdout.items[0].path, "changed");
  EXPECT_FALSE(datasets::VerifyHoldout(datasets::ReadHoldout(out), out).empty());
}

// The version hash covers what a model is scored against besides the items: editing the class list, the class
// names or the rule in manifest.json without re-freezing is caught (it was not before schema 2).
TEST_F(HoldoutFreezeTest, VersionHashCoversClassListClassNamesAndRule) {
  const fs::path out = dir_ / "holdout";
  Freeze("majority", 2, out);
  const std::string original = evalsuite::testing::ReadFile(out / datasets::kHoldoutManifestFile);
  ASSERT_TRUE(datasets::VerifyHoldout(datasets::ReadHoldout(out), out).empty());
  EXPECT_EQ(nlohmann::json::parse(original)["schema_version"], 2);
  const std::vector<std::pair<std::string, nlohmann::json>> edits = {
      {"class_list", "fashion-mnist"},
      {"class_names", nlohmann::json::array({"tench", "springer", "golf ball"})},
      {"rule", {{"rule", "majority"}, {"min_labelers", 1}}}};
  for (const auto& [field, value] : edits) {
    nlohmann::json edited = nlohmann::json::parse(original);
    edited[field] = value;
    WriteFile(out / datasets::kHoldoutManifestFile, edited.dump(1));
    const auto problems = datasets::VerifyHoldout(datasets::ReadHoldout(out), out);
    ASSERT_EQ(problems.size(), 1u) << field;
    EXPECT_NE(problems[0].find("the class list, class names, rule and items"), std::string::npos) << problems[0];
  }
  // A schema-1 holdout (items-only hash) still verifies as it was written.
  datasets::Holdout legacy = datasets::ReadHoldout(out);
  legacy.schema_version = 1;
  nlohmann::json old = nlohmann::json::parse(original);
  old["schema_version"] = 1;
  old["version_hash"] = datasets::ComputeHoldoutVersionHash(legacy);
  WriteFile(out / datasets::kHoldoutManifestFile, old.dump(1));
  EXPECT_TRUE(datasets::VerifyHoldout(datasets::ReadHoldout(out), out).empty());
}

// A candidate `holdout dedupe` flagged as a copy of an ImageNet validation image (distance 0) stays out of the
// holdout, counted in the summary; --keep-near-duplicates keeps it.
TEST_F(HoldoutFreezeTest, NearDuplicatesAreLeftOutUnlessKept) {
  for (auto& item : folder_.manifest.items) {
    if (item.id == "n01440764/photo1") {
      item.near_duplicates = nlohmann::json::array(
          {{{"kind", "reference"}, {"match", "imagenet-val/ILSVRC2012_val_00000293.JPEG"}, {"distance", 0}}});
    }
  }
  const FreezeSummary summary = Freeze("majority", 2, dir_ / "h");
  EXPECT_EQ(summary.near_duplicates_left_out, 1u);
  EXPECT_EQ(summary.selected, 5u);
  for (const auto& item : summary.holdout.items) EXPECT_NE(item.id, "n01440764/photo1");
  EXPECT_EQ(summary.holdout.rule["near_duplicates_left_out"], true);
  FreezeRule keep = ParseFreezeRule("majority", 2);
  keep.keep_near_duplicates = true;
  const FreezeSummary kept =
      FreezeHoldout(folder_.manifest, folder_.dir, CurrentDecisions(store_.Events()), keep, dir_ / "kept", "");
  EXPECT_EQ(kept.near_duplicates_left_out, 0u);
  EXPECT_EQ(kept.selected, 6u);
}

TEST_F(HoldoutFreezeTest, FrequencyRuleAndMinimumLabelers) {
  EXPECT_EQ(Freeze("frequency>=1", 1, dir_ / "h1").selected, 3u);    // only unanimous
  EXPECT_EQ(Freeze("frequency>=0.3", 1, dir_ / "h2").selected, 9u);  // a third is enough
  const FreezeSummary strict = Freeze("frequency>=0.5", 3, dir_ / "h3");
  EXPECT_EQ(strict.selected, 6u);
  store_.AppendLabel("n01440764/photo1", "dan", labeling::Label::kCorrect, 1);
  const FreezeSummary four = Freeze("majority", 4, dir_ / "h4");
  EXPECT_EQ(four.selected, 1u);  // only the item four labelers judged
  EXPECT_EQ(four.too_few_labelers, 8u);
}

// The Dawid-Skene rule keeps what its posterior keeps, and the manifest records each item's posterior.
TEST_F(HoldoutFreezeTest, DawidSkeneRuleKeepsItemsByTheirPosterior) {
  const AgreementReport agreement = ComputeAgreement(folder_.manifest, CurrentDecisions(store_.Events()));
  std::size_t expected = 0;
  for (std::size_t i = 0; i < agreement.items.size(); ++i) {
    if (folder_.manifest.items[i].control.empty() && agreement.items[i].dawid_skene >= 0.6) ++expected;
  }
  ASSERT_GT(expected, 0u);
  const FreezeSummary summary = Freeze("dawid-skene>=0.6", 1, dir_ / "ds");
  EXPECT_EQ(summary.selected, expected);
  const datasets::Holdout holdout = datasets::ReadHoldout(dir_ / "ds");
  EXPECT_EQ(holdout.rule["rule"], "dawid-skene>=0.6");
  for (const auto& item : holdout.items) EXPECT_GE(item.labels.at("dawid_skene").get<double>(), 0.6) << item.id;
}

TEST_F(HoldoutFreezeTest, RulesAreParsedStrictly) {
  EXPECT_EQ(ParseFreezeRule("majority", 1).kind, FreezeRule::Kind::kMajority);
  const FreezeRule rule = ParseFreezeRule("frequency>=0.7", 2);
  EXPECT_EQ(rule.kind, FreezeRule::Kind::kFrequencyAtLeast);
  EXPECT_DOUBLE_EQ(rule.min_frequency, 0.7);
  for (const char* bad :
       {"frequency>=", "frequency>=1.5", "frequency>=-0.1", "frequency>=0.7x", "frequency>0.7", "most", ""}) {
    EXPECT_THROW(ParseFreezeRule(bad, 1), Error) << bad;
  }
  EXPECT_THROW(ParseFreezeRule("majority", 0), Error);
  const FreezeRule ds = ParseFreezeRule("dawid-skene>=0.9", 1);
  EXPECT_EQ(ds.kind, FreezeRule::Kind::kDawidSkeneAtLeast);
  EXPECT_DOUBLE_EQ(ds.min_frequency, 0.9);
  for (const char* bad : {"dawid-skene>=", "dawid-skene>=2", "dawid-skene>0.9", "dawid_skene>=0.9"}) {
    EXPECT_THROW(ParseFreezeRule(bad, 1), Error) << bad;
  }
  ItemAgreement unvoted;  // no Dawid-Skene estimate: never accepted
  unvoted.unsure = 2;
  EXPECT_FALSE(ParseFreezeRule("dawid-skene>=0", 1).Accepts(unvoted));
  // Majority is strict: one correct and one incorrect is a tie, not a majority.
  ItemAgreement tie;
  tie.correct = 1;
  tie.incorrect = 1;
  EXPECT_FALSE(ParseFreezeRule("majority", 1).Accepts(tie));
  EXPECT_TRUE(ParseFreezeRule("frequency>=0.5", 1).Accepts(tie));
}

TEST_F(HoldoutFreezeTest, RefusesToOverwriteAChangedImageOrAnEmptyResult) {
  WriteFile(dir_ / "taken" / "something", "x");
  EXPECT_THROW(Freeze("majority", 1, dir_ / "taken"), Error);

  WriteFile(folder_.dir / "images" / "n01440764_1.jpg", "swapped after labeling");
  try {
    Freeze("majority", 1, dir_ / "changed");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_NE(std::string(e.what()).find("n01440764_1.jpg"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir_ / "changed")) << "a failed freeze leaves nothing behind";
  EXPECT_THROW(Freeze("majority", 5, dir_ / "none"), Error);
  EXPECT_FALSE(fs::exists(dir_ / "none"));
}

// Issue 36 item 4: sampling with too few votes blames --min-votes (it blamed --rule, which sampling replaces).
TEST_F(HoldoutFreezeTest, SamplingWithTooFewVotesNamesMinVotes) {
  FreezeRule rule = ParseFreezeRule("majority", 1);
  rule.sampling = ParseSamplingPlan("top", 2, 4, 0);  // every item has 3 labelers
  rule.text = "sampling:top";
  try {
    FreezeHoldout(folder_.manifest, folder_.dir, CurrentDecisions(store_.Events()), rule, dir_ / "few", "");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_EQ(e.where(), "--min-votes");
    EXPECT_NE(e.message().find("no candidate has 4 or more votes"), std::string::npos) << e.message();
  }
  EXPECT_FALSE(fs::exists(dir_ / "few"));
}

}  // namespace
}  // namespace evalsuite::labeling
