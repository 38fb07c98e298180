// evalsuite export STORE --out DIR [--study S]...
// The store's runs and evaluations as tidy CSV (reports/tidy_csv.h): DIR/runs.csv (one row per attempt) and
// DIR/evaluations.csv (one row per evaluation), every row with its study and entry, for pandas or R. Every study of
// the store unless --study names some.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/atomic_file.h"
#include "common/error.h"
#include "evalsuite/cli/commands.h"
#include "reports/tidy_csv.h"
#include "store/analysis_entries.h"
#include "store/run_store.h"
#include "store/study_choice.h"
#include "study/plans/stored_plan.h"

namespace evalsuite::cli {
namespace {

namespace fs = std::filesystem;

struct ExportArgs {
  std::string store, out;
  std::vector<std::string> studies;
};

void Run(const ExportArgs& args) {
  auto store = store::RunStore::OpenForReading(args.store);
  std::vector<store::StudyInfo> chosen;
  if (args.studies.empty()) {
    chosen = store->ListStudies();
    if (chosen.empty()) throw UsageError(args.store, "the store holds no study yet");
  } else {
    for (const std::string& s : args.studies) chosen.push_back(store::ChooseStudy(*store, s, args.store));
  }
  std::vector<reports::TidyStudy> tidy;
  std::size_t runs = 0;
  for (const store::StudyInfo& study : chosen) {
    reports::TidyStudy t;
    t.name = study.name;
    t.kind = study.kind;
    t.entries = store::LoadAnalysisEntries(*store, study);
    // Imports have no [stability] table: their plan gives the default rule, as the report reads them.
    t.consecutive_evaluations = study::DecodeStoredPlan(study.plan).Settings().rule.consecutive_evaluations;
    for (const auto& e : t.entries) runs += e.runs.size();
    tidy.push_back(std::move(t));
  }
  std::error_code ec;
  fs::create_directories(args.out, ec);
  if (ec) throw IoError(args.out, "cannot create the folder: " + ec.message());
  const fs::path runs_file = fs::path(args.out) / "runs.csv", evaluations_file = fs::path(args.out) / "evaluations.csv";
  WriteFilesAtomically({{runs_file, reports::RunsCsv(tidy)}, {evaluations_file, reports::EvaluationsCsv(tidy)}});
  std::cout << "exported " << runs << " attempt(s) of " << chosen.size() << " study(ies): " << runs_file.string()
            << ", " << evaluations_file.string() << "\n";
}

}  // namespace

void RegisterExportCommand(CLI::App& app) {
  auto args = std::make_shared<ExportArgs>();
  CLI::App* command = app.add_subcommand(
      "export",
      "Runs and evaluations as tidy CSV for pandas or R (runs.csv, evaluations.csv), with their study, "
      "entry and origin");
  command->add_option("STORE", args->store, "the run store (SQLite)")->required();
  command->add_option("--out", args->out, "the folder to write runs.csv and evaluations.csv into")->required();
  command->add_option("--study", args->studies, "a study to export, by name or id (repeatable; default: every study)");
  command->callback([args] { Run(*args); });
}

}  // namespace evalsuite::cli
