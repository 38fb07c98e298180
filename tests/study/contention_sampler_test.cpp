// Contention measured for every run: the /proc parsers on fixed text, a run with CPU hogs pinned to its core records
// more other-process busy time than the same run without them, and a study stores the record with every run.
#include "study/hardware/contention_sampler.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "study/study_runner.h"
#include "tests/study/fake_entries.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

using Clock = std::chrono::steady_clock;

TEST(ContentionParseTest, PerCpuStatStealPressureAndProcessTicks) {
  const auto cpus = ParsePerCpuStat(
      "cpu  10 0 5 100 2 0 0 7 0 0\n"
      "cpu0 4 1 2 50 1 1 1 3 9 0\n"
      "cpu1 6 0 3 50 1 0 0 4 0 0\n"
      "intr 12345\n");
  ASSERT_EQ(cpus.size(), 2u);
  // busy = user + nice + system + irq + softirq + steal; total adds idle + iowait (guest is inside user).
  EXPECT_EQ(cpus.at(0).busy, 4u + 1 + 2 + 1 + 1 + 3);
  EXPECT_EQ(cpus.at(0).steal, 3u);
  EXPECT_EQ(cpus.at(0).total, 12u + 50 + 1);
  EXPECT_EQ(cpus.at(1).busy, 13u);
  EXPECT_TRUE(ParsePerCpuStat("cpu 1 2 3 4\n").empty());

  EXPECT_EQ(ParsePressureSomeTotal("some avg10=1.50 avg60=0.80 avg300=0.20 total=123456\n"
                                   "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"),
            std::optional<uint64_t>(123456));
  EXPECT_FALSE(ParsePressureSomeTotal(""));

  // A command name with spaces and a parenthesis: fields are counted after the last ')'. Group 5; utime 14,
  // stime 15, and the reaped children's cutime 16 and cstime 17.
  const auto process = ParseProcessGroupTicks("42 (evil ) name) S 1 40 42 0 -1 4194560 100 0 0 0 250 30 7 3 20 0 1 0");
  ASSERT_TRUE(process);
  EXPECT_EQ(process->group, 40);
  EXPECT_EQ(process->ticks, 290u);
  EXPECT_FALSE(ParseProcessGroupTicks("42 (x) S 1"));
  EXPECT_FALSE(ParseProcessGroupTicks("42 (x) S 1 40 42 0 -1 4194560 100 0 0 0 250 30 -1 3 20"));
}

// A fixture /proc: CPU 0's user and idle ticks, and each process's stat line with its group and CPU ticks.
void WriteFakeProc(const std::filesystem::path& root, long cpu0_user, long cpu0_idle,
                   const std::vector<std::array<long, 3>>& pid_group_ticks) {
  std::filesystem::create_directories(root);
  std::ofstream(root / "stat") << "cpu  0 0 0 0 0 0 0 0 0 0\ncpu0 " << cpu0_user << " 0 0 " << cpu0_idle
                               << " 0 0 0 0 0 0\n";
  for (const auto& [pid, group, ticks] : pid_group_ticks) {
    std::filesystem::create_directories(root / std::to_string(pid));
    std::ofstream(root / std::to_string(pid) / "stat")
        << pid << " (p) S 1 " << group << " " << group << " 0 -1 0 0 0 0 0 " << ticks << " 0 0 0 20 0 1 0\n";
  }
}

