// Issue 50's importer cases, each as a user met it: seed folders filed as entries, MLflow experiments merged across
// params and run names, percent scales (a Whisper-style WER, a JSON Lines accuracy of 91.3), and YOLO's results.csv
// (Ultralytics with its clock, YOLOv5 space-padded) found by --format auto; a CSV no reader places says so.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "importer/importer.h"
#include "tests/support/test_support.h"

namespace evalsuite::importer {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::TempDir;
using testing::WriteFile;

ImportResult ImportPath(const fs::path& path, std::optional<double> threshold, GroupBy by = {},
                        ImportFormat format = ImportFormat::kAuto) {
  ImportOptions options;
  options.paths = {path};
  options.threshold = threshold;
  options.group_by = std::move(by);
  options.format = format;
  options.jobs = 1;
  return Import(options);
}

std::string HfState(const std::vector<double>& accuracy) {
  std::string history;
  for (std::size_t e = 0; e < accuracy.size(); ++e) {
    history +=
        (e ? ", " : "") + json({{"epoch", e + 1.0}, {"eval_accuracy", accuracy[e]}, {"step", 10 * (e + 1)}}).dump();
  }
  return "{\"global_step\": 30, \"max_steps\": 30, \"epoch\": 3.0, \"log_history\": [" + history + "]}";
}

// A 32-digit hex folder name, as MLflow names its run folders.
std::string RunId(int k) { return std::string(31, 'a') + std::to_string(k); }

bool Has(const std::vector<std::string>& lines, const std::string& part) {
  for (const std::string& l : lines) {
    if (l.find(part) != std::string::npos) return true;
  }
  return false;
}

// Item 2: hf/<config>/<seed>/trainer_state.json gave one entry per seed folder ("seed1" held baseline and fast, CoV
// 28-47% across two configurations).
TEST(ImportIdentityTest, HuggingFaceConfigFoldersAreEntriesAndSeedFoldersTheirRuns) {
  TempDir dir;
  WriteFile(dir / "hf/baseline/seed1/trainer_state.json", HfState({0.5, 0.7, 0.9}));
  WriteFile(dir / "hf/baseline/seed2/trainer_state.json", HfState({0.5, 0.8, 0.9}));
  WriteFile(dir / "hf/fast/seed1/trainer_state.json", HfState({0.8, 0.9, 0.95}));
  WriteFile(dir / "hf/fast/seed2/trainer_state.json", HfState({0.85, 0.9, 0.95}));
  const ImportResult r = ImportPath(dir / "hf", 0.8);
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  ASSERT_EQ(r.groups.size(), 2u) << r.grouping;
  EXPECT_EQ(r.groups[0].entry, "baseline");
  EXPECT_EQ(r.groups[1].entry, "fast");
  EXPECT_EQ(r.groups[0].details["tta"], json({3.0, 2.0}));
  EXPECT_EQ(r.groups[1].details["tta"], json({1.0, 1.0}));
  EXPECT_NE(r.grouping.find("baseline <- 2 runs from hf/baseline/seed1, hf/baseline/seed2"), std::string::npos)
      << r.grouping;
  EXPECT_NE(r.grouping.find("entries differ in: folder"), std::string::npos) << r.grouping;
  // The summary printed before storing opens with the grouping.
  EXPECT_EQ(FormatSummary(r).rfind(r.grouping, 0), 0u);
}

// Item 2: every run of one MLflow experiment was one entry, whatever its params and run name.
TEST(ImportIdentityTest, MlflowRunsOfOneExperimentAreSplitByParamsAndRunNames) {
  TempDir dir;
  const fs::path exp = dir / "mlruns/5";
  WriteFile(exp / "meta.yaml", "experiment_id: '5'\nname: cifar\n");
  int k = 0;
  for (const auto& [name, lr] : std::vector<std::pair<std::string, std::string>>{
           {"resnet-seed1", "0.1"}, {"resnet-seed2", "0.1"}, {"resnet-seed3", "0.05"}, {"vit-seed1", "0.1"}}) {
    const fs::path run = exp / RunId(k++);
    WriteFile(run / "meta.yaml", "run_name: " + name + "\nstart_time: 1000000\nend_time: 1400000\nstatus: 3\n");
    WriteFile(run / "metrics/val_acc", "1100000 0.5 0\n1200000 0.9 1\n");
    WriteFile(run / "params/lr", lr);
    WriteFile(run / "params/seed", std::to_string(k));
  }
  const ImportResult r = ImportPath(dir / "mlruns", 0.8);
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  std::vector<std::string> entries;
  std::vector<std::size_t> runs;
  for (const ImportedGroup& g : r.groups) {
    entries.push_back(g.entry);
    runs.push_back(g.runs.size());
  }
  EXPECT_EQ(entries, (std::vector<std::string>{"cifar/resnet lr=0.1", "cifar/resnet lr=0.05", "cifar/vit lr=0.1"}))
      << r.grouping;
  EXPECT_EQ(runs, (std::vector<std::size_t>{2, 1, 1}));
  EXPECT_NE(r.grouping.find("entries differ in: lr, run name"), std::string::npos) << r.grouping;
  // The recorded configuration travels with each run into the store.
  EXPECT_EQ(r.groups[0].runs[0].log.header["hyperparameters"]["lr"], "0.1");

  // --group-by path keeps the experiment whole, as asked, and says which hyperparameter its runs differ in.
  const ImportResult by_path = ImportPath(dir / "mlruns", 0.8, ParseGroupBy({"path"}));
  ASSERT_EQ(by_path.groups.size(), 1u);
  EXPECT_EQ(by_path.groups[0].entry, "cifar");
  EXPECT_TRUE(Has(by_path.warnings, "entry \"cifar\": its runs differ in the recorded hyperparameter lr (0.05 in "))
      << by_path.grouping;
}

// Item 2: Lightning versions of one logger with different hparams.yaml were one entry.
TEST(ImportIdentityTest, LightningVersionsWithDifferentHparamsAreDifferentEntries) {
  TempDir dir;
  for (int v = 0; v < 4; ++v) {
    const fs::path folder = dir / ("cnn/lightning_logs/version_" + std::to_string(v));
    WriteFile(folder / "metrics.csv", "epoch,step,val_acc\n0,99,0.6\n1,199,0.8\n");
    WriteFile(folder / "hparams.yaml", std::string("optimizer:\n  name: sgd\n  lr: ") + (v < 2 ? "0.1" : "0.01") +
                                           "\nseed: " + std::to_string(v) + "\n");
  }
  const ImportResult r = ImportPath(dir / "cnn", 0.7);
  ASSERT_EQ(r.groups.size(), 2u) << r.grouping;
  EXPECT_EQ(r.groups[0].entry, "cnn optimizer.lr=0.1");
  EXPECT_EQ(r.groups[1].entry, "cnn optimizer.lr=0.01");
  EXPECT_EQ(r.groups[0].runs.size(), 2u);
  // --group-by NAME: by that key's values.
  const ImportResult by_key = ImportPath(dir / "cnn", 0.7, ParseGroupBy({"optimizer.name"}));
  ASSERT_EQ(by_key.groups.size(), 1u);
  EXPECT_EQ(by_key.groups[0].entry, "optimizer.name=sgd");
  EXPECT_TRUE(Has(by_key.warnings, "differ in the recorded hyperparameter optimizer.lr"));
}

// Item 3: a trainer_state.json logging eval_wer in percent (60 -> 20, Whisper's fine-tuning recipe) with
// --threshold 0.35 gave "0 of 1 runs reached" and no note.
TEST(ImportIdentityTest, AWerInPercentIsReadWithAFractionThresholdAndANote) {
  TempDir dir;
  WriteFile(dir / "whisper/trainer_state.json", R"({"global_step": 40, "max_steps": 40, "epoch": 4.0, "log_history": [
    {"epoch": 1.0, "eval_loss": 0.9, "eval_wer": 60.1, "step": 10},
    {"epoch": 2.0, "eval_loss": 0.7, "eval_wer": 41.3, "step": 20},
    {"epoch": 3.0, "eval_loss": 0.6, "eval_wer": 32.7, "step": 30},
    {"epoch": 4.0, "eval_loss": 0.5, "eval_wer": 20.4, "step": 40}]})");
  const ImportResult r = ImportPath(dir / "whisper", 0.35);
  ASSERT_EQ(r.groups.size(), 1u);
  const ImportedGroup& g = r.groups[0];
  EXPECT_EQ(g.details["metric_as_logged"], "eval_wer");
  EXPECT_EQ(g.converged, 1u);
  EXPECT_EQ(g.details["tta"], json({3.0}));
  EXPECT_EQ(*g.threshold, 35.0);
  EXPECT_EQ(*g.stored_threshold, -35.0);
  EXPECT_TRUE(Has(r.notes,
                  "--threshold 0.35 read as a fraction: eval_wer is in percent, so the target is eval_wer <= "
                  "35 %"));
  // The same WER as a fraction and a threshold typed in percent: the other way round.
  WriteFile(dir / "frac/trainer_state.json", R"({"log_history": [{"epoch": 1.0, "eval_wer": 0.6, "step": 10},
    {"epoch": 2.0, "eval_wer": 0.3, "step": 20}]})");
  const ImportResult f = ImportPath(dir / "frac", 35);
  EXPECT_EQ(*f.groups[0].threshold, 0.35);
  EXPECT_EQ(f.groups[0].details["tta"], json({2.0}));
}

