// The MLPerf facts `evalsuite import` records for an MLPerf group (its details, and the entry's extra in the store):
// ruleset and division, the target, training throughput, the RCP check, the official score and energy, each run's
// standing and the compliance findings. One struct, one encode (MlperfFactsToJson: the importer fills the struct
// and writes it once) and one decode (MlperfFactsFromJson: the audit, the importer's summary, `study show` and the
// report read the struct). Decoding is tolerant: a field the record lacks, or holds with another type, is absent.
// Encoding writes what the importer has always written, key for key: a field the importer always writes is null
// when absent; a block it writes only sometimes (target, energy, the RCP reference) is left out when absent.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace evalsuite::analysis {

// The median training throughput over the successful runs, and the runs whose figure was withheld.
struct MlperfThroughputFacts {
  std::optional<double> median_samples_per_second;
  std::optional<std::int64_t> runs;  // successful runs the median is over
  std::optional<std::string> method, interval;
  std::optional<std::int64_t> withheld_runs;
  std::optional<std::string> withheld;  // why
};

// The target of the group's benchmark by the ruleset's table (absent when the table has no such benchmark).
struct MlperfTargetFacts {
  std::optional<std::string> metric;
  std::optional<double> value;
  std::optional<std::string> direction, convergence_unit;
  std::optional<std::int64_t> runs_per_submission;
};

// The RCP checker's verdict and, where a reference was found, its figures.
struct MlperfRcpFacts {
  std::optional<bool> pass;
  std::optional<std::string> verdict, message;
  std::optional<double> batch_size;
  // The reference block (written together): present when the checker found a reference.
  std::optional<std::string> reference;
  std::optional<double> rcp_mean, rcp_stdev, min_epochs, max_speedup;
  // The submission's block (written together): present when the checker compared the submission.
  std::optional<double> submission_mean_epochs, norm_factor;
  std::optional<std::string> rcp_file;  // "built-in training_<ruleset>/rcps_<benchmark>.json" or a path
  std::optional<std::string> rcp_pass;  // "pruned" or "full"
};

// The official score: the raw olympic score times the published scaling, or why there is none.
struct MlperfOfficialFacts {
  std::optional<double> raw_minutes, published_scaling_factor, checker_scaling_factor, official_minutes,
      checker_minutes;
  // --compliance report dropped nothing that today's rules drop: the score counted that way (null when none), kept
  // apart from the official one. `rules_unapplied` says the record holds it at all.
  bool rules_unapplied = false;
  std::optional<double> unapplied_rules_minutes;
  std::optional<std::string> note;
};

// The summarizer's energy score, from the power logs of the runs that reached.
struct MlperfEnergyFacts {
  std::optional<double> score;
  std::optional<std::string> unit;
  std::map<std::string, double> runs;  // result file name -> joules
  std::optional<double> scaling_factor;
};

// One imported run as the importer judged it.
struct MlperfRunFacts {
  std::optional<std::string> file, status;
  std::optional<double> time_to_train_minutes, convergence, samples_trained, samples_per_second;
  std::optional<std::string> throughput_method;
  std::optional<std::string> reason;
};

// One compliance finding: a rule the file breaks, at a line when the finding has one.
struct MlperfComplianceFacts {
  std::optional<std::string> file;
  std::optional<std::int64_t> line;
  std::optional<std::string> rule, message;
  std::optional<bool> drops_run;
};

// What the store keeps of the group beside its details (importer's StoredEntryExtra): where it came from and its
// olympic score. Only the stored record has it.
struct MlperfStoredEntryFacts {
  std::optional<std::string> source, benchmark, system;
  std::optional<double> olympic_minutes;
};

struct MlperfFacts {
  std::optional<std::string> ruleset, ruleset_source, division, log_format;
  std::optional<std::string> system_description;  // the system's JSON file; null when it could not be read
  std::vector<std::string> files;                 // the result files, in natural order
  std::optional<double> global_batch_size;
  std::optional<std::int64_t> drop_each_side;
  std::optional<std::string> threshold_shown;  // the target as the summary shows it
  std::optional<bool> official_target;         // the rules' own target (not a --threshold)
  std::optional<std::string> threshold_source, progress_unit;
  std::optional<bool> compliance_applied;  // false: --compliance report
  std::optional<MlperfTargetFacts> target;
  std::optional<MlperfThroughputFacts> throughput;
  std::optional<MlperfRcpFacts> rcp;            // absent: the import recorded no RCP check
  std::optional<MlperfOfficialFacts> official;  // absent: no official score block
  std::optional<MlperfEnergyFacts> energy;      // absent: the folder has no power logs
  std::vector<MlperfRunFacts> run_details;
  std::vector<MlperfComplianceFacts> compliance;
  std::optional<MlperfStoredEntryFacts> stored;  // the store's copy only
};

