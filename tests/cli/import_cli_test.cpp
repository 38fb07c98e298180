// `evalsuite import` as a user runs it: exit codes (0 clean, 3 warnings, 1 unreadable file, 2 usage), --json in
// the issue's shape, the default store in the current folder, --no-store, and that import never writes into
// the folders it reads (the tree is hashed before and after).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/sha256.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunCommand;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

std::string Line(long t, const std::string& key, const std::string& value, const std::string& metadata = "{}") {
  return testing::MllogRecord(t, key, value, metadata);
}

// results/<system>/resnet/result_{0..4}.txt, run i takes 20 + i minutes; run i logs seed `seed_of(i)`.
fs::path MakeSubmission(
    const fs::path& root, const std::string& extra_line_in_run_2 = "",
    int (*seed_of)(int) = [](int i) { return 100 + i; }) {
  const fs::path dir = root / "ORG" / "results" / "sysA_mxnet" / "resnet";
  fs::create_directories(dir);
  fs::create_directories(root / "ORG" / "systems");  // the division, as the summarizer reads it
  WriteFile(root / "ORG" / "systems" / "sysA_mxnet.json", "{\"division\": \"closed\"}");
  for (int i = 0; i < 5; ++i) {
    const long start = 1000000L * (i + 1);
    std::string log = "+ docker run\n";
    log += Line(start - 10, "submission_benchmark", "\"resnet\"");
    log += Line(start - 9, "submission_division", "\"closed\"");
    log += Line(start - 8, "seed", std::to_string(seed_of(i)));
    log += Line(start - 5, "global_batch_size", "3264");
    log += Line(start, "run_start", "null");
    log += Line(start + 60000, "eval_accuracy", "0.7", "{\"epoch_num\": 4}");
    if (i == 2) log += extra_line_in_run_2;
    log += Line(start + (20 + i) * 60000L, "eval_accuracy", "0.76", "{\"epoch_num\": 35}");
    log += Line(start + (20 + i) * 60000L, "run_stop", "null", "{\"status\": \"success\"}");
    // The other keys the official checker requires of a closed resnet run in ruleset 3.0.0 (its compliance YAMLs),
    // last so that the line numbers above stay put.
    for (const char* key : {"block_start", "block_stop", "cache_clear", "epoch_start", "epoch_stop", "eval_samples",
                            "eval_start", "eval_stop", "gradient_accumulation_steps", "init_start", "init_stop",
                            "submission_org", "submission_platform", "submission_status", "train_samples",
                            // opt_name "sgd" picks closed_resnet_sgd.yaml, whose keys are required too
                            "model_bn_span", "opt_learning_rate_warmup_epochs", "sgd_opt_base_learning_rate",
                            "sgd_opt_end_learning_rate", "sgd_opt_learning_rate_decay_poly_power",
                            "sgd_opt_learning_rate_decay_steps", "sgd_opt_momentum", "sgd_opt_weight_decay"}) {
      log += Line(start + (20 + i) * 60000L, key, "1");
    }
    log += Line(start + (20 + i) * 60000L, "opt_name", "\"sgd\"");
    WriteFile(dir / ("result_" + std::to_string(i) + ".txt"), log);
  }
  return dir;
}

// Names, sizes, modification times and contents of every file below `root`.
std::map<std::string, std::string> TreeFingerprint(const fs::path& root) {
  std::map<std::string, std::string> tree;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const std::string rel = fs::relative(e.path(), root).generic_string();
    if (e.is_regular_file()) {
      tree[rel] = Sha256FileHex(e.path()) + " " + std::to_string(e.file_size()) + " " +
                  std::to_string(e.last_write_time().time_since_epoch().count());
    } else {
      tree[rel] = "folder";
    }
  }
  return tree;
}

