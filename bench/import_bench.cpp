// Import throughput over a corpus of real MLPerf result logs (copies of every shared round's folders, v2.0 v4.0
// v5.1, ~200 MB by default, in a temp folder), measured in one run against `cat FILES > /dev/null` and
// `grep -c ':::MLLOG' FILES > out` as floors and against the official mlperf_logging result summarizer
// (../shared/peers, Debian's python3) on one copy of each submitter's folder: MB/s and ratios, best of several
// rounds (the summarizer: one round, it takes minutes). Import is timed parse-only and into a fresh run store
// (SQLite, the same parse plus WriteToStore), on one thread and, as `evalsuite import` runs, one per hardware thread.
// Then round by round, whole processes: the summarizer's against one `evalsuite import` of the same folders, and the
// fixed cost of any whole-process import (a bare process, evalsuite's start, an import of one file) against each
// round's budget at the goal of 300x.
// Usage: import_bench [--mb N] [--rounds N] [--no-peer]. Skips with a message when ../shared is absent.
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
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "bench/shared_data.h"
#include "importer/importer.h"
#include "store/run_store.h"

namespace fs = std::filesystem;

namespace {

double Seconds(const std::function<void()>& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool Run(const std::string& command) {
  const int rc = std::system(command.c_str());
  // grep exits 1 when a file has no match (xargs passes that on as 123).
  const bool grep_no_match =
      command.find("grep") != std::string::npos && (WEXITSTATUS(rc) == 1 || WEXITSTATUS(rc) == 123);
  if (rc != 0 && !grep_no_match) {
    std::cerr << "import_bench: command failed (" << rc << "): " << command.substr(0, 120) << "...\n";
    return false;
  }
  return true;
}

// A submitter folder of a round and its ruleset: training_results_v4.0/NVIDIA -> "4.0.0".
struct Submitter {
  fs::path folder;
  std::string ruleset;
  std::string round;  // the round's folder name: training_results_v4.0
};

// One round as both tools read it: the summarizer's whole processes (one per submitter folder, as its command line
// asks) and `evalsuite import` of the same submitter folders, one whole process into a fresh store.
struct RoundTiming {
  double summarizer_seconds = 0;
  std::uintmax_t bytes = 0;
  std::vector<fs::path> submitters;  // those the summarizer read
};

}  // namespace

int main(int argc, char** argv) {
  double target_mb = 200;
  int rounds = 3;
  bool peer = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--mb" && i + 1 < argc) target_mb = std::stod(argv[++i]);
    if (arg == "--rounds" && i + 1 < argc) rounds = std::max(1, std::stoi(argv[++i]));
    if (arg == "--no-peer") peer = false;
  }
  const std::optional<fs::path> shared =
      evalsuite::bench::SharedDataHolding(fs::path("mlperf") / "training_results_v2.0");
  if (!shared) {
    std::cout << "import_bench: ../shared/data/mlperf is absent: skipping\n";
    return 0;
  }
  const fs::path mlperf = *shared / "mlperf";
  std::vector<Submitter> submitters;
  std::vector<fs::path> originals;  // relative to `mlperf`
  std::uintmax_t original_bytes = 0;
  const std::regex round(R"(training_results_v(\d+)\.(\d+))");
  for (const auto& r : fs::directory_iterator(mlperf)) {
    std::smatch m;
    const std::string name = r.path().filename().string();
    if (!r.is_directory() || !std::regex_match(name, m, round)) continue;
    for (const auto& org : fs::directory_iterator(r.path())) {
      if (fs::is_directory(org.path() / "results")) {
        submitters.push_back({org.path(), m[1].str() + "." + m[2].str() + ".0", name});
      }
    }
    for (const auto& e : fs::recursive_directory_iterator(r.path())) {
      if (e.is_regular_file() && e.path().filename().string().rfind("result_", 0) == 0) {
        originals.push_back(fs::relative(e.path(), mlperf));
        original_bytes += e.file_size();
      }
    }
  }
  if (originals.empty() || original_bytes == 0) {
    std::cout << "import_bench: no result_*.txt under " << mlperf.string() << ": skipping\n";
    return 0;
  }
  std::sort(originals.begin(), originals.end());
  std::sort(submitters.begin(), submitters.end(), [](auto& a, auto& b) { return a.folder < b.folder; });

