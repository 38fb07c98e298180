// Fuzz target: the invariants every run-log format keeps once read (runlog/run_log_checks.h), on random
// logs of each format. The input's first byte picks the format (JSON Lines, DAWNBench TSV, regex-read stdout, MLPerf;
// or, when its value mod 8 is 5 to 7, several JSON Lines runs of several entries, split at 0x1E bytes, in three
// folders); the rest is the log. Whatever the bytes: no evaluation with a negative or non-finite time, no metric
// outside the format's declared scale, times and epochs in order (MLPerf's as logged), no negative or non-finite TTA
// at any threshold and none past the run's own end, reached <= runs; and every run of a multi-entry input in exactly
// one entry, the one its header names (else its folder's), never another run's.
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/run_counting.h"
#include "common/error.h"
#include "runlog/dawnbench_log.h"
#include "runlog/jsonl_run_log.h"
#include "runlog/mlperf_log.h"
#include "runlog/regex_log.h"
#include "runlog/run_log_checks.h"
#include "stats/curve.h"
#include "stats/stability.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using evalsuite::runlog::MetricScale;
using evalsuite::runlog::RunLog;

void Require(bool condition) {
  if (!condition) __builtin_trap();
}

void CheckInvariants(const RunLog& log, const std::optional<MetricScale>& scale, bool in_order = true) {
  for (const auto& p : log.points) {
    Require(std::isfinite(p.train_seconds) && p.train_seconds >= 0);
    Require(std::isfinite(p.wall_seconds) && p.wall_seconds >= 0);
    Require(std::isfinite(p.epoch) && p.epoch >= 0);
    Require(std::isfinite(p.metric));
    if (scale) Require(p.metric >= scale->low && p.metric <= scale->high);
  }
  for (std::size_t i = 1; in_order && i < log.points.size(); ++i) {
    Require(log.points[i].train_seconds >= log.points[i - 1].train_seconds);
    Require(log.points[i].epoch >= log.points[i - 1].epoch);
  }
  Require(std::isfinite(log.train_seconds) && log.train_seconds >= 0);
  evalsuite::analysis::Run run;  // the run's curve as analysis builds it (analysis/run_counting.h)
  for (const auto& p : log.points) run.points.push_back({p.train_seconds, p.metric});
  run.time_spent = log.train_seconds;
  const evalsuite::stats::RunCurve curve = evalsuite::analysis::TimeCurveOf(run);
  std::vector<double> thresholds = {0, 0.5, 0.94, 1};
  for (const auto& p : log.points) thresholds.push_back(p.metric);
  for (double threshold : thresholds) {
    if (const std::optional<double> tta = evalsuite::stats::TimeToTarget(curve.points, threshold)) {
      Require(std::isfinite(*tta) && *tta >= 0);
      Require(*tta <= log.train_seconds);  // TTA lies within the run's own time span
    }
    const evalsuite::stats::StabilityStats s = evalsuite::stats::AnalyzeStability({curve, curve, curve}, threshold);
    Require(s.reached <= s.runs);
    for (const auto& tta : s.tta) Require(!tta || (std::isfinite(*tta) && *tta >= 0));
  }
}

// Several JSON Lines runs, split at 0x1E, in folders d0, d1, d2: grouped by runlog::GroupRunsByEntry over
// runlog::EntryOfRun, as the importer groups them.
void CheckMultiEntry(const std::string& text) {
  std::vector<std::string> chunks(1);
  for (char c : text) {
    if (c == '\x1e' && chunks.size() < 16) {
      chunks.emplace_back();
    } else {
      chunks.back() += c;
    }
  }
  std::vector<RunLog> logs;
  std::vector<evalsuite::runlog::RunEntryName> names;
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    const std::string file = "fuzz/d" + std::to_string(k % 3) + "/r" + std::to_string(k) + ".jsonl";
    logs.push_back(evalsuite::runlog::ParseJsonlRunLog(chunks[k], file));
    CheckInvariants(logs.back(), evalsuite::runlog::DeclaredMetricScale(logs.back().header, file, nullptr));
    names.push_back(evalsuite::runlog::EntryOfRun(logs.back().header, file));
  }
  std::set<std::size_t> seen;
  std::set<std::string> entries;
  for (const evalsuite::runlog::EntryGroup& group : evalsuite::runlog::GroupRunsByEntry(names)) {
    Require(!group.runs.empty());
    Require(entries.insert(group.entry).second);  // one group per entry
    for (std::size_t k : group.runs) {
      Require(k < logs.size() && seen.insert(k).second);  // every run in exactly one group
      const auto named = logs[k].header.find("entry");
      if (named != logs[k].header.end() && named->is_string() && !named->get<std::string>().empty()) {
        Require(group.entry == named->get<std::string>());  // the entry its header names
      } else {
        Require(group.entry == "d" + std::to_string(k % 3));  // else its folder's, never another run's
      }
    }
  }
  Require(seen.size() == logs.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text = evalsuite::fuzz::Text(data + 1, size - 1);
  try {
    if (data[0] % 8 >= 5) {
      CheckMultiEntry(text);
      return 0;
    }
    switch (data[0] % 4) {
      case 0: {
        const RunLog log = evalsuite::runlog::ParseJsonlRunLog(text, "fuzz.jsonl");
        CheckInvariants(log, evalsuite::runlog::DeclaredMetricScale(log.header, "fuzz.jsonl", nullptr));
        break;
      }
      case 1: {
        const evalsuite::runlog::DawnbenchEntry entry = evalsuite::runlog::ParseDawnbenchTsv(text, "fuzz.tsv");
        CheckInvariants(evalsuite::runlog::ToRunLog(entry, "top1Accuracy", 94, 0.01),
                        evalsuite::runlog::FractionScale());
        CheckInvariants(evalsuite::runlog::ToRunLog(entry, "f1Score", 0.73, 1), evalsuite::runlog::FractionScale());
        break;
      }
      case 2: {
        evalsuite::runlog::RegexLogOptions options;
        options.patterns = {R"((?:Epoch|epoch)[: =]+(?<epoch>\S+).*?acc(?:uracy)?[: =]+(?<accuracy>\S+))",
                            R"(time[: =]+(?<time>\S+))"};
        for (const char* unit : {"fraction", "percent"}) {
          options.metric_unit = unit;
          CheckInvariants(evalsuite::runlog::RegexLogReader(options).Parse(text, "fuzz.txt"),
                          evalsuite::runlog::FractionScale());
        }
        break;
      }
      case 3: {
        const evalsuite::runlog::MlperfRun run = evalsuite::runlog::ParseMlperfLog(text, "fuzz.txt");
        CheckInvariants(evalsuite::runlog::ToRunLog(run,
                                                    [](const evalsuite::runlog::MlperfEval& e) {
                                                      return e.value.is_number() ? e.value.get<double>() : std::nan("");
                                                    }),
                        std::nullopt, /*in_order=*/false);  // MLPerf keeps its evaluations as logged
        break;
      }
    }
  } catch (const evalsuite::Error&) {
    // A refused file (a TSV without "hours") is a clear error, not a run.
  }
  return 0;
}
