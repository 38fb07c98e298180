// `evalsuite holdout fashion-mnist` and `evalsuite holdout eval` end to end, as a user runs them: a small
// Fashion-MNIST holdout (--limit) with one shifted variant, two TorchScript models with known answers (made by
// Debian's python3-torch: constant logits, so every prediction is known from the manifest alone), the JSON
// section, the exit codes, and a modified holdout refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace evalsuite::testing {
namespace {
using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kFashionMnistDir = "/usr/share/datasets/fashion-mnist";

// Two models with constant logits: "zero-first" ranks classes 0,1,2,... (top-1 = class 0, top-5 = 0..4) and
// "nine-first" ranks 9,8,7,... (top-1 = 9, top-5 = 5..9).
bool MakeConstantModels(const fs::path& dir) {
  const std::string script = R"(
import sys, torch
class Constant(torch.nn.Module):
    def __init__(self, logits):
        super().__init__()
        self.register_buffer("logits", torch.tensor(logits))
    def forward(self, x):
        return x.mean(dim=[1, 2, 3]).unsqueeze(1) * 0 + self.logits
torch.jit.script(Constant([9.0 - k for k in range(10)])).save(sys.argv[1] + "/zero_first.pt")
torch.jit.script(Constant([float(k) for k in range(10)])).save(sys.argv[1] + "/nine_first.pt")
class WrongShape(torch.nn.Module):  # written for 3x224x224 inputs: refuses Fashion-MNIST's 1x28x28
    def forward(self, x):
        return x.reshape(x.size(0), 3 * 224 * 224)[:, :10]
torch.jit.script(WrongShape()).save(sys.argv[1] + "/wrong_shape.pt")
)";
  WriteFile(dir / "make_models.py", script);
  return RunCommand({"/usr/bin/python3", (dir / "make_models.py").string(), dir.string()}).exit_code == 0;
}

class HoldoutEvalCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kFashionMnistDir)) GTEST_SKIP() << kFashionMnistDir << " is absent (dataset-fashion-mnist)";
    if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "/usr/bin/python3 is absent";
    const CommandResult exported = RunEvalsuite(
        {"holdout", "fashion-mnist", "--out", (dir_ / "holdout").string(), "--limit", "60", "--variants", "contrast"});
    ASSERT_EQ(exported.exit_code, 0) << exported.err;
    ASSERT_TRUE(MakeConstantModels(dir_.path())) << "python3-torch could not make the test models";
  }

  std::vector<std::string> EvalArgs() const {
    return {"holdout",   "eval",
            "--holdout", (dir_ / "holdout").string(),
            "--holdout", (dir_ / "holdout" / "contrast").string(),
            "--model",   "zero=" + (dir_ / "zero_first.pt").string() + ":pretrained",
            "--model",   "nine=" + (dir_ / "nine_first.pt").string() + ":tta-optimized",
            "--threads", "2",
            "--batch",   "16"};
  }

  TempDir dir_;
};

