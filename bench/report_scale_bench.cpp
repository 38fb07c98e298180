// How `evalsuite import` and `evalsuite report` grow with the runs: seeded synthetic JSON Lines logs (20
// evaluations each, one folder per entry) of 20 entries x 50 / 500 (/ 5,000 with --large) runs and of one entry of
// 10,000 runs, imported into a fresh store and reported, each through the functions the two commands call
// (importer::Import + WriteToStore; BuildReportInput + BuildStabilityReport + WriteReport), measured side by side
// in one run: seconds, CPU seconds, the report's bytes, and each size's ratio to the smallest.
// Cost that grows no faster than the work shows as a time ratio at or below the runs ratio.
// Usage: report_scale_bench [--large] [--keep DIR] [--mlperf] [--only LABEL]
//        report_scale_bench --write-only DIR [--entries N] [--runs N]   (only writes the logs, for profiling)
// --mlperf also imports and reports every MLPerf log under ../shared/data/mlperf.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "common/environment.h"
#include "importer/importer.h"
#include "reports/report.h"
#include "store/run_store.h"
#include "study/study_summary.h"

namespace fs = std::filesystem;

namespace {

constexpr int kEvaluations = 20;
constexpr double kThreshold = 0.9;

// One entry's folder of `runs` logs. Entry e has its own speed and ceiling, so some entries rarely reach the
// target; every number comes from one mt19937_64 seeded with the entry's index (the same files on every machine).
std::uintmax_t WriteEntry(const fs::path& dir, int entry, int runs) {
  const std::string name = "entry_" + std::to_string(entry);
  const fs::path folder = dir / name;
  fs::create_directories(folder);
  std::mt19937_64 engine(1000003ULL * static_cast<std::uint64_t>(entry + 1));
  std::normal_distribution<double> normal(0.0, 1.0);
  const double epoch_seconds = 10.0 + 2.0 * (entry % 7);
  const double ceiling = 0.905 + 0.004 * (entry % 5);
  const double tau = 3.0 + 0.5 * (entry % 3);
  std::uintmax_t bytes = 0;
  char line[512];
  for (int r = 0; r < runs; ++r) {
    std::string text;
    std::snprintf(line, sizeof line,
                  "{\"type\":\"header\",\"schema_version\":1,\"entry\":\"%s\",\"metric\":\"val_top1\","
                  "\"threshold\":%g,\"seeds\":{\"run\":%d},\"threads\":1}\n",
                  name.c_str(), kThreshold, r);
    text += line;
    const double speed = epoch_seconds * (1 + 0.05 * normal(engine));
    const double run_ceiling = ceiling + 0.01 * normal(engine);
    double train = 0, wall = 0, tta = -1;
    for (int k = 1; k <= kEvaluations; ++k) {
      train += speed * (1 + 0.01 * normal(engine));
      wall = train * 1.04 + 0.5;
      double metric = run_ceiling * (1 - std::exp(-k / tau)) + 0.004 * normal(engine);
      metric = std::min(1.0, std::max(0.0, metric));
      if (tta < 0 && metric >= kThreshold) tta = train;
      std::snprintf(line, sizeof line,
                    "{\"type\":\"eval\",\"epoch\":%d,\"train_seconds\":%.4f,\"wall_seconds\":%.4f,\"metric\":%.5f,"
                    "\"train_loss\":%.4f}\n",
                    k, train, wall, metric, 2.0 * std::exp(-k / tau) + 0.05);
      text += line;
    }
    if (tta >= 0) {
      std::snprintf(line, sizeof line,
                    "{\"type\":\"end\",\"status\":\"reached\",\"tta_seconds\":%.4f,\"epochs\":%d,"
                    "\"train_seconds\":%.4f,\"wall_seconds\":%.4f}\n",
                    tta, kEvaluations, train, wall);
    } else {
      std::snprintf(line, sizeof line,
                    "{\"type\":\"end\",\"status\":\"not_reached\",\"tta_seconds\":null,\"epochs\":%d,"
                    "\"train_seconds\":%.4f,\"wall_seconds\":%.4f}\n",
                    kEvaluations, train, wall);
    }
    text += line;
    std::ofstream(folder / ("run_" + std::to_string(r) + ".jsonl"), std::ios::binary) << text;
    bytes += text.size();
  }
  return bytes;
}

std::uintmax_t WriteStudy(const fs::path& dir, int entries, int runs) {
  std::uintmax_t bytes = 0;
  for (int e = 0; e < entries; ++e) bytes += WriteEntry(dir, e, runs);
  return bytes;
}

struct Timed {
  double seconds = 0;
  double cpu_seconds = 0;  // user + system of this process (every thread)
  bool ok = false;
};

double SelfCpu() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

Timed RunTimed(const std::string& what, const std::function<void()>& work) {
  Timed t;
  const double cpu0 = SelfCpu();
  const auto start = std::chrono::steady_clock::now();
  try {
    work();
    t.ok = true;
  } catch (const std::exception& e) {
    std::cerr << "report_scale_bench: " << what << " failed: " << e.what() << "\n";
  }
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  t.cpu_seconds = SelfCpu() - cpu0;
  return t;
}

std::uintmax_t SizeOf(const fs::path& file) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  return ec ? 0 : size;
}

