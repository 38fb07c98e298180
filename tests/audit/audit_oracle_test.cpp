// `evalsuite audit`'s figures against tests/audit/audit_oracle.py, an independent numpy re-implementation whose
// reference at each batch size comes from the official package's RCP_Checker (pruned records, its interpolation),
// on the shared MLPerf rounds. Both simulate with their own seeded generators, so they agree within Monte Carlo
// error only: with K_e draws here and K_o there, the oracle's own distribution evaluated at evalsuite's q-quantile
// must put q within 4 sqrt(q (1 - q) (1/K_e + 1/K_o)) of it (P(X < x) <= q + tol and P(X <= x) >= q - tol, so that a
// quantile on an atom of the distribution passes); pair probabilities and the selection p-values the same with
// their binomial errors; mean positions and variance ratios, which are exact, to 1e-9. Skipped without ../shared.
// The rounds v3.1 and v5.1 were held out while the audit was built and checked here only at its end.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/mlperf_audit.h"
#include "importer/importer.h"
#include "importer/mlperf_audit_inputs.h"
#include "reports/mlperf_audit_text.h"
#include "tests/support/test_support.h"

namespace evalsuite::importer {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr std::size_t kAuditDraws = 20000;   // evalsuite's reruns per submission
constexpr std::size_t kOracleDraws = 20000;  // the oracle's

double Tolerance(double p, double k1, double k2) {
  return 4 * std::sqrt(std::max(p * (1 - p), 0.0) * (1 / k1 + 1 / k2));
}

struct OracleRun {
  json audit;
  json oracle;
};

// Imports `paths`, audits them in process (as the command does from the store) and runs the oracle on the same
// import's JSON.
std::optional<OracleRun> AuditAndOracle(const std::vector<fs::path>& paths, const testing::TempDir& dir) {
  ImportOptions options;
  options.paths = paths;
  const ImportResult result = Import(options);
  AuditRcpFiles rcp_files;
  std::vector<analysis::AuditInput> inputs;
  for (const ImportedGroup& g : result.groups) {
    if (g.format == "mlperf") inputs.push_back(AuditInputOf(StoredEntryExtra(g), rcp_files));
  }
  analysis::AuditSettings settings;
  settings.rerun.draws = kAuditDraws;
  const analysis::AuditReport report = analysis::AuditSubmissions(inputs, settings);
  OracleRun out;
  out.audit = json::parse(reports::AuditJson(report).dump());
  testing::WriteFile(dir / "import.json", ToJson(result).dump());
  testing::WriteFile(dir / "audit.json", out.audit.dump());
  const fs::path package = testing::SharedDataDir()->parent_path() / "peers/mlperf_logging";
  const testing::CommandResult r = testing::RunCommand(
      {"/usr/bin/python3", (testing::SourceDir() / "tests/audit/audit_oracle.py").string(), package.string(),
       (dir / "import.json").string(), (dir / "audit.json").string(), std::to_string(kOracleDraws), "7"});
  if (r.exit_code != 0) {
    ADD_FAILURE() << "audit_oracle.py failed: " << r.err;
    return std::nullopt;
  }
  out.oracle = json::parse(r.out);
  return out;
}

// Every disagreement between the audit and the oracle, one line each; `compared` counts the figures compared.
std::vector<std::string> Disagreements(const OracleRun& run, std::size_t& compared) {
  std::vector<std::string> bad;
  const double ke = kAuditDraws, ko = kOracleDraws;
  for (const json& g : run.audit["groups"]) {
    for (const json& s : g["submissions"]) {
      const std::string source = s["source"];
      const json& o = run.oracle["submissions"][source];
      const json& r = s["rerun"];
      if (r["computed"] != o["computed"]) {
        bad.push_back(source + ": computed " + r["computed"].dump() + " vs oracle " + o["computed"].dump());
        continue;
      }
      if (!r["computed"].get<bool>()) continue;
      if (r["method"] != o["method"])
        bad.push_back(source + ": method " + r["method"].dump() + " vs " + o["method"].dump());
      for (const auto& [key, q] : {std::pair<const char*, double>{"low", 0.05}, {"median", 0.5}, {"high", 0.95}}) {
        const double lt = o["cdf"][key][0], le = o["cdf"][key][1];
        const double tol = Tolerance(q, ke, ko);
        ++compared;
        if (lt > q + tol || le < q - tol) {
          bad.push_back(source + ": " + key + " " + r[key].dump() + " is the oracle's quantile [" + std::to_string(lt) +
                        ", " + std::to_string(le) + "], not " + std::to_string(q) + " +- " + std::to_string(tol) +
                        " (oracle's own " + o[key].dump() + ")");
        }
      }
      const json& sel = s["selection"];
      const json& osel = o["selection"];
      if (sel.is_null() != osel.is_null()) {
        bad.push_back(source + ": selection " + sel.dump() + " vs oracle " + osel.dump());
        continue;
      }
      if (sel.is_null()) continue;
      const double selection_draws = run.audit["method"]["selection_draws"];
      auto exact = [&](const char* key, const json& ours, const json& theirs) {
        ++compared;
        if (ours.is_null() != theirs.is_null() ||
            (!ours.is_null() && std::fabs(ours.get<double>() - theirs.get<double>()) >
                                    1e-9 * std::max(1.0, std::fabs(theirs.get<double>())))) {
          bad.push_back(source + ": " + key + " " + ours.dump() + " vs oracle " + theirs.dump());
        }
      };
      auto simulated = [&](const char* key, const json& ours, const json& theirs) {
        ++compared;
        if (ours.is_null() != theirs.is_null()) {
          bad.push_back(source + ": " + key + " " + ours.dump() + " vs oracle " + theirs.dump());
        } else if (!ours.is_null()) {
          const double p = theirs.get<double>();
          if (std::fabs(ours.get<double>() - p) > Tolerance(p, selection_draws, ko) + 2 / selection_draws) {
            bad.push_back(source + ": " + key + " " + ours.dump() + " vs oracle " + theirs.dump());
          }
        }
      };
      exact("mean_position", sel["mean_position"], osel["mean_position"]);
      exact("variance_ratio", sel["variance_ratio"], osel.value("variance_ratio", json()));
      simulated("p_fast", sel["p_fast"], osel["p_fast"]);
      simulated("p_spread", sel["p_spread"], osel.value("p_spread", json()));
    }
  }
  std::size_t i = 0;
  for (const json& g : run.audit["groups"]) {
    for (const json& p : g["pairs"]) {
      const json& o = run.oracle["pairs"][i++];
      ++compared;
      if (p["probability"].is_null() != o["probability"].is_null()) {
        bad.push_back("pair " + p.dump() + " vs oracle " + o.dump());
      } else if (!p["probability"].is_null()) {
        const double prob = o["probability"];
        if (std::fabs(p["probability"].get<double>() - prob) > Tolerance(prob, ke, ko) + 1e-3) {
          bad.push_back("pair " + p["faster"].get<std::string>() + " < " + p["slower"].get<std::string>() + ": " +
                        p["probability"].dump() + " vs oracle " + o["probability"].dump());
        }
      }
    }
  }
  return bad;
}

void ExpectRoundAgrees(const std::vector<std::string>& rounds) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  testing::TempDir dir;
  std::vector<fs::path> paths;
  for (const std::string& r : rounds) paths.push_back(shared / "mlperf" / ("training_results_" + r));
  const std::optional<OracleRun> run = AuditAndOracle(paths, dir);
  ASSERT_TRUE(run);
  std::size_t compared = 0;
  const std::vector<std::string> bad = Disagreements(*run, compared);
  EXPECT_GT(compared, 20u);
  for (const std::string& b : bad) ADD_FAILURE() << b;
}

