#include "importer/mlperf_group.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string_view>

#include "common/error.h"
#include "common/parallel_for.h"
#include "importer/group_scoring.h"
#include "importer/mlperf_compliance.h"
#include "importer/mlperf_compliance_table.h"
#include "importer/mlperf_power.h"
#include "importer/mlperf_throughput.h"
#include "importer/rcp_embedded.h"
#include "importer/threshold_scale.h"
#include "stats/descriptive.h"

namespace evalsuite::importer {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The RCP check as the group's facts record it (norm_factor only when the check passed, as the checker counts it).
analysis::MlperfRcpFacts RcpFactsOf(const RcpOutcome& rcp) {
  analysis::MlperfRcpFacts facts;
  facts.pass = rcp.pass;
  facts.verdict = rcp.verdict;
  facts.message = rcp.message;
  facts.batch_size = rcp.batch_size;
  if (rcp.reference) {
    facts.reference = rcp.reference->name;
    facts.rcp_mean = rcp.reference->mean;
    facts.rcp_stdev = rcp.reference->stdev;
    facts.min_epochs = rcp.reference->min_epochs;
    facts.max_speedup = rcp.reference->max_speedup;
  }
  if (rcp.result) {
    facts.submission_mean_epochs = rcp.result->submission_mean;
    if (rcp.pass.value_or(false)) facts.norm_factor = rcp.result->norm_factor;
  }
  return facts;
}

// scaling.json as the summarizer reads it: {"scaling_factor": x}.
std::optional<double> ReadPublishedScaling(const fs::path& folder, std::vector<std::string>& warnings) {
  const fs::path file = folder / "scaling.json";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const json doc = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("scaling_factor") || !doc["scaling_factor"].is_number()) {
    warnings.push_back(file.string() + ": not {\"scaling_factor\": <number>}; ignored");
    return std::nullopt;
  }
  return doc["scaling_factor"].get<double>();
}

std::string DivisionOf(const std::vector<runlog::MlperfRun*>& runs) {
  for (const runlog::MlperfRun* run : runs) {
    auto it = run->submission.find("submission_division");
    if (it != run->submission.end() && it->is_string()) return it->get<std::string>();
  }
  return "";
}

// The round a folder's whole name gives, as the pattern (?:training_results_)?v(\d+\.\d+)(?:\.\d+)? reads it
// ("training_results_v4.1", "v4.1", "v4.1.0": "4.1"), or "". Written out rather than with std::regex, whose
// instantiation cost about 2 s of this file's 19 s compile at -O3 (a cold build compiles it on every machine).
std::string RoundNamedBy(std::string_view name) {
  constexpr std::string_view kPrefix = "training_results_";
  if (name.substr(0, kPrefix.size()) == kPrefix) name.remove_prefix(kPrefix.size());
  if (name.empty() || name.front() != 'v') return "";
  std::size_t at = 1;
  auto digits = [&] {  // one or more ASCII digits from `at`
    const std::size_t from = at;
    while (at < name.size() && name[at] >= '0' && name[at] <= '9') ++at;
    return at > from;
  };
  auto dot = [&] {  // one '.' at `at`
    if (at >= name.size() || name[at] != '.') return false;
    ++at;
    return true;
  };
  if (!digits() || !dot() || !digits()) return "";
  const std::size_t round_end = at;
  if (at < name.size() && !(dot() && digits() && at == name.size())) return "";
  return std::string(name.substr(1, round_end - 1));
}

}  // namespace

