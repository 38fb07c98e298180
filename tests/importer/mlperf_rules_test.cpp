// The MLPerf rules per ruleset, one test per point of issue 14, on small fixtures written here: RCP verdicts for
// every benchmark with RCPs (and "n/a" where no rule applies), samples-keyed RCPs and convergence points, stable
// diffusion's FID-and-CLIP point, reference choice by the RCP mean, open division, v0.5's status quirks, the
// published scaling.json, targets per ruleset, and the compliance checks.
#include "importer/mlperf_rules.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "importer/importer.h"
#include "importer/mlperf_compliance_table.h"
#include "importer/mlperf_group.h"
#include "importer/rcp_check.h"
#include "importer/rcp_embedded.h"
#include "tests/support/test_support.h"

namespace evalsuite::importer {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::MllogRecord;
using testing::TempDir;
using testing::WriteFile;

struct Eval {
  std::string value;
  std::string metadata;
};

// Every key some ruleset's official compliance rules require of `benchmark` (either division), logged once with
// value 1, except the ones RunLog logs itself: the official checker then counts the run wherever it is put.
std::string AllRulesetsRequiredKeys(const std::string& benchmark, bool optimizer = true) {
  static const std::set<std::string> kLogged = {"submission_benchmark",
                                                "submission_division",
                                                "seed",
                                                "global_batch_size",
                                                "run_start",
                                                "run_stop",
                                                "eval_accuracy",
                                                "aggregated_eval_accuracy",
                                                "weights_initialization"};
  std::set<std::string> keys;
  for (const ComplianceRules& rules : AllComplianceRules()) {
    if (rules.benchmark != benchmark) continue;
    for (const DivisionRules* d : {&rules.closed, &rules.open}) {
      // resnet's opt_name picks one more file of required keys: "sgd" and its keys, unless the caller logs one.
      if (optimizer && d->variants.count("sgd") != 0) {
        keys.insert(d->variant_key);
        for (const RequiredKey& k : d->variants.at("sgd")) keys.insert(k.key);
      }
      for (const RequiredKey& k : d->required) {
        if (k.req != "OPTIONAL" && kLogged.count(k.key) == 0) keys.insert(k.key);
      }
    }
  }
  std::string out;
  for (const std::string& k : keys) {
    if (k == "opt_name" && !optimizer) continue;
    out += MllogRecord(900, k, k == "opt_name" ? "\"sgd\"" : "null");
  }
  return out;
}

// One MLLOG run: header keys, run_start at t=10 s, the evals a minute apart, run_stop a second after the last.
std::string RunLog(const std::string& benchmark, int seed, int batch, const std::vector<Eval>& evals,
                   const std::string& status = "success", const std::string& division = "closed",
                   bool optimizer = true) {
  std::string log = AllRulesetsRequiredKeys(benchmark, optimizer) +
                    MllogRecord(1000, "submission_benchmark", "\"" + benchmark + "\"") +
                    MllogRecord(1001, "submission_division", "\"" + division + "\"") +
                    MllogRecord(1002, "seed", std::to_string(seed)) +
                    MllogRecord(1003, "global_batch_size", std::to_string(batch)) +
                    MllogRecord(10000, "run_start", "null");
  long t = 10000;
  for (const Eval& e : evals) log += MllogRecord(t += 60000, "eval_accuracy", e.value, e.metadata);
  return log + MllogRecord(t + 1000, "run_stop", "null", "{\"status\": \"" + status + "\"}");
}

fs::path Folder(const fs::path& root, const std::string& round, const std::string& benchmark) {
  const fs::path dir = root / ("training_results_" + round) / "Org" / "results" / "sys" / benchmark;
  fs::create_directories(dir);
  return dir;
}

const ImportedGroup& Only(const ImportResult& result) {
  EXPECT_EQ(result.groups.size(), 1u);
  return result.groups.front();
}

ImportResult ImportOne(const fs::path& path) {
  ImportOptions options;
  options.paths = {path};
  options.jobs = 1;
  return Import(options);
}

std::string Epoch(double e) { return "{\"epoch_num\": " + std::to_string(e) + "}"; }

// Every built-in RCP file parses, and its ruleset's table names the benchmark with an RCP rule (dlrm aside: the
// official checker has no submission-run count for it, so its RCPs are never used).
TEST(MlperfRulesTest, EveryBuiltInRcpFileHasARule) {
  ASSERT_GE(kEmbeddedRcpFiles_count, 80u);
  for (std::size_t i = 0; i < kEmbeddedRcpFiles_count; ++i) {
    const std::string path = kEmbeddedRcpFiles[i].path;  // training_5.1.0/rcps_flux1.json
    SCOPED_TRACE(path);
    const std::string ruleset = path.substr(9, path.find('/') - 9);
    const std::string benchmark = path.substr(path.find("rcps_") + 5, path.size() - path.find("rcps_") - 10);
    EXPECT_FALSE(ParseRcpRecords(kEmbeddedRcpFiles[i].text, path).empty());
    const Ruleset* r = FindRuleset(ruleset);
    ASSERT_NE(r, nullptr);
    EXPECT_TRUE(r->has_rcps());
    const BenchmarkRule* rule = r->Find(benchmark);
    if (rule == nullptr) {  // training_5.1.0/rcps_bert.json: bert left 5.1 but the checker still has its rules
      ASSERT_NE(NewestRulesetWith(benchmark), nullptr) << benchmark;
      rule = NewestRulesetWith(benchmark)->Find(benchmark);
    }
    EXPECT_EQ(rule->rcp_runs.has_value(), benchmark != "dlrm");
  }
  EXPECT_TRUE(EmbeddedRcp("5.1.0", "flux1").has_value());
  EXPECT_FALSE(EmbeddedRcp("0.7.0", "bert").has_value());
}

// Point 3: at BS 256 the reference is ssd_ref_256 (mean 4, factor 1), not ref_320 by its smaller minimum.
TEST(MlperfRulesTest, ReferenceChoiceAndPruningUseTheRcpMean) {
  TempDir dir;
  const fs::path ssd = Folder(dir.path(), "v4.0", "ssd");
  for (int i = 0; i < 5; ++i) {
    WriteFile(
        ssd / ("result_" + std::to_string(i) + ".txt"),
        RunLog("ssd", i + 1, 256, {{"0.2", Epoch(1)}, {"0.3", Epoch(2)}, {"0.33", Epoch(3)}, {"0.345", Epoch(4)}}));
  }
  const ImportResult result = ImportOne(dir.path());
  const ImportedGroup& g = Only(result);
  EXPECT_EQ(g.details["ruleset"], "4.0.0");
  EXPECT_EQ(g.details["ruleset_source"], "folder name");
  const json& rcp = g.details["rcp"];
  EXPECT_EQ(rcp["verdict"], "Pass") << rcp.dump();
  EXPECT_EQ(rcp["reference"], "ssd_ref_256");
  EXPECT_EQ(rcp["norm_factor"], 1.0);
  EXPECT_EQ(rcp["rcp_file"], "built-in training_4.0.0/rcps_ssd.json");
  EXPECT_EQ(g.details["run_details"][0]["convergence"], 4.0);
}

// Point 5 (second half) and point 7: a failed check prints no norm factor; a published scaling.json is the
// official score and is named when it disagrees with the checker.
TEST(MlperfRulesTest, FailedCheckHasNoNormFactorAndPublishedScalingIsOfficial) {
  TempDir dir;
  const fs::path ssd = Folder(dir.path(), "v4.0", "ssd");
  for (int i = 0; i < 5; ++i) {
    WriteFile(ssd / ("result_" + std::to_string(i) + ".txt"),
              RunLog("ssd", i + 1, 256, {{"0.2", Epoch(1)}, {"0.3", Epoch(2)}, {"0.345", Epoch(3)}}));
  }
  WriteFile(ssd / "scaling.json", "{\"scaling_factor\": 1.25}");
  const ImportResult result = ImportOne(dir.path());
  const ImportedGroup& g = Only(result);
  const json& rcp = g.details["rcp"];
  EXPECT_EQ(rcp["verdict"], "Fail") << rcp.dump();  // 3 epochs against a reference of exactly 4 (stdev 0)
  EXPECT_EQ(rcp["pass"], false);
  EXPECT_TRUE(rcp["norm_factor"].is_null());
  EXPECT_EQ(rcp["submission_mean_epochs"], 3.0);
  const json& official = g.details["official"];
  ASSERT_TRUE(g.olympic_minutes.has_value());
  EXPECT_DOUBLE_EQ(official["raw_minutes"].get<double>(), *g.olympic_minutes);
  EXPECT_DOUBLE_EQ(official["official_minutes"].get<double>(), *g.olympic_minutes * 1.25);
  EXPECT_EQ(official["published_scaling_factor"], 1.25);
  EXPECT_TRUE(official["checker_scaling_factor"].is_null());
  int named = 0;
  for (const std::string& w : result.warnings) named += w.find("scaling.json applies 1.25") != std::string::npos;
  EXPECT_EQ(named, 1);
}

// Point 5: the open division gets no RCP check.
TEST(MlperfRulesTest, OpenDivisionIsNotChecked) {
  TempDir dir;
  const fs::path ssd = Folder(dir.path(), "v4.0", "ssd");
  for (int i = 0; i < 5; ++i) {
    WriteFile(ssd / ("result_" + std::to_string(i) + ".txt"),
              RunLog("ssd", i + 1, 256, {{"0.345", Epoch(1)}}, "success", "open"));
  }
  // The division is the system description's (the logs say "open" too; without the description evalsuite reads
  // the logs and warns).
  const fs::path systems = dir / "training_results_v4.0" / "Org" / "systems";
  fs::create_directories(systems);
  WriteFile(systems / "sys.json", "{\"division\": \"open\"}");
  const ImportResult result = ImportOne(dir.path());
  const ImportedGroup& g = Only(result);
  EXPECT_EQ(g.details["division"], "open");
  EXPECT_TRUE(g.details["rcp"]["pass"].is_null());
  EXPECT_EQ(g.details["rcp"]["verdict"], "n/a");
  EXPECT_NE(g.details["rcp"]["message"].get<std::string>().find("closed division only"), std::string::npos);
  // A system description that says "closed" wins over logs that say "open" (the summarizer reads the former).
  WriteFile(systems / "sys.json", "{\"division\": \"closed\"}");
  const ImportResult closed = ImportOne(dir.path());
  EXPECT_EQ(Only(closed).details["division"], "closed");
  EXPECT_FALSE(Only(closed).details["rcp"]["pass"].is_null());
}

// Point 1: benchmarks the old run-count table stopped short of get their RCP check; rules the official checker
// does not have (dlrm, rulesets before 1.0, unknown benchmarks) are "n/a", not FAIL.
TEST(MlperfRulesTest, EveryBenchmarkWithRcpsIsCheckedAndTheRestIsNotApplicable) {
  TempDir dir;
  const fs::path gnn = Folder(dir.path(), "v4.0", "gnn");
  for (int i = 0; i < 10; ++i) {
    WriteFile(gnn / ("result_" + std::to_string(i) + ".txt"),
              RunLog("gnn", i + 1, 65536, {{"0.70", Epoch(0.6)}, {"0.721", Epoch(1.2)}}));
  }
  const fs::path dlrm = Folder(dir.path(), "v2.0", "dlrm");
  for (int i = 0; i < 5; ++i) {
    WriteFile(dlrm / ("result_" + std::to_string(i) + ".txt"), RunLog("dlrm", i + 1, 55296, {{"0.803", Epoch(0.9)}}));
  }
  const fs::path other = Folder(dir.path(), "v4.0", "mybench");
  WriteFile(other / "result_0.txt", RunLog("mybench", 1, 1, {{"0.5", Epoch(1)}}));
  const ImportResult result = ImportOne(dir.path());
  ASSERT_EQ(result.groups.size(), 3u);
  for (const ImportedGroup& g : result.groups) {
    const json& rcp = g.details["rcp"];
    if (g.benchmark == "gnn") {
      EXPECT_EQ(rcp["rcp_file"], "built-in training_4.0.0/rcps_gnn.json");
      EXPECT_TRUE(rcp["pass"].is_boolean()) << rcp.dump();
      EXPECT_NE(rcp["message"], "No RCP rules for benchmark \"gnn\"");
    } else {
      EXPECT_EQ(rcp["verdict"], "n/a") << g.benchmark << rcp.dump();
      EXPECT_TRUE(rcp["pass"].is_null());
    }
  }
  EXPECT_EQ(FindRuleset("5.1.0")->Find("dlrm_dcnv2")->rcp_runs, 10u);  // point 4: not 5
  EXPECT_EQ(FindRuleset("4.0.0")->Find("unet3d")->drop_each_side, 4u);
}

// Point 2: llama2_70b_lora's RCPs are keyed "samples to converge", its convergence point is samples_count and its
// metric (eval loss) is lower-is-better; gpt3's log perplexity too.
TEST(MlperfRulesTest, SamplesKeyedRcpsAndLowerIsBetterMetrics) {
  TempDir dir;
  const fs::path lora = Folder(dir.path(), "v4.0", "llama2_70b_lora");
  for (int i = 0; i < 10; ++i) {
    WriteFile(lora / ("result_" + std::to_string(i) + ".txt"),
              RunLog("llama2_70b_lora", i + 1, 8,
                     {{"0.94", "{\"samples_count\": 2688}"}, {"0.924", "{\"samples_count\": 3072}"}}));
  }
  const ImportResult result = ImportOne(dir.path());
  EXPECT_TRUE(result.errors.empty()) << result.errors.front();
  const ImportedGroup& g = Only(result);
  EXPECT_EQ(g.metric, "-eval_loss");
  EXPECT_DOUBLE_EQ(*g.threshold, -0.925);
  EXPECT_EQ(g.converged, 10u);
  EXPECT_EQ(g.details["run_details"][3]["convergence"], 3072.0);
  const json& rcp = g.details["rcp"];
  EXPECT_EQ(rcp["reference"], "llama2_70b_lora_ref_8") << rcp.dump();
  EXPECT_EQ(rcp["verdict"], "Pass");
  EXPECT_EQ(rcp["submission_mean_epochs"], 3072.0);
  EXPECT_DOUBLE_EQ(rcp["norm_factor"].get<double>(), std::max(1.0, rcp["rcp_mean"].get<double>() / 3072.0));
  // The stored curve reaches -0.925 at the second evaluation (loss 0.924), not at the first (0.94).
  ASSERT_EQ(g.runs[0].log.points.size(), 2u);
  EXPECT_DOUBLE_EQ(g.runs[0].log.points[1].metric, -0.924);
  const std::optional<MlperfTarget> gpt3 = StoredTarget(*FindRuleset("3.0.0")->Find("gpt3"));
  EXPECT_EQ(gpt3->metric, "-log_perplexity");
  EXPECT_DOUBLE_EQ(gpt3->threshold, -2.69);
}

// Point 2: stable diffusion converges at the first evaluation passing both FID <= 90 and CLIP >= 0.15, logged as
// two eval_accuracy records told apart by metadata.metric.
TEST(MlperfRulesTest, StableDiffusionConvergesAtTheFirstStepPassingFidAndClip) {
  TempDir dir;
  const fs::path sd = Folder(dir.path(), "v4.0", "stable_diffusion");
  auto m = [](const char* metric, long samples) {
    return "{\"samples_count\": " + std::to_string(samples) + ", \"metric\": \"" + metric + "\"}";
  };
  for (int i = 0; i < 10; ++i) {
    WriteFile(sd / ("result_" + std::to_string(i) + ".txt"),
              RunLog("stable_diffusion", i + 1, 512,
                     {{"101.6", m("FID", 2048000)},
                      {"0.156", m("CLIP", 2048000)},  // CLIP passes, FID does not
                      {"83.2", m("FID", 2560000)},
                      {"0.17", m("CLIP", 2560000)},
                      {"80.0", m("FID", 3072000)},
                      {"0.18", m("CLIP", 3072000)}}));
  }
  const ImportResult result = ImportOne(dir.path());
  const ImportedGroup& g = Only(result);
  EXPECT_EQ(g.converged, 10u);
  EXPECT_EQ(g.details["run_details"][0]["convergence"], 2560000.0);
  ASSERT_EQ(g.runs[0].log.points.size(), 3u);  // one stored point per step
  EXPECT_LT(g.runs[0].log.points[0].metric, 1.0);
  EXPECT_GE(g.runs[0].log.points[1].metric, 1.0);
  const json& rcp = g.details["rcp"];
  EXPECT_EQ(rcp["reference"], "sd_ref_512") << rcp.dump();
  EXPECT_EQ(rcp["submission_mean_epochs"], 2560000.0);
  EXPECT_EQ(rcp["verdict"], "Pass");
}

// Point 6 and point 8: v0.5 logs (ruleset from the log format): {"success": "true"} and a bare run_stop count
// when the target of the v0.5 rules is reached (gnmt 21.8, not v1.0's 24); a bare run_stop below it is dropped.
TEST(MlperfRulesTest, V05StatusQuirksAndV05Targets) {
  TempDir dir;
  const fs::path gnmt = dir / "results" / "sys" / "gnmt";
  fs::create_directories(gnmt);
  auto v05 = [](int seed, const std::string& bleu, const std::string& stop) {
    return ":::MLPv0.5.0 gnmt 1000.0 (t.py:1) run_set_random_seed: " + std::to_string(seed) +
           "\n:::MLPv0.5.0 gnmt 1001.0 (t.py:2) run_start\n"
           ":::MLPv0.5.0 gnmt 1601.0 (t.py:3) eval_accuracy: {\"epoch\": 1, \"value\": " +
           bleu + "}\n:::MLPv0.5.0 gnmt 1661.0 (t.py:4) run_stop" + stop + "\n";
  };
  WriteFile(gnmt / "result_0.txt", v05(1, "22.0", ": {\"success\": \"true\"}"));
  WriteFile(gnmt / "result_1.txt", v05(2, "22.1", ": {\"success\": \"true\"}"));
  WriteFile(gnmt / "result_2.txt", v05(3, "21.9", ""));
  WriteFile(gnmt / "result_3.txt", v05(4, "21.85", ""));
  WriteFile(gnmt / "result_4.txt", v05(5, "20.0", ""));
  const ImportResult result = ImportOne(dir.path());
  const ImportedGroup& g = Only(result);
  EXPECT_EQ(g.details["ruleset"], "0.5.0");
  EXPECT_EQ(g.details["ruleset_source"], "log format");
  EXPECT_DOUBLE_EQ(*g.threshold, 21.8);
  // A bare run_stop below the target: the official tools have no v0.5 target rule, so the run counts, and
  // evalsuite says at which line it ended below the target (a warning, never a change to the score).
  EXPECT_EQ(g.converged, 5u);
  EXPECT_TRUE(g.olympic_minutes.has_value());
  EXPECT_EQ(g.details["run_details"][4]["status"], "success");
  bool named = false;
  for (const std::string& c : result.compliance) {
    named = named || (c.find("result_4.txt:4:") != std::string::npos &&
                      c.find("official tools count the run") != std::string::npos);
  }
  EXPECT_TRUE(named) << ::testing::PrintToString(result.compliance);
  EXPECT_EQ(g.details["rcp"]["verdict"], "n/a");
  EXPECT_EQ(g.details["rcp"]["message"], "ruleset 0.5.0 has no RCPs");
}

// Point 9: compliance findings name file and line; runs that break the rules that decide whether a run counts
// are dropped with the reason in the JSON.
TEST(MlperfRulesTest, ComplianceFindingsNameFileAndLine) {
  TempDir dir;
  const fs::path resnet = Folder(dir.path(), "v3.0", "resnet");
  const std::vector<Eval> ok = {{"0.5", Epoch(1)}, {"0.76", Epoch(2)}};
  WriteFile(resnet / "result_0.txt", RunLog("resnet", 7, 3264, ok));
  WriteFile(resnet / "result_1.txt", RunLog("resnet", 7, 3264, ok));  // the same seed as result_0
  WriteFile(resnet / "result_2.txt", RunLog("resnet", 9, 3264, {{"0.5", Epoch(1)}, {"0.75", Epoch(2)}}));  // < 0.759
  // run_stop logged before run_start.
  WriteFile(resnet / "result_3.txt",
            AllRulesetsRequiredKeys("resnet") + MllogRecord(1000, "submission_benchmark", "\"resnet\"") +
                MllogRecord(1001, "submission_division", "\"closed\"") + MllogRecord(1002, "seed", "11") +
                MllogRecord(1003, "global_batch_size", "3264") +
                MllogRecord(100000, "eval_accuracy", "0.77", Epoch(2)) +
                MllogRecord(100001, "run_stop", "null", "{\"status\": \"success\"}") +
                MllogRecord(100002, "run_start", "null"));
  WriteFile(resnet / "result_4.txt", RunLog("resnet", 12, 3264, ok));
  const ImportResult result = ImportOne(dir.path());
  const ImportedGroup& g = Only(result);
  const json& runs = g.details["run_details"];
  EXPECT_EQ(runs[0]["status"], "success");
  EXPECT_EQ(runs[1]["status"], "success");  // a repeated seed is reported, the run counts
  EXPECT_EQ(runs[2]["status"], "dropped");
  EXPECT_NE(runs[2]["reason"].get<std::string>().find("result_2.txt:"), std::string::npos) << runs[2];
  EXPECT_NE(runs[2]["reason"].get<std::string>().find("official target check (eval_accuracy < 1 and eval_accuracy "
                                                      ">= 0.759)"),
            std::string::npos)
      << runs[2];
  EXPECT_EQ(runs[3]["status"], "dropped");
  EXPECT_NE(runs[3]["reason"].get<std::string>().find(": run_stop comes before run_start (line "), std::string::npos)
      << runs[3];
  EXPECT_EQ(g.converged, 3u);
  bool seed_named = false;
  for (const std::string& c : result.compliance) {
    seed_named = seed_named || (c.find("result_1.txt:") != std::string::npos &&
                                c.find(": seed 7 was logged by") != std::string::npos &&
                                c.find("result_0.txt:") != std::string::npos);
  }
  EXPECT_TRUE(seed_named) << ::testing::PrintToString(result.compliance);
  int dropped_findings = 0;
  for (const json& c : g.details["compliance"]) dropped_findings += c["drops_run"].get<bool>();
  EXPECT_EQ(dropped_findings, 2);
}

// The files that are runs are the summarizer's (glob result_*.txt): a stray ".!65506!result_4.txt" left by an
// interrupted copy, an rcp_checker.log or result_5.TXT beside the logs are not runs, even under --format mlperf.
TEST(MlperfRulesTest, OnlyResultFilesAreRuns) {
  TempDir dir;
  const fs::path resnet = Folder(dir.path(), "v3.0", "resnet");
  const std::vector<Eval> ok = {{"0.5", Epoch(1)}, {"0.76", Epoch(2)}};
  for (int i = 0; i < 5; ++i)
    WriteFile(resnet / ("result_" + std::to_string(i) + ".txt"), RunLog("resnet", i, 3264, ok));
  WriteFile(resnet / ".!65506!result_4.txt", RunLog("resnet", 9, 3264, ok));
  WriteFile(resnet / "rcp_checker.log", RunLog("resnet", 10, 3264, ok));
  WriteFile(resnet / "result_5.TXT", RunLog("resnet", 11, 3264, ok));
  ImportOptions options;
  options.paths = {dir.path()};
  options.format = ImportFormat::kMlperf;
  const ImportResult result = Import(options);
  const ImportedGroup& g = Only(result);
  EXPECT_EQ(g.runs.size(), 5u);
  EXPECT_EQ(g.converged, 5u);
}

// Init longer than the ruleset allows (30 minutes closed from 1.0.0; 240 open from 2.0.0) drops the run, as the
// official checker's init_stop check does, naming the init_stop line.
TEST(MlperfRulesTest, InitOverTheTimeLimitDropsTheRun) {
  TempDir dir;
  const fs::path bert = Folder(dir.path(), "v5.0", "bert");
  for (int i = 0; i < 10; ++i) {
    const long init_minutes = i == 3 ? 31 : 29;
    WriteFile(bert / ("result_" + std::to_string(i) + ".txt"),
              MllogRecord(1, "init_start", "null") + MllogRecord(1 + init_minutes * 60000, "init_stop", "null") +
                  RunLog("bert", i + 1, 448, {{"0.5", Epoch(1)}, {"0.721", Epoch(2)}}));
  }
  const ImportResult result = ImportOne(dir.path());
  const ImportedGroup& g = Only(result);
  EXPECT_EQ(g.converged, 9u);
  const json& run = g.details["run_details"][3];
  EXPECT_EQ(run["status"], "dropped");
  EXPECT_NE(run["reason"].get<std::string>().find("result_3.txt:2: init took 31.0 minutes; the closed division "
                                                  "allows less than 30"),
            std::string::npos)
      << run;
}

// 1.0.0 rnnt and 1.1.0 ... 2.1.0: the tensors weights_initialization names must be exactly the reference's (the
// END check of the compliance YAML), each record naming its tensor.
TEST(MlperfRulesTest, WeightsInitializationMustNameExactlyTheReferenceTensors) {
  TempDir dir;
  const fs::path dlrm = Folder(dir.path(), "v1.1", "dlrm");
  const std::vector<std::string>& tensors = FindComplianceRules("1.1.0", "dlrm")->closed.tensors;
  ASSERT_EQ(tensors.size(), 9u);
  auto init_lines = [&](std::size_t skip, bool untensored) {
    std::string out;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      if (i == skip) continue;
      out += MllogRecord(950, "weights_initialization", "null",
                         untensored && i == 0 ? "{}" : "{\"tensor\": \"" + tensors[i] + "\"}");
    }
    return out;
  };
  const std::vector<Eval> ok = {{"0.79", Epoch(0.5)}, {"0.8026", Epoch(0.95)}};
  for (int i = 0; i < 5; ++i) {
    const std::string init = i == 1 ? init_lines(4, false) : i == 2 ? init_lines(99, true) : init_lines(99, false);
    WriteFile(dlrm / ("result_" + std::to_string(i) + ".txt"), init + RunLog("dlrm", i + 1, 55296, ok));
  }
  const ImportResult result = ImportOne(dir.path());
  const ImportedGroup& g = Only(result);
  const json& runs = g.details["run_details"];
  EXPECT_EQ(g.converged, 3u);
  EXPECT_EQ(runs[1]["status"], "dropped");
  EXPECT_NE(runs[1]["reason"].get<std::string>().find("names 8 tensor(s), the ruleset's reference 9; not logged: " +
                                                      tensors[4]),
            std::string::npos)
      << runs[1];
  EXPECT_EQ(runs[2]["status"], "dropped");
  EXPECT_NE(runs[2]["reason"].get<std::string>().find("result_2.txt:1: weights_initialization without metadata.tensor"),
            std::string::npos)
      << runs[2];
  // Ruleset 3.0.0 has no such check: the same logs all count.
  ImportOptions options;
  options.paths = {dir.path()};
  options.ruleset = "3.0.0";
  EXPECT_EQ(Only(Import(options)).converged, 5u);
}