TEST(AuditOracleTest, RoundsBuiltOnAgreeWithTheOracle) {
  ExpectRoundAgrees({"v0.6", "v1.0", "v1.1", "v2.0", "v2.1", "v3.0", "v4.0", "v4.1", "v5.0"});
}

TEST(AuditOracleTest, HeldOutRoundsAgreeWithTheOracle) { ExpectRoundAgrees({"v3.1", "v5.1"}); }

// Two systems with the same logs (a copy of one v5.0 submission under two names): their order is a coin toss, a
// pair probability near 0.5 that both must agree on, and that the audit names as within noise.
TEST(AuditOracleTest, TwinSubmissionsArePairedWithinNoise) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  testing::TempDir dir;
  const fs::path from = shared / "mlperf/training_results_v5.0/Oracle";
  const fs::path round = dir / "twins/training_results_v5.0/Twin";
  for (const std::string system : {"a", "b"}) {
    fs::create_directories(round / "results" / system);
    fs::create_directories(round / "systems");
    fs::copy(from / "results/1xBM.GPU.MI300X.8/llama2_70b_lora", round / "results" / system / "llama2_70b_lora",
             fs::copy_options::recursive);
    fs::copy_file(from / "systems/1xBM.GPU.MI300X.8.json", round / "systems" / (system + ".json"));
  }
  const std::optional<OracleRun> run = AuditAndOracle({round}, dir);
  ASSERT_TRUE(run);
  std::size_t compared = 0;
  for (const std::string& b : Disagreements(*run, compared)) ADD_FAILURE() << b;
  const json& pair = run->audit["groups"][0]["pairs"][0];
  EXPECT_NEAR(pair["probability"].get<double>(), 0.5, 0.03);
  EXPECT_TRUE(pair["within_noise"].get<bool>());
}

}  // namespace
}  // namespace evalsuite::importer
