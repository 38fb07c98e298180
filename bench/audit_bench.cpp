// `evalsuite audit`'s time beside the import's, round by round over every shared MLPerf round: each round imported
// in process (parse and score, as `evalsuite import --no-store`), then audited from the import's details (as the
// command reads them from the store) with the command's defaults (10,000 reruns per submission). Best of --rounds.
// Usage: audit_bench [--rounds N]. Skips with a message when ../shared is absent.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "analysis/mlperf_audit.h"
#include "bench/shared_data.h"
#include "importer/importer.h"
#include "importer/mlperf_audit_inputs.h"

namespace fs = std::filesystem;

namespace {

double BestSeconds(int rounds, const std::function<void()>& f) {
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < rounds; ++i) {
    const auto start = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 3;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--rounds") rounds = std::max(1, std::atoi(argv[i + 1]));
  }
  const std::optional<fs::path> shared = evalsuite::bench::SharedDataHolding("mlperf");
  if (!shared) {
    std::cout << "audit_bench: ../shared/data/mlperf is absent: skipping\n";
    return 0;
  }
  std::vector<fs::path> round_folders;
  for (const auto& r : fs::directory_iterator(*shared / "mlperf")) {
    if (r.path().filename().string().rfind("training_results_", 0) == 0) round_folders.push_back(r.path());
  }
  std::sort(round_folders.begin(), round_folders.end());
  std::cout << "round                    submissions  import s  audit s\n";
  double total_import = 0, total_audit = 0;
  for (const fs::path& folder : round_folders) {
    evalsuite::importer::ImportOptions options;
    options.paths = {folder};
    evalsuite::importer::ImportResult result;
    const double import_seconds = BestSeconds(rounds, [&] { result = evalsuite::importer::Import(options); });
    std::vector<nlohmann::json> details;
    for (const auto& g : result.groups) {
      if (g.format == "mlperf") details.push_back(evalsuite::importer::StoredEntryExtra(g));
    }
    const double audit_seconds = BestSeconds(rounds, [&] {
      evalsuite::importer::AuditRcpFiles rcp_files;
      std::vector<evalsuite::analysis::AuditInput> inputs;
      for (const nlohmann::json& d : details) inputs.push_back(evalsuite::importer::AuditInputOf(d, rcp_files));
      const evalsuite::analysis::AuditReport report =
          evalsuite::analysis::AuditSubmissions(std::move(inputs), evalsuite::analysis::AuditSettings{});
      if (report.groups.empty() && !details.empty()) std::cerr << "audit_bench: no group audited\n";
    });
    total_import += import_seconds;
    total_audit += audit_seconds;
    std::printf("%-24s %11zu  %8.3f  %7.3f\n", folder.filename().string().c_str(), details.size(), import_seconds,
                audit_seconds);
  }
  std::printf("%-24s %11s  %8.3f  %7.3f\n", "all rounds", "", total_import, total_audit);
  return 0;
}
