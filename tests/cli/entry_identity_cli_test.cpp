// Issue 50 items 6 and 7, as a practitioner meets them: two configs imported one at a time into one study (its entries
// kept apart, a clash refused), `compare` naming entries across the studies of one store (and saying where an entry
// is when --study names the wrong one), `export` giving the runs as tidy CSV whose TTA an independent reader
// recomputes from the evaluations, and `study plan` planning the pair the user names.
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

// Keras CSVLogger files of one config, root/<config>/seed<r>.csv.
void WriteConfig(const fs::path& root, const std::string& config, const std::vector<std::vector<double>>& runs) {
  for (std::size_t r = 0; r < runs.size(); ++r) {
    std::string text = "epoch,accuracy,loss,val_accuracy,val_loss\n";
    for (std::size_t e = 0; e < runs[r].size(); ++e) {
      text += std::to_string(e) + ",0.9,0.3," + std::to_string(runs[r][e]) + ",0.4\n";
    }
    WriteFile(root / config / ("seed" + std::to_string(r) + ".csv"), text);
  }
}

struct TwoConfigs {
  TempDir dir;
  std::string store = (dir / "s.db").string();
  TwoConfigs() {
    WriteConfig(dir / "a", "fast", {{0.5, 0.81, 0.85}, {0.5, 0.7, 0.82}, {0.6, 0.80, 0.9}});
    WriteConfig(dir / "b", "baseline", {{0.4, 0.5, 0.6, 0.8, 0.85}, {0.4, 0.5, 0.6, 0.7, 0.8}, {0.4, 0.5, 0.81}});
  }
  testing::CommandResult Import(const std::string& folder, const std::vector<std::string>& more = {}) {
    std::vector<std::string> args = {"import", (dir / folder).string(), "--store", store, "--threshold", "0.8"};
    args.insert(args.end(), more.begin(), more.end());
    return RunEvalsuite(args);
  }
};

TEST(EntryIdentityCliTest, AnImportAddsItsEntriesToTheStudyItNamesAndRefusesAnEntryItAlreadyHas) {
  TwoConfigs t;
  auto first = t.Import("a", {"--study", "mine"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("stored as study \"mine\""), std::string::npos) << first.out;
  auto second = t.Import("b", {"--study", "mine"});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.out.find("added to study \"mine\""), std::string::npos) << second.out;  // not "mine #2"
  auto list = RunEvalsuite({"study", "list", "--store", t.store});
  EXPECT_EQ(list.out.find("mine #2"), std::string::npos) << list.out;
  auto compare = RunEvalsuite({"compare", t.store, "fast", "baseline", "--study", "mine"});
  EXPECT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_NE(compare.out.find("runs                fast 3"), std::string::npos) << compare.out;
  // At 3 runs the median ratio's interval is withheld: its line names no interval method (a cold reader read
  // "(interval withheld ...) (95% percentile bootstrap, 4000 resamples)").
  const std::size_t median_at = compare.out.find("  median TTA");
  ASSERT_NE(median_at, std::string::npos) << compare.out;
  const std::string median_line = compare.out.substr(median_at, compare.out.find('\n', median_at) - median_at);
  EXPECT_NE(median_line.find("interval withheld"), std::string::npos) << median_line;
  EXPECT_EQ(median_line.find("percentile bootstrap"), std::string::npos) << median_line;
  // The same config again would file its runs under an entry the study has: refused, nothing stored.
  auto again = t.Import("b", {"--study", "mine"});
  EXPECT_EQ(again.exit_code, 2) << again.out;
  EXPECT_NE(again.err.find("already has an entry 'baseline'"), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("--entry"), std::string::npos) << again.err;
  auto csv = RunEvalsuite({"export", t.store, "--out", (t.dir / "csv").string()});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.out.find("exported 6 attempt(s)"), std::string::npos) << csv.out;
}

TEST(EntryIdentityCliTest, CompareFindsEntriesAcrossStudiesAndSaysWhereAnEntryIs) {
  TwoConfigs t;
  ASSERT_EQ(t.Import("a", {"--study", "first"}).exit_code, 0);
  ASSERT_EQ(t.Import("b", {"--study", "second"}).exit_code, 0);
  // Before: "fast: no such entry (entries: baseline)".
  auto across = RunEvalsuite({"compare", t.store, "fast", "baseline", "--json", (t.dir / "c.json").string()});
  ASSERT_EQ(across.exit_code, 0) << across.err;
  EXPECT_NE(across.out.find("(study first and second)"), std::string::npos) << across.out;
  const json c = json::parse(ReadFile(t.dir / "c.json"));
  EXPECT_EQ(c["studies"]["a"], "first");
  EXPECT_EQ(c["studies"]["b"], "second");
  auto wrong = RunEvalsuite({"compare", t.store, "fast", "baseline", "--study", "second"});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_NE(wrong.err.find("no such entry in study 'second'"), std::string::npos) << wrong.err;
  EXPECT_NE(wrong.err.find("it is in first/fast"), std::string::npos) << wrong.err;
  // Two studies with an entry of one name (another run of the fast config): never guessed; STUDY/ENTRY chooses.
  WriteConfig(t.dir / "c", "fast", {{0.5, 0.9}, {0.5, 0.7, 0.82}});
  ASSERT_EQ(t.Import("c", {"--study", "third"}).exit_code, 0);
  auto ambiguous = RunEvalsuite({"compare", t.store, "fast", "baseline"});
  EXPECT_EQ(ambiguous.exit_code, 2) << ambiguous.out;
  EXPECT_NE(ambiguous.err.find("first/fast, third/fast"), std::string::npos) << ambiguous.err;
  auto chosen = RunEvalsuite({"compare", t.store, "third/fast", "baseline"});
  EXPECT_EQ(chosen.exit_code, 0) << chosen.err;
}

