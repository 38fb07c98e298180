#include "study/plans/plan_entry_keys.h"

#include <set>
#include <sstream>

#include "study/plans/builtin_entry_lookup.h"
#include "study/plans/command_template.h"
#include "study/plans/log_formats.h"
#include "study/plans/regex_log_keys.h"

namespace evalsuite::study {
namespace {

using Reader = TomlReader;

const std::set<std::string> kEntryKeys = {"name",        "command",      "log_format",     "timeout_seconds",
                                          "description", "metric",       "threshold",      "extra_thresholds",
                                          "epochs",      "train_subset", "validation_size"};
const std::set<std::string> kExternalOnlyKeys = {"command", "log_format", "validation_size"};
// The entry keys with the regex format's own (regex_log_keys.h).
std::set<std::string> WithRegexLogKeys(std::set<std::string> keys) {
  keys.insert(RegexLogKeys().begin(), RegexLogKeys().end());
  return keys;
}

bool IsAccuracyMetric(const std::string& metric) {
  return metric.rfind("val_top", 0) == 0 || metric.find("acc") != std::string::npos;
}

// Facts of an entry as the file gives them, before defaults from the study and the catalog.
struct EntrySpec {
  PlannedEntry entry;
  long line = 1;
  std::optional<double> threshold;
  long threshold_line = 1;  // where each key stands, for an error about its value
  std::optional<std::vector<double>> extra_thresholds;
  long extra_thresholds_line = 1;
  std::optional<int> epochs;
  std::optional<int> train_subset;
  std::optional<double> timeout_seconds;
  bool has_metric = false;
  bool has_description = false;
};

EntrySpec ReadEntry(const Reader& reader, const toml::node& node, int position) {
  const std::string prefix = "entries[" + std::to_string(position) + "]";
  EntrySpec spec;
  spec.line = Reader::Line(node);
  if (node.is_string()) {
    spec.entry.name = node.as_string()->get();
    return spec;
  }
  if (!node.is_table()) {
    reader.Fail(spec.line, prefix, "must be a built-in entry's name or a table, got " + Reader::TypeName(node));
  }
  const toml::table& table = *node.as_table();
  reader.RejectUnknownKeys(table, WithRegexLogKeys(kEntryKeys), prefix + ".", "an entry");
  const toml::node* name = table.get("name");
  if (!name) reader.Fail(spec.line, prefix + ".name", "every entry table needs a name");
  spec.entry.name = reader.String(*name, prefix + ".name");
  if (const toml::node* n = table.get("command")) {
    spec.entry.builtin = false;
    spec.entry.command = reader.String(*n, prefix + ".command");
    if (spec.entry.command.find_first_not_of(" \t") == std::string::npos) {
      reader.Fail(Reader::Line(*n), prefix + ".command", "is empty");
    }
  }
  if (const toml::node* n = table.get("log_format")) spec.entry.log_format = reader.String(*n, prefix + ".log_format");
  if (const toml::node* n = table.get("description")) {
    spec.entry.description = reader.String(*n, prefix + ".description");
    spec.has_description = true;
  }
  if (const toml::node* n = table.get("metric")) {
    spec.entry.metric = reader.String(*n, prefix + ".metric");
    spec.has_metric = true;
  }
  if (const toml::node* n = table.get("threshold")) {
    spec.threshold = reader.Threshold(*n, prefix + ".threshold");
    spec.threshold_line = Reader::Line(*n);
  }
  if (const toml::node* n = table.get("extra_thresholds")) {
    spec.extra_thresholds = reader.Thresholds(*n, prefix + ".extra_thresholds");
    spec.extra_thresholds_line = Reader::Line(*n);
  }
  if (const toml::node* n = table.get("epochs")) {
    spec.epochs = static_cast<int>(reader.Integer(*n, prefix + ".epochs", 1, 100000));
  }
  if (const toml::node* n = table.get("train_subset")) {
    spec.train_subset = static_cast<int>(reader.Integer(*n, prefix + ".train_subset", 1, 1000000000));
  }
  if (const toml::node* n = table.get("validation_size")) {
    spec.entry.validation_size = static_cast<int>(reader.Integer(*n, prefix + ".validation_size", 1, 1000000000));
  }
  if (const toml::node* n = table.get("timeout_seconds")) {
    spec.timeout_seconds = reader.Number(*n, prefix + ".timeout_seconds");
    if (*spec.timeout_seconds < 0) reader.Fail(Reader::Line(*n), prefix + ".timeout_seconds", "must be >= 0");
  }
  if (spec.entry.builtin) {
    for (const auto& key : WithRegexLogKeys(kExternalOnlyKeys)) {
      if (const toml::node* n = table.get(key)) {
        reader.Fail(Reader::Line(*n), prefix + "." + key, "only external entries (with a command) take it");
      }
    }
    if (spec.has_metric) {
      reader.Fail(Reader::Line(*table.get("metric")), prefix + ".metric",
                  "built-in entries measure their own metric; only external entries declare one");
    }
  }
  ReadRegexLogKeys(reader, table, prefix, spec.entry.log_format, spec.line, spec.entry.regex_log);
  return spec;
}

// `inherited_by` names the entry a top-level key's value went to ("" for the entry's own key): the error stands on the
// key's own line and says which entry made the value wrong (a top-level threshold is fine for a non-accuracy one).
void CheckThresholdFitsMetric(const Reader& reader, long line, const std::string& key, double threshold,
                              const std::string& metric, const std::string& inherited_by) {
  if (IsAccuracyMetric(metric) && threshold > 1) {
    std::ostringstream message;
    message << "accuracy thresholds are fractions (e.g. 0.91, not 91), got " << threshold;
    if (!inherited_by.empty()) message << " (set at the top level, inherited by " << inherited_by << ")";
    reader.Fail(line, key, message.str());
  }
}

// A built-in entry's facts the file left out come from the catalog; an unknown name is an error listing the known.
void CompleteBuiltinEntry(const Reader& reader, const EntrySpec& spec, const toml::node& node,
                          const std::string& prefix, std::optional<double> entry_threshold,
                          std::optional<int> entry_epochs, PlannedEntry& entry) {
  auto facts = FindBuiltinEntryFacts(entry.name);
  if (!facts) {
    std::string names;
    for (const auto& e : AllBuiltinEntryFacts()) names += (names.empty() ? "" : ", ") + e.name;
    reader.Fail(spec.line, node.is_string() ? prefix : prefix + ".name",
                "no built-in entry '" + entry.name + "' (built-in: " + names + "; an external entry needs a command)");
  }
  if (!spec.has_description) entry.description = facts->description;
  entry.metric = facts->metric;
  entry.threshold = entry_threshold.value_or(facts->default_threshold);
  entry.epochs = entry_epochs.value_or(facts->default_epochs);
}

// An external entry must name a known log format and a threshold, and its command may use only placeholders the
// plan can fill, and must be told where its log goes when the format reads a file.
void CompleteExternalEntry(const Reader& reader, const EntrySpec& spec, const std::string& prefix,
                           std::optional<double> entry_threshold, std::optional<int> entry_epochs,
                           PlannedEntry& entry) {
  const std::optional<RunLogFormat> format = FindRunLogFormat(entry.log_format);
  if (!format) {
    std::string names;
    for (const auto& n : RunLogFormatNames()) names += (names.empty() ? "" : ", ") + n;
    reader.Fail(spec.line, prefix + ".log_format", "unknown format '" + entry.log_format + "' (known: " + names + ")");
  }
  if (!entry_threshold) {
    reader.Fail(spec.line, prefix + ".threshold", "an external entry needs a threshold (here or at the top)");
  }
  entry.threshold = *entry_threshold;
  entry.epochs = entry_epochs.value_or(0);
  bool tells_log = false;
  for (const std::string& name : TemplatePlaceholders(entry.command)) {
    if (!KnownPlaceholders().count(name)) {
      std::string known;
      for (const auto& [k, what] : KnownPlaceholders()) known += (known.empty() ? "{" : ", {") + k + "}";
      reader.Fail(spec.line, prefix + ".command", "unknown placeholder {" + name + "} (known: " + known + ")");
    }
    if (name == "epochs" && entry.epochs == 0) {
      reader.Fail(spec.line, prefix + ".command", "uses {epochs} but no epochs budget is set");
    }
    if (name == "train_subset" && !entry.train_subset) {
      reader.Fail(spec.line, prefix + ".command", "uses {train_subset} but no train_subset is set");
    }
    if (name == "log" || name == "run_dir") tells_log = true;
  }
  // A format read from the command's standard output needs no {log}.
  if (!tells_log && format->source == LogSource::kLogFile) {
    reader.Fail(spec.line, prefix + ".command",
                "the command must be told where to write its log: use {log} (or {run_dir}/log.jsonl)");
  }
}

}  // namespace

bool IsSafeFolderName(const std::string& name) {
  if (name.empty() || name.size() > 100 || name[0] == '.' || name[0] == '-') return false;
  return name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
         std::string::npos;
}

std::vector<PlannedEntry> ReadPlanEntries(const toml::table& root, const TomlReader& reader,
                                          const EntryDefaults& defaults, const PlanOverrides& overrides) {
  const toml::node* entries = root.get("entries");
  if (!entries) reader.Fail(1, "entries", "a study needs at least one entry");
  if (!entries->is_array() || entries->as_array()->empty()) {
    reader.Fail(Reader::Line(*entries), "entries", "must be a non-empty array of entry names or tables");
  }
  std::vector<PlannedEntry> planned;
  std::set<std::string> seen;
  int position = 0;
  for (const toml::node& node : *entries->as_array()) {
    const std::string prefix = "entries[" + std::to_string(position) + "]";
    EntrySpec spec = ReadEntry(reader, node, position++);
    PlannedEntry& entry = spec.entry;
    if (!IsSafeFolderName(entry.name)) {
      reader.Fail(spec.line, prefix + ".name",
                  "'" + entry.name + "': use letters, digits, '.', '_' and '-' only (it names folders)");
    }
    if (!seen.insert(entry.name).second)
      reader.Fail(spec.line, prefix + ".name", "'" + entry.name + "' is listed twice");
    std::optional<double> entry_threshold = spec.threshold ? spec.threshold : defaults.threshold;
    std::optional<int> entry_epochs = spec.epochs ? spec.epochs : defaults.epochs;
    if (overrides.epochs) entry_epochs = overrides.epochs;
    entry.train_subset = spec.train_subset ? spec.train_subset : defaults.train_subset;
    if (overrides.train_subset) entry.train_subset = overrides.train_subset;
    entry.extra_thresholds =
        spec.extra_thresholds ? *spec.extra_thresholds : defaults.extra_thresholds.value_or(std::vector<double>{});
    entry.timeout_seconds = spec.timeout_seconds ? *spec.timeout_seconds : defaults.timeout_seconds.value_or(0);
    if (entry.builtin) {
      CompleteBuiltinEntry(reader, spec, node, prefix, entry_threshold, entry_epochs, entry);
    } else {
      CompleteExternalEntry(reader, spec, prefix, entry_threshold, entry_epochs, entry);
    }
    const std::string inheritor = prefix + " '" + entry.name + "' on line " + std::to_string(spec.line);
    if (spec.threshold) {
      CheckThresholdFitsMetric(reader, spec.threshold_line, prefix + ".threshold", entry.threshold, entry.metric, "");
    } else if (defaults.threshold) {
      CheckThresholdFitsMetric(reader, defaults.threshold_line, "threshold", entry.threshold, entry.metric, inheritor);
    }
    for (double extra : entry.extra_thresholds) {
      if (spec.extra_thresholds) {
        CheckThresholdFitsMetric(reader, spec.extra_thresholds_line, prefix + ".extra_thresholds", extra, entry.metric,
                                 "");
      } else {
        CheckThresholdFitsMetric(reader, defaults.extra_thresholds_line, "extra_thresholds", extra, entry.metric,
                                 inheritor);
      }
    }
    planned.push_back(std::move(entry));
  }
  return planned;
}

}  // namespace evalsuite::study