// resnet's opt_name picks one more rules file (closed_resnet_lars.yaml, closed_resnet_sgd.yaml) whose keys are
// required too; an optimizer with no file is rejected.
TEST(MlperfRulesTest, ResnetOptimizerPicksItsRulesFile) {
  TempDir dir;
  const fs::path resnet = Folder(dir.path(), "v3.0", "resnet");
  const DivisionRules& closed = FindComplianceRules("3.0.0", "resnet")->closed;
  ASSERT_EQ(closed.variant_key, "opt_name");
  std::string lars_keys;
  for (const RequiredKey& k : closed.variants.at("lars")) lars_keys += MllogRecord(950, k.key, "0.1");
  const std::vector<Eval> ok = {{"0.5", Epoch(1)}, {"0.76", Epoch(2)}};
  for (int i = 0; i < 5; ++i) {
    const std::string opt = i == 1 ? "\"adam\"" : "\"lars\"";
    const std::string keys = i == 2 ? "" : lars_keys;
    WriteFile(resnet / ("result_" + std::to_string(i) + ".txt"),
              MllogRecord(940, "opt_name", opt) + keys + RunLog("resnet", i + 1, 3264, ok, "success", "closed", false));
  }
  const ImportResult result = ImportOne(dir.path());
  const ImportedGroup& g = Only(result);
  const json& runs = g.details["run_details"];
  EXPECT_EQ(g.converged, 3u) << runs.dump();
  EXPECT_NE(runs[1]["reason"].get<std::string>().find("opt_name \"adam\" has no rules in the official checker"),
            std::string::npos)
      << runs[1];
  EXPECT_NE(runs[2]["reason"].get<std::string>().find("required key \"" + closed.variants.at("lars").front().key),
            std::string::npos)
      << runs[2];
}

