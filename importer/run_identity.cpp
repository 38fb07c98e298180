#include "importer/run_identity.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>
#include <set>

#include "common/ascii_case.h"
#include "common/error.h"

namespace evalsuite::importer {
namespace {

bool IsSeparator(char c) { return c == '-' || c == '_' || c == '.' || c == ',' || c == ' '; }

bool AllDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

// A part of a name that numbers a run of a configuration ("seed1", "seed=3", "s42", "run_3", "rep2").
bool IsEmbeddedInstance(const std::string& part) {
  static const std::regex kPart(R"(^(seed|s|run|trial|rep|repeat|replicate)[-_=]?[0-9]+$)");
  return std::regex_match(part, kPart);
}

bool IsInstanceKeyword(const std::string& part) {
  return part == "seed" || part == "run" || part == "trial" || part == "rep" || part == "repeat" || part == "replicate";
}

// MLflow names a run it was given no name for "<adjective>-<noun>-<number>" ("bemused-cow-123"): a label of one
// run, never a configuration.
bool IsGeneratedMlflowName(const std::string& name) {
  static const std::regex kGenerated(R"(^[a-z]+-[a-z]+-[0-9]{1,4}$)");
  return std::regex_match(name, kGenerated);
}

std::string Join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

std::string ConfigText(const std::map<std::string, std::string>& config) {
  std::string out;
  for (const auto& [key, value] : config) out += (out.empty() ? "" : ",") + key + "=" + value;
  return out;
}

// What one run contributes to the grouping.
struct RunKey {
  std::vector<std::string> path;              // folders (and a chosen file stem) without run instances
  std::map<std::string, std::string> config;  // hyperparameters minus the per-run ones
  std::string name;                           // MLflow run name without run instances; "" = none or generated
};

// The shortest trailing part of each distinct path that no other distinct path ends with.
std::map<std::string, std::string> PathLabels(const std::vector<RunKey>& keys) {
  std::vector<std::vector<std::string>> distinct;
  for (const RunKey& k : keys) {
    if (std::find(distinct.begin(), distinct.end(), k.path) == distinct.end()) distinct.push_back(k.path);
  }
  auto suffix = [](const std::vector<std::string>& p, std::size_t n) {
    return std::vector<std::string>(p.end() - static_cast<std::ptrdiff_t>(std::min(n, p.size())), p.end());
  };
  std::map<std::string, std::string> labels;
  for (const std::vector<std::string>& p : distinct) {
    std::size_t n = 1;
    for (; n < p.size(); ++n) {
      bool unique = true;
      for (const std::vector<std::string>& q : distinct) {
        if (&q != &p && suffix(q, n) == suffix(p, n)) unique = false;
      }
      if (unique) break;
    }
    labels[Join(p, "/")] = p.empty() ? std::string("/") : Join(suffix(p, n), "/");
  }
  return labels;
}

// The values of `key` over `runs`, "(not recorded)" where a run lacks it.
std::string ValueOf(const RunIdentityFacts& run, const std::string& key) {
  if (key == "run_name") return run.run_name.empty() ? "(not recorded)" : run.run_name;
  const auto it = run.hyperparameters.find(key);
  return it == run.hyperparameters.end() ? "(not recorded)" : it->second;
}

std::vector<std::string> Components(const std::string& folder) {
  std::vector<std::string> parts;
  std::string part;
  for (const char c : folder) {
    if (c == '/') {
      if (!part.empty()) parts.push_back(part);
      part.clear();
    } else {
      part += c;
    }
  }
  if (!part.empty()) parts.push_back(part);
  return parts;
}

}  // namespace

bool IsRunInstanceName(const std::string& raw) {
  const std::string name = AsciiLowercase(raw);
  if (name.empty()) return false;
  // Numbers and date/time stamps: digits and the separators a stamp uses, at least one digit.
  if (std::any_of(name.begin(), name.end(), [](unsigned char c) { return std::isdigit(c) != 0; }) &&
      std::all_of(name.begin(), name.end(),
                  [](unsigned char c) {
                    return std::isdigit(c) != 0 || c == '-' || c == '_' || c == ':' || c == '.' || c == '+' || c == 't';
                  }) &&
      std::isdigit(static_cast<unsigned char>(name.front())) != 0) {
    return true;
  }
  static const std::regex kInstance(
      R"(^((seed|s|run|trial|rep|repeat|replicate|version|checkpoint|ckpt)[-_=]?[0-9]+|(exp|train)[0-9]*|[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|run-[0-9]{8}_[0-9]{6}-[a-z0-9]+)$)");
  return std::regex_match(name, kInstance);
}

std::string WithoutRunInstance(const std::string& name) {
  if (IsRunInstanceName(name)) return "";
  // Parts with the separator before each; a part that numbers a run goes with its separator.
  std::vector<std::pair<std::string, std::string>> parts;  // (separator before, part)
  std::string separator, part;
  for (const char c : name) {
    if (IsSeparator(c)) {
      if (!part.empty() || parts.empty()) parts.push_back({separator, part});
      separator = std::string(1, c);
      part.clear();
    } else {
      part += c;
    }
  }
  parts.push_back({separator, part});
  std::vector<bool> drop(parts.size(), false);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string p = AsciiLowercase(parts[i].second);
    if (IsEmbeddedInstance(p)) drop[i] = true;
    // "seed_1", "run-3": the keyword and the number are parts of their own.
    if (IsInstanceKeyword(p) && i + 1 < parts.size() && AllDigits(parts[i + 1].second)) drop[i] = drop[i + 1] = true;
  }
  // A name with nothing to drop is kept exactly as written ("owner__repo" keeps both underscores).
  if (std::none_of(drop.begin(), drop.end(), [](bool d) { return d; })) return name;
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (drop[i] || parts[i].second.empty()) continue;
    out += (out.empty() ? "" : parts[i].first) + parts[i].second;
  }
  return out;
}

