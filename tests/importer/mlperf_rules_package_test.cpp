// evalsuite's MLPerf tables against the official package as a whole: for every training ruleset the package
// ships (compliance_checker/training_X.Y.Z) and every benchmark benchmark_meta allows in it, the rules table
// (result files, olympic trim, RCP run count and convergence unit, target value and direction) and the generated
// compliance table (target check, required keys per division, init time limit) agree with the facts that
// tests/importer/mlperf_rules_facts.py reads from the package's own files with python3-yaml. A ruleset the package
// gains fails here until the tables have it. Skipped without ../shared.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "importer/mlperf_compliance_table.h"
#include "importer/mlperf_rules.h"
#include "tests/support/test_support.h"

namespace evalsuite::importer {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::optional<json> PackageFacts(const fs::path& package) {
  const testing::CommandResult r = testing::RunCommand(
      {"/usr/bin/python3", (testing::SourceDir() / "tests/importer/mlperf_rules_facts.py").string(), package.string()});
  if (r.exit_code != 0) {
    ADD_FAILURE() << "mlperf_rules_facts.py failed: " << r.err;
    return std::nullopt;
  }
  return json::parse(r.out);
}

const char* UnitName(ConvergenceUnit unit, const std::string& ruleset) {
  switch (unit) {
    case ConvergenceUnit::kEpochs:
      return "epochs";
    case ConvergenceUnit::kSamples:
      return "samples";
    case ConvergenceUnit::kStableDiffusion:
      return ruleset == "3.1.0" ? "sd_step" : "sd_samples";
  }
  return "?";
}

std::string Required(const std::vector<RequiredKey>& keys) {
  std::string out;
  for (const RequiredKey& k : keys) out += k.key + "=" + k.req + ";";
  return out;
}

std::string Required(const json& facts) {
  std::string out;
  for (auto it = facts.begin(); it != facts.end(); ++it) out += it.key() + "=" + it.value().get<std::string>() + ";";
  return out;
}

std::multiset<std::string> Bounds(const TargetCheck& check) {
  std::multiset<std::string> out;
  for (const TargetBound& b : check.bounds) out.insert(b.field + b.op + std::to_string(b.value));
  return out;
}

std::multiset<std::string> Bounds(const json& target) {
  std::multiset<std::string> out;
  if (target.is_null()) return out;
  for (const json& b : target["bounds"]) {
    out.insert(b[0].get<std::string>() + b[1].get<std::string>() + std::to_string(b[2].get<double>()));
  }
  return out;
}

TEST(MlperfRulesPackageTest, EveryRulesetAndBenchmarkOfThePackageAgreesWithTheTables) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  const fs::path package = shared.parent_path() / "peers" / "mlperf_logging" / "mlperf_logging";
  if (!fs::exists(package)) GTEST_SKIP() << package << " is absent";
  const std::optional<json> facts = PackageFacts(package);
  ASSERT_TRUE(facts.has_value());
  ASSERT_GE(facts->size(), 14u) << "0.6.0 ... 6.1.0";
  std::size_t checked = 0;
  for (auto rs = facts->begin(); rs != facts->end(); ++rs) {
    const Ruleset* ruleset = FindRuleset(rs.key());
    ASSERT_NE(ruleset, nullptr) << "ruleset " << rs.key() << " of the package is not in evalsuite's table";
    std::set<std::string> package_benchmarks;
    for (auto b = rs.value().begin(); b != rs.value().end(); ++b) {
      SCOPED_TRACE(rs.key() + " " + b.key());
      package_benchmarks.insert(b.key());
      const json& f = b.value();
      const BenchmarkRule* rule = ruleset->Find(b.key());
      ASSERT_NE(rule, nullptr) << "benchmark missing from evalsuite's table";
      EXPECT_EQ(rule->runs, f["result_files"].get<std::size_t>());
      EXPECT_EQ(rule->drop_each_side, f["drop_each_side"].get<std::size_t>());
      if (f["rcp_runs"].is_null()) {
        EXPECT_FALSE(rule->rcp_runs.has_value());
      } else {
        ASSERT_TRUE(rule->rcp_runs.has_value());
        EXPECT_EQ(*rule->rcp_runs, f["rcp_runs"].get<std::size_t>());
      }
      EXPECT_EQ(UnitName(rule->unit, rs.key()), f["unit"].get<std::string>());
      // The target: the bound that is the goal (not the sanity limit: "< 1", "> 0", GPT-3's "> 2.6").
      const json& target = f["target"];
      if (!target.is_null() && target.contains("small_batch_min")) {
        ASSERT_TRUE(rule->target.has_value());
        EXPECT_DOUBLE_EQ(*rule->target, target["small_batch_min"].get<double>());
      } else if (!target.is_null() && target["bounds"][0][0] == "") {
        std::optional<double> goal;
        bool lower = false;
        for (const json& bound : target["bounds"]) {
          const std::string op = bound[1];
          const double v = bound[2];
          if ((op == ">=" || (op == ">" && target["bounds"].size() == 1))) goal = v, lower = false;
          if (op == "<=" && v != 1.0) goal = v, lower = true;
        }
        ASSERT_TRUE(goal.has_value()) << target.dump();
        ASSERT_TRUE(rule->target.has_value());
        EXPECT_DOUBLE_EQ(*rule->target, *goal) << target.dump();
        EXPECT_EQ(rule->lower_is_better, lower) << target.dump();
      }
      // The compliance table.
      const ComplianceRules* c = FindComplianceRules(rs.key(), b.key());
      ASSERT_NE(c, nullptr) << "no compliance rules";
      EXPECT_EQ(Required(c->closed.required), Required(f["required"]["closed"]));
      EXPECT_EQ(Required(c->open.required), Required(f["required"]["open"]));
      EXPECT_EQ(Bounds(c->closed.target), Bounds(f["target"]));
      EXPECT_EQ(Bounds(c->open.target), Bounds(f["open_target"]));
      if (!target.is_null()) {
        EXPECT_EQ(c->closed.target.key, target["key"].get<std::string>());
        EXPECT_EQ(c->closed.target.batch_limit.has_value(), target.contains("batch_limit"));
      }
      for (const char* division : {"closed", "open"}) {
        const json& t = f["tensors"][division];
        const std::vector<std::string> want =
            t.is_null() ? std::vector<std::string>() : t.get<std::vector<std::string>>();
        EXPECT_EQ(c->For(division)->tensors, want) << division;
        const json& v = f["variants"][division];
        EXPECT_EQ(c->For(division)->variant_key, v.is_null() ? "" : v["key"].get<std::string>()) << division;
        if (!v.is_null()) {
          ASSERT_EQ(c->For(division)->variants.size(), v["values"].size()) << division;
          for (auto value = v["values"].begin(); value != v["values"].end(); ++value) {
            ASSERT_TRUE(c->For(division)->variants.count(value.key())) << division << " " << value.key();
            EXPECT_EQ(Required(c->For(division)->variants.at(value.key())), Required(value.value())) << value.key();
          }
        }
      }
      EXPECT_EQ(c->closed.init_limit_minutes,
                f["init_limit_minutes"]["closed"].is_null() ? 0 : f["init_limit_minutes"]["closed"].get<int>());
      EXPECT_EQ(c->open.init_limit_minutes,
                f["init_limit_minutes"]["open"].is_null() ? 0 : f["init_limit_minutes"]["open"].get<int>());
      ++checked;
    }
    // And nothing in evalsuite's table that the package does not have for this ruleset.
    for (const BenchmarkRule& rule : ruleset->benchmarks) {
      EXPECT_TRUE(package_benchmarks.count(rule.name)) << rs.key() << " " << rule.name << " is not in the package";
    }
  }
  EXPECT_GE(checked, 100u);
  // Every ruleset evalsuite has, except 0.5.0 (older than the package), is one the package ships.
  for (const Ruleset& r : Rulesets()) {
    if (r.version != "0.5.0") EXPECT_TRUE(facts->contains(r.version)) << r.version;
  }
}

}  // namespace
}  // namespace evalsuite::importer