// Regression: a local run's pid is its supervisor, which leads the run's process group and spends no CPU itself;
// the training is its child. Reading the supervisor alone counted a concurrent sibling run as "other processes"
// for whichever run finished first (a quiet 2-core machine read as busy during every study of 2 runs at a time).
TEST(ContentionMonitorTest, ASiblingRunsCpuTimeIsCountedFromItsWholeProcessGroup) {
  evalsuite::testing::TempDir dir;
  const std::filesystem::path proc = dir / "proc";
  ContentionOptions options;
  options.proc_root = proc.string();
  options.sample_seconds = 0;  // every Poll samples
  // Run A: supervisor 100, training 101. Run B: supervisor 200, training 201. Nothing has run yet.
  WriteFakeProc(proc, 0, 0, {{100, 100, 0}, {101, 100, 0}, {200, 200, 0}, {201, 200, 0}});
  ContentionMonitor monitor(options);
  monitor.RunStarted(1, 100, {0});
  monitor.RunStarted(2, 200, {0});
  monitor.Poll();
  // B's training has used 300 ticks, then 500; a process of another group (300) is not the study's.
  WriteFakeProc(proc, 750, 100, {{100, 100, 0}, {101, 100, 450}, {200, 200, 0}, {201, 200, 300}, {300, 300, 999}});
  monitor.Poll();
  WriteFakeProc(proc, 980, 200, {{100, 100, 0}, {101, 100, 480}, {200, 200, 0}, {201, 200, 500}, {300, 300, 1999}});
  monitor.Poll();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const nlohmann::json a = analysis::ContentionToJson(monitor.RunFinished(1, 4.8).value());
  const double ticks_per_second = static_cast<double>(sysconf(_SC_CLK_TCK));
  const double study_ticks = a["study_busy_cores"].get<double>() * a["seconds"].get<double>() * ticks_per_second;
  EXPECT_NEAR(study_ticks, 500, 1e-6) << a.dump();
}

// A run that ends before its cores' tick counters move gets no figures, and says why truly: the counters exist
// (it said "no per-CPU counters" before, which made a run of a few milliseconds look like a broken /proc).
TEST(ContentionMonitorTest, ARunShorterThanATickSaysItsCountersDidNotMove) {
  evalsuite::testing::TempDir dir;
  const std::filesystem::path proc = dir / "proc";
  ContentionOptions options;
  options.proc_root = proc.string();
  WriteFakeProc(proc, 10, 10, {{100, 100, 0}});
  ContentionMonitor monitor(options);
  monitor.RunStarted(1, 100, {0});
  const nlohmann::json short_run = analysis::ContentionToJson(monitor.RunFinished(1, 0.0).value());
  EXPECT_TRUE(short_run["other_busy_cores"].is_null()) << short_run.dump();
  EXPECT_EQ(short_run["cores"], 1) << short_run.dump();
  EXPECT_NE(short_run["why"].get<std::string>().find("did not advance"), std::string::npos) << short_run.dump();
  // A CPU that /proc/stat does not list is the other case.
  monitor.RunStarted(2, 100, {5});
  const nlohmann::json unlisted = analysis::ContentionToJson(monitor.RunFinished(2, 0.0).value());
  EXPECT_FALSE(monitor.RunFinished(3, 0.0)) << "a run it was not told of has no record";
  EXPECT_EQ(unlisted["cores"], 0) << unlisted.dump();
  EXPECT_NE(unlisted["why"].get<std::string>().find("no per-CPU counters"), std::string::npos) << unlisted.dump();
}

int FirstAllowedCpu() {
  cpu_set_t set;
  CPU_ZERO(&set);
  sched_getaffinity(0, sizeof(set), &set);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) return cpu;
  }
  return 0;
}

// A child pinned to `cpu` that spins for `seconds` of wall time (or until killed when seconds <= 0).
pid_t SpinOn(int cpu, double seconds) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof(set), &set);
  const Clock::time_point start = Clock::now();
  volatile unsigned long sink = 0;
  while (seconds <= 0 || std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
    for (int i = 0; i < 100000; ++i) sink = sink + static_cast<unsigned long>(i);
  }
  _exit(0);
}