// FindComplianceRules parses only the rows asked for, once each, from any thread: every row it returns is the
// table's row as AllComplianceRules parses it, the same object on four threads at once, and an unknown pair is none.
TEST(MlperfComplianceTableTest, RulesFoundOneByOneOnSeveralThreadsAreTheWholeTablesRows) {
  const std::vector<ComplianceRules>& all = AllComplianceRules();
  ASSERT_GT(all.size(), 50u);
  std::vector<std::vector<const ComplianceRules*>> found(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < found.size(); ++t) {
    threads.emplace_back([&all, &found, t] {
      // Each thread walks the table from another place, so that first uses of a row race.
      for (std::size_t i = 0; i < all.size(); ++i) {
        const ComplianceRules& row = all[(i + t * all.size() / 4) % all.size()];
        found[t].push_back(FindComplianceRules(row.ruleset, row.benchmark));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  auto keys = [](const std::vector<RequiredKey>& required) {
    std::string out;
    for (const RequiredKey& k : required) out += k.key + "=" + k.req + ";";
    return out;
  };
  for (std::size_t i = 0; i < all.size(); ++i) {
    const ComplianceRules* rules = found[0][i];
    ASSERT_NE(rules, nullptr) << all[i].ruleset << " " << all[i].benchmark;
    for (std::size_t t = 1; t < found.size(); ++t) {
      EXPECT_EQ(found[t][(i + all.size() - t * all.size() / 4) % all.size()], rules);
    }
    EXPECT_EQ(rules->ruleset, all[i].ruleset);
    EXPECT_EQ(rules->benchmark, all[i].benchmark);
    for (auto [mine, theirs] : {std::pair{&rules->closed, &all[i].closed}, std::pair{&rules->open, &all[i].open}}) {
      EXPECT_EQ(mine->target.ToString(), theirs->target.ToString()) << rules->ruleset << " " << rules->benchmark;
      EXPECT_EQ(keys(mine->required), keys(theirs->required));
      EXPECT_EQ(mine->init_limit_minutes, theirs->init_limit_minutes);
      EXPECT_EQ(mine->tensors, theirs->tensors);
      EXPECT_EQ(mine->variant_key, theirs->variant_key);
      EXPECT_EQ(mine->variants.size(), theirs->variants.size());
    }
  }
  EXPECT_EQ(FindComplianceRules("3.0.0", "no_such_benchmark"), nullptr);
  EXPECT_EQ(FindComplianceRules("9.9.9", "resnet"), nullptr);
}

// The round a folder names is read without std::regex (mlperf_group.cpp's RoundNamedBy); the oracle here is the
// pattern it replaces, std::regex_match of (?:training_results_)?v(\d+\.\d+)(?:\.\d+)?, over 20,000 names built from
// the pieces that matter (prefixes whole and cut, v or V, digits, dots, other letters). Rounds of 7s and 9s are no
// ruleset, so DetectRuleset's error names the round it read, or says the path names none.
TEST(MlperfRulesetDetectionTest, TheRoundAFolderNamesIsReadAsTheRegexReadsIt) {
  const std::regex oracle(R"((?:training_results_)?v(\d+\.\d+)(?:\.\d+)?)");
  const std::vector<std::string> prefixes = {"", "training_results_", "training_results", "xtraining_results_",
                                             "training_results_training_results_"};
  const std::vector<std::string> heads = {"v", "V", "", "vv"};
  const std::string tail_chars = "97.x";
  std::mt19937 random(38);
  std::set<std::string> seen_rounds;
  for (int i = 0; i < 20000; ++i) {
    std::string name = prefixes[random() % prefixes.size()] + heads[random() % heads.size()];
    const int length = static_cast<int>(random() % 8);
    for (int c = 0; c < length; ++c) name += tail_chars[random() % tail_chars.size()];
    if (name.empty() || name == "." || name == "..") continue;
    std::smatch m;
    const std::string expected = std::regex_match(name, m, oracle) ? m[1].str() : "";
    const DetectedRuleset detected =
        DetectRuleset("", fs::path("root") / name / "NVIDIA", runlog::MlperfLogFormat::kV07, "no_such_benchmark");
    ASSERT_EQ(detected.ruleset, nullptr) << name;
    if (expected.empty()) {
      EXPECT_NE(detected.error.find("the path names no round"), std::string::npos) << name << ": " << detected.error;
    } else {
      seen_rounds.insert(expected);
      EXPECT_EQ(detected.source, "folder name") << name;
      EXPECT_NE(detected.error.find("names round v" + expected + ", which"), std::string::npos)
          << name << ": " << detected.error;
    }
  }
  EXPECT_GT(seen_rounds.size(), 20u);  // the names did reach the matching branch, with many rounds
  // The innermost folder naming a round wins.
  const DetectedRuleset nested = DetectRuleset("", fs::path("training_results_v9.7") / "v7.79.9" / "x",
                                               runlog::MlperfLogFormat::kV07, "no_such_benchmark");
  EXPECT_NE(nested.error.find("names round v7.79, which"), std::string::npos) << nested.error;
}

}  // namespace
}  // namespace evalsuite::importer
