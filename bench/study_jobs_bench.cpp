// Study wall time with `--jobs 2 --threads 1` against `--jobs 1 --threads 2` for the same fixed set of
// short built-in runs, measured side by side in one process (ABBA order, so drift of the machine's speed
// hits both alike), printed as a ratio. The study's default jobs/threads follow whichever wins.
//   study_jobs_bench [--entries fast,baseline] [--runs 2] [--epochs 1] [--train-subset 10000] [--repeats 1]
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "study/plans/study_plan.h"
#include "study/plans/study_plan_loader.h"
#include "study/study_runner.h"

namespace fs = std::filesystem;
using evalsuite::study::PlanOverrides;
using evalsuite::study::StudyPlan;

namespace {

struct Config {
  int jobs;
  int threads;
};

double RunOnce(const std::string& toml, const fs::path& work, const std::string& name, Config config) {
  PlanOverrides overrides;
  overrides.name = name;
  overrides.jobs = config.jobs;
  overrides.threads = config.threads;
  overrides.out_dir = (work / name).string();
  StudyPlan plan = evalsuite::study::ParseStudyPlan(toml, (work / "bench.toml").string(), overrides, 2);
  evalsuite::study::StudyRunOptions options;
  options.store_file = work / "bench.db";
  options.evalsuite_binary = EVALSUITE_BINARY;
  auto start = std::chrono::steady_clock::now();
  evalsuite::study::StudyOutcome outcome = evalsuite::study::RunStudy(plan, options);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (outcome.failed > 0) {
    std::cerr << "warning: " << outcome.failed << " run(s) of " << name << " failed; see " << overrides.out_dir->c_str()
              << "\n";
  }
  std::printf("  %-22s jobs %d threads %d: %7.2f s (%d runs)\n", name.c_str(), config.jobs, config.threads, seconds,
              outcome.ran);
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"study wall time: --jobs 2 --threads 1 against --jobs 1 --threads 2"};
  std::vector<std::string> entries = {"fast", "baseline"};
  int runs = 2, epochs = 1, train_subset = 10000, repeats = 1;
  app.add_option("--entries", entries, "built-in entries")->delimiter(',');
  app.add_option("--runs", runs, "runs per entry");
  app.add_option("--epochs", epochs, "epochs per run");
  app.add_option("--train-subset", train_subset, "training images per run");
  app.add_option("--repeats", repeats, "ABBA rounds");
  CLI11_PARSE(app, argc, argv);

  std::ostringstream toml;
  toml << "seed = 11\nruns = " << runs << "\nepochs = " << epochs << "\ntrain_subset = " << train_subset
       << "\nentries = [";
  for (std::size_t i = 0; i < entries.size(); ++i) toml << (i ? ", " : "") << '"' << entries[i] << '"';
  toml << "]\n";

  fs::path work = fs::temp_directory_path() / ("evalsuite-jobs-bench-" + std::to_string(::getpid()));
  fs::create_directories(work);
  const Config two_jobs{2, 1}, one_job{1, 2};
  double total_two = 0, total_one = 0;
  try {
    std::printf("study_jobs_bench: %zu entries x %d runs, %d epoch(s) on %d images each, %d ABBA round(s)\n",
                entries.size(), runs, epochs, train_subset, repeats);
    for (int r = 0; r < repeats; ++r) {
      std::string tag = std::to_string(r);
      total_two += RunOnce(toml.str(), work, "j2t1-a" + tag, two_jobs);
      total_one += RunOnce(toml.str(), work, "j1t2-a" + tag, one_job);
      total_one += RunOnce(toml.str(), work, "j1t2-b" + tag, one_job);
      total_two += RunOnce(toml.str(), work, "j2t1-b" + tag, two_jobs);
    }
  } catch (const evalsuite::Error& e) {
    std::cerr << "study_jobs_bench: " << e.what() << "\n";
    fs::remove_all(work);
    return 1;
  }
  fs::remove_all(work);
  double ratio = total_one / total_two;
  std::printf("wall time --jobs 1 --threads 2 / --jobs 2 --threads 1 = %.3f (%s wins by %.1f%%)\n", ratio,
              ratio > 1 ? "--jobs 2 --threads 1" : "--jobs 1 --threads 2",
              100 * (ratio > 1 ? ratio - 1 : 1 / ratio - 1));
  return 0;
}
