// Start-up cost of the commands that need neither LibTorch nor OpenCV: `evalsuite import --help` through the
// light front binary against the same command in evalsuite-full (which loads LibTorch and OpenCV, about 290
// shared libraries), measured side by side in one run: median wall time and peak RSS (wait4's ru_maxrss) of
// several alternating starts, and their ratios. A third start, evalsuite-full with the oneDNN ISA cap switched off
// (EVALSUITE_ONEDNN_ISA_CAP=off), shows what the ISA probe adds to each start of evalsuite-full, which every run
// of a study pays (a forked probe cost about 0.2 s there; the probe's child now shares the process's memory).
// Usage: startup_bench [--repeats N]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Start {
  double seconds = 0;
  long max_rss_kb = 0;
};

// Runs argv with stdout and stderr to /dev/null, with `environment` ("NAME=value") added; exits the bench if the
// command fails.
Start RunOnce(const std::vector<std::string>& argv, const std::vector<std::string>& environment = {}) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const auto begin = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    for (const std::string& e : environment) putenv(const_cast<char*>(e.c_str()));
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  Start s;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  s.max_rss_kb = usage.ru_maxrss;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::cerr << "startup_bench: " << argv[0] << " failed (status " << status << ")\n";
    std::exit(1);
  }
  return s;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 15;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--repeats") repeats = std::max(1, std::stoi(argv[i + 1]));
  }
  const fs::path light = EVALSUITE_BINARY;
  const fs::path full = light.parent_path() / "evalsuite-full";
  std::vector<double> light_s, full_s, light_rss, full_rss, unprobed_s;
  for (int r = 0; r < repeats; ++r) {  // alternating, so a busy moment hits both
    const Start a = RunOnce({light.string(), "import", "--help"});
    const Start b = RunOnce({full.string(), "import", "--help"});
    unprobed_s.push_back(RunOnce({full.string(), "import", "--help"}, {"EVALSUITE_ONEDNN_ISA_CAP=off"}).seconds);
    light_s.push_back(a.seconds);
    full_s.push_back(b.seconds);
    light_rss.push_back(static_cast<double>(a.max_rss_kb));
    full_rss.push_back(static_cast<double>(b.max_rss_kb));
  }
  std::printf("startup of `import --help`, median of %d alternating starts\n", repeats);
  std::printf("  evalsuite (front, no LibTorch/OpenCV): %8.1f ms  %8.1f MB peak RSS\n", 1e3 * Median(light_s),
              Median(light_rss) / 1024);
  std::printf("  evalsuite-full                       : %8.1f ms  %8.1f MB peak RSS\n", 1e3 * Median(full_s),
              Median(full_rss) / 1024);
  std::printf("  ratio full/front: time %.1fx, memory %.1fx\n", Median(full_s) / Median(light_s),
              Median(full_rss) / Median(light_rss));
  std::printf("  evalsuite-full without the ISA probe : %8.1f ms  (the probe's share of a start: %.1f ms, %.2fx)\n",
              1e3 * Median(unprobed_s), 1e3 * (Median(full_s) - Median(unprobed_s)),
              Median(full_s) / Median(unprobed_s));
  return 0;
}