DetectedRuleset DetectRuleset(const std::string& forced, const fs::path& location, runlog::MlperfLogFormat format,
                              const std::string& benchmark) {
  // The innermost folder naming a round wins ("training_results_v4.1", or a folder named "v4.1").
  std::string round, round_folder;
  for (const fs::path& part : location) {
    const std::string name = part.string();
    if (std::string named = RoundNamedBy(name); !named.empty()) {
      round = std::move(named);
      round_folder = name;
    }
  }
  if (!forced.empty()) {
    const Ruleset* r = FindRuleset(forced);
    if (r == nullptr) {
      std::string known;
      for (const Ruleset& k : Rulesets()) known += (known.empty() ? "" : ", ") + k.version;
      throw InputError("--ruleset", "unknown ruleset \"" + forced + "\" (known: " + known + ")");
    }
    DetectedRuleset detected{r, "--ruleset", "", ""};
    const Ruleset* in_path = round.empty() ? nullptr : FindRuleset(round);
    if (!round.empty() && in_path != r) {
      detected.warning = "--ruleset " + r->version + " contradicts round v" + round + " named in the path (\"" +
                         round_folder + "\"" + (in_path != nullptr ? ", ruleset " + in_path->version : "") +
                         "); the rules, RCPs and score follow --ruleset " + r->version;
    }
    return detected;
  }
  if (!round.empty()) {
    if (const Ruleset* r = FindRuleset(round)) return {r, "folder name", "", ""};
    return {nullptr, "folder name", "the path names round v" + round + ", which is not a known ruleset; give --ruleset",
            ""};
  }
  if (format == runlog::MlperfLogFormat::kV05) return {FindRuleset("0.5.0"), "log format", "", ""};
  if (format == runlog::MlperfLogFormat::kV06) return {FindRuleset("0.6.0"), "log format", "", ""};
  std::vector<const Ruleset*> candidates;
  for (const Ruleset& r : Rulesets()) {
    if (r.version >= std::string("0.7.0") && r.Find(benchmark) != nullptr) candidates.push_back(&r);
  }
  if (candidates.size() == 1) return {candidates.front(), "the only ruleset with " + benchmark, "", ""};
  std::string names;
  for (const Ruleset* r : candidates) names += (names.empty() ? "" : ", ") + r->version;
  return {nullptr, "",
          candidates.empty()
              ? "no ruleset names benchmark \"" + benchmark + "\" and the path names no round; give --ruleset"
              : "cannot tell the ruleset of benchmark \"" + benchmark + "\": the path names no round " +
                    "(training_results_vX.Y or vX.Y) and the logs fit " + names + "; give --ruleset",
          ""};
}

SystemDescription ReadSystemDescription(const fs::path& benchmark_folder) {
  SystemDescription desc;
  const fs::path system_folder = benchmark_folder.parent_path();
  desc.file = system_folder.parent_path().parent_path() / "systems" / (system_folder.filename().string() + ".json");
  std::error_code ec;
  if (!fs::is_regular_file(desc.file, ec)) {
    desc.problem = desc.file.string() + ": no system description";
    return desc;
  }
  std::ifstream in(desc.file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const json doc = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    desc.problem = desc.file.string() + ": not JSON";
  } else if (!doc.contains("division") || !doc["division"].is_string()) {
    desc.problem = desc.file.string() + ": no \"division\" field";
  } else {
    desc.division = doc["division"].get<std::string>();
  }
  return desc;
}

void FoldStableDiffusionEvals(runlog::MlperfRun& run, const std::string& ruleset) {
  const bool by_step = ruleset == "3.1.0";
  auto fold = [&](std::size_t begin, std::size_t end) {
    std::vector<runlog::MlperfEval> out;
    std::vector<double> steps;
    for (std::size_t i = begin; i < end; ++i) {
      const runlog::MlperfEval& e = run.evals[i];
      const std::optional<double> step = by_step ? e.step_num : e.samples_count;
      if (!step || e.metric.empty()) continue;
      auto at = std::find(steps.begin(), steps.end(), *step);
      if (at == steps.end()) {
        steps.push_back(*step);
        runlog::MlperfEval folded = e;
        folded.value = json::object();
        folded.metric = "FID and CLIP";
        out.push_back(std::move(folded));
        at = steps.end() - 1;
      }
      runlog::MlperfEval& target = out[static_cast<std::size_t>(at - steps.begin())];
      target.value[e.metric] = e.value;
      target.time_ms = std::max(target.time_ms, e.time_ms);
      target.line = std::max(target.line, e.line);
    }
    return out;
  };
  std::vector<runlog::MlperfEval> before = fold(0, std::min(run.evals_before_stop, run.evals.size()));
  std::vector<runlog::MlperfEval> after = fold(std::min(run.evals_before_stop, run.evals.size()), run.evals.size());
  run.evals_before_stop = before.size();
  before.insert(before.end(), after.begin(), after.end());
  run.evals = std::move(before);
}