TEST_F(HoldoutEvalCli, KnownAnswersJsonAndSummary) {
  const json manifest = json::parse(ReadFile(dir_ / "holdout" / "manifest.json"));
  ASSERT_EQ(manifest["items"].size(), 60u);
  EXPECT_EQ(manifest["class_list"], "fashion-mnist");
  size_t class0 = 0, class9 = 0, below5 = 0;
  for (const json& item : manifest["items"]) {
    const int label = item["class_index"];
    class0 += label == 0;
    class9 += label == 9;
    below5 += label < 5;
  }
  std::vector<std::string> args = EvalArgs();
  args.insert(args.end(), {"--json", (dir_ / "gen.json").string()});
  const CommandResult result = RunEvalsuite(args);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("fashion-mnist-holdout (60 images, 0 unreadable)"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("verdict:"), std::string::npos);
  const json sections = json::parse(ReadFile(dir_ / "gen.json"));
  ASSERT_TRUE(sections.is_array());
  ASSERT_EQ(sections.size(), 2u);
  EXPECT_EQ(sections[1]["image_set"], "fashion-mnist-holdout:contrast");
  for (const json& set : sections) {
    EXPECT_EQ(set["holdout_version"].get<std::string>().size(), 64u);
    const json& zero = set["models"][0];
    const json& nine = set["models"][1];
    EXPECT_EQ(zero["name"], "zero");
    EXPECT_EQ(zero["evaluated"], 60);
    EXPECT_EQ(zero["top1"]["correct"], class0);
    EXPECT_EQ(zero["top5"]["correct"], below5);
    EXPECT_EQ(nine["top1"]["correct"], class9);
    EXPECT_EQ(nine["top5"]["correct"], 60 - below5);
    ASSERT_EQ(set["pairs"].size(), 1u);
    EXPECT_EQ(set["pairs"][0]["only_a"], class0);
    EXPECT_EQ(set["pairs"][0]["only_b"], class9);
    EXPECT_EQ(set["verdict"]["reference"], "zero");
    // Decided (a boolean) or, on so few images, inconclusive (null, with the decision saying so).
    EXPECT_TRUE(set["verdict"]["generalizes"].is_boolean() || set["verdict"]["decision"] == "inconclusive")
        << set["verdict"].dump();
    EXPECT_FALSE(set["verdict"]["test"].get<std::string>().empty());
    EXPECT_EQ(set["pipeline"]["batch"], 16);
    EXPECT_EQ(set["pipeline"]["batch_choice"]["reason"], "given (--batch)");
  }
}

// Without --batch the batch is measured at start-up, unless measuring would cost more than it could save: here
// 120 images of two near-instant models, so the input-size default (256 for 28x28) is used and the JSON and
// stderr say why. Whatever the machine's speed: measuring batch 8 costs about 20 one-image calls, the budget
// is 10% of 120 of them.
TEST_F(HoldoutEvalCli, BatchIsMeasuredOrTheReasonGiven) {
  std::vector<std::string> args = EvalArgs();
  args.resize(args.size() - 2);  // drop --batch 16
  ASSERT_EQ(std::find(args.begin(), args.end(), "--batch"), args.end());
  args.insert(args.end(), {"--json", (dir_ / "gen.json").string()});
  const CommandResult result = RunEvalsuite(args);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("batch 256: not measured (measuring even batch 8 would take longer than the time budget"),
            std::string::npos)
      << result.err;
  const json sections = json::parse(ReadFile(dir_ / "gen.json"));
  for (const json& set : sections) {
    EXPECT_EQ(set["pipeline"]["batch"], 256);
    const json& choice = set["pipeline"]["batch_choice"];
    EXPECT_EQ(choice["measured"], false);
    EXPECT_EQ(choice["batch"], 256);
    EXPECT_TRUE(choice["candidates"].empty());
    // 16 and up are more than a quarter of the 60 images; 8 was over the time budget.
    ASSERT_EQ(choice["not_measured"].size(), 6u);
    EXPECT_EQ(choice["not_measured"][0]["batch"], 16);
    EXPECT_EQ(choice["not_measured"][5]["batch"], 8);
    // The front binary made LibTorch's OpenMP threads sleep rather than spin (openmp_wait_policy.h).
    if (std::getenv("OMP_WAIT_POLICY") == nullptr && std::getenv("GOMP_SPINCOUNT") == nullptr) {
      EXPECT_EQ(set["pipeline"]["openmp_wait"], "passive (set by evalsuite)");
    }
  }
}

