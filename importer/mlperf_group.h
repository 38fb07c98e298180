// Scores one MLPerf system-and-benchmark folder by the rules of its ruleset: the runs that count (compliance),
// the raw olympic score, the RCP verdict and normalization as the official checker gives them, the published
// scaling.json and the official score (raw score x the folder's scaling factor, as the summarizer reads it).
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/mlperf_facts.h"
#include "importer/import_result.h"
#include "importer/mlperf_rules.h"
#include "importer/rcp_check.h"
#include "runlog/mlperf_log.h"

namespace evalsuite::importer {

// The ruleset of a folder and how it was found: `forced` (--ruleset), else the round in `location`'s path (a
// folder "training_results_vX.Y" or "vX.Y"), else the logs themselves (the v0.5 / v0.6 line formats, or the only
// v0.7+ ruleset naming the benchmark). Never the newest by default: where several rulesets fit, `ruleset` is null
// and `error` names the benchmark and the candidates. A `forced` ruleset other than the path's round is kept, with a
// `warning` naming both. Throws InputError naming --ruleset when `forced` is not a
// known ruleset.
struct DetectedRuleset {
  const Ruleset* ruleset = nullptr;
  std::string source;   // "--ruleset", "folder name", "log format", "the only ruleset with <benchmark>"
  std::string error;    // why no ruleset was chosen
  std::string warning;  // a --ruleset that contradicts the round the path names (both named)
};
DetectedRuleset DetectRuleset(const std::string& forced, const std::filesystem::path& location,
                              runlog::MlperfLogFormat format, const std::string& benchmark);

// The system description the summarizer reads for a benchmark folder <org>/results/<system>/<benchmark>:
// <org>/systems/<system>.json. `division` is empty and `problem` says why when it cannot be read (the summarizer
// then skips the system).
struct SystemDescription {
  std::filesystem::path file;
  std::string division;
  std::string problem;
};
SystemDescription ReadSystemDescription(const std::filesystem::path& benchmark_folder);

// Stable diffusion logs FID and CLIP as two eval_accuracy records per step, told apart by metadata.metric: fold
// each step's pair into one eval whose value is {"FID": x, "CLIP": y} (time and line of the later one). The step
// is step_num in ruleset 3.1.0, samples_count otherwise, as the RCP checker reads it.
void FoldStableDiffusionEvals(runlog::MlperfRun& run, const std::string& ruleset);

// The RCP checker's convergence point of one run (nullopt unless run_stop says success). Stable diffusion's is read
// from the field FoldStableDiffusionEvals folded by: step_num in ruleset 3.1.0, samples_count otherwise, whatever
// else the record carries (a log with both fields in 4.1 converges in samples, as the checker reads it).
std::optional<double> ConvergencePoint(const runlog::MlperfRun& run, ConvergenceUnit unit, const std::string& ruleset);

// Builds MLPerf groups, several at once on as many threads: each Build writes only to its own `out`, and the RCP
// files read are shared under a lock. Import joins the parts in folder order.
class MlperfGroupBuilder {
 public:
  explicit MlperfGroupBuilder(const ImportOptions& options) : options_(options) {}
  // `group` has source, location and format set; `runs` are its parsed result files in natural order. The group,
  // and the warnings, errors, compliance findings and notes met while scoring it, are appended to `out`.
  void Build(ImportedGroup group, const std::vector<std::filesystem::path>& files,
             const std::vector<runlog::MlperfRun*>& runs, ImportResult& out);
  // An RCP file that cannot be read is an error of every group that needs it; the import says it once, where the
  // first of them (in folder order) says it. These are those errors' texts.
  std::set<std::string> RcpErrorsToSayOnce() const;

 private:
  // The summarizer's energy score of a group with power logs (details.energy), over the runs that reached; none
  // at a target other than the rules' (`custom_target`), where the official score is not computed either.
  analysis::MlperfEnergyFacts Energy(const ImportedGroup& group, const std::vector<std::filesystem::path>& files,
                                     const std::vector<runlog::MlperfRun*>& runs, std::size_t drop,
                                     std::optional<double> published, bool custom_target, ImportResult& out) const;
  RcpOutcome CheckRcp(const Ruleset* ruleset, const BenchmarkRule* rule, const std::string& division,
                      const std::vector<RcpRun>& runs, nlohmann::json& source, ImportResult& out);

  const ImportOptions& options_;
  // Per RCP file: its records (empty when unusable, `error` saying why), and its reference points per benchmark
  // rule (name, runs, trim).
  struct RcpFile {
    std::vector<RcpRecord> records;
    std::string error;
    std::map<std::string, std::vector<stats::RcpPoint>> reference_of_rule;
  };
  mutable std::mutex rcp_cache_mutex_;
  std::map<std::string, RcpFile> rcp_cache_;
};

}  // namespace evalsuite::importer
