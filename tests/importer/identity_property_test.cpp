// Issue 50's promise over every framework format and folder layout: configurations x seeds x folder shapes, metrics
// in percent and as fractions. However the runs lie, no two runs with different recorded configurations share an
// entry unless the user asked (--entry, --group-by path), runs of one configuration share one, and a --threshold
// typed as a fraction reaches the same runs on either scale.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "importer/importer.h"
#include "tests/support/test_support.h"

namespace evalsuite::importer {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::WriteFile;

// One run written by the generator: where it lies and which configuration it belongs to.
struct Written {
  fs::path file;  // as ImportedRun::file names it (the file, or MLflow's run folder)
  std::string config;
};

// A curve that reaches 0.8 at its third evaluation, on the scale asked for.
std::vector<double> Curve(bool percent, int seed) {
  std::vector<double> v = {0.5, 0.7, 0.82 + 0.01 * seed, 0.85};
  if (percent) {
    for (double& x : v) x *= 100;
  }
  return v;
}

std::string Num(double v) { return std::to_string(v); }

// Writes `configs` x `seeds` runs of `format` under `root` in folder shape `shape` (0, 1 or 2; what each means is
// the format's common layouts, named below).
std::vector<Written> WriteRuns(const std::string& format, int shape, bool percent, const fs::path& root,
                               const std::vector<std::string>& configs, int seeds) {
  std::vector<Written> out;
  int version = 0;
  for (std::size_t c = 0; c < configs.size(); ++c) {
    const std::string& config = configs[c];
    const std::string lr = c == 0 ? "0.1" : (c == 1 ? "0.01" : "0.001");
    for (int s = 1; s <= seeds; ++s) {
      const std::vector<double> curve = Curve(percent, s);
      const std::string seed = "seed" + std::to_string(s);
      if (format == "hf-trainer") {
        // <config>/<seed>/, <config>-<seed>/, <config>/<seed>/checkpoint-40/
        fs::path folder = shape == 0
                              ? root / config / seed
                              : (shape == 1 ? root / (config + "-" + seed) : root / config / seed / "checkpoint-40");
        std::string history;
        for (std::size_t e = 0; e < curve.size(); ++e) {
          history += std::string(e ? "," : "") + "{\"epoch\": " + Num(e + 1.0) +
                     ", \"eval_accuracy\": " + Num(curve[e]) + ", \"step\": " + std::to_string(10 * (e + 1)) + "}";
        }
        WriteFile(folder / "trainer_state.json",
                  "{\"global_step\": 40, \"max_steps\": 40, \"epoch\": 4.0, \"log_history\": [" + history + "]}");
        out.push_back({folder / "trainer_state.json", config});
      } else if (format == "lightning") {
        // <config>/lightning_logs/version_N/ with hparams; one lightning_logs/ for every config (hparams tell
        // them apart); <config>/<seed>/ with hparams
        fs::path folder = shape == 0   ? root / config / "lightning_logs" / ("version_" + std::to_string(s - 1))
                          : shape == 1 ? root / "lightning_logs" / ("version_" + std::to_string(version++))
                                       : root / config / seed;
        std::string csv = "epoch,step,train_loss,val_acc\n";
        for (std::size_t e = 0; e < curve.size(); ++e) {
          csv += std::to_string(e) + "," + std::to_string(10 * (e + 1)) + ",0.5," + Num(curve[e]) + "\n";
        }
        WriteFile(folder / "metrics.csv", csv);
        WriteFile(folder / "hparams.yaml", "lr: " + lr + "\nmodel:\n  depth: 18\nseed: " + std::to_string(s) + "\n");
        out.push_back({folder / "metrics.csv", config});
      } else if (format == "keras") {
        // <config>/<seed>.csv, <config>_<seed>.csv in one folder, <config>/<seed>/history.csv
        fs::path file = shape == 0   ? root / config / (seed + ".csv")
                        : shape == 1 ? root / (config + "_" + seed + ".csv")
                                     : root / config / seed / "history.csv";
        std::string csv = "epoch,accuracy,loss,val_accuracy,val_loss\n";
        for (std::size_t e = 0; e < curve.size(); ++e) {
          csv += std::to_string(e) + "," + Num(curve[e]) + ",0.3," + Num(curve[e]) + ",0.4\n";
        }
        WriteFile(file, csv);
        out.push_back({file, config});
      } else if (format == "mlflow") {
        // one experiment, runs told apart by params; by run names; by both
        const fs::path experiment = root / "mlruns" / "1";
        WriteFile(experiment / "meta.yaml", "experiment_id: '1'\nname: sweep\n");
        const fs::path run = experiment / (config + std::to_string(s) + "00000000000000000000000000000");
        const std::string name = shape == 0 ? "bemused-cow-" + std::to_string(10 * c + s) : config + "-" + seed;
        WriteFile(run / "meta.yaml", "run_name: " + name + "\nstart_time: 1000000\nend_time: 1400000\nstatus: 3\n");
        std::string metric;
        for (std::size_t e = 0; e < curve.size(); ++e) {
          metric += std::to_string(1000000 + 10000 * (e + 1)) + " " + Num(curve[e]) + " " + std::to_string(e) + "\n";
        }
        WriteFile(run / "metrics" / "val_acc", metric);
        WriteFile(run / "params" / "seed", std::to_string(s));
        if (shape != 1) WriteFile(run / "params" / "lr", lr);
        out.push_back({run, config});
      } else if (format == "epoch-csv") {
        // YOLO: <config>/<seed>/results.csv, <config>/train<k>/results.csv, <config>-<seed>/results.csv
        fs::path folder = shape == 0   ? root / config / seed
                          : shape == 1 ? root / config / (s == 1 ? std::string("train") : "train" + std::to_string(s))
                                       : root / (config + "-" + seed);
        std::string csv = "epoch,time,train/box_loss,metrics/mAP50(B)\n";
        for (std::size_t e = 0; e < curve.size(); ++e) {
          csv += std::to_string(e + 1) + "," + Num(30.0 * (e + 1)) + ",1.2," + Num(curve[e]) + "\n";
        }
        WriteFile(folder / "results.csv", csv);
        out.push_back({folder / "results.csv", config});
      } else if (format == "jsonl") {
        // no entry in the header: <config>/<seed>.jsonl, <config>/<seed>/run.jsonl, one folder (hyperparameters)
        fs::path file = shape == 0   ? root / config / (seed + ".jsonl")
                        : shape == 1 ? root / config / seed / "run.jsonl"
                                     : root / "runs" / (config + "_" + seed + ".jsonl");
        std::string text = "{\"type\":\"header\",\"metric\":\"val_top1\",\"hyperparameters\":{\"lr\":" + lr +
                           ",\"seed\":" + std::to_string(s) + "}" + (percent ? ",\"metric_range\":[0,100]" : "") +
                           "}\n";
        for (std::size_t e = 0; e < curve.size(); ++e) {
          text += "{\"type\":\"eval\",\"epoch\":" + std::to_string(e + 1) +
                  ",\"train_seconds\":" + Num(10.0 * (e + 1)) + ",\"metric\":" + Num(curve[e]) + "}\n";
        }
        text += "{\"type\":\"end\",\"status\":\"reached\",\"train_seconds\":40}\n";
        WriteFile(file, text);
        out.push_back({file, config});
      }
    }
  }
  return out;
}

std::string Key(const fs::path& p) { return fs::weakly_canonical(p).string(); }

TEST(IdentityPropertyTest, RunsOfDifferentConfigurationsNeverShareAnEntryUnlessAsked) {
  const std::vector<std::string> formats = {"hf-trainer", "lightning", "keras", "mlflow", "epoch-csv", "jsonl"};
  const std::vector<std::vector<std::string>> config_sets = {{"baseline", "fast"}, {"a", "b", "c"}, {"only"}};
  std::size_t cases = 0;
  for (const std::string& format : formats) {
    for (int shape = 0; shape < 3; ++shape) {
      for (const auto& configs : config_sets) {
        for (int seeds : {1, 3}) {
          for (bool percent : {false, true}) {
            // MLflow shape 1 tells configs apart by run names alone: a generated name could not.
            SCOPED_TRACE(format + " shape " + std::to_string(shape) + " configs " + std::to_string(configs.size()) +
                         " seeds " + std::to_string(seeds) + (percent ? " percent" : " fraction"));
            TempDir dir;
            const std::vector<Written> written = WriteRuns(format, shape, percent, dir / "logs", configs, seeds);
            std::map<std::string, std::string> config_of;
            for (const Written& w : written) config_of[Key(w.file)] = w.config;
            ImportOptions options;
            options.paths = {dir / "logs"};
            options.threshold = 0.8;
            options.jobs = 1;
            const ImportResult r = Import(options);
            ASSERT_TRUE(r.errors.empty()) << r.errors.front();
            std::map<std::string, std::set<std::string>> configs_of_entry;
            std::map<std::string, std::set<std::string>> entries_of_config;
            std::size_t runs = 0;
            for (const ImportedGroup& g : r.groups) {
              for (const ImportedRun& run : g.runs) {
                const auto it = config_of.find(Key(run.file));
                ASSERT_NE(it, config_of.end()) << run.file;
                configs_of_entry[g.entry].insert(it->second);
                entries_of_config[it->second].insert(g.entry);
                ++runs;
              }
              // The threshold typed as a fraction is read on the log's scale: every run reaches it.
              EXPECT_EQ(g.converged, g.runs.size()) << g.entry << "\n" << r.grouping;
            }
            EXPECT_EQ(runs, written.size());
            for (const auto& [entry, cs] : configs_of_entry) {
              EXPECT_EQ(cs.size(), 1u) << "entry " << entry << " holds several configurations\n" << r.grouping;
            }
            for (const auto& [config, es] : entries_of_config) {
              EXPECT_EQ(es.size(), 1u) << "configuration " << config << " is split\n" << r.grouping;
            }
            ++cases;
            // Asked for: --entry files them together (and says so where hyperparameters differ).
            if (configs.size() > 1 && seeds == 3 && !percent && shape == 0) {
              options.entry = "all";
              const ImportResult asked = Import(options);
              ASSERT_EQ(asked.groups.size(), 1u) << asked.grouping;
              EXPECT_EQ(asked.groups[0].entry, "all");
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 6u * 3 * 3 * 2 * 2);
}

}  // namespace
}  // namespace evalsuite::importer