std::string JsonlRun(const std::string& extra_header, const std::vector<double>& metric) {
  std::string text = "{\"type\":\"header\",\"entry\":\"mine\",\"metric\":\"val_top1\"" + extra_header + "}\n";
  for (std::size_t e = 0; e < metric.size(); ++e) {
    text += "{\"type\":\"eval\",\"epoch\":" + std::to_string(e + 1) +
            ",\"train_seconds\":" + std::to_string(10 * (e + 1)) + ",\"metric\":" + json(metric[e]).dump() + "}\n";
  }
  return text + "{\"type\":\"end\",\"status\":\"not_reached\",\"train_seconds\":40}\n";
}

// Item 3: a JSON Lines accuracy in percent (91.3) had every evaluation skipped and each run counted as a failed
// training run (NOT STABLE, hit rate 0%). It is an error naming the metric and "metric_range", and nothing is
// stored from it.
TEST(ImportIdentityTest, AJsonlLogWhollyOffItsDeclaredScaleIsAnErrorNotAFailedRun) {
  TempDir dir;
  WriteFile(dir / "runs/a.jsonl", JsonlRun("", {72.5, 88.0, 91.3}));
  WriteFile(dir / "runs/b.jsonl", JsonlRun("", {70.1, 86.0, 90.8}));
  const ImportResult r = ImportPath(dir / "runs", 0.9);
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_GE(r.framework_errors, 2u);  // the CLI stores nothing
  EXPECT_NE(r.errors[0].find("a.jsonl: every evaluation of val_top1 (3 of 3, the first 72.5) lies off its declared "
                             "scale, a fraction in [0, 1]; the header field \"metric_range\" declares the scale"),
            std::string::npos)
      << r.errors[0];
  EXPECT_NE(r.errors[0].find("write \"metric_range\": [0, 100]"), std::string::npos) << r.errors[0];
  EXPECT_TRUE(r.groups.empty());  // no entry, so no verdict, is made of them

  // Declared in percent: a threshold typed as a fraction is converted, with a note.
  WriteFile(dir / "pct/a.jsonl", JsonlRun(",\"metric_range\":[0,100]", {72.5, 88.0, 91.3}));
  const ImportResult p = ImportPath(dir / "pct", 0.9);
  ASSERT_TRUE(p.errors.empty()) << p.errors.front();
  ASSERT_EQ(p.groups.size(), 1u);
  EXPECT_EQ(*p.groups[0].threshold, 90.0);
  EXPECT_EQ(p.groups[0].converged, 1u);
  EXPECT_TRUE(Has(p.notes, "--threshold 0.9 read as a fraction: val_top1 is in percent"));
}