std::optional<double> ConvergencePoint(const runlog::MlperfRun& run, ConvergenceUnit unit, const std::string& ruleset) {
  if (!run.Succeeded()) return std::nullopt;
  const std::size_t n = std::min(run.evals_before_stop, run.evals.size());
  switch (unit) {
    case ConvergenceUnit::kEpochs:
      return run.EpochsToConverge();
    case ConvergenceUnit::kSamples:
      for (std::size_t i = n; i > 0; --i) {
        if (run.evals[i - 1].samples_count) return run.evals[i - 1].samples_count;
      }
      return std::nullopt;
    case ConvergenceUnit::kStableDiffusion: {
      std::optional<double> first;
      for (std::size_t i = 0; i < n; ++i) {
        const json& v = run.evals[i].value;
        const std::optional<double> step = ruleset == "3.1.0" ? run.evals[i].step_num : run.evals[i].samples_count;
        if (!step || !v.is_object() || !v.contains("FID") || !v.contains("CLIP")) continue;
        if (!v["FID"].is_number() || !v["CLIP"].is_number()) continue;
        if (v["FID"].get<double>() <= 90.0 && v["CLIP"].get<double>() >= 0.15 && (!first || *step < *first)) {
          first = step;
        }
      }
      return first;
    }
  }
  return std::nullopt;
}

RcpOutcome MlperfGroupBuilder::CheckRcp(const Ruleset* ruleset, const BenchmarkRule* rule, const std::string& division,
                                        const std::vector<RcpRun>& runs, json& source, ImportResult& out) {
  if (ruleset == nullptr) return NoRcpRule("no ruleset names this benchmark");
  if (!options_.rcp && !ruleset->has_rcps()) return NoRcpRule("ruleset " + ruleset->version + " has no RCPs");
  if (division != "closed") {
    return NoRcpRule("division \"" + division + "\": the summarizer checks RCPs of the closed division only");
  }
  if (rule == nullptr) return NoRcpRule("no ruleset has rules for this benchmark");
  if (!rule->rcp_runs) return NoRcpRule("the official RCP checker has no rule for " + rule->name);
  std::string key;
  std::optional<std::string_view> embedded;
  std::optional<fs::path> file;
  if (options_.rcp) {
    file = FindRcpFile(*options_.rcp, rule->name);
    if (!file) return NoRcpRule("no RCP file for " + rule->name + " in " + options_.rcp->string());
    key = file->string();
  } else {
    embedded = EmbeddedRcp(ruleset->version, rule->name);
    if (!embedded) return NoRcpRule("no RCPs for " + rule->name + " in ruleset " + ruleset->version);
    key = "built-in training_" + ruleset->version + "/rcps_" + rule->name + ".json";
  }
  source = key;
  // Folders are built on several threads: the cache is read and filled under its lock. Nodes of a std::map stay
  // where they are, so the points found are read after the lock is given back.
  const std::vector<stats::RcpPoint>* reference = nullptr;
  {
    const std::lock_guard<std::mutex> lock(rcp_cache_mutex_);
    auto it = rcp_cache_.find(key);
    if (it == rcp_cache_.end()) {
      RcpFile read;
      try {
        read.records = file ? ReadRcpFile(*file) : ParseRcpRecords(*embedded, key);
      } catch (const Error& e) {
        read.error = e.what();
      }
      it = rcp_cache_.emplace(key, std::move(read)).first;
    }
    RcpFile& rcps = it->second;
    // Every folder that needs an unreadable file says so; Import keeps the first (RcpErrorsToSayOnce).
    if (!rcps.error.empty()) out.errors.push_back(rcps.error);
    if (rcps.records.empty()) return NoRcpRule("RCP file " + key + " unusable");
    // What the points depend on besides the file: one --rcp file may serve rulesets whose rules differ.
    const std::string rule_key =
        rule->name + "/" + std::to_string(*rule->rcp_runs) + "/" + std::to_string(rule->drop_each_side);
    auto found = rcps.reference_of_rule.find(rule_key);
    if (found == rcps.reference_of_rule.end()) {
      found =
          rcps.reference_of_rule.emplace(rule_key, RcpReferencePoints(rcps.records, *rule, options_.rcp_pass)).first;
    }
    reference = &found->second;
  }
  return CheckRunsAgainstRcp(*reference, *rule, ruleset->version, runs);
}

