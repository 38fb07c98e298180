// The one place that decides an imported run's identity: the entry it is filed under (from its folders minus the
// parts that only count runs, plus its recorded configuration minus the seed) and the scale its metric lies on
// (fraction or percent). Every importer path asks it; it reads no file and knows no format's layout.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::importer {

// True when a folder or file name only numbers a run of some configuration, so it never names an entry: a seed
// ("seed1", "seed_2", "seed=3", "s42"), a run, trial or repeat number ("run_3", "trial-4", "rep2"), a version or
// checkpoint ("version_0", "checkpoint-500"), the numbered run folders that trainers make ("exp2", "train3"), a pure
// number or date/time stamp ("42", "2024-05-01_12-00-00"), or a 32-digit hex run id (MLflow's).
bool IsRunInstanceName(const std::string& raw);

// `name` without the parts that only number a run: "baseline-seed1" -> "baseline", "lr=0.1,seed=3" -> "lr=0.1",
// "seed1" -> "". Parts are separated by '-', '_', '.', ',' or ' '.
std::string WithoutRunInstance(const std::string& name);

// True for a hyperparameter that varies between runs of one configuration: a seed (a key with the token "seed")
// or where the run writes (output_dir, logging_dir, run_name, save_dir, ...).
bool IsPerRunHyperparameter(const std::string& raw);

// What --group-by asked for. kAuto: folders, then the recorded hyperparameters and run names (each difference
// other than the seed makes another entry). kPath: folders only. kParams: recorded hyperparameters only (minus
// the seed). kKeys: the values of the named hyperparameters only ("run_name" names the MLflow run name).
struct GroupBy {
  enum class Kind { kAuto, kPath, kParams, kKeys } kind = Kind::kAuto;
  std::vector<std::string> keys;
};
// "path", "params", or hyperparameter names (several words or one comma-separated word); throws UsageError on
// "--group-by" for an empty list or "path"/"params" mixed with names.
GroupBy ParseGroupBy(const std::vector<std::string>& words);

// What a run's identity is decided from.
struct RunIdentityFacts {
  std::vector<std::string> folders;  // the run's folder, canonical components root first (format folders such as
                                     // checkpoint-N or train/ already stepped over by the caller)
  std::string file_stem;             // a file name the user chose (a Keras CSV's); empty for fixed names
  std::map<std::string, std::string> hyperparameters;  // as recorded, seed included
  std::string hyperparameter_source;                   // "hparams.yaml", "params/"; empty when none recorded
  std::string run_name;                                // MLflow's run name; empty elsewhere
  std::string label;                                   // how messages name the run (its file)
};

struct EntryGrouping {
  struct Entry {
    std::string name;
    std::vector<std::size_t> runs;              // indices into the input, in input order
    std::vector<std::string> folders;           // distinct run folders (as shown to the user), in input order
    std::map<std::string, std::string> config;  // the recorded values all its runs share that tell it apart
  };
  std::vector<Entry> entries;             // in order of their first run
  std::vector<std::size_t> entry_of_run;  // per input run, an index into entries
  std::vector<std::string> differences;   // what tells entries apart: "folder", "lr", "run name"...
  std::vector<std::string> warnings;      // runs of one entry that differ in a hyperparameter (not the seed)
  std::string rule;                       // how the grouping was decided, in one sentence
};

// Groups runs into entries by `by` (`forced_entry` non-empty: every run in it, `forced_by` saying who named it, e.g.
// "--entry" or "their headers' \"entry\""; the warnings still speak).
// Entry names come from the folders: the shortest trailing part of a run's folders (run instances and the folders
// Lightning and MLflow put every run under, lightning_logs/ and mlruns/, removed) that no
// other configuration's folders end with; a configuration that the folders do not tell apart adds what does
// ("fast lr=0.1", "sweep/baseline" for an MLflow run name).
EntryGrouping GroupRunsIntoEntries(const std::vector<RunIdentityFacts>& runs, const GroupBy& by,
                                   const std::string& forced_entry = "", const std::string& forced_by = "--entry");

// The grouping as printed before anything is stored: "entry <- N runs from FOLDERS" lines and what differs.
std::string FormatEntryGrouping(const EntryGrouping& grouping, const std::vector<RunIdentityFacts>& runs);

// The scale a metric's logged values lie on. Rates (accuracies, F1, precision, recall, mAP, IoU, WER, CER, error
// rates) are a fraction or, when the median value is above 1, a percentage; anything else has no scale to convert.
struct MetricScaleDecision {
  bool rate = false;     // a fraction or a percentage: a --threshold on the other scale is converted
  bool percent = false;  // the logged values are percentages
};
MetricScaleDecision DecideMetricScale(bool rate_like, const std::vector<double>& logged_values);

// A --threshold typed by the user, read onto a metric's scale: the value as the log writes it and the note that
// says how (empty when nothing was converted). `op` is ">=" or "<=" (lower is better). A rate's threshold above 100
// or below 0 is refused (UsageError on "--threshold" naming `metric` and `where`).
struct ThresholdOnScale {
  double value = 0;
  std::string note;
};
ThresholdOnScale ThresholdOnMetricScale(double given, const MetricScaleDecision& scale, const std::string& metric,
                                        const std::string& op, const std::string& where);

// A JSON Lines header's "metric_range" [low, high] read as a rate scale: [0, 1] a fraction, [0, 100] a percentage;
// nullopt for any other range (its values are taken as declared).
std::optional<MetricScaleDecision> DeclaredRateScale(double low, double high);

}  // namespace evalsuite::importer