bool IsPerRunHyperparameter(const std::string& raw) {
  const std::string key = AsciiLowercase(raw);
  static const std::regex kSeed(R"((^|[^a-z])seed($|[^a-z]))");
  if (std::regex_search(key, kSeed)) return true;
  static const std::set<std::string> kWhere = {
      "output_dir", "logging_dir",     "run_name",       "run_id",
      "save_dir",   "log_dir",         "logdir",         "default_root_dir",
      "dirpath",    "ckpt_path",       "checkpoint_dir", "resume_from_checkpoint",
      "version",    "experiment_name", "hub_model_id",   "name",
      "project",    "tracking_uri",    "mlflow.runname", "id"};
  return kWhere.count(key) > 0;
}

GroupBy ParseGroupBy(const std::vector<std::string>& words) {
  GroupBy by;
  std::vector<std::string> names;
  for (const std::string& w : words) {
    std::string part;
    for (const char c : w + ",") {
      if (c == ',') {
        if (!part.empty()) names.push_back(part);
        part.clear();
      } else if (c != ' ') {
        part += c;
      }
    }
  }
  if (names.empty()) throw UsageError("--group-by", "expected path, params or hyperparameter names, got nothing");
  const bool path = std::find(names.begin(), names.end(), "path") != names.end();
  const bool params = std::find(names.begin(), names.end(), "params") != names.end();
  if ((path || params) && names.size() > 1) {
    throw UsageError("--group-by", "\"path\" and \"params\" stand alone; got " + Join(names, ", ") +
                                       " (name hyperparameters alone to group by their values)");
  }
  if (path) {
    by.kind = GroupBy::Kind::kPath;
  } else if (params) {
    by.kind = GroupBy::Kind::kParams;
  } else {
    by.kind = GroupBy::Kind::kKeys;
    by.keys = names;
  }
  return by;
}

