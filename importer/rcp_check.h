// Reads MLPerf RCP files (rcps_<benchmark>.json: {"<name>": {"Benchmark", "BS", "Epochs to converge" or
// "samples to converge": [...]}}), from a folder or the ones built into evalsuite, and checks one
// system-and-benchmark folder's runs against them as mlperf_logging's rcp_checker.check_directory does.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "importer/mlperf_rules.h"
#include "stats/rcp.h"

namespace evalsuite::importer {

struct RcpRecord {
  std::string name;
  std::string benchmark;
  double batch_size = 0;
  std::vector<double> epochs;  // epochs or samples to converge, one per reference run
};

// Throws InputError (not an RCP file) naming `where` and the record at fault. The checker reads "samples to
// converge" for llama2_70b_lora and flux1 and "Epochs to converge" for the rest; a file holding only the other
// key is read with it.
std::vector<RcpRecord> ParseRcpRecords(std::string_view text, const std::string& where);
// Throws IoError (unreadable) or InputError.
std::vector<RcpRecord> ReadRcpFile(const std::filesystem::path& file);
// `rcp` is one RCP file or a folder holding rcps_<benchmark>.json; nullopt when the benchmark has none.
std::optional<std::filesystem::path> FindRcpFile(const std::filesystem::path& rcp, const std::string& benchmark);

enum class RcpPass { kPruned, kFull };  // the package checker uses the pruned references

// One run as the RCP checker sees it: its convergence point (nullopt when it did not converge) and batch size.
struct RcpRun {
  std::string file;
  std::optional<double> epochs;
  std::optional<double> global_batch_size;
};

struct RcpOutcome {
  std::optional<bool> pass;  // nullopt: no RCP rule applies ("n/a")
  // The summarizer's RCP column: "Pass", "Fail", "Interp. Fail", "Missing", "No RCP", "Unknown state", or "n/a".
  std::string verdict = "n/a";
  std::string message;  // the checker's message, or why no rule applies
  std::optional<double> batch_size;
  std::optional<stats::RcpPoint> reference;
  std::optional<stats::RcpVerdict> result;
};

// The reference points an RCP file gives a benchmark: every record's point (mean, spread and the checker's minimum
// acceptable mean, found by its bisection), sorted by batch size, and with RcpPass::kPruned only the records whose
// batch size survives the checker's pruning. It depends on the file and the rule alone, so an import computes it once
// per file and benchmark (the bisections are most of an RCP check's cost).
std::vector<stats::RcpPoint> RcpReferencePoints(const std::vector<RcpRecord>& records, const BenchmarkRule& rule,
                                                RcpPass pass);

// The official check of one folder against `reference` (RcpReferencePoints). `ruleset` picks the checker's version
// quirks (llama31_405b from 5.0.0).
RcpOutcome CheckRunsAgainstRcp(const std::vector<stats::RcpPoint>& reference, const BenchmarkRule& rule,
                               const std::string& ruleset, const std::vector<RcpRun>& runs);
// The same from the file's records.
RcpOutcome CheckRunsAgainstRcp(const std::vector<RcpRecord>& records, const BenchmarkRule& rule,
                               const std::string& ruleset, const std::vector<RcpRun>& runs, RcpPass pass);

// An outcome saying no rule applies, and why.
RcpOutcome NoRcpRule(const std::string& why);

}  // namespace evalsuite::importer