TEST(EntryIdentityCliTest, ExportedRunsCarryTheirIdentityAndTheirTtaIsTheEvaluationsFirstCrossing) {
  TwoConfigs t;
  ASSERT_EQ(t.Import("a", {"--study", "first"}).exit_code, 0);
  ASSERT_EQ(t.Import("b", {"--study", "second"}).exit_code, 0);
  const fs::path out = t.dir / "csv";
  auto csv = RunEvalsuite({"export", t.store, "--out", out.string()});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const std::string runs = ReadFile(out / "runs.csv");
  EXPECT_EQ(runs.substr(0, runs.find('\n')),
            "study,study_kind,entry,entry_source,metric,time_unit,threshold,run_index,attempt,status,counted,seed,tta,"
            "reached,epochs_to_target,time_spent,evaluations,best_metric,origin,entry_origin");
  EXPECT_NE(runs.find("first,import,fast,"), std::string::npos) << runs;
  EXPECT_NE(runs.find("second,import,baseline,"), std::string::npos) << runs;
  EXPECT_NE(runs.find("seed1.csv"), std::string::npos) << runs;  // where each run came from
  // An independent reader (Python's csv module) recomputes each run's TTA from evaluations.csv: the first evaluation
  // at or above the run's threshold.
  if (std::system("python3 -c 'import csv' 2>/dev/null") != 0) GTEST_SKIP() << "python3 is absent";
  WriteFile(t.dir / "check.py", R"(import csv, sys
runs = list(csv.DictReader(open(sys.argv[1] + "/runs.csv")))
evals = list(csv.DictReader(open(sys.argv[1] + "/evaluations.csv")))
bad = 0
for r in runs:
    points = sorted((float(e["time"]), float(e["metric"])) for e in evals
                    if (e["study"], e["entry"], e["run_index"], e["attempt"]) ==
                       (r["study"], r["entry"], r["run_index"], r["attempt"]))
    tta = next((t for t, m in points if m >= float(r["threshold"])), None)
    mine = float(r["tta"]) if r["tta"] else None
    if tta != mine or len(points) != int(r["evaluations"]):
        bad += 1
        print("mismatch", r, tta)
print(len(runs), "runs", bad, "mismatches")
)");
  const testing::CommandResult check = testing::RunCommand({"python3", (t.dir / "check.py").string(), out.string()});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_NE(check.out.find("6 runs 0 mismatches"), std::string::npos) << check.out;
}

TEST(EntryIdentityCliTest, StudyPlanPlansThePairTheUserNames) {
  TwoConfigs t;
  ASSERT_EQ(t.Import("a", {"--study", "first"}).exit_code, 0);
  ASSERT_EQ(t.Import("b", {"--study", "second"}).exit_code, 0);
  WriteFile(t.dir / "plan.toml", R"(entries = [{ name = "fast", command = "true {log}" },
           { name = "baseline", command = "true {log}" },
           { name = "other", command = "true {log}" }]
threshold = 0.8
)");
  auto named = RunEvalsuite({"study", "plan", (t.dir / "plan.toml").string(), "--pilot", t.store, "--compare", "fast",
                             "baseline", "--simulations", "200", "--json", (t.dir / "p.json").string()});
  ASSERT_EQ(named.exit_code, 0) << named.err;
  const json p = json::parse(ReadFile(t.dir / "p.json"));
  ASSERT_EQ(p["comparisons"].size(), 1u) << p.dump(1);
  EXPECT_EQ(p["comparisons"][0]["a"], "fast");
  EXPECT_EQ(p["comparisons"][0]["b"], "baseline");
  // Before: "fast against a copy of itself" and "baseline against a copy of itself", the pilot of one study only.
  EXPECT_EQ(named.out.find("against a copy of itself"), std::string::npos) << named.out;
  EXPECT_NE(named.out.find("from the pilot study first, second"), std::string::npos) << named.out;
  auto unknown = RunEvalsuite(
      {"study", "plan", (t.dir / "plan.toml").string(), "--pilot", t.store, "--compare", "fast", "nosuch"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("'nosuch' is not an entry"), std::string::npos) << unknown.err;
}

}  // namespace
}  // namespace evalsuite