  // The corpus: k copies of every round, keeping <round>/<org>/results/<system>/<benchmark>/result_*.txt.
  const fs::path work = fs::temp_directory_path() / ("evalsuite-import-bench-" + std::to_string(::getpid()));
  const fs::path corpus = work / "corpus";
  const int copies = std::max(1, static_cast<int>(target_mb * 1e6 / static_cast<double>(original_bytes) + 0.5));
  std::vector<std::string> files;  // relative to the corpus
  std::uintmax_t bytes = 0;
  for (int k = 0; k < copies; ++k) {
    for (const fs::path& original : originals) {
      const fs::path rel = fs::path("copy" + std::to_string(k)) / original;
      fs::create_directories((corpus / rel).parent_path());
      fs::copy_file(mlperf / original, corpus / rel, fs::copy_options::overwrite_existing);
      files.push_back(rel.string());
      bytes += fs::file_size(mlperf / original);
    }
  }
  const double mb = static_cast<double>(bytes) / 1e6;
  // The file names go through xargs: one `sh -c` argument holds at most 128 KiB, less than a large corpus's list.
  {
    std::ofstream list_file(work / "files.list", std::ios::binary);
    for (const std::string& f : files) list_file << f << '\0';
  }
  const std::string list = " ";
  const std::string cd = "cd '" + corpus.string() + "' && xargs -0 -a ../files.list ";
  std::cout << "import_bench: corpus of " << files.size() << " result files, " << mb << " MB (" << copies
            << " copies of " << originals.size() << " files from " << mlperf.string() << ")\n";

  auto must = [](bool ok) {
    if (!ok) std::exit(1);  // a floor that did not run would print a meaningless ratio
  };
  must(Run(cd + "cat" + list + " > /dev/null"));  // warm the page cache
  double best_cat = 1e300, best_grep = 1e300, best_parse = 1e300, best_store = 1e300, best_store_threads = 1e300;
  const unsigned hardware_threads = std::max(1u, std::thread::hardware_concurrency());
  std::size_t runs_parsed = 0;
  evalsuite::importer::ImportOptions options;
  options.paths = {corpus};
  options.jobs = 1;
  for (int r = 0; r < rounds; ++r) {
    best_cat = std::min(best_cat, Seconds([&] { must(Run(cd + "cat" + list + " > /dev/null")); }));
    best_grep = std::min(best_grep, Seconds([&] { must(Run(cd + "grep -c ':::MLLOG'" + list + " > ../grep.out")); }));
    best_parse = std::min(best_parse, Seconds([&] {
                            auto result = evalsuite::importer::Import(options);
                            runs_parsed = 0;
                            for (const auto& g : result.groups) runs_parsed += g.runs.size();
                          }));
    auto import_into_a_store = [&](const std::string& name, const evalsuite::importer::ImportOptions& with) {
      auto store = evalsuite::store::RunStore::Open(work / (name + std::to_string(r) + ".db"));
      auto result = evalsuite::importer::Import(with);
      evalsuite::importer::WriteToStore(*store, result, "bench", nlohmann::json::object(), nlohmann::json::object());
    };
    best_store = std::min(best_store, Seconds([&] { import_into_a_store("store", options); }));
    // As `evalsuite import` runs by default: one parsing thread per hardware thread.
    evalsuite::importer::ImportOptions threaded = options;
    threaded.jobs = 0;
    best_store_threads = std::min(best_store_threads, Seconds([&] { import_into_a_store("threads", threaded); }));
  }