TEST_F(HoldoutEvalCli, ExportIsDeterministic) {
  const CommandResult again = RunEvalsuite(
      {"holdout", "fashion-mnist", "--out", (dir_ / "again").string(), "--limit", "60", "--variants", "contrast"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  for (const std::string sub : {"", "contrast"}) {
    const json first = json::parse(ReadFile(dir_ / "holdout" / sub / "manifest.json"));
    const json second = json::parse(ReadFile(dir_ / "again" / sub / "manifest.json"));
    EXPECT_EQ(first["version_hash"], second["version_hash"]) << sub;
    EXPECT_EQ(first["items"], second["items"]) << sub;
  }
  const json variant = json::parse(ReadFile(dir_ / "holdout" / "contrast" / "manifest.json"));
  EXPECT_EQ(variant["name"], "fashion-mnist-holdout:contrast");
  EXPECT_EQ(variant["rule"]["shift"]["name"], "contrast");
  EXPECT_EQ(variant["class_names"][9], "Ankle boot");
}

TEST_F(HoldoutEvalCli, ModifiedHoldoutIsRefused) {
  const json manifest = json::parse(ReadFile(dir_ / "holdout" / "manifest.json"));
  const fs::path victim = dir_ / "holdout" / manifest["items"][7]["path"].get<std::string>();
  const std::string other = ReadFile(dir_ / "holdout" / manifest["items"][8]["path"].get<std::string>());
  WriteFile(victim, other);
  const CommandResult result = RunEvalsuite(EvalArgs());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("modified"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(victim.filename().string()), std::string::npos) << result.err;
}

TEST_F(HoldoutEvalCli, MissingImageToleratedOnRequestWithExitCode3) {
  const json manifest = json::parse(ReadFile(dir_ / "holdout" / "manifest.json"));
  fs::remove(dir_ / "holdout" / manifest["items"][3]["path"].get<std::string>());
  EXPECT_EQ(RunEvalsuite(EvalArgs()).exit_code, 1);
  std::vector<std::string> args = EvalArgs();
  args.insert(args.end(), {"--tolerate-missing", "--json", (dir_ / "gen.json").string()});
  const CommandResult result = RunEvalsuite(args);
  EXPECT_EQ(result.exit_code, 3) << result.err;
  const json sections = json::parse(ReadFile(dir_ / "gen.json"));
  EXPECT_EQ(sections[0]["unreadable"], 1);
  EXPECT_EQ(sections[0]["failures"][0]["reason"], "missing file");
  EXPECT_EQ(sections[0]["models"][0]["evaluated"], 59);
}

TEST_F(HoldoutEvalCli, ModelsFromAStudyStoreAndTheGapBasis) {
  // A real two-run study of the baseline entry (512 images, one epoch, a target it cannot miss) keeping models.
  WriteFile(dir_ / "tiny.toml",
            "name = \"tiny\"\nentries = [\"baseline\"]\nruns = 2\nepochs = 1\ntrain_subset = 512\n"
            "threshold = 0.05\nkeep_models = true\njobs = 2\nthreads = 1\n");
  const std::string store = (dir_ / "tiny.db").string();
  const CommandResult study = RunEvalsuite({"study", "run", (dir_ / "tiny.toml").string(), "--store", store, "--out",
                                            (dir_ / "runs").string(), "--progress", "plain"});
  ASSERT_EQ(study.exit_code, 0) << study.out << study.err;

  std::vector<std::string> args = {"holdout",
                                   "eval",
                                   "--holdout",
                                   (dir_ / "holdout").string(),
                                   "--models-from-store",
                                   store,
                                   "--model",
                                   "zero=" + (dir_ / "zero_first.pt").string() + ":pretrained",
                                   "--threads",
                                   "2",
                                   "--json",
                                   (dir_ / "store.json").string()};
  const CommandResult eval = RunEvalsuite(args);
  ASSERT_EQ(eval.exit_code, 0) << eval.err;
  EXPECT_NE(eval.err.find("study tiny: 2 run models (at_target.pt)"), std::string::npos) << eval.err;
  const json sections = json::parse(ReadFile(dir_ / "store.json"));
  ASSERT_EQ(sections.size(), 1u);
  std::map<std::string, json> models;
  for (const json& m : sections[0]["models"]) models[m["name"].get<std::string>()] = m;
  ASSERT_TRUE(models.count("baseline-run0") && models.count("baseline-run1")) << sections[0]["models"].dump();
  EXPECT_EQ(models["baseline-run0"]["group"], "tta-optimized");
  EXPECT_EQ(models["baseline-run0"]["evaluated"], 60);
  EXPECT_EQ(sections[0]["verdict"]["basis"], "accuracy");

  // The gap basis needs every compared model's validation accuracy: the run models have theirs (model.json),
  // the constant reference has none until a sidecar gives it.
  args.push_back("--verdict-basis");
  args.push_back("gap");
  const CommandResult missing = RunEvalsuite(args);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("\"zero\" has none"), std::string::npos) << missing.err;
  WriteFile(dir_ / "zero_first.json", R"({"validation_accuracy": 0.1})");
  const CommandResult gap = RunEvalsuite(args);
  ASSERT_EQ(gap.exit_code, 0) << gap.err;
  const json judged = json::parse(ReadFile(dir_ / "store.json"))[0]["verdict"];
  EXPECT_EQ(judged["basis"], "gap");
  ASSERT_EQ(judged["comparisons"].size(), 2u);
  EXPECT_TRUE(judged["comparisons"][0]["validation_difference"].is_number());
  EXPECT_NE(judged["test"].get<std::string>().find("gap basis"), std::string::npos);
}

TEST_F(HoldoutEvalCli, UsageErrors) {
  const std::string holdout = (dir_ / "holdout").string();
  EXPECT_EQ(RunEvalsuite({"holdout", "eval", "--holdout", holdout}).exit_code, 2);  // no model
  EXPECT_EQ(RunEvalsuite({"holdout", "eval", "--holdout", holdout, "--model", "no-file-given"}).exit_code, 2);
  const CommandResult bad_preset = RunEvalsuite({"holdout", "eval", "--holdout", holdout, "--model",
                                                 "z=" + (dir_ / "zero_first.pt").string(), "--preprocess", "cifar"});
  EXPECT_EQ(bad_preset.exit_code, 2);
  EXPECT_NE(bad_preset.err.find("--preprocess"), std::string::npos);
  const std::string zero = "z=" + (dir_ / "zero_first.pt").string();
  const CommandResult bad_basis =
      RunEvalsuite({"holdout", "eval", "--holdout", holdout, "--model", zero, "--verdict-basis", "drop"});
  EXPECT_EQ(bad_basis.exit_code, 2);
  EXPECT_NE(bad_basis.err.find("--verdict-basis"), std::string::npos) << bad_basis.err;
  const CommandResult gap_top5 = RunEvalsuite(
      {"holdout", "eval", "--holdout", holdout, "--model", zero, "--verdict-basis", "gap", "--metric", "top5"});
  EXPECT_EQ(gap_top5.exit_code, 2);
  EXPECT_NE(gap_top5.err.find("--verdict-basis"), std::string::npos) << gap_top5.err;
  const CommandResult absent = RunEvalsuite({"holdout", "eval", "--holdout", (dir_ / "nowhere").string(), "--model",
                                             "z=" + (dir_ / "zero_first.pt").string()});
  EXPECT_EQ(absent.exit_code, 1);
  EXPECT_NE(absent.err.find("manifest"), std::string::npos);
  EXPECT_EQ(RunEvalsuite({"holdout", "fashion-mnist", "--out", (dir_ / "x").string(), "--variants", "snow"}).exit_code,
            2);
}

// A model with the wrong input shape is named with its file and a one-line reason, the other models are
// evaluated and written, and the exit code (4) says some failed. The per-image predictions are written beside
// the JSON and compared with a user's file.
TEST_F(HoldoutEvalCli, FailingModelIsReportedOthersWrittenAndPredictionsCompared) {
  std::vector<std::string> args = EvalArgs();
  const std::string wrong_file = (dir_ / "wrong_shape.pt").string();
  args.insert(args.end(), {"--model", "wrong=" + wrong_file, "--json", (dir_ / "gen.json").string()});
  const CommandResult result = RunEvalsuite(args);
  EXPECT_EQ(result.exit_code, 4) << result.err;
  EXPECT_NE(result.err.find("error: model wrong (" + wrong_file + ") left out: forward() failed"), std::string::npos)
      << result.err;
  EXPECT_EQ(result.err.find("internal error"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("Traceback"), std::string::npos) << result.err;
  const json sections = json::parse(ReadFile(dir_ / "gen.json"));
  ASSERT_EQ(sections.size(), 2u);
  EXPECT_EQ(sections[0]["models"].size(), 2u);
  EXPECT_EQ(sections[0]["failed_models"][0]["name"], "wrong");
  EXPECT_EQ(sections[0]["failed_models"][0]["file"], wrong_file);
  const fs::path predictions = dir_ / "gen.predictions.jsonl";
  EXPECT_EQ(sections[0]["predictions_file"], predictions.string());
  // 60 images in each of two image sets, two models.
  std::ifstream in(predictions);
  std::string line, theirs;
  int lines = 0, changed = 0;
  while (std::getline(in, line)) {
    const json row = json::parse(line);
    ++lines;
    if (row["image_set"] != sections[0]["image_set"]) continue;
    // The user's torchvision run: the same predictions, except "nine" ranks 8 first on the first 6 images.
    json mine = {{"image", row["image"]}, {"model", row["model"]}, {"top5", row["top5"]}};
    if (row["model"] == "nine" && changed < 6) {
      mine["top5"] = {8, 9, 7, 6, 5};
      ++changed;
    }
    theirs += mine.dump() + "\n";
  }
  EXPECT_EQ(lines, 240);
  WriteFile(dir_ / "torchvision.jsonl", theirs);
  std::vector<std::string> compare = EvalArgs();
  compare.insert(compare.end(),
                 {"--json", (dir_ / "gen.json").string(), "--compare", (dir_ / "torchvision.jsonl").string()});
  const CommandResult compared = RunEvalsuite(compare);
  EXPECT_EQ(compared.exit_code, 0) << compared.err;
  const json comparison = json::parse(ReadFile(dir_ / "gen.comparison.json"));
  EXPECT_EQ(comparison["all"]["images"], 120);
  EXPECT_EQ(comparison["only_ours"], 120);  // the shifted variant's lines: not in the user's file
  EXPECT_EQ(comparison["by_model"]["nine"]["top1_agree"].get<int>(), 60 - 6);
  EXPECT_EQ(comparison["by_model"]["zero"]["top1_agree"].get<int>(), 60);
  EXPECT_NE(compared.out.find("top-1 agree"), std::string::npos) << compared.out;
}

}  // namespace
}  // namespace evalsuite::testing

