// evalsuite audit STORE [--study S]... [--benchmark B]... [--seed N] [--draws N] [--json FILE]
// The auditor's view of imported MLPerf Training submissions: rerun ranges, rankings within noise, selection
// checks (analysis/mlperf_audit.h), read from the store (importer/mlperf_audit_inputs.h) and printed
// (reports/mlperf_audit_text.h). Every import study of the store unless --study names some.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/mlperf_audit.h"
#include "analysis/mlperf_facts.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/option_checks.h"
#include "importer/mlperf_audit_inputs.h"
#include "reports/mlperf_audit_text.h"
#include "store/run_store.h"
#include "store/study_choice.h"

namespace evalsuite::cli {
namespace {

struct AuditArgs {
  std::string store, json_out;
  std::vector<std::string> studies, benchmarks;
  std::uint64_t seed = 1;
  std::size_t draws = 10000;
};

void RunAudit(const AuditArgs& args) {
  const auto start = std::chrono::steady_clock::now();
  auto store = store::RunStore::OpenForReading(args.store);
  std::vector<store::StudyInfo> chosen;
  if (args.studies.empty()) {
    for (const store::StudyInfo& s : store->ListStudies()) {
      if (s.kind == "import") chosen.push_back(s);
    }
  } else {
    for (const std::string& s : args.studies) {
      chosen.push_back(store::ChooseStudy(*store, s, args.store, {.kind = "import"}));
    }
  }
  // One input per submission folder: a folder imported twice counts once, from the latest import.
  std::map<std::string, analysis::AuditInput> by_source;
  importer::AuditRcpFiles rcp_files;
  for (const store::StudyInfo& study : chosen) {
    for (const store::EntryRecord& entry : store->LoadEntries(study.id)) {
      if (entry.source != "mlperf") continue;
      const analysis::MlperfFacts facts = analysis::MlperfFactsFromJson(entry.extra);  // the one decode
      const std::string benchmark = facts.stored ? facts.stored->benchmark.value_or("") : std::string();
      if (!args.benchmarks.empty() &&
          std::find(args.benchmarks.begin(), args.benchmarks.end(), benchmark) == args.benchmarks.end()) {
        continue;
      }
      analysis::AuditInput input = importer::AuditInputOf(facts, rcp_files);
      by_source.insert_or_assign(input.submission.source, std::move(input));
    }
  }
  if (by_source.empty()) {
    throw UsageError(args.store, args.benchmarks.empty()
                                     ? "holds no imported MLPerf submission: import a round first "
                                       "(evalsuite import training_results_v4.0 --store " +
                                           args.store + ")"
                                     : "holds no imported MLPerf submission of the benchmark(s) named by --benchmark");
  }
  std::vector<analysis::AuditInput> inputs;
  for (auto& [source, input] : by_source) inputs.push_back(std::move(input));
  analysis::AuditSettings settings;
  settings.rerun.seed = args.seed;
  settings.rerun.draws = args.draws;
  settings.selection.seed = args.seed;
  const analysis::AuditReport report = analysis::AuditSubmissions(std::move(inputs), settings);
  std::cout << reports::AuditText(report);
  if (!args.json_out.empty()) WriteFileAtomically(args.json_out, reports::AuditJson(report).dump(2) + "\n");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << fmt::format("audit took {:.2f} s\n", seconds);
}

}  // namespace

void RegisterAuditCommand(CLI::App& app) {
  auto args = std::make_shared<AuditArgs>();
  CLI::App* command = app.add_subcommand(
      "audit",
      "The auditor's view of imported MLPerf results: each score's rerun range, which rankings are within "
      "noise, and whose runs look selected");
  command->add_option("STORE", args->store, "the run store holding imported MLPerf runs (SQLite)")->required();
  command->add_option("--study", args->studies,
                      "an import study to audit, by name or id (repeatable; default: every "
                      "import study)");
  command->add_option("--benchmark", args->benchmarks, "audit only this benchmark (repeatable)");
  command->add_option("--seed", args->seed, "the simulations' seed (same seed, same figures)")->check(SeedNumber());
  command->add_option("--draws", args->draws, "simulated reruns per submission (default 10000)")
      ->check(WholeNumber(100, 10000000));
  command->add_option("--json", args->json_out, "write the audit as JSON to this file");
  command->callback([args] { RunAudit(*args); });
}

}  // namespace evalsuite::cli