// Item 2 for JSON Lines logs that name no entry: a seed folder is not one.
TEST(ImportIdentityTest, JsonlLogsWithoutAnEntryAreFiledByTheirConfigFolderNotTheirSeedFolder) {
  TempDir dir;
  for (const char* config : {"baseline", "fast"}) {
    for (const char* seed : {"seed1", "seed2"}) {
      std::string text = JsonlRun("", {0.5, 0.95});
      text.replace(text.find("\"entry\":\"mine\","), std::string("\"entry\":\"mine\",").size(), "");
      WriteFile(dir / "logs" / config / seed / "run.jsonl", text);
    }
  }
  const ImportResult r = ImportPath(dir / "logs", 0.9);
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  ASSERT_EQ(r.groups.size(), 2u) << r.grouping;
  EXPECT_EQ(r.groups[0].entry, "baseline");
  EXPECT_EQ(r.groups[1].entry, "fast");
}

// A newcomer's two configs logged with the README's snippet, whose header names one entry for both ("mine", batch
// size 128 and 256 recorded as hyperparameters), in one flat folder. The import filed all six runs as one entry and
// warned "because --entry or --group-by asked for it (--group-by params keeps them apart)" though neither was given,
// --group-by params did not keep them apart, and --entry was ignored for them.
TEST(ImportIdentityTest, AHeaderNamedEntryYieldsToGroupByAndEntryAndSaysWhoNamedIt) {
  TempDir dir;
  for (const char* batch : {"128", "256"}) {
    for (int seed = 1; seed <= 3; ++seed) {
      const std::string hp =
          ",\"hyperparameters\":{\"batch_size\":" + std::string(batch) + ",\"seed\":" + std::to_string(seed) + "}";
      WriteFile(dir / "logs" / ("bs" + std::string(batch) + "-" + std::to_string(seed) + ".jsonl"),
                JsonlRun(hp, {0.5, 0.95}));
    }
  }
  const ImportResult as_named = ImportPath(dir / "logs", 0.9);
  ASSERT_TRUE(as_named.errors.empty()) << as_named.errors.front();
  ASSERT_EQ(as_named.groups.size(), 1u) << as_named.grouping;
  EXPECT_EQ(as_named.groups[0].entry, "mine");
  EXPECT_TRUE(Has(as_named.warnings, "because their headers' \"entry\" names it")) << as_named.warnings.front();
  EXPECT_FALSE(Has(as_named.warnings, "--entry or --group-by asked for it"));
  EXPECT_NE(as_named.grouping.find("mine"), std::string::npos) << as_named.grouping;

  const ImportResult by_params = ImportPath(dir / "logs", 0.9, GroupBy{GroupBy::Kind::kParams, {}});
  ASSERT_EQ(by_params.groups.size(), 2u) << by_params.grouping;
  EXPECT_EQ(by_params.groups[0].entry, "mine batch_size=128");
  EXPECT_EQ(by_params.groups[1].entry, "mine batch_size=256");
  EXPECT_EQ(by_params.groups[0].runs.size(), 3u);
  EXPECT_TRUE(by_params.warnings.empty()) << by_params.warnings.front();

  ImportOptions options;
  options.paths = {dir / "logs"};
  options.threshold = 0.9;
  options.entry = "fast";
  options.jobs = 1;
  const ImportResult forced = Import(options);
  ASSERT_EQ(forced.groups.size(), 1u) << forced.grouping;
  EXPECT_EQ(forced.groups[0].entry, "fast");
}

