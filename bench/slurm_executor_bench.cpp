// The Slurm executor's overhead per run against the local executor's, measured side by side in one process: the
// same 40-run study of tiny external runs (a shell script writing three evaluations) through `executor = "local"`
// (--jobs 2) and through Slurm on a one-node cluster started here (tests/support/slurm_cluster.h: 2 CPUs, one
// task per CPU, so also 2 at once). Both walls include everything the user waits for; the Slurm path adds
// submission, Slurm's scheduling, the task wrapper and the coordinator's polling (poll_seconds, printed) and ingest.
//   slurm_executor_bench [--runs 40] [--poll 0.5]
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include "common/error.h"
#include "study/plans/study_plan.h"
#include "study/plans/study_plan_loader.h"
#include "study/study_runner.h"
#include "tests/support/slurm_cluster.h"
#include "tests/support/test_support.h"

namespace fs = std::filesystem;

namespace {

double RunStudyTimed(const std::string& toml, const fs::path& work, const std::string& executor, int* recorded) {
  evalsuite::study::PlanOverrides overrides;
  overrides.name = "bench-" + executor;
  overrides.executor = executor;
  overrides.out_dir = (work / executor).string();
  overrides.jobs = 2;
  evalsuite::study::StudyPlan plan =
      evalsuite::study::ParseStudyPlan(toml, (work / "bench.toml").string(), overrides, 2);
  evalsuite::study::StudyRunOptions options;
  options.store_file = work / (executor + ".db");
  options.evalsuite_binary = EVALSUITE_BINARY;
  auto start = std::chrono::steady_clock::now();
  evalsuite::study::StudyOutcome outcome = evalsuite::study::RunStudy(plan, options);
  *recorded = outcome.finished_before + outcome.ingested_on_resume + outcome.ran - outcome.failed;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Slurm executor overhead per run against the local executor"};
  int runs = 40;
  double poll = 0.5;
  app.add_option("--runs", runs, "runs in the study")->check(CLI::PositiveNumber);
  app.add_option("--poll", poll, "the coordinator's poll_seconds on Slurm");
  CLI11_PARSE(app, argc, argv);
  try {
    std::string why;
    auto cluster = evalsuite::testing::SlurmTestCluster::Start(2, &why);
    if (!cluster) {
      std::cerr << "cannot start the one-node Slurm cluster: " << why << "\n";
      return 1;
    }
    evalsuite::testing::TempDir work;
    evalsuite::testing::WriteFile(work / "tiny.sh", R"(#!/bin/sh
echo "{\"type\":\"header\",\"entry\":\"tiny\"}" > "$1"
for i in 1 2 3; do echo "{\"type\":\"eval\",\"epoch\":$i,\"train_seconds\":$i,\"wall_seconds\":$i,\"metric\":0.$((80 + i))}" >> "$1"; done
echo "{\"type\":\"end\",\"status\":\"reached\"}" >> "$1"
)");
    const std::string toml = "runs = " + std::to_string(runs) +
                             "\nthreshold = 0.82\nthreads = 1\n"
                             "entries = [ { name = \"tiny\", command = \"sh {study_dir}/tiny.sh {log}\" } ]\n"
                             "[slurm]\ncpus_per_task = 1\npoll_seconds = " +
                             std::to_string(poll) + "\n";
    int local_ok = 0, slurm_ok = 0;
    const double local = RunStudyTimed(toml, work.path(), "local", &local_ok);
    const double slurm = RunStudyTimed(toml, work.path(), "slurm", &slurm_ok);
    std::printf("%d tiny runs, 2 at once on 2 cores (Slurm: one-node cluster, poll_seconds %.2f)\n", runs, poll);
    std::printf("  local executor: %7.2f s in all, %6.3f s per run (%d recorded)\n", local, local / runs, local_ok);
    std::printf("  Slurm executor: %7.2f s in all, %6.3f s per run (%d recorded)\n", slurm, slurm / runs, slurm_ok);
    std::printf("  Slurm overhead per run: %.3f s (%.1fx the local executor's wall per run)\n", (slurm - local) / runs,
                slurm / local);
    return local_ok == runs && slurm_ok == runs ? 0 : 1;
  } catch (const evalsuite::Error& e) {
    std::cerr << "slurm_executor_bench: " << e.what() << "\n";
    return 1;
  }
}
