// A tolerant JSON lookup (`json.value("key", fallback)`) decides silently what an absent or odd field means, so it
// belongs only where JSON enters the process and is decoded once into a typed value (issue 53). This test walks the
// source tree and fails, naming file and line, on such a lookup outside the edge files listed here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace evalsuite {
namespace {

namespace fs = std::filesystem;

// The files allowed tolerant lookups, each a decoder of JSON that enters here, with why.
const std::map<std::string, std::string>& EdgeFiles() {
  static const std::map<std::string, std::string> kEdges = {
      // A plan, the user's study file turned JSON or the store's copy, decoded once (PlanFromJson); the fingerprint
      // comparison beside it diffs two recorded fingerprints for a message and decides nothing.
      {"study/plans/study_plan_json.cpp", "PlanFromJson: the one decode of a plan"},
      // `study list` and `study show` read a stored plan's figures once, tolerating plans older evalsuites stored.
      {"study/plans/stored_plan.cpp", "DecodeStoredPlan: a stored plan's figures"},
      {"study/plans/slurm_options.cpp", "SlurmOptionsFromJson: the plan's [slurm] table as stored"},
      // A Slurm array task reads back the manifest the coordinator wrote; the study block is echoed as given.
      {"study/execution/slurm_task.cpp", "ReadManifest: an array manifest read back from its file"},
      // MLPerf logs write a record's value as an object in some versions and a scalar in others.
      {"runlog/mlperf_log.cpp", "the MLPerf result log parser: a record's value as the log writes it"},
      {"importer/mlperf_power.cpp", "ReadPowerRecord: a power log record's value as logged"},
      // The frozen holdout's rule is the user's data, shown in the report as given.
      {"generalization/holdout_selection_json.cpp",
       "HoldoutSelectionFromJson: the holdout's rule as the report's"
       " selection"},
  };
  return kEdges;
}

struct TolerantLookup {
  std::string file;
  int line = 0;
  std::string text;
};

// Every `.value(key, fallback)` / `->value(key, fallback)` on a code line (comments skipped): `.value("..."`,
// `.value(std::string(...)`, `.value(key, ...` alike, and a `.value(` whose arguments go on the next line. An
// argument-less `.value()` (std::optional) is not one.
std::vector<TolerantLookup> TolerantLookupsUnder(const fs::path& root, const std::vector<std::string>& tops) {
  const std::regex lookup(R"re((\.|->)value\(\s*($|"|std::string\b|[A-Za-z_]\w*\s*,))re");
  std::vector<TolerantLookup> found;
  for (const std::string& top : tops) {
    if (!fs::exists(root / top)) continue;
    for (const auto& item : fs::recursive_directory_iterator(root / top)) {
      const std::string ext = item.path().extension().string();
      if (!item.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
      const std::string file = fs::relative(item.path(), root).generic_string();
      std::ifstream in(item.path());
      int number = 0;
      for (std::string line; std::getline(in, line);) {
        ++number;
        const std::string code = line.substr(0, line.find("//"));
        if (std::regex_search(code, lookup)) found.push_back({file, number, line});
      }
    }
  }
  return found;
}

const std::vector<std::string>& FoldersScannedForLookups() {
  static const std::vector<std::string> kTops = {"common",   "stats",    "analysis", "runlog",   "entries",
                                                 "reports",  "store",    "datasets", "labeling", "generalization",
                                                 "training", "importer", "study",    "evalsuite"};
  return kTops;
}

TEST(TolerantJsonTest, NoTolerantLookupOutsideTheEdgeFiles) {
  const std::vector<TolerantLookup> found = TolerantLookupsUnder(EVALSUITE_SOURCE_DIR, FoldersScannedForLookups());
  std::map<std::string, int> per_edge;
  for (const TolerantLookup& l : found) {
    if (EdgeFiles().count(l.file)) {
      ++per_edge[l.file];
      continue;
    }
    ADD_FAILURE() << l.file << ":" << l.line << ": a tolerant JSON lookup outside the decoding edge; decode the "
                  << "JSON once where it enters, into a typed value, and read that: " << l.text;
  }
  // An edge listed here that no longer looks anything up is stale: drop it from the list.
  for (const auto& [file, why] : EdgeFiles()) {
    EXPECT_TRUE(fs::exists(fs::path(EVALSUITE_SOURCE_DIR) / file)) << file << " is listed but gone (" << why << ")";
    EXPECT_GT(per_edge[file], 0) << file << " is listed as an edge but has no tolerant lookup (" << why << ")";
  }
}

// The pattern itself: it must find each variant and leave a one-argument value() and comments alone.
TEST(TolerantJsonTest, ThePatternFindsEveryVariant) {
  const fs::path dir = fs::temp_directory_path() / "evalsuite_tolerant_json_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "src");
  {
    std::ofstream out(dir / "src" / "a.cpp");
    out << "x = j.value(\"k\", 0);\n"
        << "y = p->value(\"k\", json());\n"
        << "z = j.value(std::string(\"k\"), 1);\n"
        << "w = counts.value(kind, 0) + 1;\n"
        << "v = maybe.value();\n"
        << "// j.value(\"in a comment\", 0)\n"
        << "u = j.value(\n"
        << "    \"k\", 0);\n"
        << "t = j.value(kKey, 0) + maybe.value_or(1);\n";
  }
  const std::vector<TolerantLookup> found = TolerantLookupsUnder(dir, {"src"});
  std::vector<int> lines;
  lines.reserve(found.size());
  for (const TolerantLookup& l : found) lines.push_back(l.line);
  EXPECT_EQ(lines, (std::vector<int>{1, 2, 3, 4, 7, 9}));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace evalsuite
