// `evalsuite import FOLDER` on the frameworks' own logs, then `study show`, `compare` and `report` on what it stored,
// as a user runs them: two Keras CSVLogger entries (TTA in epochs, the report says why), a TensorBoard folder (TTA in
// seconds), a refused import without a target, and a bad file that fails the import: nothing is stored.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

// Keras CSVLogger files: entry "fast" reaches 0.8 at epochs 2, 3, 2; "slow" at 4, 5, never.
void WriteKerasFolders(const fs::path& root) {
  const std::vector<std::vector<double>> fast = {{0.5, 0.81, 0.85}, {0.5, 0.7, 0.82}, {0.6, 0.80, 0.9}};
  const std::vector<std::vector<double>> slow = {{0.4, 0.5, 0.6, 0.8, 0.85}, {0.4, 0.5, 0.6, 0.7, 0.8}, {0.4, 0.5}};
  for (const auto& [name, runs] : {std::pair{"fast", fast}, std::pair{"slow", slow}}) {
    for (std::size_t r = 0; r < runs.size(); ++r) {
      std::string text = "epoch,accuracy,loss,val_accuracy,val_loss\r\n";
      for (std::size_t e = 0; e < runs[r].size(); ++e) {
        text += std::to_string(e) + ",0.9,0.3," + std::to_string(runs[r][e]) + ",0.4\r\n";
      }
      WriteFile(root / name / ("seed" + std::to_string(r) + ".csv"), text);
    }
  }
}

TEST(FrameworkImportCliTest, ImportThenStudyShowCompareAndReport) {
  TempDir dir;
  WriteKerasFolders(dir / "logs");
  const std::string store = (dir / "s.db").string();
  auto imported = RunEvalsuite({"import", (dir / "logs").string(), "--store", store, "--threshold", "0.8", "--study",
                                "keras", "--json", (dir / "i.json").string()});
  ASSERT_EQ(imported.exit_code, 0) << imported.err << imported.out;
  EXPECT_NE(imported.err.find("note: metric of fast: val_accuracy"), std::string::npos) << imported.err;
  EXPECT_NE(imported.err.find("note: time of fast: Keras' CSVLogger records no clock, so TTA is in epochs"),
            std::string::npos)
      << imported.err;
  EXPECT_NE(imported.out.find("TTA 2 epochs"), std::string::npos) << imported.out;
  const json out = json::parse(ReadFile(dir / "i.json"));
  ASSERT_EQ(out["groups"].size(), 2u);
  EXPECT_EQ(out["groups"][0]["tta"], json({2.0, 3.0, 2.0}));
  EXPECT_EQ(out["groups"][1]["tta"], json({4.0, 5.0, nullptr}));

  auto show = RunEvalsuite({"study", "show", "keras", "--store", store});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("fast"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("epochs"), std::string::npos) << show.out;

  auto compare = RunEvalsuite({"compare", store, "fast", "slow", "--json", (dir / "c.json").string()});
  ASSERT_EQ(compare.exit_code, 0) << compare.err << compare.out;
  const json c = json::parse(ReadFile(dir / "c.json"));
  EXPECT_EQ(c["a"], "fast") << c.dump();
  EXPECT_EQ(c["b"], "slow") << c.dump();

  auto report = RunEvalsuite({"report", store, "--out", (dir / "report").string()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string md = ReadFile(dir / "report" / "report.md");
  EXPECT_NE(md.find("Keras CSVLogger import of"), std::string::npos);
  EXPECT_NE(md.find("TTA in epochs"), std::string::npos);
  const json model = json::parse(ReadFile(dir / "report" / "report.json"));
  for (const json& entry : model["entries"]) EXPECT_EQ(entry["time_unit"], "epochs");
}

TEST(FrameworkImportCliTest, WithoutATargetNothingIsStored) {
  TempDir dir;
  WriteKerasFolders(dir / "logs");
  auto r = RunEvalsuite({"import", (dir / "logs").string(), "--store", (dir / "s.db").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--threshold"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "s.db"));
  // --no-store shows what the logs hold, to choose a target from.
  auto look = RunEvalsuite({"import", (dir / "logs").string(), "--no-store"});
  EXPECT_EQ(look.exit_code, 3) << look.err;
  EXPECT_NE(look.out.find("best 0.9"), std::string::npos) << look.out;
}

TEST(FrameworkImportCliTest, ABadFileIsAnErrorNamingItsLineAndTheImportStoresNothing) {
  TempDir dir;
  WriteKerasFolders(dir / "logs");
  WriteFile(dir / "logs/slow/seed9.csv", "epoch,accuracy,val_accuracy\n0,0.5,0.4\noops,0.6,0.5\n");
  auto r = RunEvalsuite(
      {"import", (dir / "logs").string(), "--store", (dir / "s.db").string(), "--threshold", "0.8", "--study", "k"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find((dir / "logs/slow/seed9.csv").string() + ":3: the epoch column holds \"oops\""),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("nothing was stored"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "s.db"));
}

TEST(FrameworkImportCliTest, TensorboardRunsAreTimedInSeconds) {
  TempDir dir;
  const testing::CommandResult w = testing::RunCommand(
      {"python3", (testing::SourceDir() / "tests/runlog/tensorboard_writer.py").string(), (dir / "tb").string()});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const std::string store = (dir / "s.db").string();
  auto r = RunEvalsuite({"import", (dir / "tb" / "pytorch").string(), "--store", store, "--threshold", "0.9",
                         "--format", "tensorboard", "--entry", "resnet", "--study", "tb"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("TTA 64 seconds"), std::string::npos) << r.out;  // 0.91 at wall_time + 64 s
  auto report = RunEvalsuite({"report", store, "--out", (dir / "report").string()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const json model = json::parse(ReadFile(dir / "report" / "report.json"));
  ASSERT_EQ(model["entries"].size(), 1u);
  EXPECT_EQ(model["entries"][0]["name"], "resnet");
  EXPECT_EQ(model["entries"][0]["time_unit"], "seconds");
  EXPECT_DOUBLE_EQ(model["entries"][0]["runs"][0]["tta"].get<double>(), 64.0);
}

}  // namespace
}  // namespace evalsuite