// Item 8: Ultralytics' results.csv (epochs from 1, a cumulative "time" column, metrics/mAP50(B)) was refused by
// --format auto as "not an MLPerf result log"; --format keras ignored its clock.
TEST(ImportIdentityTest, UltralyticsResultsCsvIsFoundAndReadOnItsClock) {
  TempDir dir;
  WriteFile(dir / "runs/detect/train/results.csv",
            "epoch,time,train/box_loss,train/cls_loss,train/dfl_loss,metrics/precision(B),metrics/recall(B),"
            "metrics/mAP50(B),metrics/mAP50-95(B),val/box_loss,val/cls_loss,val/dfl_loss,lr/pg0,lr/pg1,lr/pg2\n"
            "1,61.2,1.5,2.1,1.3,0.55,0.41,0.402,0.22,1.4,1.9,1.2,0.0033,0.0033,0.0033\n"
            "2,119.8,1.4,1.7,1.2,0.61,0.5,0.515,0.3,1.3,1.6,1.1,0.0064,0.0064,0.0064\n"
            "3,180.5,1.3,1.5,1.2,0.66,0.55,0.578,0.35,1.25,1.4,1.1,0.0093,0.0093,0.0093\n");
  // Named on the command line, as the issue's user did.
  const ImportResult r = ImportPath(dir / "runs/detect/train/results.csv", 0.5);
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  ASSERT_EQ(r.groups.size(), 1u);
  const ImportedGroup& g = r.groups[0];
  EXPECT_EQ(g.format, "epoch-csv");
  EXPECT_EQ(g.details["metric_as_logged"], "metrics/mAP50(B)");
  EXPECT_EQ(g.time_unit, "seconds");
  EXPECT_EQ(g.details["tta"], json({119.8}));
  EXPECT_DOUBLE_EQ(*g.runs[0].tta_minutes, 119.8 / 60);
  EXPECT_EQ(g.runs[0].log.points[1].epoch, 2.0);
  EXPECT_EQ(g.runs[0].log.train_seconds, 180.5);
  EXPECT_EQ(g.entry, "detect");  // Ultralytics' train, train2... are runs
}

