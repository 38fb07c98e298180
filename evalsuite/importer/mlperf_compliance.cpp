#include "evalsuite/importer/mlperf_compliance.h"

#include <fmt/format.h>

#include <map>

namespace evalsuite::importer {

std::string ComplianceFinding::Where() const { return line > 0 ? file + ":" + std::to_string(line) : file; }

std::vector<ComplianceFinding> CheckRunCompliance(const runlog::MlperfRun& run, const BenchmarkRule* rule) {
  std::vector<ComplianceFinding> findings;
  auto add = [&](long line, const char* kind, std::string message, bool drops) {
    findings.push_back({run.source, line, kind, std::move(message), drops});
  };
  if (run.records == 0) return findings;  // not an MLPerf log at all: the parser said so
  if (!run.run_start_ms) add(0, "required_key", "no run_start: the run has no start", true);
  if (!run.run_stop_ms) add(0, "required_key", "no run_stop: the run did not finish", true);
  if (run.run_start_ms && run.run_stop_ms &&
      (*run.run_stop_ms < *run.run_start_ms || run.run_stop_line < run.run_start_line)) {
    add(run.run_stop_line, "order", fmt::format("run_stop comes before run_start (line {})", run.run_start_line),
        true);
  }
  if (run.format == runlog::MlperfLogFormat::kV07) {
    if (run.benchmark.empty()) add(0, "required_key", "no submission_benchmark", false);
    if (!run.submission.contains("submission_division")) add(0, "required_key", "no submission_division", false);
    if (!run.global_batch_size) add(0, "required_key", "no global_batch_size", false);
  }
  if (!run.seed) add(0, "seed", "no seed logged", false);
  if (run.Succeeded()) {
    if (run.evals.empty()) {
      add(run.run_stop_line, "required_key", "run_stop says success but no eval_accuracy is logged", true);
    } else if (rule != nullptr && rule->target) {
      bool reached = false;
      for (const runlog::MlperfEval& e : run.evals) reached = reached || MeetsTarget(*rule, e);
      if (!reached) {
        add(run.run_stop_line, "target",
            fmt::format("{} but no evaluation reaches the target ({} {} {})",
                        run.stop_status_assumed ? "run_stop without a status (v0.5)" : "run_stop says success",
                        rule->metric, rule->lower_is_better ? "<=" : ">=", *rule->target),
            true);
      }
    }
  }
  return findings;
}

std::vector<ComplianceFinding> CheckSeedsDistinct(const std::vector<const runlog::MlperfRun*>& runs) {
  std::vector<ComplianceFinding> findings;
  std::map<std::string, const runlog::MlperfRun*> first;
  for (const runlog::MlperfRun* run : runs) {
    if (!run->seed) continue;
    const std::string key = run->seed->dump();
    auto [it, inserted] = first.emplace(key, run);
    if (!inserted) {
      findings.push_back({run->source, run->seed_line, "seed",
                          fmt::format("seed {} was logged by {}:{} already: seeds must differ between runs", key,
                                      it->second->source, it->second->seed_line),
                          false});
    }
  }
  return findings;
}

}  // namespace evalsuite::importer