std::string FirstLineOf(const fs::path& file, const std::string& prefix) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) return line.substr(line.find(':') + 1);
  }
  return "?";
}

struct Case {
  std::string label;
  int entries = 0;
  int runs = 0;  // per entry
  std::uintmax_t log_bytes = 0;
  Timed import, report;
  std::uintmax_t json = 0, html = 0, md = 0, side = 0;
  double load_seconds = 0, model_seconds = 0, write_seconds = 0;  // the report's steps
};

// As `evalsuite import LOGS --store S --study scale` and `evalsuite report S --out R` do it, less their printing.
void Measure(Case& c, const fs::path& work, const fs::path& logs) {
  const fs::path store_file = work / (c.label + ".db");
  const fs::path out = work / (c.label + "-report");
  c.import = RunTimed("import", [&] {
    evalsuite::importer::ImportOptions options;
    options.paths = {logs};
    auto store = evalsuite::store::RunStore::Open(store_file);
    const evalsuite::importer::ImportResult result = evalsuite::importer::Import(options);
    evalsuite::importer::WriteToStore(*store, result, "scale", nlohmann::json::object(),
                                      evalsuite::DescribeEnvironment());
  });
  c.report = RunTimed("report", [&] {
    auto lap = std::chrono::steady_clock::now();
    auto split = [&](double& into) {
      const auto now = std::chrono::steady_clock::now();
      into = std::chrono::duration<double>(now - lap).count();
      lap = now;
    };
    auto store = evalsuite::store::RunStore::OpenForReading(store_file);
    const evalsuite::reports::StabilityReportInput input =
        evalsuite::study::BuildReportInput(*store, store->ListStudies());
    split(c.load_seconds);
    const evalsuite::reports::ReportModel model = evalsuite::reports::BuildStabilityReport(input);
    split(c.model_seconds);
    evalsuite::reports::WriteReport(model, evalsuite::reports::RunPointsJsonLines(input), out);
    split(c.write_seconds);
  });
  c.json = SizeOf(out / "report.json");
  c.html = SizeOf(out / "report.html");
  c.md = SizeOf(out / "report.md");
  c.side = SizeOf(out / "report-points.jsonl");
}

double Mb(std::uintmax_t bytes) { return static_cast<double>(bytes) / 1e6; }

}  // namespace

