// Reads MLPerf RCP files (rcps_<benchmark>.json: {"<name>": {"Benchmark", "BS", "Epochs to converge": [...]}})
// and checks one system-and-benchmark folder's runs against them as rcp_checker.check_directory does.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "stats/rcp.h"

namespace evalsuite::importer {

struct RcpRecord {
  std::string name;
  std::string benchmark;
  double batch_size = 0;
  std::vector<double> epochs;
};

// Throws IoError (unreadable) or InputError (not an RCP file) naming the file and the record at fault.
std::vector<RcpRecord> ReadRcpFile(const std::filesystem::path& file);
// `rcp` is one RCP file or a folder holding rcps_<benchmark>.json; nullopt when the benchmark has none.
std::optional<std::filesystem::path> FindRcpFile(const std::filesystem::path& rcp, const std::string& benchmark);

enum class RcpPass { kPruned, kFull };  // the package checker uses the pruned references

// One run as the RCP checker sees it: its epochs to converge (nullopt when it did not converge) and batch size.
struct RcpRun {
  std::string file;
  std::optional<double> epochs;
  std::optional<double> global_batch_size;
};

struct RcpOutcome {
  bool pass = false;
  std::string message;
  std::optional<double> batch_size;
  std::optional<stats::RcpPoint> reference;
  std::optional<stats::RcpVerdict> verdict;
  nlohmann::json ToJson() const;
};

RcpOutcome CheckRunsAgainstRcp(const std::vector<RcpRecord>& records, const std::string& benchmark,
                               const std::vector<RcpRun>& runs, RcpPass pass);

}  // namespace evalsuite::importer
