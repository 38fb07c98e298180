// Acceptance: on every benchmark folder of every shared MLPerf round, evalsuite's result files, the runs it counts
// (file by file), raw and official olympic score, energy score, RCP verdict, reference mean and stdev and
// normalization equal the official mlperf_logging summarizer's and RCP checker's (1e-9 relative), with the RCPs
// built into evalsuite, the ruleset detected from the folder name and the division from the system description.
// The expected values (tests/importer/data/mlperf_official.json) were written by the official package on a fresh
// copy of the data, with the command recorded in the file:
//   PYTHONPATH=../shared/peers/mlperf_logging /usr/bin/python3 tests/importer/mlperf_oracle.py \
//       ../shared/data/mlperf v0.6 v1.0 v1.1 v2.0 v2.1 v3.0 v3.1 v4.0 v4.1 v5.0 v5.1
// Explained exceptions, asserted as such: v0.6 logs time in seconds, which the summarizer reads as milliseconds
// (its minutes are evalsuite's / 1000); where the RCP checker raises (no RCP rule for dlrm or minigo) the
// summarizer has no verdict and evalsuite none either. Skipped without ../shared.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "importer/importer.h"
#include "tests/support/test_support.h"

namespace evalsuite::importer {
namespace {

using nlohmann::json;

bool Near(double ours, double theirs) { return std::fabs(ours - theirs) <= 1e-9 * std::fabs(theirs); }

// One folder against the oracle's row; returns the disagreements (empty = agrees).
std::vector<std::string> Compare(const json& want, const ImportResult& result, const std::filesystem::path& folder) {
  std::vector<std::string> bad;
  auto fail = [&](const std::string& what, const json& ours, const json& theirs) {
    bad.push_back(what + ": evalsuite " + ours.dump() + ", official " + theirs.dump());
  };
  // The folder's own group (a stray sub-folder, as Habana's bert/ in its v1.0 resnet, is a group of its own that
  // the summarizer never reads).
  const ImportedGroup* found = nullptr;
  for (const ImportedGroup& g : result.groups) {
    if (g.location.filename() == folder.filename()) found = &g;
  }
  if (found == nullptr) {
    std::string errors;
    for (const std::string& e : result.errors) errors += e + "; ";
    fail("groups", result.groups.size(), 1);
    bad.push_back("errors: " + errors);
    return bad;
  }
  const ImportedGroup& g = *found;
  if (g.details["ruleset"] != want["ruleset"]) fail("ruleset", g.details["ruleset"], want["ruleset"]);
  json files = json::array();
  std::set<std::string> counted;
  for (const ImportedRun& r : g.runs) {
    files.push_back(r.file.filename().string());
    if (r.tta_minutes) counted.insert(r.file.filename().string());
  }
  std::set<std::string> want_files(want["files"].begin(), want["files"].end());
  if (std::set<std::string>(files.begin(), files.end()) != want_files) fail("files", files, want["files"]);
  if (want.contains("summarizer_error")) return bad;  // the summarizer itself fails: nothing more to compare
  if (counted != std::set<std::string>(want["counted"].begin(), want["counted"].end())) {
    json reasons = json::array();
    for (const json& r : g.details["run_details"]) {
      if (r["status"] != "success") reasons.push_back(r["file"].get<std::string>() + ": " + r["reason"].dump());
    }
    fail("counted runs", json(counted), want["counted"]);
    bad.push_back("evalsuite's reasons: " + reasons.dump());
  }
  const bool v06 = want["ruleset"] == "0.6.0";  // the summarizer reads v0.6's seconds as milliseconds
  const double unit = v06 ? 1000.0 : 1.0;
  if (want["raw_minutes"].is_null() != !g.olympic_minutes.has_value()) {
    fail("olympic score", g.olympic_minutes ? json(*g.olympic_minutes) : json(), want["raw_minutes"]);
  } else if (g.olympic_minutes && !Near(*g.olympic_minutes / unit, want["raw_minutes"].get<double>())) {
    fail("olympic score" + std::string(v06 ? " / 1000" : ""), *g.olympic_minutes / unit, want["raw_minutes"]);
  }
  const json& official = g.details["official"];
  if (!want["official_minutes"].is_null()) {
    if (!official["official_minutes"].is_number() ||
        !Near(official["official_minutes"].get<double>() / unit, want["official_minutes"].get<double>())) {
      fail("official score", official["official_minutes"], want["official_minutes"]);
    }
  }
  if (want.contains("energy")) {
    const json energy = g.details.contains("energy") ? g.details["energy"] : json::object();
    if (want["energy"].is_null() ? !energy.value("score", json()).is_null()
                                 : !energy.value("score", json()).is_number() ||
                                       !Near(energy["score"].get<double>(), want["energy"].get<double>())) {
      fail("energy", energy, want["energy"]);
    }
  }
  const json& rcp = g.details["rcp"];
  if (!want.contains("rcp") || want["rcp"].contains("error")) {
    if (!rcp["pass"].is_null()) fail("RCP verdict (the official tools give none)", rcp, want.value("rcp", json()));
    return bad;
  }
  const json& w = want["rcp"];
  if (rcp["pass"] != w["pass"] || rcp["message"] != w["message"]) fail("RCP verdict", rcp, w);
  if (w["mean"].is_number()) {
    if (!rcp["rcp_mean"].is_number() || !Near(rcp["rcp_mean"].get<double>(), w["mean"].get<double>()) ||
        !Near(rcp["rcp_stdev"].get<double>(), w["stdev"].get<double>())) {
      fail("RCP reference", rcp, w);
    }
  }
  if (w["pass"] == true &&
      (!rcp["norm_factor"].is_number() || !Near(rcp["norm_factor"].get<double>(), w["norm_factor"].get<double>()))) {
    fail("RCP normalization", rcp, w);
  }
  return bad;
}

TEST(MlperfOfficialTest, EveryFolderOfEveryRoundMatchesTheOfficialSummarizerAndRcpChecker) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  const json expected =
      json::parse(testing::ReadFile(testing::SourceDir() / "tests/importer/data/mlperf_official.json"));
  std::map<std::string, std::pair<int, int>> per_round;  // round -> (agree, folders)
  for (const json& want : expected["folders"]) {
    const std::string folder = want["folder"];
    SCOPED_TRACE(folder);
    ImportOptions options;
    options.paths = {shared / "mlperf" / folder};
    options.jobs = 1;
    const ImportResult result = Import(options);
    const std::vector<std::string> bad = Compare(want, result, options.paths.front());
    auto& [agree, total] = per_round[folder.substr(0, folder.find('/'))];
    ++total;
    if (bad.empty()) ++agree;
    for (const std::string& b : bad) ADD_FAILURE() << b;
  }
  for (const auto& [round, counts] : per_round) {
    std::cout << round << ": " << counts.first << "/" << counts.second << " folders agree\n";
  }
  EXPECT_GE(expected["folders"].size(), 50u);
}

}  // namespace
}  // namespace evalsuite::importer