// Item 8: YOLOv5's results.csv pads every field with spaces, counts epochs from 0 and has no clock.
TEST(ImportIdentityTest, YoloV5SpacePaddedResultsCsvIsReadInEpochs) {
  TempDir dir;
  auto pad = [](const std::string& s) { return std::string(20 - std::min<std::size_t>(20, s.size()), ' ') + s; };
  const std::vector<std::string> header = {
      "epoch",          "train/box_loss",  "train/obj_loss",       "metrics/precision",
      "metrics/recall", "metrics/mAP_0.5", "metrics/mAP_0.5:0.95", "x/lr0"};
  const std::vector<std::vector<std::string>> rows = {{"0", "0.1", "0.05", "0.3", "0.2", "0.21", "0.1", "0.07"},
                                                      {"1", "0.09", "0.04", "0.5", "0.4", "0.46", "0.25", "0.03"},
                                                      {"2", "0.08", "0.04", "0.6", "0.5", "0.55", "0.3", "0.01"}};
  auto line = [&](const std::vector<std::string>& cells) {
    std::string l;
    for (std::size_t i = 0; i < cells.size(); ++i) l += (i ? "," : "") + pad(cells[i]);
    return l + "\n";
  };
  std::string text = line(header);
  for (const auto& r : rows) text += line(r);
  WriteFile(dir / "yolov5/runs/train/exp2/results.csv", text);
  const ImportResult r = ImportPath(dir / "yolov5", 0.45);
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  ASSERT_EQ(r.groups.size(), 1u);
  const ImportedGroup& g = r.groups[0];
  EXPECT_EQ(g.details["metric_as_logged"], "metrics/mAP_0.5");
  EXPECT_EQ(g.time_unit, "epochs");
  EXPECT_EQ(g.details["tta"], json({2.0}));  // epoch 1 counted from 0: two epochs trained
  EXPECT_NE(g.description.find("no \"time\" column"), std::string::npos) << g.description;
}

// Item 8 on the held-out real logs (they were not looked at while the reader was written). Expected values from an
// independent reading with Python's csv module:
//   python3 -c "import csv; f='<file>'; rows=list(csv.DictReader(open(f)));
//     print(next((r['epoch'], r['time']) for r in rows if float(r['metrics/mAP50(B)']) >= 0.9), len(rows))"
//   -> ('26', '793.587') 50; YOLOv5 (fields stripped): metrics/mAP_0.5 0.61848, 0.71498, 0.74324 at epochs 0, 1, 2.
TEST(ImportIdentityTest, TheSharedYoloLogsAreReadAsTheirFormatsDescribe) {
  EVALSUITE_REQUIRE_SHARED_DATA(data);
  const fs::path other = data / "framework_logs/other";
  const ImportResult u =
      ImportPath(other / "AbishekEchno77__yolo26-nutrition-detector__runs__detect__train__results.csv", 0.9);
  ASSERT_TRUE(u.errors.empty()) << u.errors.front();
  ASSERT_EQ(u.groups.size(), 1u);
  EXPECT_EQ(u.groups[0].format, "epoch-csv");
  EXPECT_EQ(u.groups[0].details["metric_as_logged"], "metrics/mAP50(B)");
  EXPECT_EQ(u.groups[0].time_unit, "seconds");
  EXPECT_EQ(u.groups[0].details["evaluations"], json({50}));
  EXPECT_EQ(u.groups[0].details["tta"], json({793.587}));
  EXPECT_EQ(u.groups[0].runs[0].log.train_seconds, 1482.73);  // the time column at epoch 50
  const ImportResult v5 = ImportPath(other / "Grafit-Kil__helmet-detection-yolov5__runs__train__exp__results.csv", 0.7);
  ASSERT_TRUE(v5.errors.empty()) << v5.errors.front();
  ASSERT_EQ(v5.groups.size(), 1u);
  EXPECT_EQ(v5.groups[0].details["metric_as_logged"], "metrics/mAP_0.5");
  EXPECT_EQ(v5.groups[0].time_unit, "epochs");
  EXPECT_EQ(v5.groups[0].details["tta"], json({2.0}));  // 0.71498 at epoch 1, counted from 0
  EXPECT_EQ(v5.groups[0].details["evaluations"], json({3}));
}

// Item 8: a CSV that no reader places is told apart from an MLPerf log.
TEST(ImportIdentityTest, ACsvNoReaderPlacesSaysSoAndIsNotCalledAnMlperfLog) {
  TempDir dir;
  WriteFile(dir / "table.csv", "name,score\na,1\n");
  const ImportResult r = ImportPath(dir / "table.csv", 0.5);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].find("MLPerf"), std::string::npos) << r.errors[0];
  EXPECT_NE(r.errors[0].find("table.csv:1: a CSV evalsuite cannot place: its header (\"name,score\") names no "
                             "\"epoch\" column"),
            std::string::npos)
      << r.errors[0];
}

}  // namespace
}  // namespace evalsuite::importer