MlperfFacts MlperfFactsFromJson(const nlohmann::json& extra);
nlohmann::json MlperfFactsToJson(const MlperfFacts& facts);

// Field-by-field equality, for the round trip FromJson(ToJson(x)) == x.
inline bool operator==(const MlperfThroughputFacts& a, const MlperfThroughputFacts& b) {
  return std::tie(a.median_samples_per_second, a.runs, a.method, a.interval, a.withheld_runs, a.withheld) ==
         std::tie(b.median_samples_per_second, b.runs, b.method, b.interval, b.withheld_runs, b.withheld);
}
inline bool operator==(const MlperfTargetFacts& a, const MlperfTargetFacts& b) {
  return std::tie(a.metric, a.value, a.direction, a.convergence_unit, a.runs_per_submission) ==
         std::tie(b.metric, b.value, b.direction, b.convergence_unit, b.runs_per_submission);
}
inline bool operator==(const MlperfRcpFacts& a, const MlperfRcpFacts& b) {
  return std::tie(a.pass, a.verdict, a.message, a.batch_size, a.reference, a.rcp_mean, a.rcp_stdev, a.min_epochs,
                  a.max_speedup, a.submission_mean_epochs, a.norm_factor, a.rcp_file, a.rcp_pass) ==
         std::tie(b.pass, b.verdict, b.message, b.batch_size, b.reference, b.rcp_mean, b.rcp_stdev, b.min_epochs,
                  b.max_speedup, b.submission_mean_epochs, b.norm_factor, b.rcp_file, b.rcp_pass);
}
inline bool operator==(const MlperfOfficialFacts& a, const MlperfOfficialFacts& b) {
  return std::tie(a.raw_minutes, a.published_scaling_factor, a.checker_scaling_factor, a.official_minutes,
                  a.checker_minutes, a.rules_unapplied, a.unapplied_rules_minutes, a.note) ==
         std::tie(b.raw_minutes, b.published_scaling_factor, b.checker_scaling_factor, b.official_minutes,
                  b.checker_minutes, b.rules_unapplied, b.unapplied_rules_minutes, b.note);
}
inline bool operator==(const MlperfEnergyFacts& a, const MlperfEnergyFacts& b) {
  return std::tie(a.score, a.unit, a.runs, a.scaling_factor) == std::tie(b.score, b.unit, b.runs, b.scaling_factor);
}
inline bool operator==(const MlperfRunFacts& a, const MlperfRunFacts& b) {
  return std::tie(a.file, a.status, a.time_to_train_minutes, a.convergence, a.samples_trained, a.samples_per_second,
                  a.throughput_method, a.reason) == std::tie(b.file, b.status, b.time_to_train_minutes, b.convergence,
                                                             b.samples_trained, b.samples_per_second,
                                                             b.throughput_method, b.reason);
}
inline bool operator==(const MlperfComplianceFacts& a, const MlperfComplianceFacts& b) {
  return std::tie(a.file, a.line, a.rule, a.message, a.drops_run) ==
         std::tie(b.file, b.line, b.rule, b.message, b.drops_run);
}
inline bool operator==(const MlperfStoredEntryFacts& a, const MlperfStoredEntryFacts& b) {
  return std::tie(a.source, a.benchmark, a.system, a.olympic_minutes) ==
         std::tie(b.source, b.benchmark, b.system, b.olympic_minutes);
}
inline bool operator==(const MlperfFacts& a, const MlperfFacts& b) {
  return std::tie(a.ruleset, a.ruleset_source, a.division, a.log_format, a.system_description, a.files,
                  a.global_batch_size, a.drop_each_side, a.threshold_shown, a.official_target, a.threshold_source,
                  a.progress_unit, a.compliance_applied, a.target, a.throughput, a.rcp, a.official, a.energy,
                  a.run_details, a.compliance, a.stored) ==
         std::tie(b.ruleset, b.ruleset_source, b.division, b.log_format, b.system_description, b.files,
                  b.global_batch_size, b.drop_each_side, b.threshold_shown, b.official_target, b.threshold_source,
                  b.progress_unit, b.compliance_applied, b.target, b.throughput, b.rcp, b.official, b.energy,
                  b.run_details, b.compliance, b.stored);
}

}  // namespace evalsuite::analysis