TEST(ImportCliTest, CleanImportWritesJsonInTheIssueShape) {
  TempDir dir;
  MakeSubmission(dir / "v3.0");
  auto r = RunEvalsuite({"import", (dir / "v3.0" / "ORG").string(), "--store", (dir / "out.db").string(), "--json",
                         (dir / "out.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("olympic mean 22 min"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir / "out.db"));
  const nlohmann::json json = nlohmann::json::parse(ReadFile(dir / "out.json"));
  EXPECT_EQ(json["schema_version"], 1);
  ASSERT_EQ(json["groups"].size(), 1u);
  const nlohmann::json& g = json["groups"][0];
  EXPECT_EQ(g["source"], "ORG/results/sysA_mxnet/resnet");
  EXPECT_EQ(g["format"], "mlperf");
  EXPECT_EQ(g["benchmark"], "resnet");
  EXPECT_EQ(g["system"], "sysA_mxnet");
  EXPECT_EQ(g["runs"], 5);
  EXPECT_EQ(g["converged"], 5);
  ASSERT_EQ(g["tta_minutes"].size(), 5u);
  EXPECT_DOUBLE_EQ(g["tta_minutes"][4].get<double>(), 24.0);
  EXPECT_DOUBLE_EQ(g["olympic_minutes"].get<double>(), 22.0);
  EXPECT_TRUE(g["cov"].is_number());
}

// Compliance findings are warnings (exit 3) naming file and line; --strict makes them errors: exit 1 and
// nothing stored or written.
TEST(ImportCliTest, StrictMakesComplianceFindingsErrors) {
  TempDir dir;
  MakeSubmission(dir / "v3.0", "", [](int i) { return i == 3 ? 100 : 100 + i; });  // run 3 repeats run 0's seed
  auto r = RunEvalsuite({"import", (dir / "v3.0").string(), "--no-store", "--json", (dir / "o.json").string()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("warning: compliance: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("result_3.txt:4: seed 100 was logged by"), std::string::npos) << r.err;
  // The round from the folder name, the division from the system description.
  EXPECT_NE(r.out.find("ruleset 3.0.0 (folder name), division closed"), std::string::npos) << r.out;
  auto strict = RunEvalsuite({"import", (dir / "v3.0").string(), "--store", (dir / "s.db").string(), "--json",
                              (dir / "s.json").string(), "--strict"});
  EXPECT_EQ(strict.exit_code, 1) << strict.err;
  EXPECT_NE(strict.err.find("error: compliance: "), std::string::npos) << strict.err;
  EXPECT_FALSE(fs::exists(dir / "s.json"));
  auto bad = RunEvalsuite({"import", (dir / "v3.0").string(), "--no-store", "--ruleset", "9.9"});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--ruleset"), std::string::npos) << bad.err;
  auto forced = RunEvalsuite(
      {"import", (dir / "v3.0").string(), "--no-store", "--ruleset", "v1.0", "--json", (dir / "f.json").string()});
  const nlohmann::json json = nlohmann::json::parse(ReadFile(dir / "f.json"));
  EXPECT_EQ(json["groups"][0]["ruleset"], "1.0.0");
  EXPECT_EQ(json["groups"][0]["rcp"]["rcp_file"], "built-in training_1.0.0/rcps_resnet.json");
}

TEST(ImportCliTest, MalformedLineIsAWarningAndExitThree) {
  TempDir dir;
  MakeSubmission(dir / "v3.0", ":::MLLOG {\"time_ms\": 5, \"key\": \"eval_accuracy\", \"value\": 0.7, \"metad\n");
  auto r = RunEvalsuite({"import", (dir / "v3.0").string(), "--no-store", "--json", (dir / "o.json").string()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("result_2.txt:8:"), std::string::npos) << r.err;
  const nlohmann::json json = nlohmann::json::parse(ReadFile(dir / "o.json"));
  // The official parser cannot read the line, and the summarizer drops the run for it ("Parse error").
  EXPECT_EQ(json["groups"][0]["converged"], 4);
}

TEST(ImportCliTest, UnreadableFileFailsButTheRestIsImported) {
  TempDir dir;
  const fs::path bench = MakeSubmission(dir / "v3.0");
  fs::create_symlink(dir / "gone.txt", bench / "result_5.txt");
  auto r = RunEvalsuite({"import", (dir / "v3.0").string(), "--no-store", "--json", (dir / "o.json").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("result_5.txt"), std::string::npos) << r.err;
  const nlohmann::json json = nlohmann::json::parse(ReadFile(dir / "o.json"));
  EXPECT_EQ(json["groups"][0]["runs"], 5);
}

TEST(ImportCliTest, NothingToImportFailsAndBadOptionsAreUsageErrors) {
  TempDir dir;
  WriteFile(dir / "readme.md", "nothing here");
  EXPECT_EQ(RunEvalsuite({"import", dir.path().string(), "--no-store"}).exit_code, 1);
  EXPECT_EQ(RunEvalsuite({"import", dir.path().string(), "--no-store", "--format", "csv"}).exit_code, 2);
  EXPECT_EQ(RunEvalsuite({"import"}).exit_code, 2);
}

TEST(ImportCliTest, RefusesToWriteInsideWhatItImports) {
  TempDir dir;
  MakeSubmission(dir / "v3.0");
  const auto before = TreeFingerprint(dir / "v3.0");
  auto r = RunEvalsuite({"import", (dir / "v3.0").string(), "--store", (dir / "v3.0" / "ORG" / "x.db").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--store"), std::string::npos);
  r = RunEvalsuite({"import", (dir / "v3.0").string(), "--no-store", "--json", (dir / "v3.0" / "o.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(TreeFingerprint(dir / "v3.0"), before);
}

TEST(ImportCliTest, DefaultStoreIsInTheCurrentFolderAndNoStoreWritesNothing) {
  TempDir dir;
  MakeSubmission(dir / "v3.0");
  fs::create_directory(dir / "work");
  const std::string cd = "cd '" + (dir / "work").string() + "' && exec '" + std::string(EVALSUITE_BINARY) + "' ";
  auto r = RunCommand({"sh", "-c", cd + "import ../v3.0 --no-store"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_empty(dir / "work"));
  r = RunCommand({"sh", "-c", cd + "import ../v3.0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir / "work" / "evalsuite.db"));
  // A second import of the same logs is a second study, not an error, with a warning naming the first (exit 3).
  r = RunCommand({"sh", "-c", cd + "import ../v3.0"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("already imported with the same options"), std::string::npos) << r.err;
}

TEST(ImportCliTest, SharedDataIsReadNotWritten) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  const fs::path org = shared / "mlperf" / "training_results_v2.0" / "GIGABYTE";
  const fs::path dawn = shared / "dawnbench";
  if (!fs::exists(org) || !fs::exists(dawn)) GTEST_SKIP() << "shared MLPerf or DAWNBench folders absent";
  const auto before_org = TreeFingerprint(org);
  const auto before_dawn = TreeFingerprint(dawn);
  TempDir dir;
  for (int pass = 0; pass < 2; ++pass) {  // twice: a second run must give the same scores
    auto r = RunEvalsuite({"import", org.string(), dawn.string(), "--store", (dir / "s.db").string(), "--json",
                           (dir / ("o" + std::to_string(pass) + ".json")).string(), "--rcp",
                           (shared / "mlperf" / "rcp" / "training_2.0.0").string()});
    // The second pass imports the same folders into the same store: stored again, with a warning (exit 3).
    EXPECT_EQ(r.exit_code, pass == 0 ? 0 : 3) << r.err;
  }
  EXPECT_EQ(TreeFingerprint(org), before_org);
  EXPECT_EQ(TreeFingerprint(dawn), before_dawn);
  const nlohmann::json first = nlohmann::json::parse(ReadFile(dir / "o0.json"));
  const nlohmann::json second = nlohmann::json::parse(ReadFile(dir / "o1.json"));
  EXPECT_EQ(first, second);
  // 2 MLPerf groups and 7 DAWNBench entries.
  ASSERT_EQ(first["groups"].size(), 9u);
  std::map<std::string, nlohmann::json> by_source;
  for (const auto& g : first["groups"]) by_source[g["source"].get<std::string>()] = g;
  const auto& bert = by_source.at("GIGABYTE/results/G492-ID0_pytorch/bert");
  EXPECT_NEAR(bert["olympic_minutes"].get<double>(), 18.488716666666665, 1e-9 * 18.49);
  const auto& page = by_source.at("dawnbench/CIFAR10/train/davidcpage_resnet9_1v100-ec2_pytorch.tsv");
  EXPECT_EQ(page["tta_hours"], 0.02056706);
  EXPECT_EQ(page["threshold"], 94.0);
  const auto& squad = by_source.at("dawnbench/SQuAD/train/dawn_drqa_1p100-ec2.tsv");
  EXPECT_NEAR(squad["cost"].get<double>(), 0.60626280638888 * 3.06, 1e-12);
}

// Issue 35 (Also): the default study name keeps the round's minor version, importing the same folder again with the
// same options says so (a warning naming the earlier study, exit 3), and the summary's warning count is every warning
// printed (compliance findings included).
TEST(ImportCliTest, DefaultNameKeepsTheMinorVersionAndARepeatedImportSaysSo) {
  TempDir dir;
  MakeSubmission(dir / "training_results_v3.0", "", [](int i) { return i == 3 ? 100 : 100 + i; });
  const std::string store = (dir / "s.db").string();
  auto first = RunEvalsuite({"import", (dir / "training_results_v3.0").string(), "--store", store});
  EXPECT_EQ(first.exit_code, 3) << first.err;
  EXPECT_NE(first.out.find("stored as study \"import training_results_v3.0\""), std::string::npos) << first.out;
  EXPECT_EQ(first.err.find("already imported"), std::string::npos) << first.err;
  std::size_t printed = 0;
  for (std::size_t at = first.err.find("warning: "); at != std::string::npos;
       at = first.err.find("warning: ", at + 1)) {
    ++printed;
  }
  EXPECT_NE(first.out.find("; " + std::to_string(printed) + " warning(s)"), std::string::npos)
      << printed << " printed\n"
      << first.out << first.err;
  auto again = RunEvalsuite({"import", (dir / "training_results_v3.0").string(), "--store", store});
  EXPECT_EQ(again.exit_code, 3) << again.err;
  EXPECT_NE(again.err.find("already imported with the same options as study \"import training_results_v3.0\""),
            std::string::npos)
      << again.err;
  EXPECT_NE(again.out.find("stored as study \"import training_results_v3.0 #2\""), std::string::npos) << again.out;
  // Other options are another import: no such warning.
  auto other =
      RunEvalsuite({"import", (dir / "training_results_v3.0").string(), "--store", store, "--threshold", "0.7"});
  EXPECT_EQ(other.err.find("already imported"), std::string::npos) << other.err;
}

}  // namespace
}  // namespace evalsuite
