// evalsuite study run STUDY.toml [--runs N] [--jobs J] [--threads T] [--seed S] [--epochs E] [--train-subset N]
//                                [--name NAME] [--store FILE] [--out DIR] [--report DIR] [--progress MODE]
//                                [--machine-ceilings measure|skip|FILE]
// evalsuite study resume [STUDY] [--store FILE] [--jobs J] [--report DIR] [--progress MODE]
// evalsuite study cancel [STUDY] [--store FILE]     (Slurm: scancel the study's arrays)
// evalsuite study slurm-task MANIFEST                 (hidden: the body of one Slurm array task)
// evalsuite study list [--store FILE]
// evalsuite study show [STUDY] [--store FILE]
// The store defaults to evalsuite.db in the current folder, run folders to evalsuite-runs/<study>/.
// Exit: 0 every planned run is recorded (failed runs are results, shown by `study show`); 1 stopped, a bad study
// file (the message names its line and key) or an I/O error; 2 usage.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/exit_codes.h"
#include "common/slow_step_notice.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/option_checks.h"
#include "evalsuite/cli/light/own_binary.h"
#include "evalsuite/cli/light/test_hooks.h"
#include "reports/report.h"
#include "store/study_choice.h"
#include "study/execution/slurm_executor.h"
#include "study/execution/slurm_task.h"
#include "study/plans/stored_plan.h"
#include "study/plans/study_plan.h"
#include "study/plans/study_plan_loader.h"
#include "study/study_runner.h"
#include "study/study_summary.h"

