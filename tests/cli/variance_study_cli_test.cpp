// A [variance] design end to end (issue 55): an external script's {init_seed}, {data_seed}, {aug_seed} are filled
// with the design's seeds and recorded with each run; a design whose runs did not all run resumes with the same
// seeds; `study run` and `study plan` show the design, its cost and its warning; and a built-in entry given the same
// seeds twice on one thread trains the same curve, while a run given none keeps the seeds it always had.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "common/seeds.h"
#include "tests/support/store_query.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::Query;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

// variance_entry.sh LOG SEED INIT DATA AUG INDEX: a header with the seeds it was given and three evaluations whose
// times depend on the init and data seeds. While a file `break` is beside it, runs from index 2 on die of SIGILL
// right after their header (did not run: resume runs them again).
void WriteVarianceEntry(const fs::path& dir) {
  WriteFile(dir / "variance_entry.sh", R"(#!/bin/sh
log=$1; seed=$2; init=$3; data=$4; aug=$5; index=$6
echo "{\"type\":\"header\",\"entry\":\"fake\",\"seeds\":{\"run\":$seed,\"init\":$init,\"data_order\":$data,\"augmentation\":$aug}}" > "$log"
if [ "$index" -ge 2 ] && [ -e "$(dirname "$0")/break" ]; then echo "Illegal instruction" >&2; kill -ILL $$; fi
step=$((10 + init % 3 + data % 2))
for i in 1 2 3; do
  echo "{\"type\":\"eval\",\"epoch\":$i,\"train_seconds\":$((i * step)),\"wall_seconds\":$((i * step + 1)),\"metric\":0.$((75 + 5 * i))}" >> "$log"
done
echo "{\"type\":\"end\",\"status\":\"reached\",\"train_seconds\":$((3 * step))}" >> "$log"
)");
}

constexpr const char* kVarianceStudy =
    "name = \"design\"\nseed = 3\nthreshold = 0.85\njobs = 2\n"
    "entries = [{ name = \"ext\", command = \"sh {study_dir}/variance_entry.sh {log} {seed} {init_seed} {data_seed} "
    "{aug_seed} {run_index}\" }]\n"
    "[variance]\nvary = [\"init\", \"data_order\"]\nlevels = 2\nrepeats = 2\n";

// (init, data_order, augmentation) of each recorded run that counted, by run index, from the store's seeds table.
std::map<int, std::tuple<std::string, std::string, std::string>> StoredSourceSeeds(const std::string& store) {
  std::map<int, std::tuple<std::string, std::string, std::string>> out;
  for (const auto& row : Query(store,
                               "SELECT r.run_index, s.name, s.value FROM runs r JOIN seeds s ON s.run_id = r.id "
                               "WHERE r.status = 'reached'")) {
    auto& seeds = out[std::stoi(row[0])];
    if (row[1] == "init") std::get<0>(seeds) = row[2];
    if (row[1] == "data_order") std::get<1>(seeds) = row[2];
    if (row[1] == "augmentation") std::get<2>(seeds) = row[2];
  }
  return out;
}