  // The official summarizer on one fresh copy of each submitter folder (it writes scaling.json where it reads).
  double peer_seconds = 0;
  std::uintmax_t peer_bytes = 0;
  bool peer_ok = peer;
  const fs::path peers = fs::path(EVALSUITE_SOURCE_DIR) / ".." / "shared" / "peers" / "mlperf_logging";
  if (peer && !fs::is_directory(peers)) {
    std::cout << "import_bench: ../shared/peers/mlperf_logging is absent: no summarizer column\n";
    peer_ok = false;
  }
  std::map<std::string, RoundTiming> round_timings;
  if (peer_ok) {
    int n = 0;
    for (const Submitter& s : submitters) {
      const fs::path copy = work / "peer" / std::to_string(n++);
      // The summarizer cannot summarize v0.6 folders (their system descriptions are not JSON): it stops with an
      // error, so they are left out of its column (evalsuite reads them all).
      if (s.ruleset == "0.6.0") continue;
      fs::create_directories(copy);
      fs::copy(s.folder, copy / s.folder.filename(), fs::copy_options::recursive);
      std::uintmax_t submitter_bytes = 0;
      for (const auto& e : fs::recursive_directory_iterator(s.folder)) {
        if (e.is_regular_file() && e.path().filename().string().rfind("result_", 0) == 0) {
          submitter_bytes += e.file_size();
        }
      }
      const std::string command = "cd '" + copy.string() + "' && PYTHONPATH='" + fs::weakly_canonical(peers).string() +
                                  "' /usr/bin/python3 -m mlperf_logging.result_summarizer '" +
                                  s.folder.filename().string() + "' training " + s.ruleset +
                                  " --csv out.csv > summarizer.log 2>&1";
      bool ran = false;
      const double seconds = Seconds([&] { ran = Run(command); });
      if (ran) {
        peer_seconds += seconds;
        peer_bytes += submitter_bytes;
        RoundTiming& timing = round_timings[s.round];
        timing.summarizer_seconds += seconds;
        timing.bytes += submitter_bytes;
        timing.submitters.push_back(s.folder);
      } else {
        std::cout << "import_bench: the summarizer failed on " << s.folder.string() << "; left out of its column\n";
      }
    }
  }
  // Round by round, whole process against whole process: `evalsuite import` of a fresh copy of the submitter
  // folders the summarizer read (not the summarizer's copies: it writes scaling.json into them), into a fresh
  // store, best of `rounds`. The issue's goal is 300x on every round, not only over all of them together.
  struct RoundRow {
    std::string round;
    double mb = 0, summarizer = 0, evalsuite = 0;
  };
  std::vector<RoundRow> round_rows;
  for (const auto& [round_name, timing] : round_timings) {
    const fs::path copy = work / "rounds" / round_name;
    for (const fs::path& submitter : timing.submitters) {
      fs::create_directories(copy / submitter.filename());
      fs::copy(submitter, copy / submitter.filename(), fs::copy_options::recursive);
    }
    double best = 1e300;
    for (int r = 0; r < rounds; ++r) {
      const fs::path store = work / "rounds" / (round_name + "-" + std::to_string(r) + ".db");
      // Exit 3 is an import with warnings (compliance findings, which every round has): it ran.
      const std::string command = std::string("'") + EVALSUITE_BINARY + "' import '" + copy.string() + "' --store '" +
                                  store.string() + "' --quiet > /dev/null 2>&1";
      int rc = 0;
      const double seconds = Seconds([&] { rc = std::system(command.c_str()); });
      if (!WIFEXITED(rc) || (WEXITSTATUS(rc) != 0 && WEXITSTATUS(rc) != 3)) {
        std::cout << "import_bench: evalsuite import failed on " << copy.string() << " (exit " << rc << ")\n";
        std::exit(1);
      }
      best = std::min(best, seconds);
    }
    round_rows.push_back({round_name, static_cast<double>(timing.bytes) / 1e6, timing.summarizer_seconds, best});
  }
  // The fixed cost every whole-process import pays whatever it reads, timed the same way (through std::system):
  // a process that does nothing, evalsuite's start, and an import of the smallest shared result file into a fresh
  // store (start, the store's creation and its synchronous=FULL commits, one file's scoring). A round whose
  // summarizer time over 300 is below this floor cannot meet the goal however fast the parsing gets.
  struct Floor {
    std::string what;
    double seconds = 1e300;
  };
  std::vector<Floor> floors;
  if (!round_rows.empty()) {
    const fs::path* smallest = &originals.front();
    for (const fs::path& original : originals) {
      if (fs::file_size(mlperf / original) < fs::file_size(mlperf / *smallest)) smallest = &original;
    }
    // <round>/<org>/results/<system>/<benchmark>/result_N.txt keeps the round in the path, where the ruleset is read.
    const fs::path one_file = work / "floor" / smallest->begin()->filename() / "org" / "results" / "system" /
                              smallest->parent_path().filename() / "result_0.txt";
    fs::create_directories(one_file.parent_path());
    fs::copy_file(mlperf / *smallest, one_file);
    const std::string binary = std::string("'") + EVALSUITE_BINARY + "'";
    const int reps = std::max(rounds, 15);
    auto best_of = [&](const std::string& what, const std::function<std::string(int)>& command_for) {
      Floor f{what};
      for (int r = 0; r < reps; ++r) {
        const std::string command = command_for(r);
        int rc = 0;
        f.seconds = std::min(f.seconds, Seconds([&] { rc = std::system(command.c_str()); }));
        if (!WIFEXITED(rc) || (WEXITSTATUS(rc) != 0 && WEXITSTATUS(rc) != 3)) {
          std::cout << "import_bench: floor command failed (exit " << rc << "): " << command << "\n";
          std::exit(1);
        }
      }
      floors.push_back(f);
    };
    best_of("a process that does nothing (/bin/true)", [](int) { return std::string("/bin/true"); });
    best_of("evalsuite --version", [&](int) { return binary + " --version > /dev/null 2>&1"; });
    best_of("evalsuite import of one file (" + std::to_string(fs::file_size(one_file) / 1024) + " KiB)", [&](int r) {
      return binary + " import '" + (work / "floor").string() + "' --store '" +
             (work / ("floor-store-" + std::to_string(r) + ".db")).string() + "' --quiet > /dev/null 2>&1";
    });
  }
  std::error_code ec;
  fs::remove_all(work, ec);

