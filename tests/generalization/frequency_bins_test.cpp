// Accuracy by selection-frequency bin on the tiny holdout with frequencies written into its manifest: the
// bins' counts, accuracies and Clopper-Pearson intervals are recomputed in Python from the per-image
// predictions file and the manifest alone (the exact binomial tails summed with math.comb, bisected).
#include "generalization/frequency_bins.h"

#include <gtest/gtest.h>

#include <fstream>

#include "datasets/images/holdout_manifest.h"
#include "generalization/group_verdict.h"
#include "generalization/holdout_evaluation.h"
#include "tests/generalization/tiny_fixtures.h"
#include "tests/support/test_support.h"

namespace evalsuite::generalization {
namespace {
using nlohmann::json;

constexpr const char* kOracle = R"PY(
import json, math, sys
manifest = json.load(open(sys.argv[1]))
freq = {item["path"]: item["frequency"] for item in manifest["items"]}
edges = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
def bin_of(f):
    for b in range(4):
        if f < edges[b + 1]:
            return b
    return 4
counts = {}
for line in open(sys.argv[2]):
    p = json.loads(line)
    key = (p["model"], bin_of(freq[p["image"]]))
    c = counts.setdefault(key, [0, 0, 0])
    c[0] += 1
    c[1] += p["top5"][0] == p["label"]
    assert p["top1_correct"] == int(p["top5"][0] == p["label"]), line  # identity class order here
    assert p["top5_correct"] == int(p["label"] in p["top5"]), line
    c[2] += p["label"] in p["top5"]
def tail_ge(k, n, p):
    return sum(math.comb(n, i) * p**i * (1 - p)**(n - i) for i in range(k, n + 1))
def solve(f, increasing):
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if (f(mid) < 0.025) == increasing: lo = mid
        else: hi = mid
    return (lo + hi) / 2
def clopper_pearson(k, n):
    lower = 0.0 if k == 0 else solve(lambda p: tail_ge(k, n, p), True)
    upper = 1.0 if k == n else solve(lambda p: 1 - tail_ge(k + 1, n, p), False)
    return lower, upper
out = []
for (model, b), (n, top1, top5) in sorted(counts.items()):
    l1, u1 = clopper_pearson(top1, n)
    l5, u5 = clopper_pearson(top5, n)
    out.append({"model": model, "bin": b, "n": n, "top1": top1, "top5": top5,
                "top1_lower": l1, "top1_upper": u1, "top5_lower": l5, "top5_upper": u5})
print(json.dumps(out))
)PY";

TEST(FrequencyBins, MatchAPythonComputationFromThePredictionsFile) {
  testing::TempDir dir;
  datasets::Holdout holdout = fixtures::WriteTinyHoldout(dir / "holdout", 6);  // 60 images
  // Frequencies out of 10 votes, cycling through every bin and its edges (0.2, 0.4, 0.6 and 0.8 open a bin).
  const std::vector<int> correct_of_10 = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 10, 8};
  for (std::size_t i = 0; i < holdout.items.size(); ++i) {
    const int correct = correct_of_10[i % correct_of_10.size()];
    holdout.items[i].labels = {{"correct", correct}, {"incorrect", 10 - correct}, {"unsure", 0}};
    holdout.items[i].frequency = correct / 10.0;
  }
  datasets::WriteHoldout(holdout, dir / "holdout");
  fixtures::SaveBrightnessModel(dir / "right.pt", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  fixtures::SaveBrightnessModel(dir / "swap01.pt", {1, 0, 2, 3, 4, 5, 6, 7, 8, 9});
  fixtures::SaveBrightnessModel(dir / "swap35.pt", {0, 1, 2, 5, 4, 3, 6, 7, 8, 9});
  std::vector<ModelSpec> models(3);
  const char* names[] = {"right", "swap01", "swap35"};
  const char* groups[] = {"pretrained", "tta-optimized", "tta-optimized"};
  for (int m = 0; m < 3; ++m) {
    models[m].name = names[m];
    models[m].file = dir / (std::string(names[m]) + ".pt");
    models[m].group = groups[m];
  }
  EvaluationOptions options;
  options.default_preprocess = datasets::PresetSpec("fashion-mnist");
  options.pipeline.threads = 2;
  options.pipeline.batch = 16;
  HoldoutEvaluator evaluator(models, options);
  const auto predictions_file = dir / "predictions.jsonl";
  json set;
  {
    std::ofstream predictions(predictions_file);
    set = evaluator.Evaluate(dir / "holdout", &predictions);
  }
  const json& bins = set["frequency_bins"];
  ASSERT_TRUE(bins.is_object()) << set.dump();
  EXPECT_EQ(bins["images_without_frequency"], 0);

  testing::WriteFile(dir / "oracle.py", kOracle);
  const auto oracle = testing::RunCommand({"/usr/bin/python3", (dir / "oracle.py").string(),
                                           (dir / "holdout" / "manifest.json").string(), predictions_file.string()});
  ASSERT_EQ(oracle.exit_code, 0) << oracle.err;
  const json expected = json::parse(oracle.out);
  ASSERT_GE(expected.size(), 15u);  // 3 models x 5 bins
  int checked = 0;
  for (const json& e : expected) {
    const json& bin = bins["by_bin"][e["bin"].get<int>()];
    for (const json& model : bin["models"]) {
      if (model["name"] != e["model"]) continue;
      ++checked;
      const std::string where = e.dump();
      EXPECT_EQ(model["top1"]["correct"], e["top1"]) << where;
      EXPECT_EQ(model["top5"]["correct"], e["top5"]) << where;
      EXPECT_EQ(bin["images"], e["n"]) << where;
      EXPECT_NEAR(model["top1"]["accuracy"].get<double>(), e["top1"].get<double>() / e["n"].get<double>(), 1e-12);
      EXPECT_NEAR(model["top1"]["lower"].get<double>(), e["top1_lower"].get<double>(), 1e-6) << where;
      EXPECT_NEAR(model["top1"]["upper"].get<double>(), e["top1_upper"].get<double>(), 1e-6) << where;
      EXPECT_NEAR(model["top5"]["lower"].get<double>(), e["top5_lower"].get<double>(), 1e-6) << where;
      EXPECT_NEAR(model["top5"]["upper"].get<double>(), e["top5_upper"].get<double>(), 1e-6) << where;
    }
  }
  EXPECT_EQ(checked, static_cast<int>(expected.size()));
  // The groups per bin: "right" is right everywhere; the gap is the TTA models' mean minus it.
  for (const json& bin : bins["by_bin"]) {
    double tta = 0;
    for (const json& model : bin["models"]) {
      if (model["group"] == "tta-optimized") tta += model["top1"]["accuracy"].get<double>() / 2;
    }
    EXPECT_NEAR(bin["gap_top1"].get<double>(), tta - 1.0, 1e-12) << bin.dump();
  }
  EXPECT_NE(SummarizeImageSet(set).find("top-1 by selection-frequency bin"), std::string::npos);
}

// Issue 56 item 4: with one poor pretrained checkpoint, the bins' gap measured from the pretrained models' mean read
// "+44.44%" beside a verdict of +0.00. Now both measure from the verdict's reference, and the bins name it.
TEST(FrequencyBins, GapIsMeasuredFromTheVerdictsReference) {
  auto model = [](const std::string& name, const std::string& group, int right_of_every_10) {
    ModelOutcomes m;
    m.name = name;
    m.group = group;
    for (int i = 0; i < 100; ++i) m.top1.push_back(i % 10 < right_of_every_10 ? 1 : 0);
    m.top5 = m.top1;
    return m;
  };
  const std::vector<ModelOutcomes> outcomes = {model("best", "pretrained", 9), model("poor", "pretrained", 0),
                                               model("tta", "tta-optimized", 9)};
  std::vector<double> frequency;
  for (int i = 0; i < 100; ++i) frequency.push_back((i / 20) * 0.2 + 0.1);  // 20 images per bin
  const GroupVerdict verdict = JudgeGeneralization(outcomes, VerdictRule{});
  ASSERT_EQ(verdict.reference, "best");
  EXPECT_NEAR(verdict.comparisons[0].pair.difference, 0.0, 1e-12);
  const json bins = FrequencyBinsJson(outcomes, frequency, "tta-optimized", verdict.reference);
  for (const json& bin : bins["by_bin"]) {
    EXPECT_NEAR(bin["gap_top1"].get<double>(), 0.0, 1e-12) << bin.dump();  // was 0.9 - 0.45 = +0.45
    EXPECT_EQ(bin["reference"], "best");
  }
  EXPECT_NE(SummarizeFrequencyBins(bins).find("minus \"best\", the verdict's reference"), std::string::npos)
      << SummarizeFrequencyBins(bins);
  // No verdict, no reference: no gap rather than one from somewhere else.
  const json none = FrequencyBinsJson(outcomes, frequency, "tta-optimized", "");
  EXPECT_TRUE(none["by_bin"][0]["gap_top1"].is_null());
}

TEST(FrequencyBins, AnUnlabeledHoldoutHasNone) {
  testing::TempDir dir;
  fixtures::WriteTinyHoldout(dir / "holdout", 1);
  fixtures::SaveBrightnessModel(dir / "right.pt", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  ModelSpec model;
  model.name = "right";
  model.file = dir / "right.pt";
  EvaluationOptions options;
  options.default_preprocess = datasets::PresetSpec("fashion-mnist");
  options.pipeline.batch = 8;
  HoldoutEvaluator evaluator({model}, options);
  EXPECT_TRUE(evaluator.Evaluate(dir / "holdout")["frequency_bins"].is_null());
  // Unknown frequencies (NaN) fall in no bin and are counted apart.
  ModelOutcomes outcomes;
  outcomes.name = "m";
  outcomes.group = "pretrained";
  outcomes.top1 = {1, 0, 1};
  outcomes.top5 = {1, 1, 1};
  const json bins = FrequencyBinsJson({outcomes}, {0.1, std::nan(""), 1.0}, "tta-optimized", "pretrained");
  EXPECT_EQ(bins["images_without_frequency"], 1);
  EXPECT_EQ(bins["by_bin"][0]["images"], 1);
  EXPECT_EQ(bins["by_bin"][4]["models"][0]["top1"]["correct"], 1);
  EXPECT_TRUE(bins["by_bin"][4]["gap_top1"].is_null());  // no TTA-optimized model
}

}  // namespace
}  // namespace evalsuite::generalization