namespace evalsuite::testing {
namespace {

// Issue 56 item 3: `latency` states each figure's range over rounds spread across the run and what the machine's
// other work was while it measured, so that a reader can tell a run's own spread from a busy machine's.
TEST_F(HoldoutEvalCli, LatencyStatesItsRoundsAndTheMachinesOtherWork) {
  const fs::path json_file = dir_ / "latency.json";
  const CommandResult r =
      RunEvalsuite({"latency", (dir_ / "zero_first.pt").string(), "--holdout", (dir_ / "holdout").string(),
                    "--batch-sizes", "1,8,32", "--json", json_file.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("latency at batch 1: p50 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" ms (rounds "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("images/s (rounds "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("machine during the measurement: other work on "), std::string::npos) << r.out;
  const json figures = json::parse(ReadFile(json_file));
  EXPECT_EQ(figures["rounds"], 5);
  ASSERT_TRUE(figures["machine"].is_object());
  EXPECT_TRUE(figures["machine"].contains("other_busy_cores"));
  const json& latency = figures["latency"]["latency_ms"];
  EXPECT_LE(latency["p50_low"].get<double>(), latency["p50"].get<double>());
  EXPECT_GE(latency["p50_high"].get<double>(), latency["p50"].get<double>());
  ASSERT_EQ(figures["latency"]["throughput"].size(), 3u);
  for (const json& row : figures["latency"]["throughput"]) {
    EXPECT_LE(row["images_per_second_low"].get<double>(), row["images_per_second"].get<double>()) << row;
    EXPECT_GE(row["images_per_second_high"].get<double>(), row["images_per_second"].get<double>()) << row;
  }
}

}  // namespace
}  // namespace evalsuite::testing