// Over clang-tidy's complexity limit: each --group-by rule, the naming of entries and the warnings in one function;
// splitting the rules apart is its own change, checked by the identity property test (216 layouts) after each move.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
EntryGrouping GroupRunsIntoEntries(const std::vector<RunIdentityFacts>& runs, const GroupBy& by,
                                   const std::string& forced_entry, const std::string& forced_by) {
  EntryGrouping out;
  if (runs.empty()) return out;
  // Each run's key. A file stem counts only where runs of one folder are told apart by it.
  std::map<std::vector<std::string>, std::set<std::string>> stems_in_folder;
  for (const RunIdentityFacts& r : runs) stems_in_folder[r.folders].insert(WithoutRunInstance(r.file_stem));
  std::vector<RunKey> keys;
  for (const RunIdentityFacts& r : runs) {
    RunKey k;
    for (const std::string& f : r.folders) {
      const std::string kept = WithoutRunInstance(f);
      // The folders Lightning and MLflow put every run under are no entry names either.
      if (!kept.empty() && kept != "lightning_logs" && kept != "mlruns") k.path.push_back(kept);
    }
    const std::string stem = WithoutRunInstance(r.file_stem);
    if (!stem.empty() && stems_in_folder[r.folders].size() > 1) k.path.push_back(stem);
    if (k.path.empty() && !r.folders.empty()) k.path.push_back(r.folders.back());  // nothing but instances
    for (const auto& [key, value] : r.hyperparameters) {
      if (!IsPerRunHyperparameter(key)) k.config[key] = value;
    }
    const std::string name = WithoutRunInstance(r.run_name);
    k.name = IsGeneratedMlflowName(AsciiLowercase(r.run_name)) ? "" : name;
    keys.push_back(std::move(k));
  }
  const std::map<std::string, std::string> labels = PathLabels(keys);
  auto label_of = [&](std::size_t i) { return labels.at(Join(keys[i].path, "/")); };

  // The grouping key of each run.
  std::vector<std::string> group_key(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunKey& k = keys[i];
    switch (by.kind) {
      case GroupBy::Kind::kAuto:
        group_key[i] = Join(k.path, "/") + "\n" + ConfigText(k.config) + "\n" + k.name;
        break;
      case GroupBy::Kind::kPath:
        group_key[i] = Join(k.path, "/");
        break;
      case GroupBy::Kind::kParams:
        group_key[i] = runs[i].hyperparameter_source.empty() ? "path\n" + Join(k.path, "/") : ConfigText(k.config);
        break;
      case GroupBy::Kind::kKeys:
        for (const std::string& key : by.keys) group_key[i] += key + "=" + ValueOf(runs[i], key) + "\n";
        break;
    }
    if (!forced_entry.empty()) group_key[i] = "";
  }
  std::map<std::string, std::size_t> index_of;
  out.entry_of_run.resize(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    auto [it, added] = index_of.emplace(group_key[i], out.entries.size());
    if (added) out.entries.emplace_back();
    out.entries[it->second].runs.push_back(i);
    out.entry_of_run[i] = it->second;
  }

  // Names: the folders' label, plus what tells apart the configurations the folders do not.
  std::map<std::string, std::vector<std::size_t>> entries_of_label;  // label -> entries whose first run has it
  for (std::size_t e = 0; e < out.entries.size(); ++e)
    entries_of_label[label_of(out.entries[e].runs.front())].push_back(e);
  std::set<std::string> differing_keys;
  bool names_differ = false;
  for (std::size_t e = 0; e < out.entries.size(); ++e) {
    EntryGrouping::Entry& entry = out.entries[e];
    const std::size_t first = entry.runs.front();
    // The recorded values the entry's runs share.
    for (const auto& [key, value] : keys[first].config) {
      bool shared = true;
      for (std::size_t r : entry.runs) {
        const auto it = keys[r].config.find(key);
        shared = shared && it != keys[r].config.end() && it->second == value;
      }
      if (shared) entry.config[key] = value;
    }
    if (!forced_entry.empty()) {
      entry.name = forced_entry;
      continue;
    }
    if (by.kind == GroupBy::Kind::kKeys) {
      std::string name;
      for (const std::string& key : by.keys) name += (name.empty() ? "" : ",") + key + "=" + ValueOf(runs[first], key);
      entry.name = name;
      continue;
    }
    const std::string label = label_of(first);
    const std::vector<std::size_t>& siblings = entries_of_label[label];
    entry.name = label;
    if (siblings.size() < 2 || by.kind == GroupBy::Kind::kPath) continue;
    // Several configurations under one folder label: the hyperparameters whose values differ between them, and the
    // run name where it differs.
    std::vector<std::string> extra;
    std::set<std::string> all_keys;
    for (std::size_t s : siblings) {
      for (const auto& kv : keys[out.entries[s].runs.front()].config) all_keys.insert(kv.first);
    }
    for (const std::string& key : all_keys) {
      std::set<std::string> values;
      for (std::size_t s : siblings) {
        const auto& c = keys[out.entries[s].runs.front()].config;
        values.insert(c.count(key) ? c.at(key) : "(not recorded)");
      }
      if (values.size() > 1) {
        const auto it = keys[first].config.find(key);
        extra.push_back(key + "=" + (it == keys[first].config.end() ? "(not recorded)" : it->second));
        differing_keys.insert(key);
      }
    }
    std::set<std::string> names;
    for (std::size_t s : siblings) names.insert(keys[out.entries[s].runs.front()].name);
    if (names.size() > 1) {
      names_differ = true;
      if (!keys[first].name.empty()) entry.name += "/" + keys[first].name;
    }
    if (!extra.empty()) entry.name += " " + Join(extra, ",");
    if (by.kind == GroupBy::Kind::kParams && extra.empty() && names.size() < 2) entry.name = label;
  }
  // Names stay unique whatever the values hold.
  std::map<std::string, int> seen;
  for (EntryGrouping::Entry& entry : out.entries) {
    const int n = ++seen[entry.name];
    if (n > 1) entry.name += fmt::format(" #{}", n);
  }

  // Folders shown, what differs, and the runs of one entry that differ in a recorded hyperparameter.
  std::set<std::string> labels_used;
  for (EntryGrouping::Entry& entry : out.entries) {
    for (std::size_t r : entry.runs) {
      // The file too where its name told runs of one folder apart.
      std::string folder = Join(runs[r].folders, "/");
      if (stems_in_folder[runs[r].folders].size() > 1) folder += "/" + runs[r].file_stem;
      if (std::find(entry.folders.begin(), entry.folders.end(), folder) == entry.folders.end()) {
        entry.folders.push_back(folder);
      }
    }
    labels_used.insert(label_of(entry.runs.front()));
    std::set<std::string> all_keys;
    for (std::size_t r : entry.runs) {
      for (const auto& kv : runs[r].hyperparameters) {
        if (!IsPerRunHyperparameter(kv.first)) all_keys.insert(kv.first);
      }
    }
    bool any_recorded = false;
    for (std::size_t r : entry.runs) any_recorded = any_recorded || !runs[r].hyperparameter_source.empty();
    for (const std::string& key : all_keys) {
      std::map<std::string, std::string> value_at;  // value -> first run with it
      for (std::size_t r : entry.runs) {
        if (runs[r].hyperparameter_source.empty()) continue;  // a run that records nothing says nothing
        value_at.emplace(ValueOf(runs[r], key), runs[r].label);
      }
      if (value_at.size() < 2 || !any_recorded) continue;
      std::string said;
      for (const auto& [value, where] : value_at) said += (said.empty() ? "" : ", ") + value + " in " + where;
      out.warnings.push_back(
          fmt::format("entry \"{}\": its runs differ in the recorded hyperparameter {} ({}); they "
                      "are filed as one entry{}",
                      entry.name, key, said,
                      !forced_entry.empty() ? " because " + forced_by +
                                                  " names it (--group-by params files them by their "
                                                  "hyperparameters instead)"
                      : by.kind == GroupBy::Kind::kAuto
                          ? ""
                          : " because --group-by does not tell them apart (--group-by params keeps them apart)"));
    }
  }
  if (out.entries.size() > 1) {
    if (labels_used.size() > 1) out.differences.push_back("folder");
    if (by.kind == GroupBy::Kind::kKeys) {
      out.differences.insert(out.differences.end(), by.keys.begin(), by.keys.end());
    } else {
      out.differences.insert(out.differences.end(), differing_keys.begin(), differing_keys.end());
      if (names_differ) out.differences.push_back("run name");
    }
  }
  switch (by.kind) {
    case GroupBy::Kind::kAuto:
      out.rule =
          "by folder (seed, run, version and checkpoint folders are runs of one entry), then by the recorded "
          "hyperparameters other than the seed and by MLflow run names";
      break;
    case GroupBy::Kind::kPath:
      out.rule = "by folder only (--group-by path; seed, run, version and checkpoint folders are runs of one entry)";
      break;
    case GroupBy::Kind::kParams:
      out.rule =
          "by the recorded hyperparameters other than the seed (--group-by params; runs that record none: "
          "by folder)";
      break;
    case GroupBy::Kind::kKeys:
      out.rule = "by the values of " + Join(by.keys, ", ") + " (--group-by)";
      break;
  }
  if (!forced_entry.empty()) out.rule = "every run in entry \"" + forced_entry + "\" (" + forced_by + ")";
  return out;
}