TEST(VarianceStudyCliTest, PlaceholdersCarryTheDesignSeedsAndAnInterruptedDesignResumes) {
  TempDir dir;
  WriteVarianceEntry(dir.path());
  WriteFile(dir / "v.toml", kVarianceStudy);
  WriteFile(dir / "break", "");
  const std::string store = (dir / "v.db").string();
  auto run = RunEvalsuite({"study", "run", (dir / "v.toml").string(), "--store", store, "--out",
                           (dir / "runs").string(), "--progress", "plain"});
  EXPECT_NE(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.err.find("variance design: init, data_order x 2 levels = 4 cells, 2 repeats: 8 runs per entry"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(StoredSourceSeeds(store).size(), 2u);  // runs 0 and 1; the others did not run

  fs::remove(dir / "break");
  auto resume = RunEvalsuite({"study", "resume", "design", "--store", store, "--progress", "none"});
  ASSERT_EQ(resume.exit_code, 0) << resume.out << resume.err;

  // Every run recorded once with the seeds the plan gave it, which are the ones the script was given.
  const auto stored = StoredSourceSeeds(store);
  ASSERT_EQ(stored.size(), 8u);
  const nlohmann::json plan =
      nlohmann::json::parse(Query(store, "SELECT plan FROM studies WHERE name = 'design'")[0][0]);
  ASSERT_EQ(plan["variance"]["levels"], 2);
  std::map<std::tuple<std::string, std::string, std::string>, int> cells;
  std::set<std::string> augmentation;
  for (const auto& planned : plan["schedule"]) {
    const int index = planned["index"].get<int>();
    SCOPED_TRACE(index);
    const auto& seeds = stored.at(index);
    EXPECT_EQ(std::get<0>(seeds), planned["init_seed"].dump());
    EXPECT_EQ(std::get<1>(seeds), planned["data_seed"].dump());
    EXPECT_EQ(std::get<2>(seeds), planned["aug_seed"].dump());
    const std::string log = ReadFile(dir / "runs" / "ext" / ("run-00" + std::to_string(index)) / "log.jsonl");
    EXPECT_NE(log.find("\"init\":" + planned["init_seed"].dump() + ",\"data_order\":" + planned["data_seed"].dump()),
              std::string::npos)
        << log;
    ++cells[seeds];
    augmentation.insert(std::get<2>(seeds));
  }
  EXPECT_EQ(cells.size(), 4u);
  for (const auto& [seeds, count] : cells) EXPECT_EQ(count, 2);
  EXPECT_EQ(augmentation.size(), 1u);  // held
}

TEST(VarianceStudyCliTest, RefusesAVariedSourceTheCommandCannotTake) {
  TempDir dir;
  WriteVarianceEntry(dir.path());
  std::string study = kVarianceStudy;
  study.replace(study.find("\"data_order\"]"), 13, "\"augmentation\"]");
  study.replace(study.find(" {aug_seed}"), 11, "");
  WriteFile(dir / "v.toml", study);
  auto run = RunEvalsuite({"study", "run", (dir / "v.toml").string(), "--store", (dir / "v.db").string()});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;  // bad input, as every bad study file
  EXPECT_NE(run.err.find("v.toml:7: key 'variance.vary'"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("has no {aug_seed}"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(dir / "v.db"));
}

TEST(VarianceStudyCliTest, PlanShowsTheDesignItsCostAndItsWarning) {
  TempDir dir;
  WriteVarianceEntry(dir.path());
  std::string study = kVarianceStudy;
  study.replace(study.find("repeats = 2"), 11, "repeats = 1");
  WriteFile(dir / "v.toml", study);
  // A pilot of the same entry: 2 plain runs.
  WriteFile(dir / "pilot.toml",
            "name = \"pilot\"\nruns = 2\nthreshold = 0.85\nentries = [{ name = \"ext\", command = \"sh "
            "{study_dir}/variance_entry.sh {log} {seed} {init_seed} {data_seed} {aug_seed} {run_index}\" }]\n");
  const std::string store = (dir / "pilot.db").string();
  auto pilot = RunEvalsuite({"study", "run", (dir / "pilot.toml").string(), "--store", store, "--out",
                             (dir / "pilot").string(), "--progress", "none"});
  ASSERT_EQ(pilot.exit_code, 0) << pilot.out << pilot.err;
  auto plan = RunEvalsuite({"study", "plan", (dir / "v.toml").string(), "--pilot", store, "--json",
                            (dir / "plan.json").string(), "--simulations", "100"});
  ASSERT_EQ(plan.exit_code, 0) << plan.out << plan.err;
  EXPECT_NE(plan.out.find("variance design: init, data_order x 2 levels = 4 cells, 1 repeat: 4 runs per entry "
                          "(augmentation held)"),
            std::string::npos)
      << plan.out;
  EXPECT_NE(plan.out.find("warning: [variance] repeats = 1"), std::string::npos) << plan.out;
  EXPECT_NE(plan.out.find("ext: 4 runs x "), std::string::npos) << plan.out;
  const nlohmann::json figures = nlohmann::json::parse(ReadFile(dir / "plan.json"));
  ASSERT_TRUE(figures.contains("variance")) << figures.dump();
  const nlohmann::json& row = figures["variance"]["entries"][0];
  EXPECT_NEAR(row["machine_hours"].get<double>(), 4 * row["mean_wall_seconds"].get<double>() / 3600, 1e-12);
  // study run warns too, before any run.
  auto run = RunEvalsuite({"study", "run", (dir / "v.toml").string(), "--store", (dir / "v.db").string(), "--out",
                           (dir / "runs").string(), "--progress", "none"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("warning: [variance] repeats = 1"), std::string::npos) << run.err;
}

// The header's seeds of a tiny one-thread run of `fast`, and its metrics.
std::pair<nlohmann::json, std::vector<double>> TinyVarianceTrain(const TempDir& dir, const std::string& name,
                                                                 const std::vector<std::string>& seed_args) {
  std::vector<std::string> args = {
      "train", "fast",     "--threads", "1",     "--train-subset",     "512", "--epochs", "1", "--evals-per-epoch",
      "2",     "--target", "0.99",      "--log", (dir / name).string()};
  args.insert(args.end(), seed_args.begin(), seed_args.end());
  auto run = RunEvalsuite(args);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  nlohmann::json header;
  std::vector<double> metrics;
  std::istringstream lines(ReadFile(dir / name));
  for (std::string line; std::getline(lines, line);) {
    const nlohmann::json record = nlohmann::json::parse(line);
    if (record["type"] == "header") header = record["seeds"];
    if (record["type"] == "eval") metrics.push_back(record["metric"].get<double>());
  }
  return {header, metrics};
}

TEST(VarianceStudyCliTest, SameSeedsOnOneThreadGiveTheSameCurveAndPlainRunsKeepTheirSeeds) {
  if (!fs::exists("/usr/share/datasets/fashion-mnist")) GTEST_SKIP() << "no Fashion-MNIST";
  TempDir dir;
  const std::vector<std::string> given = {"--init-seed", "11", "--data-seed", "12", "--aug-seed", "13"};
  std::vector<std::string> first_args = {"--seed", "1"}, second_args = {"--seed", "2"};
  first_args.insert(first_args.end(), given.begin(), given.end());
  second_args.insert(second_args.end(), given.begin(), given.end());
  const auto [first_seeds, first] = TinyVarianceTrain(dir, "a.jsonl", first_args);
  const auto [second_seeds, second] = TinyVarianceTrain(dir, "b.jsonl", second_args);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first, second);  // bit for bit: nothing but the three seeds drives the run
  EXPECT_EQ(first_seeds["init"], 11);
  EXPECT_EQ(second_seeds["augmentation"], 13);

  // No stream seeds given: each derives from the run seed, as before the design existed.
  const auto [plain_seeds, plain] = TinyVarianceTrain(dir, "c.jsonl", {"--seed", "1"});
  EXPECT_EQ(plain_seeds["init"], DeriveSeed(1, 1));
  EXPECT_EQ(plain_seeds["data_order"], DeriveSeed(1, 2));
  EXPECT_EQ(plain_seeds["augmentation"], DeriveSeed(1, 3));
  EXPECT_EQ(plain_seeds["derivation"],
            "SplitMix64: init = stream 1, data_order = stream 2, augmentation = stream 3 of run");
  EXPECT_NE(plain, first);  // other seeds, another curve
}

}  // namespace
}  // namespace evalsuite
