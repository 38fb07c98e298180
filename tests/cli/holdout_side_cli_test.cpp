// Issue 56 as a user meets it on the command line: report sections of the same name, the label commands' names and
// export, and the holdout refusals that say what to do. Each test failed on the code before its fix.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/sha256.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {
namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

fs::path WriteHoldoutSideRunStore(const TempDir& dir) {
  WriteFile(dir / "run.jsonl",
            "{\"type\":\"header\",\"entry\":\"e\",\"threshold\":0.9}\n"
            "{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":10,\"metric\":0.95}\n"
            "{\"type\":\"end\",\"status\":\"reached\",\"train_seconds\":10}\n");
  const fs::path store = dir / "runs.db";
  const auto r = RunEvalsuite({"import", (dir / "run.jsonl").string(), "--store", store.string(), "--quiet"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return store;
}

std::string ImageSet(const std::string& name) {
  return R"({"image_set": ")" + name + R"(", "images": 10, "models": [{"name": "m", "group": "pretrained"}],
            "verdict": {"label": "INCONCLUSIVE", "statement": "s", "test": "t", "error_rates": "Error rates, sim"}})";
}

// Item 2: `--section generalization=A --section generalization=B` kept only B, exit 0, no word.
TEST(HoldoutSideCliTest, TwoGeneralizationSectionsAreBothShown) {
  TempDir dir;
  const std::string store = WriteHoldoutSideRunStore(dir).string();
  WriteFile(dir / "a.json", "[" + ImageSet("holdout-a") + "]");
  WriteFile(dir / "b.json", ImageSet("holdout-b"));  // a lone image set, as an array of one
  const auto r = RunEvalsuite({"report", store, "--out", (dir / "rep").string(), "--section",
                               "generalization=" + (dir / "a.json").string(), "--section",
                               "generalization=" + (dir / "b.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json model = nlohmann::json::parse(ReadFile(dir / "rep" / "report.json"));
  ASSERT_EQ(model["generalization"].size(), 2u) << model["generalization"].dump();
  EXPECT_EQ(model["generalization"][0]["image_set"], "holdout-a");
  EXPECT_EQ(model["generalization"][1]["image_set"], "holdout-b");
  const std::string md = ReadFile(dir / "rep" / "report.md");
  EXPECT_NE(md.find("holdout-a"), std::string::npos);
  EXPECT_NE(md.find("holdout-b"), std::string::npos);
  // Item 1: the verdict's rule and its simulated error rates are in the methods.
  EXPECT_NE(md.find("Holdout generalization verdict"), std::string::npos) << md;
  EXPECT_NE(md.find("Error rates, sim"), std::string::npos);

  // Two machines in one report: refused with the reason, nothing written.
  WriteFile(dir / "hw.json", R"({"machine": {"cpu_model": "cpu", "peak_fp32_flops": 1e11}})");
  const auto twice =
      RunEvalsuite({"report", store, "--out", (dir / "rep2").string(), "--section",
                    "hardware=" + (dir / "hw.json").string(), "--section", "hardware=" + (dir / "hw.json").string()});
  EXPECT_EQ(twice.exit_code, 2) << twice.err;
  EXPECT_NE(twice.err.find("hardware is given twice"), std::string::npos) << twice.err;
  EXPECT_FALSE(fs::exists(dir / "rep2" / "report.json"));
}

// Two candidates of one class; the bytes need not decode.
fs::path WriteHoldoutSideCandidates(const fs::path& dir) {
  nlohmann::json items = nlohmann::json::array();
  for (int rank = 1; rank <= 2; ++rank) {
    const std::string path = "images/tench_" + std::to_string(rank) + ".jpg";
    const std::string bytes = "\xff\xd8\xff fake jpeg " + std::to_string(rank);
    WriteFile(dir / path, bytes);
    items.push_back({{"id", "n01440764/" + std::to_string(rank)},
                     {"class_index", 0},
                     {"wnid", "n01440764"},
                     {"query", "tench"},
                     {"rank", rank},
                     {"path", path},
                     {"sha256", Sha256Hex(bytes)}});
  }
  const nlohmann::json manifest = {
      {"schema_version", 1},
      {"source", nlohmann::json::object()},
      {"classes", {{{"index", 0}, {"wnid", "n01440764"}, {"synonyms", {"tench"}}, {"gloss", "a fish"}}}},
      {"items", items}};
  WriteFile(dir / "candidates.json", manifest.dump(2));
  return dir / "candidates.json";
}

// Item 5: `--labeler zed --labelers ana,ben` started and printed a URL that answered 403; a roster "ana,Ana" was
// accepted. Both are refused at start, before a store is created. (`timeout`: before the fix the server ran on.)
TEST(HoldoutSideCliTest, LabelServeRefusesALabelerOffTheRosterAndARepeatedName) {
  TempDir dir;
  const fs::path candidates = WriteHoldoutSideCandidates(dir / "cands");
  const auto off =
      testing::RunCommand({"/usr/bin/timeout", "20", EVALSUITE_BINARY, "label", "serve", "--candidates",
                           candidates.string(), "--labeler", "zed", "--labelers", "ana,ben", "--port", "0"});
  EXPECT_EQ(off.exit_code, 2) << off.out << off.err;
  EXPECT_NE(off.err.find("--labeler: 'zed' is not on the roster (--labelers ana,ben)"), std::string::npos) << off.err;
  const auto twice =
      testing::RunCommand({"/usr/bin/timeout", "20", EVALSUITE_BINARY, "label", "serve", "--candidates",
                           candidates.string(), "--labeler", "ben", "--labelers", "ana,Ana,ben", "--port", "0"});
  EXPECT_EQ(twice.exit_code, 2) << twice.out << twice.err;
  EXPECT_NE(twice.err.find("'ana' and 'Ana' are one labeler"), std::string::npos) << twice.err;
  EXPECT_FALSE(fs::exists(dir / "cands" / "labels.sqlite"));
}

// Item 6: no command made a hidden control; the only way was editing candidates.json by hand.
TEST(HoldoutSideCliTest, LabelControlsMakesHiddenControlsFromKnownAnswers) {
  TempDir dir;
  const fs::path candidates = WriteHoldoutSideCandidates(dir / "cands");
  WriteFile(dir / "answers.csv", "item,answer\nn01440764/2,incorrect\n");
  const auto made = RunEvalsuite(
      {"label", "controls", "--candidates", candidates.string(), "--answers", (dir / "answers.csv").string()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  EXPECT_NE(made.out.find("1 hidden controls (0 correct, 1 incorrect); 1 added"), std::string::npos) << made.out;
  const nlohmann::json manifest = nlohmann::json::parse(ReadFile(candidates));
  EXPECT_EQ(manifest["items"][0]["control"], "");
  EXPECT_EQ(manifest["items"][1]["control"], "incorrect");

  WriteFile(dir / "bad.csv", "n01440764/1,maybe\n");
  const auto bad =
      RunEvalsuite({"label", "controls", "--candidates", candidates.string(), "--answers", (dir / "bad.csv").string()});
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_NE(bad.err.find("bad.csv:1: answer 'maybe' is not correct or incorrect"), std::string::npos) << bad.err;
  EXPECT_EQ(nlohmann::json::parse(ReadFile(candidates)), manifest);  // nothing lost or half-written
  // Unanimous labels need a store; without one the refusal says so.
  const auto none = RunEvalsuite({"label", "controls", "--candidates", candidates.string(), "--from-labels"});
  EXPECT_EQ(none.exit_code, 1) << none.err;
  EXPECT_NE(none.err.find("no label store here"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace evalsuite