  auto rate = [&](double s) { return mb / s; };
  std::printf("%-44s %10s %10s\n", "", "MB/s", "seconds");
  std::printf("%-44s %10.0f %10.3f\n", "cat FILES > /dev/null", rate(best_cat), best_cat);
  std::printf("%-44s %10.0f %10.3f\n", "grep -c ':::MLLOG' FILES > out", rate(best_grep), best_grep);
  std::printf("%-44s %10.0f %10.3f\n", "evalsuite import, parse only (1 thread)", rate(best_parse), best_parse);
  std::printf("%-44s %10.0f %10.3f\n", "evalsuite import into the store (1 thread)", rate(best_store), best_store);
  const std::string threaded_row = "evalsuite import into the store (" + std::to_string(hardware_threads) + " threads)";
  std::printf("%-44s %10.0f %10.3f\n", threaded_row.c_str(), rate(best_store_threads), best_store_threads);
  double peer_rate = 0;
  if (peer_ok && peer_seconds > 0) {
    peer_rate = static_cast<double>(peer_bytes) / 1e6 / peer_seconds;
    std::printf("%-44s %10.2f %10.3f  (%.1f MB, one copy)\n", "official result_summarizer (python3)", peer_rate,
                peer_seconds, static_cast<double>(peer_bytes) / 1e6);
  }
  std::printf(
      "ratios: parse/cat = %.2f, store/cat = %.2f, store with %u threads/cat = %.2f, parse/grep = %.2f, "
      "store/parse = %.2f (target >= 0.5)\n",
      best_cat / best_parse, best_cat / best_store, hardware_threads, best_cat / best_store_threads,
      best_grep / best_parse, best_parse / best_store);
  if (peer_rate > 0) {
    std::printf("ratios: parse/summarizer = %.0f, store/summarizer = %.0f\n", rate(best_parse) / peer_rate,
                rate(best_store) / peer_rate);
  }
  if (!round_rows.empty()) {
    std::printf(
        "\nround by round, whole processes (summarizer: one per submitter folder; evalsuite import: one, into a "
        "fresh store, best of %d):\n",
        rounds);
    std::printf("%-24s %8s %14s %14s %8s\n", "round", "MB", "summarizer s", "evalsuite s", "ratio");
    double lowest = 1e300;
    std::string lowest_round;
    for (const RoundRow& row : round_rows) {
      const double ratio = row.summarizer / row.evalsuite;
      std::printf("%-24s %8.1f %14.2f %14.3f %7.0fx\n", row.round.c_str(), row.mb, row.summarizer, row.evalsuite,
                  ratio);
      if (ratio < lowest) {
        lowest = ratio;
        lowest_round = row.round;
      }
    }
    std::printf("lowest ratio: %.0fx (%s); goal 300x on every round\n", lowest, lowest_round.c_str());
    std::printf("\nthe fixed cost of a whole process (best of %d), against each round's budget at 300x:\n",
                std::max(rounds, 15));
    for (const Floor& f : floors) std::printf("%-52s %8.1f ms\n", f.what.c_str(), f.seconds * 1e3);
    if (floors.size() == 3) {
      const double start = floors[1].seconds, one_file = floors[2].seconds;
      for (const RoundRow& row : round_rows) {
        const double budget = row.summarizer / 300;
        std::printf("%-24s budget at 300x %7.1f ms: ", row.round.c_str(), budget * 1e3);
        if (budget < start) {
          std::printf("below evalsuite's bare start: out of reach\n");
        } else if (budget < one_file) {
          std::printf("below an import of one file: out of reach\n");
        } else {
          // What is left after the fixed cost must read and store the round's bytes: compared with cat's rate.
          const double left = budget - one_file;
          std::printf("%.1f ms beyond an import of one file for %.1f MB: %.0f MB/s needed (cat: %.0f MB/s)\n",
                      left * 1e3, row.mb, row.mb / left, rate(best_cat));
        }
      }
    }
  }
  std::printf("runs imported per pass: %zu (expected %zu)\n", runs_parsed, files.size());
  return runs_parsed == files.size() ? 0 : 1;
}