int main(int argc, char** argv) {
  bool large = false, mlperf = false;
  std::string keep, write_only, only;
  int entries = 20, runs = 500;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--large") large = true;
    if (arg == "--mlperf") mlperf = true;
    if (arg == "--keep" && i + 1 < argc) keep = argv[++i];
    if (arg == "--write-only" && i + 1 < argc) write_only = argv[++i];
    if (arg == "--entries" && i + 1 < argc) entries = std::stoi(argv[++i]);
    if (arg == "--runs" && i + 1 < argc) runs = std::stoi(argv[++i]);
    if (arg == "--only" && i + 1 < argc) only = argv[++i];
  }
  if (!write_only.empty()) {
    const std::uintmax_t bytes = WriteStudy(write_only, entries, runs);
    std::printf("wrote %d x %d logs, %.1f MB, under %s\n", entries, runs, Mb(bytes), write_only.c_str());
    return 0;
  }
  const fs::path work = keep.empty()
                            ? fs::temp_directory_path() / ("evalsuite-report-scale-" + std::to_string(::getpid()))
                            : fs::path(keep);
  fs::create_directories(work);

  std::vector<Case> cases = {{"20x50", 20, 50}, {"20x500", 20, 500}};
  if (large) cases.push_back({"20x5000", 20, 5000});
  cases.push_back({"1x10000", 1, 10000});
  if (!only.empty()) {
    cases.erase(std::remove_if(cases.begin(), cases.end(), [&](const Case& c) { return c.label != only; }),
                cases.end());
    if (cases.empty()) {
      std::cerr << "report_scale_bench: --only takes 20x50, 20x500, 20x5000 or 1x10000\n";
      return 2;
    }
  }
  std::printf("report_scale_bench: CPU%s, %ld online CPU(s), load average at start:%s\n",
              FirstLineOf("/proc/cpuinfo", "model name").c_str(), sysconf(_SC_NPROCESSORS_ONLN),
              (" " + FirstLineOf("/proc/loadavg", "")).c_str());
  bool ok = true;
  for (Case& c : cases) {
    const fs::path logs = work / (c.label + "-logs");
    c.log_bytes = WriteStudy(logs, c.entries, c.runs);
    Measure(c, work, logs);
    ok = ok && c.import.ok && c.report.ok;
    std::error_code ec;
    if (keep.empty()) fs::remove_all(logs, ec);
  }
  std::string load_end;
  {
    std::ifstream in("/proc/loadavg");
    std::getline(in, load_end);
  }

  const Case& base = cases.front();
  std::printf("\n%-9s %7s %8s | %8s %6s %6s | %8s %6s %6s | %9s %9s %9s %10s\n", "case", "runs", "logs MB", "import s",
              "CPU s", "x", "report s", "CPU s", "x", "json MB", "html MB", "md MB", "points MB");
  for (const Case& c : cases) {
    std::printf("%-9s %7d %8.1f | %8.2f %6.2f %6.1f | %8.2f %6.2f %6.1f | %9.2f %9.2f %9.2f %10.2f\n", c.label.c_str(),
                c.entries * c.runs, Mb(c.log_bytes), c.import.seconds, c.import.cpu_seconds,
                c.import.seconds / base.import.seconds, c.report.seconds, c.report.cpu_seconds,
                c.report.seconds / base.report.seconds, Mb(c.json), Mb(c.html), Mb(c.md), Mb(c.side));
  }
  std::printf("report's steps (s): ");
  for (const Case& c : cases) {
    std::printf("%s: load %.2f, model %.2f, render and write %.2f;  ", c.label.c_str(), c.load_seconds, c.model_seconds,
                c.write_seconds);
  }
  std::printf("\nx: wall time over the %s case's, measured in this run; runs ratio of each case: ", base.label.c_str());
  for (const Case& c : cases) {
    std::printf("%s %.0f  ", c.label.c_str(),
                static_cast<double>(c.entries * c.runs) / static_cast<double>(base.entries * base.runs));
  }
  std::printf("\nload average at the end: %s\n", load_end.c_str());

  if (mlperf) {
    const fs::path shared = fs::path(EVALSUITE_SOURCE_DIR) / ".." / "shared" / "data" / "mlperf";
    if (!fs::is_directory(shared)) {
      std::printf("--mlperf: %s is absent: skipped\n", shared.string().c_str());
    } else {
      Case c{"mlperf", 0, 0};
      Measure(c, work, shared);
      ok = ok && c.report.ok;
      std::printf(
          "MLPerf logs of ../shared: import %.2f s (CPU %.2f s), report %.2f s (CPU %.2f s), json %.2f MB, "
          "html %.2f MB, points %.2f MB\n",
          c.import.seconds, c.import.cpu_seconds, c.report.seconds, c.report.cpu_seconds, Mb(c.json), Mb(c.html),
          Mb(c.side));
    }
  }
  std::error_code ec;
  if (keep.empty()) fs::remove_all(work, ec);
  return ok ? 0 : 1;
}
