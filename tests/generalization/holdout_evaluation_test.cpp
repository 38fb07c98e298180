// The evaluation pipeline end to end on a tiny holdout with known answers: TorchScript models built in C++,
// unreadable images recorded (not fatal), a modified holdout refused, memory bounded by batch and depth.
#include "generalization/holdout_evaluation.h"

#include <gtest/gtest.h>

#include <sstream>

#include "common/error.h"
#include "common/sha256.h"
#include "datasets/images/holdout_manifest.h"
#include "generalization/predictions.h"
#include "tests/generalization/tiny_fixtures.h"
#include "tests/support/test_support.h"

namespace evalsuite::generalization {
namespace {
using nlohmann::json;

const std::vector<int> kIdentity = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
const std::vector<int> kSwap01 = {1, 0, 2, 3, 4, 5, 6, 7, 8, 9};

EvaluationOptions SmallOptions() {
  EvaluationOptions options;
  options.default_preprocess = datasets::PresetSpec("fashion-mnist");
  options.pipeline.threads = 2;
  options.pipeline.batch = 7;  // not a divisor of the image count: the last batch is partial
  options.pipeline.depth = 1;
  return options;
}

ModelSpec Model(const std::string& name, const std::filesystem::path& file, const std::string& group) {
  ModelSpec spec;
  spec.name = name;
  spec.file = file;
  spec.group = group;
  return spec;
}

const json& ModelNamed(const json& image_set, const std::string& name) {
  for (const json& model : image_set["models"]) {
    if (model["name"] == name) return model;
  }
  throw std::runtime_error("no model " + name);
}

TEST(HoldoutEvaluation, KnownAnswersOnTinyHoldout) {
  testing::TempDir dir;
  fixtures::WriteTinyHoldout(dir / "holdout", 5);  // 50 images
  fixtures::SaveBrightnessModel(dir / "right.pt", kIdentity);
  fixtures::SaveBrightnessModel(dir / "swapped.pt", kSwap01);
  std::vector<ModelSpec> models = {Model("right", dir / "right.pt", "pretrained"),
                                   Model("swapped", dir / "swapped.pt", "tta-optimized")};
  models[1].validation_accuracy = 0.9;
  HoldoutEvaluator evaluator(models, SmallOptions());
  const json set = evaluator.Evaluate(dir / "holdout");
  EXPECT_EQ(set["image_set"], "tiny");
  EXPECT_EQ(set["images"], 50);
  EXPECT_EQ(set["unreadable"], 0);
  const json& right = ModelNamed(set, "right");
  EXPECT_EQ(right["evaluated"], 50);
  EXPECT_EQ(right["top1"]["correct"], 50);
  EXPECT_DOUBLE_EQ(right["top1"]["accuracy"].get<double>(), 1.0);
  EXPECT_TRUE(right["gap"].is_null());
  const json& swapped = ModelNamed(set, "swapped");
  EXPECT_EQ(swapped["top1"]["correct"], 40);  // classes 0 and 1 confused
  EXPECT_EQ(swapped["top5"]["correct"], 50);  // but the right class is second
  EXPECT_NEAR(swapped["gap"].get<double>(), 0.9 - 0.8, 1e-12);
  ASSERT_EQ(swapped["per_class"].size(), 10u);
  EXPECT_EQ(swapped["per_class"][0]["class"], "T-shirt/top");
  EXPECT_EQ(swapped["per_class"][0]["correct"], 0);
  EXPECT_EQ(swapped["per_class"][2]["correct"], 5);
  // The pair: only "right" gets the 10 images of classes 0 and 1: McNemar b = 10, c = 0.
  ASSERT_EQ(set["pairs"].size(), 1u);
  const json& pair = set["pairs"][0];
  EXPECT_EQ(pair["a"], "right");
  EXPECT_EQ(pair["only_a"], 10);
  EXPECT_EQ(pair["only_b"], 0);
  EXPECT_NEAR(pair["p_value"].get<double>(), 2.0 / 1024.0, 1e-12);  // 2 * 0.5^10
  EXPECT_NEAR(pair["difference"].get<double>(), 0.2, 1e-12);
  // 20 points lost, significant: the TTA-optimized model does not generalize.
  EXPECT_EQ(set["verdict"]["generalizes"], false);
  EXPECT_EQ(set["verdict"]["reference"], "right");
  EXPECT_EQ(set["verdict"]["comparisons"][0]["outcome"], "loss shown beyond margin");
  EXPECT_EQ(set["verdict"]["decision"], "does not generalize");
  EXPECT_EQ(set["groups"].size(), 2u);
  EXPECT_FALSE(SummarizeImageSet(set).empty());
}

TEST(HoldoutEvaluation, SameResultForAnyThreadsAndBatch) {
  testing::TempDir dir;
  fixtures::WriteTinyHoldout(dir / "holdout", 3);
  fixtures::SaveBrightnessModel(dir / "swapped.pt", kSwap01);
  json first;
  for (auto [threads, batch, depth] : {std::tuple{1, 1, 0}, std::tuple{2, 4, 3}, std::tuple{3, 64, 1}}) {
    EvaluationOptions options = SmallOptions();
    options.pipeline.threads = threads;
    options.pipeline.batch = batch;
    options.pipeline.depth = depth;
    HoldoutEvaluator evaluator({Model("m", dir / "swapped.pt", "pretrained")}, options);
    json set = evaluator.Evaluate(dir / "holdout");
    // The bound: (depth + 1) batches of 784 floats, never more than the batches there are.
    const int slots = std::min(depth + 1, (30 + batch - 1) / batch);
    EXPECT_EQ(set["pipeline"]["buffer_bytes"], static_cast<int64_t>(slots) * batch * 784 * 4);
    set.erase("pipeline");
    if (first.is_null()) first = set;
    EXPECT_EQ(set, first) << "threads " << threads << " batch " << batch;
  }
}

TEST(HoldoutEvaluation, UnreadableImagesAreRecordedNotFatal) {
  testing::TempDir dir;
  datasets::Holdout holdout = fixtures::WriteTinyHoldout(dir / "holdout", 2);
  // Freeze bad files into the holdout (hashes match, so it is not "modified"): HTML, truncated PNG.
  testing::WriteFile(dir / "holdout" / holdout.items[0].path, "<html><body>gone</body></html>");
  const std::string png = testing::ReadFile(dir / "holdout" / holdout.items[1].path);
  testing::WriteFile(dir / "holdout" / holdout.items[1].path, png.substr(0, png.size() / 2));
  for (int i : {0, 1}) holdout.items[i].sha256 = Sha256FileHex(dir / "holdout" / holdout.items[i].path);
  datasets::WriteHoldout(holdout, dir / "holdout");
  fixtures::SaveBrightnessModel(dir / "right.pt", kIdentity);
  HoldoutEvaluator evaluator({Model("right", dir / "right.pt", "pretrained")}, SmallOptions());
  const json set = evaluator.Evaluate(dir / "holdout");
  EXPECT_EQ(set["images"], 20);
  EXPECT_EQ(set["unreadable"], 2);
  EXPECT_EQ(set["unreadable_reasons"]["html"], 1);
  EXPECT_EQ(set["unreadable_reasons"]["truncated"], 1);
  ASSERT_EQ(set["failures"].size(), 2u);
  EXPECT_EQ(set["failures"][0]["path"], holdout.items[0].path);
  EXPECT_EQ(set["failures"][0]["reason"], "HTML error page");
  EXPECT_EQ(ModelNamed(set, "right")["evaluated"], 18);
  EXPECT_EQ(ModelNamed(set, "right")["top1"]["correct"], 18);
  EXPECT_EQ(set["verdict"]["generalizes"], nullptr);  // no TTA-optimized model
}

TEST(HoldoutEvaluation, ModifiedHoldoutIsRefused) {
  testing::TempDir dir;
  const datasets::Holdout holdout = fixtures::WriteTinyHoldout(dir / "holdout", 2);
  fixtures::SaveBrightnessModel(dir / "right.pt", kIdentity);
  HoldoutEvaluator evaluator({Model("right", dir / "right.pt", "pretrained")}, SmallOptions());
  // A changed image.
  const std::filesystem::path image = dir / "holdout" / holdout.items[3].path;
  const std::string original = testing::ReadFile(image);
  testing::WriteFile(image, testing::ReadFile(dir / "holdout" / holdout.items[4].path));
  try {
    evaluator.Evaluate(dir / "holdout");
    FAIL() << "a modified holdout was evaluated";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_NE(e.message().find("modified"), std::string::npos);
    EXPECT_NE(e.message().find(holdout.items[3].path), std::string::npos);
    // Issue 56 item 9: the refusal also says what to do.
    EXPECT_NE(e.message().find("What to do: put back the original image files"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("re-freeze"), std::string::npos) << e.message();
  }
  testing::WriteFile(image, original);
  EXPECT_NO_THROW(evaluator.Evaluate(dir / "holdout"));
  // A relabelled item in the manifest (the version hash no longer matches).
  std::string manifest = testing::ReadFile(dir / "holdout" / "manifest.json");
  const size_t at = manifest.find("\"class_index\": 3");
  ASSERT_NE(at, std::string::npos);
  manifest.replace(at, 16, "\"class_index\": 4");
  testing::WriteFile(dir / "holdout" / "manifest.json", manifest);
  try {
    evaluator.Evaluate(dir / "holdout");
    FAIL() << "a hand-edited manifest was evaluated";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("What to do: put back the manifest.json"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("evalsuite holdout freeze"), std::string::npos) << e.message();
    EXPECT_EQ(e.message().find("--tolerate-missing"), std::string::npos) << "nothing is missing";
  }
}

TEST(HoldoutEvaluation, MissingFilesRefusedUnlessTolerated) {
  testing::TempDir dir;
  const datasets::Holdout holdout = fixtures::WriteTinyHoldout(dir / "holdout", 2);
  fixtures::SaveBrightnessModel(dir / "right.pt", kIdentity);
  std::filesystem::remove(dir / "holdout" / holdout.items[5].path);
  HoldoutEvaluator strict({Model("right", dir / "right.pt", "pretrained")}, SmallOptions());
  try {
    strict.Evaluate(dir / "holdout");
    FAIL() << "a holdout with a missing file was evaluated";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("or pass --tolerate-missing to evaluate without them"), std::string::npos)
        << e.message();
  }
  EvaluationOptions options = SmallOptions();
  options.tolerate_missing = true;
  HoldoutEvaluator tolerant({Model("right", dir / "right.pt", "pretrained")}, options);
  const json set = tolerant.Evaluate(dir / "holdout");
  EXPECT_EQ(set["unreadable"], 1);
  EXPECT_EQ(set["failures"][0]["reason"], "missing file");
  EXPECT_EQ(ModelNamed(set, "right")["evaluated"], 19);
}

TEST(HoldoutEvaluation, ModelLoadingErrorsNameTheFile) {
  testing::TempDir dir;
  testing::WriteFile(dir / "junk.pt", "not a zip");
  try {
    HoldoutEvaluator evaluator({Model("junk", dir / "junk.pt", "pretrained")}, SmallOptions());
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_EQ(e.where(), (dir / "junk.pt").string());
  }
  EXPECT_THROW(HoldoutEvaluator({Model("absent", dir / "absent.pt", "pretrained")}, SmallOptions()), Error);
  // A model that cannot take the preset's input shape.
  fixtures::SaveBrightnessModel(dir / "right.pt", kIdentity);
  EvaluationOptions options = SmallOptions();
  HoldoutEvaluator ok({Model("right", dir / "right.pt", "pretrained")}, options);
  // Two models with one name are a usage error.
  EXPECT_THROW(
      HoldoutEvaluator({Model("a", dir / "right.pt", "pretrained"), Model("a", dir / "right.pt", "x")}, options),
      Error);
}

TEST(HoldoutEvaluation, ClassesAModelDoesNotCoverAreCounted) {
  testing::TempDir dir;
  fixtures::WriteTinyHoldout(dir / "holdout", 2);
  fixtures::SaveBrightnessModel(dir / "right.pt", kIdentity);
  ModelSpec partial = Model("partial", dir / "right.pt", "pretrained");
  // Its sidecar names its ten outputs; two are classes the holdout does not have.
  partial.classes = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                     "Sandal",      "Shirt",   "Sneaker",  "Hat",   "Sock"};
  HoldoutEvaluator evaluator({partial}, SmallOptions());
  const json set = evaluator.Evaluate(dir / "holdout");
  const json& model = ModelNamed(set, "partial");
  EXPECT_EQ(model["evaluated"], 16);
  EXPECT_EQ(model["uncovered"], 4);
  EXPECT_EQ(model["top1"]["correct"], 16);
}

// A model with the wrong input shape fails to load (the interpreter throws std::runtime_error) and one failing
// during inference: both are reported with name, file and reason, and the model that works is still scored.
TEST(HoldoutEvaluation, OneFailingModelNeverLosesTheOthers) {
  testing::TempDir dir;
  fixtures::WriteTinyHoldout(dir / "holdout", 2);  // 20 images
  fixtures::SaveBrightnessModel(dir / "right.pt", kIdentity);
  fixtures::SaveWrongShapeModel(dir / "wrong_shape.pt");
  fixtures::SaveBatchLimitedModel(dir / "small_batches.pt", 1);
  HoldoutEvaluator evaluator(
      {Model("right", dir / "right.pt", "pretrained"), Model("wrong-shape", dir / "wrong_shape.pt", "pretrained"),
       Model("small-batches", dir / "small_batches.pt", "pretrained")},
      SmallOptions());
  ASSERT_EQ(evaluator.load_failures().size(), 1u);
  const json set = evaluator.Evaluate(dir / "holdout");
  ASSERT_EQ(set["models"].size(), 1u);
  EXPECT_EQ(ModelNamed(set, "right")["top1"]["correct"], 20);
  ASSERT_EQ(set["failed_models"].size(), 2u);
  const json& load = set["failed_models"][0];
  EXPECT_EQ(load["name"], "wrong-shape");
  EXPECT_EQ(load["file"], (dir / "wrong_shape.pt").string());
  EXPECT_EQ(load["stage"], "load");
  EXPECT_NE(load["reason"].get<std::string>().find("forward() failed on an input of shape [1, 1, 28, 28]"),
            std::string::npos)
      << load["reason"];
  EXPECT_EQ(load["reason"].get<std::string>().find('\n'), std::string::npos) << "one line, no traceback";
  const json& inference = set["failed_models"][1];
  EXPECT_EQ(inference["name"], "small-batches");
  EXPECT_EQ(inference["stage"], "inference");
  EXPECT_NE(inference["reason"].get<std::string>().find("invalid for input of size"), std::string::npos)
      << inference["reason"];
  // Every model failing is an error naming them all.
  HoldoutEvaluator only_bad({Model("small-batches", dir / "small_batches.pt", "pretrained")}, SmallOptions());
  try {
    only_bad.Evaluate(dir / "holdout");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("small-batches"), std::string::npos) << e.message();
  }
}