std::string FormatEntryGrouping(const EntryGrouping& grouping, const std::vector<RunIdentityFacts>& runs) {
  if (grouping.entries.empty()) return "";
  // Folders shown below the folder all runs share (its own name kept).
  std::vector<std::string> common = Components(Join(runs.front().folders, "/"));
  for (const RunIdentityFacts& r : runs) {
    std::size_t n = 0;
    while (n < common.size() && n < r.folders.size() && common[n] == r.folders[n]) ++n;
    common.resize(n);
  }
  const std::size_t drop = common.empty() ? 0 : common.size() - 1;
  std::size_t width = 0;
  for (const EntryGrouping::Entry& e : grouping.entries) width = std::max(width, e.name.size());
  std::string out = "grouping " + grouping.rule + " (--group-by path|params|NAME... or --entry chooses another):\n";
  for (const EntryGrouping::Entry& e : grouping.entries) {
    std::vector<std::string> shown;
    for (const std::string& f : e.folders) {
      std::vector<std::string> parts = Components(f);
      parts.erase(parts.begin(), parts.begin() + static_cast<std::ptrdiff_t>(std::min(drop, parts.size())));
      shown.push_back(parts.empty() ? f : Join(parts, "/"));
    }
    std::string folders;
    for (std::size_t i = 0; i < shown.size() && i < 4; ++i) folders += (i == 0 ? "" : ", ") + shown[i];
    if (shown.size() > 4) folders += fmt::format(" and {} more", shown.size() - 4);
    out += fmt::format("  {:<{}} <- {} run{} from {}\n", e.name, width, e.runs.size(), e.runs.size() == 1 ? "" : "s",
                       folders);
  }
  if (!grouping.differences.empty()) out += "  entries differ in: " + Join(grouping.differences, ", ") + "\n";
  return out;
}

