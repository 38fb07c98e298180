// Import throughput over a corpus of real MLPerf v2.0 result logs (copies of ../shared's folders in a temp
// folder, ~200 MB by default), measured in one run against `cat FILES > /dev/null` and
// `grep -c ':::MLLOG' FILES > out` as floors, printed as MB/s and ratios (best of several rounds each).
// Usage: import_bench [--mb N] [--rounds N]. Skips with a message when ../shared is absent.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "evalsuite/importer/importer.h"

namespace fs = std::filesystem;

namespace {

std::optional<fs::path> SharedResults() {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("EVALSUITE_SHARED_DATA")) candidates.emplace_back(env);
  candidates.push_back(fs::path(EVALSUITE_SOURCE_DIR) / ".." / "shared" / "data");
  for (const fs::path& c : candidates) {
    const fs::path results = c / "mlperf" / "training_results_v2.0";
    if (fs::is_directory(results)) return fs::weakly_canonical(results);
  }
  return std::nullopt;
}

double Seconds(const std::function<void()>& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void Run(const std::string& command) {
  const int rc = std::system(command.c_str());
  if (rc != 0 && !(command.rfind("grep", 0) == 0 && WEXITSTATUS(rc) == 1)) {
    std::cerr << "import_bench: command failed (" << rc << "): " << command.substr(0, 80) << "...\n";
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  double target_mb = 200;
  int rounds = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--mb") target_mb = std::stod(argv[i + 1]);
    if (arg == "--rounds") rounds = std::max(1, std::stoi(argv[i + 1]));
  }
  const std::optional<fs::path> shared = SharedResults();
  if (!shared) {
    std::cout << "import_bench: ../shared/data/mlperf/training_results_v2.0 is absent: skipping\n";
    return 0;
  }
  std::vector<fs::path> originals;
  std::uintmax_t original_bytes = 0;
  for (const auto& e : fs::recursive_directory_iterator(*shared)) {
    if (e.is_regular_file() && e.path().filename().string().rfind("result_", 0) == 0) {
      originals.push_back(e.path());
      original_bytes += e.file_size();
    }
  }
  if (originals.empty() || original_bytes == 0) {
    std::cout << "import_bench: no result_*.txt under " << shared->string() << ": skipping\n";
    return 0;
  }
  std::sort(originals.begin(), originals.end());

  // The corpus: copy k of every submission folder, keeping results/<system>/<benchmark>/result_*.txt.
  const fs::path corpus = fs::temp_directory_path() / ("evalsuite-import-bench-" + std::to_string(::getpid()));
  const int copies = std::max(1, static_cast<int>(target_mb * 1e6 / static_cast<double>(original_bytes) + 0.5));
  std::vector<std::string> files;  // relative to the corpus
  std::uintmax_t bytes = 0;
  for (int k = 0; k < copies; ++k) {
    for (const fs::path& original : originals) {
      const fs::path rel = fs::path("copy" + std::to_string(k)) / fs::relative(original, *shared);
      fs::create_directories((corpus / rel).parent_path());
      fs::copy_file(original, corpus / rel, fs::copy_options::overwrite_existing);
      files.push_back(rel.string());
      bytes += fs::file_size(original);
    }
  }
  const double mb = static_cast<double>(bytes) / 1e6;
  std::string list;
  for (const std::string& f : files) list += " '" + f + "'";
  const std::string cd = "cd '" + corpus.string() + "' && ";
  std::cout << "import_bench: corpus of " << files.size() << " result files, " << mb << " MB (" << copies
            << " copies of " << originals.size() << " files from " << shared->string() << ")\n";

  Run(cd + "cat" + list + " > /dev/null");  // warm the page cache
  double best_cat = 1e300, best_grep = 1e300, best_one = 1e300, best_two = 1e300;
  std::size_t runs_one = 0;
  for (int r = 0; r < rounds; ++r) {
    best_cat = std::min(best_cat, Seconds([&] { Run(cd + "cat" + list + " > /dev/null"); }));
    best_grep = std::min(best_grep, Seconds([&] { Run(cd + "grep -c ':::MLLOG'" + list + " > grep.out"); }));
    evalsuite::importer::ImportOptions options;
    options.paths = {corpus};
    options.jobs = 1;
    best_one = std::min(best_one, Seconds([&] {
                          auto result = evalsuite::importer::Import(options);
                          runs_one = 0;
                          for (const auto& g : result.groups) runs_one += g.runs.size();
                        }));
    options.jobs = 2;
    best_two = std::min(best_two, Seconds([&] { evalsuite::importer::Import(options); }));
  }
  std::error_code ec;
  fs::remove_all(corpus, ec);

  auto rate = [&](double s) { return mb / s; };
  std::printf("%-34s %10s %10s\n", "", "MB/s", "seconds");
  std::printf("%-34s %10.0f %10.3f\n", "cat FILES > /dev/null", rate(best_cat), best_cat);
  std::printf("%-34s %10.0f %10.3f\n", "grep -c ':::MLLOG' FILES > out", rate(best_grep), best_grep);
  std::printf("%-34s %10.0f %10.3f\n", "evalsuite import, 1 thread", rate(best_one), best_one);
  std::printf("%-34s %10.0f %10.3f\n", "evalsuite import, 2 threads", rate(best_two), best_two);
  std::printf(
      "ratios: import(1 thread)/cat = %.2f, import(1 thread)/grep = %.2f, import(2 threads)/cat = %.2f, "
      "import(2 threads)/grep = %.2f\n",
      best_cat / best_one, best_grep / best_one, best_cat / best_two, best_grep / best_two);
  std::printf("runs imported per pass: %zu (expected %zu)\n", runs_one, files.size());
  return runs_one == files.size() ? 0 : 1;
}
