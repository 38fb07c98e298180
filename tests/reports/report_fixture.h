// A small synthetic report input with known answers, shared by the reports tests:
//   "fast":  5 counted runs with TTA 100, 110, 120, 105 s and one that stops at 0.88 after 150 s, plus an
//            incomplete run (not counted); target val_top1 >= 0.9, extra threshold 0.85.
//   "slow":  10 runs reaching the target at 197..203 s (stable under the default rule).
//   "never": 2 runs that stop below the target (every TTA statistic is null).
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reports/report_input.h"

namespace evalsuite::reports::testing {

// Whether a rendered report holds `part` verbatim.
inline bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A run that reaches `target` first at time `tta` (evaluations every 5 s, metric rising linearly to just below
// the target, then 0.91 at tta) and stops there.
inline analysis::Run ReachingRun(int index, double tta) {
  analysis::Run run;
  run.index = index;
  run.seeds = analysis::RunSeedsFromJson({{"run", index}, {"init", 1000 + index}, {"data_order", 2000 + index}});
  run.status = analysis::RunStatus::kReached;
  for (double t = 5; t < tta; t += 5) run.points.push_back({t, 0.5 + 0.39 * t / tta});
  run.points.push_back({tta, 0.91});
  run.time_spent = tta;
  run.wall_seconds = tta * 1.2;
  run.threads = 1;
  return run;
}

// A run that never reaches 0.89: metric rises to 0.88 at time `end`.
inline analysis::Run FailingRun(int index, double end, analysis::RunStatus status = analysis::RunStatus::kNotReached) {
  analysis::Run run;
  run.index = index;
  // As evalsuite train records them: the seeds and a prose note on how they derive (kept out of the table).
  run.seeds = analysis::RunSeedsFromJson(
      {{"run", index}, {"init", 1000 + index}, {"data_order", 2000 + index}, {"derivation", "SplitMix64"}});
  run.status = status;
  for (double t = 5; t <= end; t += 5) run.points.push_back({t, 0.5 + 0.38 * t / end});
  run.time_spent = end;
  run.wall_seconds = end * 1.2;
  run.threads = 1;
  return run;
}

// A variance design's entry ("design"): init and data order at 3 seeds each, crossed, 2 runs per combination, the
// augmentation seed held; ln TTA = ln 100 + 0.04 x init level - 0.03 x data level^2 + 0.004 x repeat.
inline analysis::Entry VarianceDesignEntry() {
  analysis::Entry entry;
  entry.name = "design";
  entry.metric = "val_top1";
  entry.threshold = 0.9;
  int index = 0;
  for (int i = 0; i < 3; ++i) {
    for (int d = 0; d < 3; ++d) {
      for (int r = 0; r < 2; ++r) {
        analysis::Run run = ReachingRun(index, 100 * std::exp(0.04 * i - 0.03 * d * d + 0.004 * r));
        run.seeds.init = 10 + i;
        run.seeds.data_order = 20 + d;
        run.seeds.augmentation = 30;
        entry.runs.push_back(run);
        ++index;
      }
    }
  }
  return entry;
}

inline nlohmann::json GeneralizationSection(const std::string& model_name = "fast-run0") {
  using nlohmann::json;
  json models = json::array();
  models.push_back({{"name", "resnet18-pretrained"},
                    {"group", "pretrained"},
                    {"evaluated", 2864},
                    {"uncovered", 0},
                    {"top1", {{"correct", 2664}, {"accuracy", 0.930168}, {"lower", 0.920212}, {"upper", 0.939233}}},
                    {"top5", {{"correct", 2830}, {"accuracy", 0.988128}, {"lower", 0.98342}, {"upper", 0.99178}}},
                    {"validation_accuracy", 0.95},
                    {"gap", 0.019832},
                    {"per_class", json::array()}});
  models.push_back({{"name", model_name},
                    {"group", "tta-optimized"},
                    {"evaluated", 2864},
                    {"uncovered", 0},
                    {"top1", {{"correct", 2656}, {"accuracy", 0.927374}, {"lower", 0.917245}, {"upper", 0.936649}}},
                    {"top5", {{"correct", 2826}, {"accuracy", 0.986732}, {"lower", 0.98177}, {"upper", 0.99065}}},
                    {"validation_accuracy", nullptr},
                    {"gap", nullptr},
                    {"per_class", json::array()}});
  models.push_back({{"name", "fast-run1"},
                    {"group", "tta-optimized"},
                    {"evaluated", 2864},
                    {"uncovered", 0},
                    {"top1", {{"correct", 2600}, {"accuracy", 0.907821}, {"lower", 0.896784}, {"upper", 0.918069}}},
                    {"top5", {{"correct", 2810}, {"accuracy", 0.981145}, {"lower", 0.97549}, {"upper", 0.98585}}},
                    {"validation_accuracy", 0.93},
                    {"gap", 0.022179},
                    {"per_class", json::array()}});
  json pairs = json::array();
  pairs.push_back({{"a", "resnet18-pretrained"},
                   {"b", model_name},
                   {"metric", "top1"},
                   {"n", 2864},
                   {"only_a", 12},
                   {"only_b", 4},
                   {"p_value", 0.076813},
                   {"p_holm", 0.230439},  // as if one of three pairs: min(1, 3 * 0.076813)
                   {"difference", 0.002793},
                   {"lower", -0.00031},
                   {"upper", 0.00601}});
  json groups = json::array();
  groups.push_back({{"group", "pretrained"}, {"models", 1}, {"mean_top1", 0.930168}, {"mean_top5", 0.988128}});
  groups.push_back({{"group", "tta-optimized"}, {"models", 2}, {"mean_top1", 0.917598}, {"mean_top5", 0.983939}});
  json image_set = {{"image_set", "flickr-holdout"},
                    {"holdout_version", "3f2a9c0d5e6b7a8190aabbccddeeff00"},
                    {"images", 2866},
                    {"unreadable", 2},
                    {"failures",
                     {{{"path", "img/broken.jpg"}, {"reason", "truncated JPEG"}},
                      {{"path", "img/huge.png"}, {"reason", "over the pixel limit"}}}},
                    {"models", models},
                    {"pairs", pairs},
                    {"groups", groups},
                    {"verdict",
                     {{"generalizes", true},
                      {"statement", "TTA-optimized models are within 1.3 points of the pretrained ones"},
                      {"test", "exact McNemar, pooled over the group's models, p = 0.0768"}}}};
  return json::array({image_set});
}

inline StabilityReportInput SyntheticInput(const std::string& fast_name = "fast") {
  StabilityReportInput input;
  input.title = "synthetic stability study";
  input.environment = {{"host", "testhost"}, {"cores", 2}, {"libraries", {{"fmt", "9.1.0"}}}};
  input.plan = {{"runs_per_entry", 5}, {"base_seed", 42}, {"threshold", 0.9}};

  analysis::Entry fast;
  fast.name = fast_name;
  fast.description = "a fast recipe";
  fast.threshold = 0.9;
  fast.extra_thresholds = {0.85};
  for (double tta : {100.0, 110.0, 120.0, 105.0}) fast.runs.push_back(ReachingRun(int(fast.runs.size()), tta));
  fast.runs.push_back(FailingRun(4, 150));
  fast.runs.back().error = "";
  analysis::Run interrupted = FailingRun(5, 40, analysis::RunStatus::kInterrupted);
  fast.runs.push_back(interrupted);
  input.entries.push_back(fast);

  analysis::Entry slow;
  slow.name = "slow";
  slow.threshold = 0.9;
  for (double tta : {200.0, 202.0, 198.0, 201.0, 199.0, 203.0, 197.0, 200.0, 201.0, 199.0}) {
    slow.runs.push_back(ReachingRun(int(slow.runs.size()), tta));
  }
  input.entries.push_back(slow);

  analysis::Entry never;
  never.name = "never";
  never.threshold = 0.9;
  never.runs.push_back(FailingRun(0, 60));
  never.runs.push_back(FailingRun(1, 80, analysis::RunStatus::kFailed));
  never.runs.back().error = "exit status 134 (SIGABRT) | last stderr: out of memory";
  input.entries.push_back(never);
  return input;
}

}  // namespace evalsuite::reports::testing