namespace evalsuite::cli {
namespace {
namespace fs = std::filesystem;

struct StudyArgs {
  bool no_onednn_isa_cap = false;
  std::string study_file;
  std::string study;  // resume/show: name or id
  std::string store = study::kDefaultStoreFile;
  std::string out;
  std::string report;
  std::string progress = "auto";
  std::string name;
  std::string executor;
  std::string manifest;
  std::string devices;
  std::string machine_ceilings;
  std::optional<int> runs, jobs, threads, epochs, train_subset;
  std::optional<uint64_t> seed;
};

std::unique_ptr<study::ProgressReporter> MakeProgress(const std::string& mode) {
  if (mode == "none") return study::MakeSilentProgress();
  bool terminal = mode == "live" || (mode == "auto" && isatty(STDERR_FILENO));
  return study::MakeProgressReporter(std::cerr, terminal);
}

void WriteStudyReport(const std::string& store_file, const std::string& study_name, const std::string& out_dir) {
  auto store = store::RunStore::OpenForReading(store_file);
  store::StudyInfo info = store::ChooseStudy(*store, study_name, store_file);
  SlowStepNotice notice(std::cerr, "report");
  const reports::StabilityReportInput input = study::BuildReportInput(*store, {info});
  reports::ReportModel model =
      reports::BuildStabilityReport(input, [&](const std::string& step) { notice.Step(step); });
  notice.Step("writing the report files");
  reports::WriteReport(model, reports::RunPointsJsonLines(input), out_dir);
  std::cout << "report: " << (fs::path(out_dir) / "report.html").string() << " (and report.json, report.md)\n";
}

void Finish(const study::StudyOutcome& outcome, const StudyArgs& args) {
  if (outcome.ceilings) std::cout << study::DescribeCeilings(*outcome.ceilings) << "\n";
  std::cout << "study " << outcome.name << ": " << outcome.finished_before + outcome.ingested_on_resume + outcome.ran
            << " of " << outcome.planned << " runs recorded in " << args.store << " (" << outcome.ran << " now, "
            << outcome.failed << " of them failed";
  if (outcome.did_not_run > 0) {
    std::cout << ", " << outcome.did_not_run << " did not run: no evaluation that could be read, see below";
  }
  if (outcome.ingested_on_resume > 0) {
    std::cout << ", " << outcome.ingested_on_resume << " finished before the last stop and recorded now";
  }
  if (outcome.interrupted_kept > 0) std::cout << ", " << outcome.interrupted_kept << " interrupted attempt(s) kept";
  std::cout << ")\n";
  if (!outcome.plan_change.empty()) {
    std::cout << "note: the study continues under its changed plan (" << outcome.plan_change
              << "); every recorded run was made as this plan makes it and is kept\n";
  }
  if (outcome.adopted_from_other_studies > 0) {
    std::cout << "note: " << outcome.adopted_from_other_studies << " run folder(s) were made for "
              << outcome.adopted_from
              << " by the same plan (the same command or recipe, settings and seeds) and were adopted; give --out a "
                 "fresh folder to run them again instead\n";
  }
  if (outcome.sequential) {
    std::cout << "sequential study: " << (outcome.sequential->stop ? outcome.sequential->result + ": " : "")
              << outcome.sequential->reason << "\n";
  }
  if (outcome.stopped) {
    throw ExternalError("study " + outcome.name, "stopped before all runs ran; continue with: evalsuite study resume " +
                                                     outcome.name + " --store " + args.store);
  }
  auto store = store::RunStore::OpenForReading(args.store);
  std::cout << "\n" << study::FormatStudySummary(*store, *store->FindStudy(outcome.name));
  // Done, but some runs failed or did not run: scripts can tell that from a clean study.
  if (outcome.failed > 0 || outcome.did_not_run > 0) SetExitCode(kExitSomeFailed);
  if (!args.report.empty()) {
    WriteStudyReport(args.store, outcome.name, args.report);
  } else {
    std::cout << "\nreport: evalsuite report " << args.store << " --study " << outcome.name << " --out DIR\n";
  }
}

study::StudyRunOptions RunOptions(const StudyArgs& args, study::ProgressReporter* progress,
                                  const study::StopOnSignals& signals) {
  study::StudyRunOptions options;
  options.store_file = args.store;
  options.evalsuite_binary = OwnBinary();
  options.progress = progress;
  options.stop = signals.flag();
  options.before_commit = BeforeCommitHook();
  // The probe needs LibTorch: the front binary hands `machine` to evalsuite-full, in a child of its own.
  const fs::path binary = options.evalsuite_binary;
  options.measure_ceilings = [binary](const study::StudyPlan& plan) {
    return study::MeasureCeilingsInChild(binary, plan, plan.out_dir);
  };
  return options;
}

void AddProgressOption(CLI::App* cmd, StudyArgs& args) {
  cmd->add_option("--progress", args.progress, "auto (live line on a terminal), live, plain or none")
      ->check(CLI::IsMember({"auto", "live", "plain", "none"}));
}

}  // namespace

void RegisterStudyCommand(CLI::App& app) {
  auto args = std::make_shared<StudyArgs>();
  CLI::App* study = app.add_subcommand("study", "Stability studies: rerun entries with different seeds");
  study->require_subcommand(1);

  CLI::App* run = study->add_subcommand("run", "Run a study file (continues it when the same study is in the store)");
  run->add_option("STUDY", args->study_file, "the study's TOML file (see studies/)")->required();
  run->add_option("--runs", args->runs, "runs per entry")->check(WholeNumber(1, study::kMaxRuns));
  run->add_option("--jobs", args->jobs, "runs at once")->check(WholeNumber(1, study::kMaxJobs));
  run->add_option("--threads", args->threads,
                  "threads per run (default: cores / jobs, so that concurrent runs do not compete for cores)")
      ->check(WholeNumber(1, study::kMaxThreads));
  run->add_option("--seed", args->seed, "the study's base seed")->check(SeedNumber());
  run->add_option("--epochs", args->epochs, "epoch budget of every entry")->check(WholeNumber(1, study::kMaxEpochs));
  run->add_option("--train-subset", args->train_subset, "train on the first N images")
      ->check(WholeNumber(1, study::kMaxTrainSubset));
  run->add_option("--name", args->name, "study name (default: the file's)");
  run->add_option("--store", args->store, "the run store (SQLite)")->capture_default_str();
  run->add_option("--out", args->out, "folder for the runs' logs (default: evalsuite-runs/<study>)");
  run->add_option("--report", args->report, "write report.json/md/html into this folder when done");
  run->add_option("--executor", args->executor, "where runs execute: local (default) or slurm (plan key executor)")
      ->check(CLI::IsMember({"local", "slurm"}));
  run->add_option("--devices", args->devices,
                  "accelerators to share out, e.g. 0,1,2,3 (plan key devices; devices_per_run each)");
  run->add_flag("--no-onednn-isa-cap", args->no_onednn_isa_cap,
                "runs get none of evalsuite's oneDNN ISA cap (plan key onednn_isa_cap = false)");
  run->add_option("--machine-ceilings", args->machine_ceilings,
                  "measure (default: a few seconds at the start, once per study), skip, or FILE from `evalsuite "
                  "machine --json` (plan key machine_ceilings; default from $EVALSUITE_MACHINE_CEILINGS)");
  AddProgressOption(run, *args);
  run->callback([args] {
    study::PlanOverrides overrides;
    if (!args->name.empty()) overrides.name = args->name;
    overrides.runs = args->runs;
    overrides.jobs = args->jobs;
    overrides.threads = args->threads;
    overrides.seed = args->seed;
    overrides.epochs = args->epochs;
    overrides.train_subset = args->train_subset;
    if (!args->out.empty()) overrides.out_dir = args->out;
    if (args->no_onednn_isa_cap) overrides.onednn_isa_cap = false;
    if (!args->executor.empty()) overrides.executor = args->executor;
    auto ceilings_choice = [](const std::string& value) {
      return value == study::kMeasureCeilings || value == study::kSkipCeilings ? value : fs::absolute(value).string();
    };
    if (!args->machine_ceilings.empty()) overrides.machine_ceilings = ceilings_choice(args->machine_ceilings);
    if (const char* by_default = std::getenv(study::kCeilingsDefaultVariable); by_default && *by_default) {
      overrides.machine_ceilings_default = ceilings_choice(by_default);
    }
    if (!args->devices.empty()) {
      std::vector<std::string> devices;
      std::stringstream list(args->devices);
      for (std::string id; std::getline(list, id, ',');) {
        if (id.empty()) throw UsageError("--devices", "'" + args->devices + "': an empty device id");
        devices.push_back(id);
      }
      overrides.devices = devices;
    }
    study::StudyPlan plan = study::LoadStudyPlan(args->study_file, overrides, study::UsableCores());
    if (const auto& design = plan.analysis.variance) {  // the design and what it cannot identify, before any run
      std::cerr << "variance design: " << study::DescribeVarianceDesign(*design) << "\n";
      for (const std::string& w : study::VarianceDesignWarnings(*design)) std::cerr << "warning: " << w << "\n";
    }
    auto progress = MakeProgress(args->progress);
    study::StopOnSignals signals;
    study::StudyOutcome outcome = study::RunStudy(plan, RunOptions(*args, progress.get(), signals));
    Finish(outcome, *args);
  });

  CLI::App* resume = study->add_subcommand("resume", "Run the runs a stopped or killed study did not finish");
  resume->add_option("STUDY", args->study, "name or id (default: the one unfinished study)");
  resume->add_option("--store", args->store, "the run store")->capture_default_str();
  resume->add_option("--jobs", args->jobs, "runs at once (default: the plan's)")
      ->check(WholeNumber(1, study::kMaxJobs));
  resume->add_option("--report", args->report, "write report.json/md/html into this folder when done");
  AddProgressOption(resume, *args);
  resume->callback([args] {
    auto progress = MakeProgress(args->progress);
    study::StopOnSignals signals;
    study::StudyRunOptions options = RunOptions(*args, progress.get(), signals);
    options.jobs = args->jobs;
    std::optional<std::string> name;
    if (!args->study.empty()) name = args->study;
    Finish(study::ResumeStudy(name, options), *args);
  });

  CLI::App* cancel =
      study->add_subcommand("cancel", "Cancel a study's Slurm job arrays (resume submits what is missing)");
  cancel->add_option("STUDY", args->study, "name or id (default: the latest study)");
  cancel->add_option("--store", args->store, "the run store")->capture_default_str();
  cancel->callback([args] {
    auto store = store::RunStore::OpenForReading(args->store);
    store::StudyInfo info = store::ChooseStudy(*store, args->study, args->store);
    std::vector<std::string> jobs = study::CancelStudyOnSlurm(study::DecodeStoredPlan(info.plan).Plan());
    if (jobs.empty()) {
      std::cout << "study " << info.name << ": no Slurm array of it is queued or running\n";
      return;
    }
    std::cout << "study " << info.name << ": cancelled Slurm job";
    for (const std::string& job : jobs) std::cout << " " << job;
    std::cout << "\ncontinue with: evalsuite study resume " << info.name << " --store " << args->store << "\n";
  });

  CLI::App* task = study->add_subcommand("slurm-task", "Run one Slurm array task (run by sbatch, not by hand)");
  task->group("");  // hidden from --help: internal
  task->add_option("MANIFEST", args->manifest)->required();
  task->callback([args] {
    const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
    if (!id) throw UsageError("SLURM_ARRAY_TASK_ID", "not set: `study slurm-task` runs inside a Slurm array task");
    int code = study::RunSlurmTask(args->manifest, std::atoi(id), OwnBinary());
    if (code != 0) throw ExternalError("slurm-task", "stopped by signal " + std::to_string(code - 128));
  });

  RegisterStudyPlanCommand(*study);

  CLI::App* list = study->add_subcommand("list", "List the studies in a store");
  list->add_option("--store", args->store, "the run store")->capture_default_str();
  list->callback([args] {
    auto store = store::RunStore::OpenForReading(args->store);
    std::cout << study::FormatStudyList(*store);
  });

  CLI::App* show = study->add_subcommand("show", "A study's statistics per entry, as a compact table");
  show->add_option("STUDY", args->study, "name or id (default: the latest study)");
  show->add_option("--store", args->store, "the run store")->capture_default_str();
  show->callback([args] {
    auto store = store::RunStore::OpenForReading(args->store);
    std::cout << study::FormatStudySummary(*store, store::ChooseStudy(*store, args->study, args->store));
  });
}

}  // namespace evalsuite::cli