MetricScaleDecision DecideMetricScale(bool rate_like, const std::vector<double>& logged_values) {
  MetricScaleDecision d;
  d.rate = rate_like;
  if (!rate_like) return d;
  std::vector<double> finite;
  for (double v : logged_values) {
    if (std::isfinite(v)) finite.push_back(v);
  }
  if (!finite.empty()) {
    std::nth_element(finite.begin(), finite.begin() + static_cast<std::ptrdiff_t>(finite.size() / 2), finite.end());
    d.percent = finite[finite.size() / 2] > 1.0;
  }
  return d;
}

ThresholdOnScale ThresholdOnMetricScale(double given, const MetricScaleDecision& scale, const std::string& metric,
                                        const std::string& op, const std::string& where) {
  if (!scale.rate) return {given, ""};
  const std::string typed = fmt::format("{:g}", given);
  if (!std::isfinite(given) || given < 0 || given > 100) {
    throw UsageError("--threshold", fmt::format("{} is off the scale of {} in {} ({}); give a fraction in [0, 1] or "
                                                "a percentage in [0, 100]",
                                                typed, metric, where,
                                                scale.percent ? "a percentage in [0, 100]" : "a fraction in [0, 1]"));
  }
  if (scale.percent && given <= 1) {
    return {given * 100, fmt::format("--threshold {} read as a fraction: {} is in percent, so the target is {} {} "
                                     "{:g} %",
                                     typed, metric, metric, op, given * 100)};
  }
  if (scale.percent) {
    // Both scales are plausible here: say which one it was read on.
    return {given, fmt::format("--threshold {} read as a percentage: the target is {} {} {} % ({:g} as a "
                               "fraction)",
                               typed, metric, op, typed, given / 100)};
  }
  if (given > 1) {
    return {given / 100, fmt::format("--threshold {} read as a percentage: {} is a fraction, so the target is {} "
                                     "{} {:g}",
                                     typed, metric, metric, op, given / 100)};
  }
  return {given, ""};
}

std::optional<MetricScaleDecision> DeclaredRateScale(double low, double high) {
  if (low == 0 && high == 1) return MetricScaleDecision{true, false};
  if (low == 0 && high == 100) return MetricScaleDecision{true, true};
  return std::nullopt;
}

}  // namespace evalsuite::importer