// Without a classes sidecar the holdout's order is assumed, and said so; a model scoring at chance level is
// warned about (here its outputs are rotated by one class, so it scores 0%).
TEST(HoldoutEvaluation, AssumedClassOrderIsSaidAndChanceLevelIsWarned) {
  testing::TempDir dir;
  fixtures::WriteTinyHoldout(dir / "holdout", 3);
  fixtures::SaveBrightnessModel(dir / "right.pt", kIdentity);
  fixtures::SaveBrightnessModel(dir / "rotated.pt", {1, 2, 3, 4, 5, 6, 7, 8, 9, 0});
  ModelSpec declared = Model("declared", dir / "right.pt", "pretrained");
  declared.class_list = "fashion-mnist";  // what a sidecar's "class_list" says
  HoldoutEvaluator evaluator(
      {Model("right", dir / "right.pt", "pretrained"), Model("rotated", dir / "rotated.pt", "pretrained"), declared},
      SmallOptions());
  const json set = evaluator.Evaluate(dir / "holdout");
  EXPECT_EQ(ModelNamed(set, "rotated")["top1"]["correct"], 0);
  EXPECT_FALSE(ModelNamed(set, "rotated")["class_mapping"]["certain"].get<bool>());
  EXPECT_FALSE(ModelNamed(set, "right")["class_mapping"]["certain"].get<bool>());
  EXPECT_TRUE(ModelNamed(set, "declared")["class_mapping"]["certain"].get<bool>());
  ASSERT_EQ(set["warnings"].size(), 1u) << set["warnings"];
  const std::string warning = set["warnings"][0];
  EXPECT_NE(warning.find("model rotated"), std::string::npos) << warning;
  EXPECT_NE(warning.find("chance level"), std::string::npos) << warning;
  EXPECT_TRUE(ModelNamed(set, "right")["class_mapping"].value("warning", "").empty());
}