std::set<std::string> MlperfGroupBuilder::RcpErrorsToSayOnce() const {
  const std::lock_guard<std::mutex> lock(rcp_cache_mutex_);
  std::set<std::string> errors;
  for (const auto& [key, file] : rcp_cache_) {
    if (!file.error.empty()) errors.insert(file.error);
  }
  return errors;
}

analysis::MlperfEnergyFacts MlperfGroupBuilder::Energy(const ImportedGroup& group, const std::vector<fs::path>& files,
                                                       const std::vector<runlog::MlperfRun*>& runs, std::size_t drop,
                                                       std::optional<double> published, bool custom_target,
                                                       ImportResult& out) const {
  std::vector<double> energies, minutes;
  analysis::MlperfEnergyFacts energy;
  bool complete = true;
  // Each run's power logs (megabytes of readings per node) on their own thread; gathered in run order below.
  std::vector<std::optional<double>> energy_of(runs.size());
  std::vector<std::string> error_of(runs.size());
  ParallelFor(runs.size(), options_.jobs, [&](std::size_t i) {
    if (!group.runs[i].tta_minutes || custom_target) return;
    const double ms = *runs[i]->run_stop_ms - *runs[i]->run_start_ms;
    energy_of[i] = RunEnergy(group.location, files[i].stem().string(), ms, error_of[i]);
  });
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!group.runs[i].tta_minutes || custom_target) continue;
    if (!energy_of[i]) {
      out.errors.push_back(error_of[i]);
      complete = false;
      continue;
    }
    energies.push_back(*energy_of[i]);
    minutes.push_back(*group.runs[i].tta_minutes);
    energy.runs[files[i].filename().string()] = *energy_of[i];
  }
  const std::optional<double> score =
      complete ? EnergyScore(energies, minutes, runs.size() - energies.size(), drop, published.value_or(1.0))
               : std::nullopt;
  energy.score = score;
  energy.unit = "joules (the summarizer's Energy column)";
  energy.scaling_factor = published.value_or(1.0);
  return energy;
}

