// Issue 36: what a newcomer hit in a second round, each fed to the real binary as it was typed: a folder as the study
// file, zero and negative numbers on the command line, a wrong key inherited by an entry, an unknown or misshapen
// report section, a missing ceilings file, and a store of the wrong kind. Each must be refused with the option, key
// or file at fault named, and leave every file as it was. (The labeling server's port and the label store given to
// run-store commands are in label_cli_test.cpp, which starts real servers.)
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/study/fake_entries.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

// A valid study of one fake external entry; nothing in these tests gets as far as running it.
fs::path WriteStudy(const TempDir& dir) {
  study::testing::WriteFakeEntry(dir.path());
  WriteFile(dir / "s.toml",
            "name = \"s\"\nruns = 2\nthreshold = 0.85\nmachine_ceilings = \"skip\"\nentries = [\n"
            "  { name = \"ok\", command = \"sh {study_dir}/fake_entry.sh {log} {seed} ok\" },\n]\n");
  return dir / "s.toml";
}

// A store with one imported run, for the commands that read one.
fs::path WriteRunStore(const TempDir& dir) {
  WriteFile(dir / "run.jsonl",
            "{\"type\":\"header\",\"entry\":\"e\",\"threshold\":0.9}\n"
            "{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":10,\"metric\":0.95}\n"
            "{\"type\":\"end\",\"status\":\"reached\",\"train_seconds\":10}\n");
  const fs::path store = dir / "runs.db";
  const auto r = RunEvalsuite({"import", (dir / "run.jsonl").string(), "--store", store.string(), "--quiet"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return store;
}

// Item 3: a folder given as the study file.
TEST(NewcomerSecondRoundCliTest, AFolderAsTheStudyFileIsNamedAFolder) {
  TempDir dir;
  const auto r = RunEvalsuite({"study", "run", dir.path().string(), "--store", (dir / "s.db").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(dir.path().string() + ": is a folder, not a study file"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("key 'entries'"), std::string::npos) << r.err;  // was ".:1: key 'entries': ..."
  EXPECT_FALSE(fs::exists(dir / "s.db"));

  WriteFile(dir / "empty.toml", "\n");
  const auto empty = RunEvalsuite({"study", "run", (dir / "empty.toml").string(), "--store", (dir / "s.db").string()});
  EXPECT_EQ(empty.exit_code, 1) << empty.err;
  EXPECT_NE(empty.err.find("empty.toml: the study file is empty"), std::string::npos) << empty.err;
  EXPECT_FALSE(fs::exists(dir / "s.db"));
}

// Item 6: zero where at least 1 is needed, in the light and the full binary alike.
TEST(NewcomerSecondRoundCliTest, OutOfRangeNumbersSayTheirRange) {
  TempDir dir;
  const std::string study = WriteStudy(dir).string();
  const std::string store = (dir / "s.db").string();
  for (const char* flag : {"--runs", "--jobs", "--epochs", "--threads", "--train-subset"}) {
    const auto r = RunEvalsuite({"study", "run", study, "--store", store, flag, "0"});
    EXPECT_EQ(r.exit_code, 2) << flag << ": " << r.err;
    EXPECT_NE(r.err.find(std::string(flag) + ": must be between 1 and "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(", got 0"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("not in range"), std::string::npos)
        << r.err;  // CLI11's "Value 0 not in range 0.000000 to 1797..."
  }
  for (const std::vector<std::string>& args : {std::vector<std::string>{"study", "run", study, "--runs", "010000000"},
                                               std::vector<std::string>{"study", "run", study, "--runs", "0x10"},
                                               std::vector<std::string>{"study", "run", study, "--jobs", "2.5"}}) {
    const auto r = RunEvalsuite(args);
    EXPECT_EQ(r.exit_code, 2) << args[3] << " " << args[4] << ": " << r.err;
    EXPECT_NE(r.err.find(args[3] + ": must be"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(store));

  // The full binary's options (train, holdout) through the same checks.
  auto train = RunEvalsuite({"train", "fast", "--epochs", "0"});
  EXPECT_EQ(train.exit_code, 2) << train.err;
  EXPECT_NE(train.err.find("--epochs: must be between 1 and 100000, got 0"), std::string::npos) << train.err;
  auto freeze = RunEvalsuite({"holdout", "freeze", "--candidates", dir.path().string(), "--out", (dir / "h").string(),
                              "--sampling", "top", "--per-class", "0"});
  EXPECT_EQ(freeze.exit_code, 2) << freeze.err;
  EXPECT_NE(freeze.err.find("--per-class: must be between 1 and 1000000, got 0"), std::string::npos) << freeze.err;
  auto crawl =
      RunEvalsuite({"holdout", "crawl", "--since", "2014-01-01", "--out", (dir / "c").string(), "--per-class", "0"});
  EXPECT_EQ(crawl.exit_code, 2) << crawl.err;
  EXPECT_NE(crawl.err.find("--per-class: must be between 1 and 100000, got 0"), std::string::npos) << crawl.err;
  auto timeout =
      RunEvalsuite({"holdout", "crawl", "--since", "2014-01-01", "--out", (dir / "c").string(), "--timeout", "nan"});
  EXPECT_EQ(timeout.exit_code, 2) << timeout.err;
  EXPECT_NE(timeout.err.find("--timeout: must be a number, got 'nan'"), std::string::npos) << timeout.err;
  EXPECT_FALSE(fs::exists(dir / "c"));
}

// Item 8: a negative seed was stored as 18446744073709551615.
TEST(NewcomerSecondRoundCliTest, NegativeAndTooLargeSeedsAreRefused) {
  TempDir dir;
  const std::string study = WriteStudy(dir).string();
  const std::string store = (dir / "s.db").string();
  auto negative = RunEvalsuite({"study", "run", study, "--store", store, "--seed", "-1"});
  EXPECT_EQ(negative.exit_code, 2) << negative.err;
  EXPECT_NE(negative.err.find("--seed: must not be negative (a seed is a whole number from 0 to "
                              "18446744073709551615), got -1"),
            std::string::npos)
      << negative.err;
  auto huge = RunEvalsuite({"study", "run", study, "--store", store, "--seed", "18446744073709551616"});
  EXPECT_EQ(huge.exit_code, 2) << huge.err;
  EXPECT_NE(huge.err.find("--seed: is too large"), std::string::npos) << huge.err;
  EXPECT_FALSE(fs::exists(store));

  // The plan file's key says it in the same words, on its line.
  WriteFile(dir / "neg.toml", "seed = -1\nthreshold = 0.85\nentries = [\"fast\"]\n");
  auto key = RunEvalsuite({"study", "run", (dir / "neg.toml").string(), "--store", store});
  EXPECT_EQ(key.exit_code, 1) << key.err;
  EXPECT_NE(key.err.find("neg.toml:1: key 'seed': must be at least 0, got -1"), std::string::npos) << key.err;

  auto train = RunEvalsuite({"train", "fast", "--seed", "-3"});
  EXPECT_EQ(train.exit_code, 2) << train.err;
  EXPECT_NE(train.err.find("--seed: must not be negative"), std::string::npos) << train.err;
}

// Item 7: a top-level key inherited by an entry is reported on its own line, naming the entry it went to.
TEST(NewcomerSecondRoundCliTest, AnInheritedKeyIsReportedOnItsOwnLine) {
  TempDir dir;
  WriteFile(dir / "inh.toml",
            "name = \"inh\"\n"
            "runs = 2\n"
            "threshold = 0.85\n"
            "extra_thresholds = [0.8, 91]\n"
            "\n"
            "entries = [\n"
            "  \"fast\",\n"
            "]\n");
  auto r = RunEvalsuite({"study", "run", (dir / "inh.toml").string(), "--store", (dir / "s.db").string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("inh.toml:4: key 'extra_thresholds': accuracy thresholds are fractions (e.g. 0.91, not 91), "
                       "got 91 (set at the top level, inherited by entries[0] 'fast' on line 7)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "s.db"));

  // An entry's own key is reported on the key's line, not the entry's first line.
  WriteFile(dir / "own.toml",
            "threshold = 0.85\n"
            "[[entries]]\n"
            "name = \"fast\"\n"
            "extra_thresholds = [91]\n");
  auto own = RunEvalsuite({"study", "run", (dir / "own.toml").string(), "--store", (dir / "s.db").string()});
  EXPECT_NE(own.err.find("own.toml:4: key 'entries[0].extra_thresholds'"), std::string::npos) << own.err;
}

// Item 9: a report section of an unknown name or of the wrong shape was copied into report.json, exit 0.
TEST(NewcomerSecondRoundCliTest, UnknownOrMisshapenReportSectionsAreRefused) {
  TempDir dir;
  const std::string store = WriteRunStore(dir).string();
  WriteFile(dir / "x.json", "{\"a\": 1}");
  WriteFile(dir / "numbers.json", "[1,2,3]");
  const std::string out = (dir / "rep").string();
  auto bogus = RunEvalsuite({"report", store, "--out", out, "--section", "bogus=" + (dir / "x.json").string()});
  EXPECT_EQ(bogus.exit_code, 2) << bogus.err;
  EXPECT_NE(bogus.err.find("--section: unknown section 'bogus' (known: generalization, hardware)"), std::string::npos)
      << bogus.err;
  auto numbers =
      RunEvalsuite({"report", store, "--out", out, "--section", "generalization=" + (dir / "numbers.json").string()});
  EXPECT_EQ(numbers.exit_code, 1) << numbers.err;
  EXPECT_NE(numbers.err.find("numbers.json: not a generalization section: [0] is a number, not an image set object"),
            std::string::npos)
      << numbers.err;
  auto hardware =
      RunEvalsuite({"report", store, "--out", out, "--section", "hardware=" + (dir / "numbers.json").string()});
  EXPECT_EQ(hardware.exit_code, 1) << hardware.err;
  EXPECT_NE(hardware.err.find("not a hardware section"), std::string::npos) << hardware.err;
  auto folder = RunEvalsuite({"report", store, "--out", out, "--section", "hardware=" + dir.path().string()});
  EXPECT_EQ(folder.exit_code, 2) << folder.err;
  EXPECT_NE(folder.err.find("is a folder, not a JSON file"), std::string::npos) << folder.err;
  EXPECT_FALSE(fs::exists(dir / "rep"));
}

// Item 12: a missing ceilings file left an empty store behind; an existing store is left as it was.
TEST(NewcomerSecondRoundCliTest, AFailedCeilingsFileCreatesAndChangesNothing) {
  TempDir dir;
  const std::string study = WriteStudy(dir).string();
  const fs::path fresh = dir / "fresh.db";
  auto r = RunEvalsuite({"study", "run", study, "--store", fresh.string(), "--machine-ceilings",
                         (dir / "nofile.json").string(), "--out", (dir / "runs").string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("nofile.json: no such file (a machine ceilings file"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(fresh));
  EXPECT_FALSE(fs::exists(fresh.string() + "-wal"));
  EXPECT_FALSE(fs::exists(dir / "runs"));

  const fs::path existing = WriteRunStore(dir);
  const std::string before = ReadFile(existing);
  WriteFile(dir / "bad.json", "{\"machine\": {\"peak_fp32_flops\": -1}}");
  r = RunEvalsuite({"study", "run", study, "--store", existing.string(), "--machine-ceilings",
                    (dir / "bad.json").string(), "--out", (dir / "runs").string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("peak_fp32_flops"), std::string::npos) << r.err;
  EXPECT_EQ(ReadFile(existing), before);
}

// Item 2, the files that are not stores at all: each says what it is, and none is changed.
TEST(NewcomerSecondRoundCliTest, FilesThatAreNotRunStoresSayWhatTheyAre) {
  TempDir dir;
  WriteFile(dir / "plan.json", "{\"entries\": []}");
  const std::string before = ReadFile(dir / "plan.json");
  auto show = RunEvalsuite({"study", "show", "--store", (dir / "plan.json").string()});
  EXPECT_EQ(show.exit_code, 1) << show.err;
  EXPECT_NE(show.err.find("plan.json: this is not a SQLite file, so not a run store"), std::string::npos) << show.err;
  auto import = RunEvalsuite({"import", (dir / "plan.json").string(), "--store", (dir / "plan.json").string()});
  EXPECT_NE(import.exit_code, 0);
  EXPECT_EQ(ReadFile(dir / "plan.json"), before);

  WriteFile(dir / "empty.db", "");
  auto empty = RunEvalsuite({"study", "list", "--store", (dir / "empty.db").string()});
  EXPECT_EQ(empty.exit_code, 1) << empty.err;
  EXPECT_NE(empty.err.find("empty.db: is an empty file, not a run store yet"), std::string::npos) << empty.err;
  auto folder = RunEvalsuite({"report", dir.path().string(), "--out", (dir / "r").string()});
  EXPECT_NE(folder.exit_code, 0);
  EXPECT_NE(folder.err.find("is a folder"), std::string::npos) << folder.err;
}

}  // namespace
}  // namespace evalsuite