// One JSON line per image and model, and a user's file in the same format compared per image kind.
TEST(HoldoutEvaluation, PerImagePredictionsAndComparison) {
  testing::TempDir dir;
  fixtures::WriteTinyHoldout(dir / "holdout", 2);
  fixtures::SaveBrightnessModel(dir / "right.pt", kIdentity);
  HoldoutEvaluator evaluator({Model("right", dir / "right.pt", "pretrained")}, SmallOptions());
  std::ostringstream lines;
  evaluator.Evaluate(dir / "holdout", &lines);
  std::istringstream in(lines.str());
  std::string line, theirs;
  int count = 0;
  double overlap = 0;  // expected: their outputs found among ours, over our five
  std::string kind;
  while (std::getline(in, line)) {
    json row = json::parse(line);
    EXPECT_EQ(row["model"], "right");
    EXPECT_EQ(row["top5"][0], row["label"]) << line;  // the right model's best output is the label
    EXPECT_EQ(row["top5"].size(), 5u);
    EXPECT_EQ(row["top5_classes"][0], row["label_name"]);
    EXPECT_GT(row["scores"][0].get<double>(), row["scores"][1].get<double>());
    EXPECT_LE(row["scores"][0].get<double>(), 1.0);
    kind = row["kind"];
    // The user's pipeline disagrees on the first three images.
    json mine = {{"image", row["image"]}, {"model", "right"}, {"top5", row["top5"]}};
    if (count < 3) mine["top5"] = json::array({(row["label"].get<int>() + 1) % 10, row["label"]});
    for (const json& c : mine["top5"]) {
      overlap += std::count(row["top5"].begin(), row["top5"].end(), c) / 5.0;
    }
    theirs += mine.dump() + "\n";
    ++count;
  }
  EXPECT_EQ(count, 20);
  EXPECT_FALSE(kind.empty());
  testing::WriteFile(dir / "ours.jsonl", lines.str());
  testing::WriteFile(dir / "theirs.jsonl", theirs);
  const json c = ComparePredictions(dir / "ours.jsonl", dir / "theirs.jsonl");
  EXPECT_EQ(c["all"]["images"], 20);
  EXPECT_EQ(c["all"]["top1_agree"], 17);
  EXPECT_EQ(c["by_kind"][kind]["images"], 20);
  EXPECT_EQ(c["by_model"]["right"]["top1_agree"], 17);
  EXPECT_NEAR(c["all"]["top5_overlap"].get<double>(), overlap / 20, 1e-12);
  EXPECT_LT(c["all"]["top5_overlap"].get<double>(), 1.0);
  testing::WriteFile(dir / "bad.jsonl", "{\"image\": \"a\", \"model\": \"right\"}\n");
  try {
    ComparePredictions(dir / "ours.jsonl", dir / "bad.jsonl");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), (dir / "bad.jsonl").string() + ":1");
  }
}

}  // namespace
}  // namespace evalsuite::generalization