// The summarizer's steps for one folder, in its order. Over clang-tidy's complexity limit since before the style gate;
// splitting it into stages (ruleset, runs, compliance, scores, RCP) is its own change, left for one that can rerun the
// official comparison after each stage moves.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
void MlperfGroupBuilder::Build(ImportedGroup group, const std::vector<fs::path>& files,
                               const std::vector<runlog::MlperfRun*>& runs, ImportResult& out) {
  group.system = group.location.parent_path().filename().string();
  std::string benchmark;
  runlog::MlperfLogFormat log_format = runlog::MlperfLogFormat::kUnknown;
  for (const runlog::MlperfRun* run : runs) {
    if (log_format == runlog::MlperfLogFormat::kUnknown) log_format = run->format;
    if (run->benchmark.empty()) continue;
    if (benchmark.empty()) {
      benchmark = run->benchmark;
    } else if (run->benchmark != benchmark) {
      out.warnings.push_back(run->source + ": benchmark \"" + run->benchmark + "\" differs from \"" + benchmark +
                             "\" of the other runs in " + group.source);
    }
  }
  if (benchmark.empty()) benchmark = group.location.filename().string();
  group.benchmark = benchmark;
  group.entry = group.system + "/" + benchmark;

  const DetectedRuleset detected = DetectRuleset(options_.ruleset, group.location, log_format, benchmark);
  if (detected.ruleset == nullptr) {
    out.errors.push_back(group.source + ": " + detected.error);
    return;
  }
  if (!detected.warning.empty()) out.warnings.push_back(group.source + ": " + detected.warning);
  const Ruleset* ruleset = detected.ruleset;
  // The official compliance rules (none for 0.5.0, which the package does not ship).
  const ComplianceRules* compliance_rules =
      FindComplianceRules(ruleset->version, benchmark == "mask" ? "maskrcnn" : benchmark);
  const BenchmarkRule* rule = ruleset != nullptr ? ruleset->Find(benchmark) : nullptr;
  if (ruleset != nullptr && rule == nullptr) {
    out.warnings.push_back(group.source + ": ruleset " + ruleset->version + " has no benchmark \"" + benchmark +
                           "\"; no target, compliance target check or RCP rule");
  }
  if (rule != nullptr && rule->name == "stable_diffusion") {
    for (runlog::MlperfRun* run : runs) FoldStableDiffusionEvals(*run, ruleset->version);
  }
  const std::optional<MlperfTarget> target = rule != nullptr ? StoredTarget(*rule) : std::nullopt;
  group.metric = target ? target->metric : "eval_accuracy";
  // A --threshold is read as the log writes its metric (threshold_scale.h). The rules' own target keeps the official
  // score and the RCP check; any other is a different question, and nothing official is printed for it.
  std::optional<MlperfThreshold> given;
  if (options_.threshold) {
    given = ResolveMlperfThreshold(*options_.threshold, rule, group.source);
    if (!given->note.empty()) out.notes.push_back(given->note);  // Import says each note once (GroupBuilder::Note)
  }
  const bool custom_target = given && !given->official;
  if (custom_target) {
    group.threshold = given->stored;
  } else if (target) {
    group.threshold = target->threshold;
  }
  // The group's MLPerf facts, filled as the steps below find them and encoded once at the end.
  analysis::MlperfFacts facts;
  if (custom_target) {
    facts.threshold_shown = given->shown;
  } else if (rule != nullptr && rule->target) {
    facts.threshold_shown = ShownMlperfTarget(*rule);
  }
  facts.official_target = !custom_target && target.has_value();
  const std::size_t drop = rule != nullptr ? rule->drop_each_side : (benchmark == "unet3d" ? 4 : 1);

  // Compliance, per run and across the folder's seeds.
  std::vector<std::vector<ComplianceFinding>> findings(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) findings[i] = CheckRunCompliance(*runs[i], rule, compliance_rules);
  {
    std::vector<const runlog::MlperfRun*> view(runs.begin(), runs.end());
    for (ComplianceFinding& f : CheckSeedsDistinct(view)) {
      for (std::size_t i = 0; i < runs.size(); ++i) {
        if (runs[i]->source == f.file) findings[i].push_back(f);
      }
    }
  }
  if (rule != nullptr && runs.size() < rule->runs) {
    const std::string message = fmt::format("{} result file(s); ruleset {} asks for {} per submission", runs.size(),
                                            ruleset->version, rule->runs);
    facts.compliance.push_back({group.source, std::nullopt, "run_count", message, false});
    out.compliance.push_back(group.source + ": " + message);
  }

  // The progress axis the rules read (mlperf_rules.h); a folder whose logs lack it counts evaluations instead.
  const ProgressAxis rule_axis = ProgressAxisOf(rule, ruleset->version);
  bool every_eval_has_progress = true;
  for (const runlog::MlperfRun* run : runs) {
    for (const runlog::MlperfEval& e : run->evals) {
      if (!ProgressOf(rule_axis, e)) every_eval_has_progress = false;
    }
  }
  runlog::MlperfAxis axis;
  axis.unit = every_eval_has_progress ? rule_axis.unit : "evaluations";
  if (every_eval_has_progress) {
    axis.progress = [rule_axis](const runlog::MlperfEval& e) { return ProgressOf(rule_axis, e); };
  } else {
    axis.progress = [](const runlog::MlperfEval&) { return std::optional<double>(); };
  }
  facts.progress_unit = axis.unit;
  std::size_t unapplied_drops = 0;             // runs today's rules drop, under --compliance report
  std::optional<double> lowest_success_final;  // only for a benchmark without a known target
  std::optional<double> batch;
  std::vector<RcpRun> rcp_runs;
  std::vector<double> success_rates;  // samples/s of the runs that succeeded
  std::string rate_method;
  std::size_t rates_withheld = 0;  // successful runs whose figure disagreed with the log's own estimate
  std::string withheld_reason;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const runlog::MlperfRun& run = *runs[i];
    ImportedRun imported;
    imported.file = files[i];
    imported.log = runlog::ToRunLog(
        run, [&](const runlog::MlperfEval& e) { return StoredMetric(rule, e); }, axis);
    imported.log.header["entry"] = group.entry;
    imported.log.header["system"] = group.system;
    imported.log.header["metric"] = group.metric;
    std::string drop_reason;
    for (const ComplianceFinding& f : findings[i]) {
      facts.compliance.push_back(
          {f.file, f.line > 0 ? std::optional<std::int64_t>(f.line) : std::nullopt, f.rule, f.message, f.drops_run});
      out.compliance.push_back(f.Where() + ": " + f.message);
      if (f.drops_run && drop_reason.empty()) drop_reason = f.Where() + ": " + f.message;
    }
    std::string status = "success";
    std::string reason;
    if (!options_.apply_compliance && !drop_reason.empty()) {
      // --compliance report: the finding is printed, the run is judged by its run_stop as the round's own table was.
      ++unapplied_drops;
      status = run.Succeeded() ? "success" : "failed";
      reason = "today's rules drop it (reported, not applied): " + drop_reason;
      drop_reason.clear();
      if (!run.Succeeded()) {
        reason += "; run_stop status \"" + run.stop_status + "\"";
      }
    }
    const bool report_only = !reason.empty();
    // With the package's rules a run counts when the compliance checker passes it, whatever run_stop's status
    // says (the summarizer reads no status); without them (0.5.0) when it ends in success.
    const bool counted_officially =
        compliance_rules != nullptr && drop_reason.empty() && run.run_start_ms && run.run_stop_ms;
    if (report_only) {
      // status and reason set above
    } else if (counted_officially && !run.Succeeded()) {
      status = "success";
      reason = "counted as the official summarizer counts it, though run_stop's status is \"" + run.stop_status + "\"";
      out.warnings.push_back(run.source + ": " + reason);
    } else if (compliance_rules != nullptr && !drop_reason.empty()) {
      status = "dropped";
      reason = drop_reason;
      imported.log.status = analysis::EndedAs::kFailed;
      imported.log.error = "dropped by the compliance check: " + drop_reason;
    } else if (!run.Succeeded()) {
      status = "failed";
      reason = run.records == 0 ? "no MLPerf log line (:::MLLOG, :::MLL, :::MLPv0.5.0) in the file: not a result log; "
                                  "the summarizer counts it as a run that did not succeed"
               : !run.run_start_ms ? "no run_start"
               : !run.run_stop_ms  ? "no run_stop"
                                   : "run_stop status \"" + run.stop_status + "\"";
    } else if (!drop_reason.empty()) {
      status = "dropped";
      reason = drop_reason;
      imported.log.status = analysis::EndedAs::kFailed;
      imported.log.error = "dropped by the compliance check: " + drop_reason;
    }
    if (custom_target) {
      imported.tta_minutes = TtaMinutes(imported.log, given->stored);
      if (imported.log.status != analysis::EndedAs::kFailed) {
        imported.log.status = imported.tta_minutes ? analysis::EndedAs::kReached : analysis::EndedAs::kNotReached;
      }
    } else if (status == "success") {
      imported.tta_minutes = (*run.run_stop_ms - *run.run_start_ms) / 60 / 1000;
    }
    if (status == "success" && !target) {
      for (std::size_t e = std::min(run.evals_before_stop, run.evals.size()); e > 0; --e) {
        const double final_metric = StoredMetric(rule, run.evals[e - 1]);
        if (!std::isfinite(final_metric)) continue;
        if (!lowest_success_final || final_metric < *lowest_success_final) lowest_success_final = final_metric;
        break;
      }
    }
    const ConvergenceUnit unit = rule != nullptr ? rule->unit : ConvergenceUnit::kEpochs;
    const std::optional<double> convergence = ConvergencePoint(run, unit, ruleset->version);
    if (run.seed) imported.seeds["seed"] = *run.seed;
    if (run.global_batch_size && !batch) batch = run.global_batch_size;
    facts.files.push_back(files[i].filename().string());
    const MlperfThroughput throughput = TrainingThroughput(run, benchmark);
    if (status == "success" && throughput.samples_per_second) {
      success_rates.push_back(*throughput.samples_per_second);
      if (rate_method.empty()) rate_method = throughput.method;
      if (rate_method != throughput.method) rate_method = "per run (see run_details)";
    } else if (status == "success" && throughput.method.rfind("withheld", 0) == 0) {
      ++rates_withheld;
      if (withheld_reason.empty()) withheld_reason = files[i].filename().string() + ": " + throughput.method;
    }
    facts.run_details.push_back({files[i].filename().string(), status, run.MinutesToTrain(), convergence,
                                 throughput.samples, throughput.samples_per_second, throughput.method,
                                 reason.empty() ? std::nullopt : std::optional<std::string>(reason)});
    rcp_runs.push_back({files[i].string(), convergence, run.global_batch_size});
    group.runs.push_back(std::move(imported));
  }
  if (!given && !target && lowest_success_final) {
    group.threshold = *lowest_success_final;
    facts.threshold_source = "inferred from run_stop success";
    out.warnings.push_back(fmt::format(
        "{}: no target is known for benchmark \"{}\"; using {:.6g}, the lowest final {} of a run that ended in "
        "success; give --threshold to set one",
        group.source, benchmark, *lowest_success_final, group.metric));
  }
  group.stored_threshold = group.threshold;
  for (ImportedRun& imported : group.runs) {
    if (group.threshold) imported.log.header["threshold"] = *group.threshold;
  }
  if (!facts.threshold_source) {
    facts.threshold_source = custom_target ? "--threshold" : group.threshold ? "rules" : "none";
  }
  ScoreGroup(group, drop);

  // The division is the system description's, as the summarizer reads it; the logs' only when it has none.
  const SystemDescription system_desc = ReadSystemDescription(group.location);
  std::string division = system_desc.division;
  if (division.empty()) {
    division = DivisionOf(runs);
    out.warnings.push_back(group.source + ": " + system_desc.problem +
                           " (the official summarizer skips this system); division read from the logs: " +
                           (division.empty() ? std::string("none") : division));
  }
  if (!system_desc.division.empty()) facts.system_description = system_desc.file.string();
  if (ruleset != nullptr) facts.ruleset = ruleset->version;
  facts.ruleset_source = detected.source;
  if (!division.empty()) facts.division = division;
  facts.log_format = runlog::MlperfLogFormatName(log_format);
  facts.global_batch_size = batch;
  facts.drop_each_side = static_cast<std::int64_t>(drop);
  // Training throughput over MLPerf's time to train (evaluation included): the median of the successful runs.
  analysis::MlperfThroughputFacts throughput_facts;
  if (!success_rates.empty()) {
    throughput_facts.median_samples_per_second = stats::Median(success_rates);
    throughput_facts.method = rate_method;
  }
  throughput_facts.runs = static_cast<std::int64_t>(success_rates.size());
  throughput_facts.withheld_runs = static_cast<std::int64_t>(rates_withheld);
  if (!withheld_reason.empty()) throughput_facts.withheld = withheld_reason;
  throughput_facts.interval = "run_start to run_stop, evaluation included";
  facts.throughput = throughput_facts;
  if (rule != nullptr) {
    facts.target = analysis::MlperfTargetFacts{rule->metric, rule->target,
                                               rule->lower_is_better ? "lower is better" : "higher is better",
                                               ConvergenceUnitName(rule->unit), static_cast<std::int64_t>(rule->runs)};
  }

  json rcp_source = nullptr;
  // The checker checks any benchmark it has RCPs and a run count for, also one the ruleset's table leaves out
  // (training_5.1.0 ships rcps_bert.json): the benchmark's newest rules say how.
  const Ruleset* newest = NewestRulesetWith(benchmark);
  const BenchmarkRule* rcp_rule = rule != nullptr ? rule : newest != nullptr ? newest->Find(benchmark) : nullptr;
  RcpOutcome rcp = CheckRcp(ruleset, rcp_rule, division, rcp_runs, rcp_source, out);
  if (custom_target) {
    // The RCPs are convergence points at the rules' target: no verdict about another target is printed as one.
    rcp = NoRcpRule("the RCPs are for the rules' target" +
                    (rule != nullptr && rule->target ? " (" + ShownMlperfTarget(*rule) + ")" : std::string()) +
                    ", and --threshold asks for " + given->shown);
    rcp.verdict = "not checked";
  }
  facts.rcp = RcpFactsOf(rcp);
  if (const auto* file = rcp_source.get_ptr<const std::string*>()) facts.rcp->rcp_file = *file;
  facts.rcp->rcp_pass = options_.rcp_pass == RcpPass::kPruned ? "pruned" : "full";

  // The official score: what the summarizer prints for the folder as it is, i.e. the raw olympic score times
  // the folder's scaling.json (written by the checker during review, or by the committee).
  const std::optional<double> published = ReadPublishedScaling(group.location, out.warnings);
  const bool checked = rcp.pass.value_or(false) && rcp.result;
  const double factor = checked ? rcp.result->norm_factor : 1.0;
  analysis::MlperfOfficialFacts official;
  official.published_scaling_factor = published;
  if (custom_target) {
    official.note = "--threshold asks for " + given->shown +
                    (rule != nullptr && rule->target ? ", not the rules' " + ShownMlperfTarget(*rule) : std::string()) +
                    "; the olympic mean is of the runs' TTA at that target";
  } else {
    official.raw_minutes = group.olympic_minutes;
    if (checked) official.checker_scaling_factor = factor;
    if (group.olympic_minutes) {
      official.official_minutes = *group.olympic_minutes * published.value_or(1.0);
      if (checked) official.checker_minutes = *group.olympic_minutes * factor;
    }
  }
  if (published && !custom_target) {
    const bool agrees = checked && std::fabs(*published - factor) <= 1e-9 * std::fabs(*published);
    if (!agrees) {
      const std::string checker =
          checked ? fmt::format("{:.10g}", factor) : "none (RCP " + rcp.verdict + ": " + rcp.message + ")";
      out.warnings.push_back(fmt::format(
          "{}: the published scaling.json applies {:.10g}, the RCP checker's normalization is {}; the official "
          "score uses the published factor",
          group.source, *published, checker));
      official.note = "published scaling differs from the RCP checker's";
    }
  } else if (checked && factor != 1.0) {
    official.note = fmt::format(
        "no scaling.json in the folder: the official score is unscaled; the RCP checker would scale by {:.10g}",
        factor);
  }
  facts.compliance_applied = options_.apply_compliance;
  if (unapplied_drops > 0) {
    official.rules_unapplied = true;
    official.unapplied_rules_minutes = official.official_minutes;
    official.official_minutes.reset();
    official.checker_minutes.reset();
    official.note = fmt::format(
        "today's training_{} compliance rules drop {} run(s) (reported, not applied: --compliance report); the score "
        "counts them as their run_stop says, so it is not the official summarizer's, which drops them",
        ruleset->version, unapplied_drops);
  }
  facts.official = official;

  // Power: the energy score from the power logs, over the runs the time score counts.
  if (HasPowerLogs(group.location)) facts.energy = Energy(group, files, runs, drop, published, custom_target, out);
  group.details = analysis::MlperfFactsToJson(facts);
  group.mlperf = std::move(facts);
  out.groups.push_back(std::move(group));
}

}  // namespace evalsuite::importer