// Spinners that never stop on their own: killed and reaped when this goes out of scope, also when the monitor
// throws half-way (a leaked one would spin on CI's core for the rest of the test run).
class Spinners {
 public:
  Spinners() = default;
  Spinners(const Spinners&) = delete;
  Spinners& operator=(const Spinners&) = delete;
  ~Spinners() {
    for (pid_t pid : pids_) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
  void Add(pid_t pid) { pids_.push_back(pid); }

 private:
  std::vector<pid_t> pids_;
};

// One "run" (a spinning child pinned to `cpu`) under the monitor, with `hogs` other spinners on the same CPU.
nlohmann::json MeasureRun(int cpu, int hogs) {
  Spinners hog_pids;
  for (int i = 0; i < hogs; ++i) hog_pids.Add(SpinOn(cpu, 0));
  ContentionOptions options;
  options.sample_seconds = 0.2;
  ContentionMonitor monitor(options);
  const pid_t run = SpinOn(cpu, 1.5);
  monitor.RunStarted(7, run, {cpu});
  int status = 0;
  struct rusage usage {};
  while (wait4(run, &status, WNOHANG, &usage) == 0) {
    monitor.Poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const double own = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                     static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  return analysis::ContentionToJson(monitor.RunFinished(7, own).value());
}

TEST(ContentionMonitorTest, CpuHogsPinnedToTheRunsCoreShowAsOtherProcessesBusyTime) {
  const int cpu = FirstAllowedCpu();
  const nlohmann::json quiet = MeasureRun(cpu, 0);
  const nlohmann::json hogged = MeasureRun(cpu, 2);
  ASSERT_TRUE(quiet["other_busy_cores"].is_number()) << quiet.dump();
  ASSERT_TRUE(hogged["other_busy_cores"].is_number()) << hogged.dump();
  EXPECT_EQ(hogged["cpus"], nlohmann::json::array({cpu}));
  EXPECT_EQ(hogged["cores"], 1);
  // Two hogs on the run's one core take about two thirds of it whatever else the machine does.
  EXPECT_GT(hogged["other_busy_cores"].get<double>(), 0.5) << hogged.dump();
  EXPECT_GT(hogged["other_busy_cores"].get<double>(), quiet["other_busy_cores"].get<double>())
      << "quiet " << quiet.dump() << "\nhogged " << hogged.dump();
  EXPECT_LT(hogged["own_busy_cores"].get<double>(), 0.6) << hogged.dump();
  EXPECT_TRUE(hogged["steal_fraction"].is_number());
  EXPECT_TRUE(hogged["load_average_1m"].is_object());
}

TEST(ContentionMonitorTest, EveryStudyRunStoresItsContentionRecord) {
  evalsuite::testing::TempDir dir;
  StudyPlan plan = testing::FakeStudyPlan(dir, R"(
name = "contention"
runs = 2
jobs = 2
threshold = 0.85
entries = [ { name = "ok", command = "sh {study_dir}/fake_entry.sh {log} {seed} slow 3 0.05" } ]
)");
  // Each run lasts at least 150 ms, many ticks of /proc/stat: a run of a few milliseconds can end before its cores'
  // counters move, and then has no figures to store (ARunShorterThanATickSaysItsCountersDidNotMove).
  StudyRunOptions options;
  options.store_file = dir / "store.db";
  options.scheduler.poll_seconds = 0.01;
  RunStudy(plan, options);
  auto store = store::RunStore::Open(options.store_file, false);
  const std::vector<store::RunRecord> runs = store->LoadRuns(store->FindStudy("contention")->id);
  ASSERT_EQ(runs.size(), 2u);
  for (const store::RunRecord& run : runs) {
    const nlohmann::json c = run.execution.value("contention", nlohmann::json());
    ASSERT_TRUE(c.is_object()) << run.execution.dump();
    EXPECT_TRUE(c["other_busy_cores"].is_number()) << c.dump();
    EXPECT_TRUE(c["steal_fraction"].is_number()) << c.dump();
    EXPECT_EQ(c["cpus"].size(), static_cast<std::size_t>(UsableCores())) << c.dump();  // unpinned: every CPU
  }
}

}  // namespace
}  // namespace evalsuite::study
