#include "importer/importer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "analysis/mlperf_facts.h"
#include "common/error.h"
#include "common/figure_format.h"
#include "common/json_access.h"
#include "common/parallel_for.h"
#include "importer/framework_import.h"
#include "importer/group_scoring.h"
#include "importer/mlperf_group.h"
#include "importer/threshold_scale.h"
#include "runlog/dawnbench_log.h"
#include "runlog/jsonl_run_log.h"
#include "runlog/mlperf_log.h"
#include "runlog/run_header_json.h"
#include "runlog/run_log_checks.h"
#include "stats/curve.h"
#include "store/run_store.h"

namespace evalsuite::importer {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string FormatNumber(double v) { return fmt::format("{:.6g}", v); }

// A time to target as people read it, in the unit its size suggests (compare and study show print seconds; an
// MLPerf score stays in minutes, the unit of its rules).
std::string TimeToTargetText(double minutes) {
  const double seconds = minutes * 60;
  if (seconds < 120) return FormatFigure(seconds) + " s";
  if (minutes < 120) return FormatFigure(minutes) + " min";
  return FormatFigure(minutes / 60) + " h";
}

// The MLPerf lines of a group's summary: ruleset, division, RCP verdict, official score, runs that do not count.
std::string FormatMlperfDetails(const analysis::MlperfFacts& d) {
  std::string out;
  auto text = [](const std::optional<std::string>& v) { return v.value_or("?"); };
  out += fmt::format("  ruleset {} ({}), division {}\n", text(d.ruleset), text(d.ruleset_source), text(d.division));
  const analysis::MlperfThroughputFacts throughput = d.throughput.value_or(analysis::MlperfThroughputFacts{});
  if (throughput.median_samples_per_second) {
    out += fmt::format("  training throughput {} samples/s (median of {} successful run(s); {}; {}",
                       FormatNumber(*throughput.median_samples_per_second), throughput.runs.value_or(0),
                       text(throughput.method), text(throughput.interval));
    out += d.global_batch_size ? fmt::format("; global batch {})\n", FormatNumber(*d.global_batch_size)) : ")\n";
  }
  // A figure that disagreed with the log's own estimate of the samples trained is withheld, never printed.
  if (throughput.withheld_runs.value_or(0) > 0) {
    out += fmt::format("  training throughput withheld for {} successful run(s): {}\n", *throughput.withheld_runs,
                       text(throughput.withheld));
  }
  if (d.rcp) {
    const analysis::MlperfRcpFacts& rcp = *d.rcp;
    out += fmt::format("  RCP: {} ({})", text(rcp.verdict), text(rcp.message));
    if (rcp.submission_mean_epochs && rcp.min_epochs) {
      out += fmt::format(": reference {}, submission mean {} vs min {} (RCP mean {}, stdev {})", text(rcp.reference),
                         FormatNumber(*rcp.submission_mean_epochs), FormatNumber(*rcp.min_epochs),
                         FormatNumber(rcp.rcp_mean.value_or(0)), FormatNumber(rcp.rcp_stdev.value_or(0)));
      if (rcp.norm_factor) out += fmt::format(", normalization {}", FormatNumber(*rcp.norm_factor));
    }
    out += "\n";
  }
  if (d.official && d.official->official_minutes) {
    const analysis::MlperfOfficialFacts& o = *d.official;
    const double official = *o.official_minutes;
    out += fmt::format("  official score {} min", FormatNumber(official));
    if (o.published_scaling_factor) {
      out += fmt::format(" (published scaling.json x{})", FormatNumber(*o.published_scaling_factor));
    }
    if (o.checker_minutes && std::fabs(*o.checker_minutes - official) > 1e-9 * std::fabs(official)) {
      out += fmt::format("; with the RCP checker's normalization {} min", FormatNumber(*o.checker_minutes));
    }
    out += "\n";
  }
  if (d.official && d.official->note && !d.official->official_minutes) {
    const analysis::MlperfOfficialFacts& o = *d.official;
    if (o.unapplied_rules_minutes) {
      out += fmt::format("  score with today's rules reported, not applied: {} min\n",
                         FormatNumber(*o.unapplied_rules_minutes));
    }
    out += "  no official score: " + *o.note + "\n";
  }
  for (const analysis::MlperfRunFacts& r : d.run_details) {
    if (r.status.value_or("") != "success" || r.reason) {
      out += fmt::format("  {} {}: {}\n", text(r.file), text(r.status), text(r.reason));
    }
  }
  return out;
}

// What one file turned into; exactly one of the optionals is set unless `error` is.
struct ParsedFile {
  std::optional<runlog::MlperfRun> mlperf;
  std::optional<runlog::DawnbenchEntry> dawnbench;
  std::optional<runlog::RunLog> jsonl;
  std::optional<std::vector<runlog::FrameworkRun>> framework;  // framework_import.h
  std::string error;
  bool unreadable_run = false;  // a run log that could not be read (every evaluation off its scale): stores nothing
  std::size_t bytes = 0;
};

// A file a format matched nothing in is an error, not an empty run: it says which format was asked for.
std::string OtherFormatHint(const SourceFile& source) {
  const std::string ext = source.file.extension().string();
  if (ext == ".tsv") return " (a .tsv is a DAWNBench entry: --format dawnbench or auto)";
  if (ext == ".jsonl") return " (a .jsonl is an evalsuite run log: --format jsonl or auto)";
  return " (check --format; auto tells the formats apart)";
}

// The reader's first complaint, which often says what the file is instead.
std::string FirstSkipped(const std::vector<std::string>& warnings) {
  return warnings.empty() ? ""
                          : "; first of " + std::to_string(warnings.size()) + " line(s) skipped: " + warnings.front();
}

// What run_identity.h decides a JSON Lines run's entry from: its folder and its header's
// hyperparameters (scalars; nested objects flattened with ".").
RunIdentityFacts JsonlIdentity(const SourceFile& file, const runlog::RunLog& log) {
  RunIdentityFacts facts;
  for (const fs::path& part : file.canonical.parent_path().relative_path()) facts.folders.push_back(part.string());
  // The file's name is not asked: runs of one folder are runs of one entry (runlog::kEntryNameRule).
  const auto hp = log.header.find("hyperparameters");
  if (hp != log.header.end() && hp->is_object()) {
    const json flat = hp->flatten();
    for (auto it = flat.begin(); it != flat.end(); ++it) {
      std::string key = it.key().substr(1);
      std::replace(key.begin(), key.end(), '/', '.');
      facts.hyperparameters[key] = it->is_string() ? it->get<std::string>() : it->dump();
    }
    if (!facts.hyperparameters.empty()) facts.hyperparameter_source = "the header's hyperparameters";
  }
  facts.label = file.file.string();
  return facts;
}

// "batch_size=128,lr=0.1": the recorded values that tell an entry's configuration apart from its siblings'.
std::string ConfigSuffix(const std::map<std::string, std::string>& config, const std::vector<std::string>& differ) {
  std::string out;
  for (const auto& [key, value] : config) {
    if (std::find(differ.begin(), differ.end(), key) == differ.end()) continue;
    out += (out.empty() ? "" : ",") + key + "=" + value;
  }
  return out;
}

// JSON Lines entries. --entry is the user's word over everything: every run in it. Otherwise a header's "entry"
// names its runs' entry (those that differ in a recorded hyperparameter are warned of), unless --group-by asks
// for another grouping: then the header's name is kept and what tells its configurations apart is added to it
// ("my-entry batch_size=128"). Runs whose header names none are grouped by run_identity.h (a seed folder is never
// an entry). Every grouping is printed before anything is stored.
void DecideJsonlEntries(const std::vector<std::size_t>& jsonl_files, const std::vector<const SourceFile*>& files,
                        const std::vector<ParsedFile*>& parsed, const ImportOptions& options,
                        std::vector<runlog::RunEntryName>& names, ImportResult& result) {
  std::vector<std::size_t> unnamed;
  std::map<std::string, std::vector<std::size_t>> named;
  for (std::size_t k = 0; k < jsonl_files.size(); ++k) {
    if (std::string(names[k].rule) == "header" && options.entry.empty()) {
      named[names[k].name].push_back(k);
    } else {
      unnamed.push_back(k);
    }
  }
  auto facts_of = [&](const std::vector<std::size_t>& ks) {
    std::vector<RunIdentityFacts> facts;
    facts.reserve(ks.size());
    for (std::size_t k : ks) facts.push_back(JsonlIdentity(*files[jsonl_files[k]], *parsed[jsonl_files[k]]->jsonl));
    return facts;
  };
  for (const auto& [entry, ks] : named) {
    const std::vector<RunIdentityFacts> facts = facts_of(ks);
    EntryGrouping g =
        options.group_by.kind == GroupBy::Kind::kAuto
            ? GroupRunsIntoEntries(facts, GroupBy{GroupBy::Kind::kPath, {}}, entry, "their headers' \"entry\"")
            : GroupRunsIntoEntries(facts, options.group_by);
    if (g.entries.size() == 1) {
      g.entries.front().name = entry;
    } else {
      for (EntryGrouping::Entry& e : g.entries) {
        const std::string suffix = ConfigSuffix(e.config, g.differences);
        e.name = entry + " " + (suffix.empty() ? e.name : suffix);  // no value tells it apart: its folders do
      }
    }
    for (std::size_t i = 0; i < ks.size(); ++i) names[ks[i]].name = g.entries[g.entry_of_run[i]].name;
    result.grouping += FormatEntryGrouping(g, facts);
    for (const std::string& w : g.warnings) result.warnings.push_back(w);
  }
  if (unnamed.empty()) return;
  const std::vector<RunIdentityFacts> facts = facts_of(unnamed);
  const EntryGrouping g = GroupRunsIntoEntries(facts, options.group_by, options.entry);
  for (std::size_t i = 0; i < unnamed.size(); ++i) names[unnamed[i]].name = g.entries[g.entry_of_run[i]].name;
  result.grouping += FormatEntryGrouping(g, facts);
  result.warnings.insert(result.warnings.end(), g.warnings.begin(), g.warnings.end());
}

ParsedFile ParseOne(const SourceFile& source) {
  ParsedFile parsed;
  try {
    switch (source.format) {
      case ImportFormat::kMlperf:
        parsed.mlperf = runlog::ReadMlperfLog(source.file);
        parsed.bytes = parsed.mlperf->bytes;
        break;
      case ImportFormat::kDawnbench:
        parsed.dawnbench = runlog::ReadDawnbenchEntry(source.file);
        break;
      case ImportFormat::kJsonl: {
        std::string scale_error;
        parsed.jsonl = runlog::ReadJsonlRunLog(source.file, &scale_error);
        if (!scale_error.empty()) {
          parsed.jsonl.reset();
          parsed.error = scale_error;
          parsed.unreadable_run = true;
          break;
        }
      }
        if (parsed.jsonl->header.empty() && parsed.jsonl->points.empty() &&
            parsed.jsonl->status == analysis::EndedAs::kNoEnd) {
          throw InputError(source.file.string(),
                           "no JSON Lines run-log record (header, eval or end) in the file: it is not an evalsuite "
                           "run log" +
                               OtherFormatHint(source) + FirstSkipped(parsed.jsonl->warnings));
        }
        break;
      case ImportFormat::kAuto:
        parsed.error = source.file.string() + ": no format";
        break;
      default:
        parsed.framework = ReadFrameworkSource(source);
        break;
    }
    if (parsed.bytes == 0) {
      std::error_code ec;
      const auto size = fs::file_size(source.file, ec);
      if (!ec) parsed.bytes = static_cast<std::size_t>(size);
    }
  } catch (const Error& e) {
    parsed.error = e.what();
  } catch (const std::exception& e) {
    parsed.error = source.file.string() + ": " + e.what();
  }
  return parsed;
}

std::vector<ParsedFile> ParseAll(const std::vector<SourceFile>& files, unsigned jobs) {
  std::vector<ParsedFile> parsed(files.size());
  ParallelFor(files.size(), jobs, [&](std::size_t i) { parsed[i] = ParseOne(files[i]); });
  return parsed;
}

class GroupBuilder {
 public:
  GroupBuilder(const ImportOptions& options, ImportResult& result) : options_(options), result_(result) {}

  // Safe on several threads at once: writes only to `part` (and the builder's shared RCP files, under their lock).
  void Mlperf(const std::vector<const SourceFile*>& files, const std::vector<ParsedFile*>& parsed, ImportResult& part) {
    std::vector<fs::path> paths;
    std::vector<runlog::MlperfRun*> runs;
    for (std::size_t i = 0; i < files.size(); ++i) {
      paths.push_back(files[i]->file);
      runs.push_back(&*parsed[i]->mlperf);
    }
    mlperf_.Build(NewGroup(*files.front(), "mlperf"), paths, runs, part);
  }
  std::set<std::string> RcpErrorsToSayOnce() const { return mlperf_.RcpErrorsToSayOnce(); }

  // A part built by Mlperf, appended to the result as if it had been built there: in order, a note or an
  // unreadable RCP file's error (`say_once`, the builder's RcpErrorsToSayOnce) said once.
  void Join(ImportResult& part, const std::set<std::string>& say_once) {
    for (ImportedGroup& g : part.groups) result_.groups.push_back(std::move(g));
    result_.warnings.insert(result_.warnings.end(), part.warnings.begin(), part.warnings.end());
    for (std::string& e : part.errors) {
      if (say_once.count(e) != 0 && !rcp_errors_said_.insert(e).second) continue;
      result_.errors.push_back(std::move(e));
    }
    result_.compliance.insert(result_.compliance.end(), part.compliance.begin(), part.compliance.end());
    for (const std::string& note : part.notes) Note(note);
  }

  void Dawnbench(const SourceFile& file, ParsedFile& parsed) {
    const runlog::DawnbenchEntry& entry = *parsed.dawnbench;
    ImportedGroup group = NewGroup(file, "dawnbench");
    group.benchmark = entry.task;
    group.system = entry.InfoString("hardware").value_or(entry.name);
    group.entry = (entry.task.empty() ? std::string("dawnbench") : entry.task) + "/" + entry.name;
    std::optional<runlog::DawnbenchTaskRule> rule = runlog::DawnbenchRuleForTask(entry.task);
    double scale = 1;
    if (rule) {
      group.metric = rule->column;
      scale = rule->scale;
      group.threshold = rule->threshold;
      if (options_.threshold) {
        const ResolvedThreshold resolved =
            ResolveThreshold(*options_.threshold, rule->scale != 1, rule->column, entry.tsv_file);
        group.threshold = resolved.value;
        Note(resolved.note);
      }
    } else {
      result_.warnings.push_back(entry.tsv_file +
                                 ": cannot tell the DAWNBench task (CIFAR10, ImageNet, SQuAD) "
                                 "from the folder or the columns; no TTA");
    }
    ImportedRun run;
    run.file = file.file;
    if (group.threshold) {
      group.stored_threshold = *group.threshold * scale;
      run.log = runlog::ToRunLog(entry, group.metric, *group.threshold, scale);
      // From the checked curve, as every reader of the store derives it; the hours as the row wrote them.
      std::vector<stats::CurvePoint> curve;
      for (const runlog::EvalPoint& p : run.log.points) curve.push_back({p.train_seconds, p.metric});
      if (const std::optional<double> seconds = stats::TimeToTarget(curve, *group.stored_threshold)) {
        for (std::size_t k = 0; k < run.log.points.size() && !group.tta_hours; ++k) {
          if (run.log.points[k].train_seconds != *seconds) continue;
          for (const runlog::DawnbenchRow& row : entry.rows) {
            if (row.line == run.log.points[k].line) group.tta_hours = row.hours;
          }
        }
      }
    } else {
      run.log = runlog::ToRunLog(entry, "", 0, 1);
      run.log.status = analysis::EndedAs::kNotReached;
    }
    run.log.header["system"] = group.system;
    run.log.header["entry"] = group.entry;
    run.log.header[runlog::kProgressUnitKey] = "epochs";
    group.details["progress_unit"] = "epochs";
    if (group.tta_hours) run.tta_minutes = *group.tta_hours * 60.0;
    if (rule && rule->scale != 1 && group.threshold && !group.tta_hours) {
      // A percent column that holds fractions never reaches 94: say what the values look like.
      std::optional<double> highest;
      for (const runlog::DawnbenchRow& row : entry.rows) {
        if (const std::optional<double> v = row.Column(rule->column); v && (!highest || *v > *highest)) highest = v;
      }
      if (highest && *highest <= 1.0) {
        result_.warnings.push_back(fmt::format(
            "{}: {} is a percentage column in DAWNBench's format, but its values are at most {:g}: they look like "
            "fractions, so the target {:g} % is never reached (write percentages, e.g. {:g} for {:g})",
            entry.tsv_file, rule->column, *highest, *group.threshold, *highest * 100, *highest));
        group.details["scale_hint"] = "the percent column holds fractions";
      }
    }
    group.runs.push_back(std::move(run));
    ScoreGroup(group, 1);
    for (const char* key : {"author", "model", "hardware", "framework"}) {
      std::optional<std::string> value = entry.InfoString(key);
      group.details[key] = JsonOrNull(value);
    }
    const std::optional<double> cost_per_hour = entry.CostPerHour();
    group.details["cost_per_hour"] = JsonOrNull(cost_per_hour);
    group.details["cost"] = cost_per_hour && group.tta_hours ? json(*cost_per_hour * *group.tta_hours) : json(nullptr);
    group.details["files"] = json::array({file.file.filename().string()});
    if (!entry.json_file.empty()) group.details["files"].push_back(fs::path(entry.json_file).filename().string());
    result_.groups.push_back(std::move(group));
  }

  // One entry's JSON Lines runs (runlog::EntryOfRun decided which files belong together, wherever they lie).
  void Jsonl(const std::string& entry, const std::vector<const SourceFile*>& files, std::vector<ParsedFile*>& parsed) {
    ImportedGroup group = NewGroup(*files.front(), "jsonl");
    const runlog::RunLog& first = *parsed.front()->jsonl;
    std::vector<std::string> sources;
    std::size_t unnamed = 0;
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (std::find(sources.begin(), sources.end(), files[i]->group_source) == sources.end()) {
        sources.push_back(files[i]->group_source);
      }
      if (std::string(runlog::EntryOfRun(parsed[i]->jsonl->header, files[i]->file).rule) != "header") ++unnamed;
    }
    if (sources.size() > 1) {
      group.source = fmt::format("{} (and {} other folder(s))", sources.front(), sources.size() - 1);
    }
    group.system = group.location.filename().string();
    group.benchmark = entry;
    group.entry = entry;
    if (unnamed > 0) {
      result_.warnings.push_back(
          fmt::format("{}: {} run log(s) name no entry in their header; their entry is \"{}\" ({})",
                      files.front()->file.string(), unnamed, entry, runlog::kEntryNameRule));
    }
    group.metric = runlog::HeaderMetricFromJson(first.header, files.front()->file.string());
    if (options_.threshold) {
      // The logs' metric is a fraction unless their header declares a metric_range; a threshold off that scale is
      // refused (converted from a percentage for a fraction).
      const std::optional<runlog::MetricScale> scale = runlog::DeclaredMetricScale(first.header, "", nullptr);
      const std::optional<MetricScaleDecision> rate = scale ? DeclaredRateScale(scale->low, scale->high) : std::nullopt;
      if (rate) {
        // A fraction or a percentage ("metric_range": [0, 100]): a threshold on the other scale is converted.
        const ThresholdOnScale read =
            ThresholdOnMetricScale(*options_.threshold, *rate, group.metric, ">=", files.front()->file.string());
        group.threshold = read.value;
        Note(read.note);
      } else if (scale && (*options_.threshold < scale->low || *options_.threshold > scale->high)) {
        throw UsageError("--threshold", fmt::format("{:g} is off the scale of {} in {}: not {}", *options_.threshold,
                                                    group.metric, files.front()->file.string(), scale->name));
      } else {
        group.threshold = options_.threshold;
      }
    } else if (first.header.contains("threshold") && first.header["threshold"].is_number()) {
      group.threshold = first.header["threshold"].get<double>();
      for (std::size_t i = 1; i < parsed.size(); ++i) {
        const json& h = parsed[i]->jsonl->header;
        if (h.contains("threshold") && h["threshold"].is_number() && h["threshold"].get<double>() != *group.threshold) {
          result_.warnings.push_back(fmt::format(
              "{}: threshold {:g} differs from {:g} of {}, the first run log of entry \"{}\"; the first one is used",
              files[i]->file.string(), h["threshold"].get<double>(), *group.threshold, files.front()->file.string(),
              entry));
        }
      }
    } else {
      result_.warnings.push_back(group.source + ": the run logs of entry \"" + entry +
                                 "\" name no threshold; give --threshold for TTA");
    }
    group.stored_threshold = group.threshold;
    json files_json = json::array();
    for (std::size_t i = 0; i < parsed.size(); ++i) {
      ImportedRun run;
      run.file = files[i]->file;
      run.log = std::move(*parsed[i]->jsonl);
      run.log.header["entry"] = entry;
      if (group.threshold) run.tta_minutes = TtaMinutes(run.log, *group.threshold);
      if (run.log.header.contains("seeds")) run.seeds = run.log.header["seeds"];
      files_json.push_back(sources.size() > 1 ? (fs::path(files[i]->group_source) / files[i]->file.filename()).string()
                                              : files[i]->file.filename().string());
      group.runs.push_back(std::move(run));
    }
    ScoreGroup(group, 1);
    group.details["files"] = files_json;
    // The progress axis the logs declare (runlog::kProgressUnitKey), when they all declare one; else epochs.
    std::string unit = runlog::ProgressUnitOf(group.runs.front().log.header);
    for (const ImportedRun& r : group.runs) {
      if (runlog::ProgressUnitOf(r.log.header) != unit) unit = "epochs";
    }
    group.details["progress_unit"] = unit;
    result_.groups.push_back(std::move(group));
  }

 private:
  void Note(const std::string& note) {
    if (!note.empty() && std::find(result_.notes.begin(), result_.notes.end(), note) == result_.notes.end()) {
      result_.notes.push_back(note);
    }
  }

  ImportedGroup NewGroup(const SourceFile& file, const char* format) {
    ImportedGroup group;
    group.source = file.group_source;
    group.location = file.group;
    group.format = format;
    return group;
  }

  const ImportOptions& options_;
  ImportResult& result_;
  MlperfGroupBuilder mlperf_{options_};
  std::set<std::string> rcp_errors_said_;
};

}  // namespace

ImportResult Import(const ImportOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ImportResult result;
  Discovery discovery = DiscoverSources(options.paths, options.format);
  result.roots = discovery.roots;
  result.errors = discovery.errors;
  std::vector<ParsedFile> parsed = ParseAll(discovery.files, options.jobs);

  // Warnings and errors in file order; files that failed drop out of their group.
  std::vector<const SourceFile*> ok_files;
  std::vector<ParsedFile*> ok_parsed;
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    ParsedFile& p = parsed[i];
    // A file named on the command line that holds no MLPerf line is not an MLPerf log: an error. A result file found
    // in a submission's folder is different: the official summarizer counts it as a run that did not succeed.
    const SourceFile& source = discovery.files[i];
    if (p.error.empty() && p.mlperf && p.mlperf->records == 0 &&
        std::find(discovery.roots.begin(), discovery.roots.end(), source.canonical) != discovery.roots.end()) {
      p.error = source.file.string() +
                ": no MLPerf log line (:::MLLOG, :::MLPv0.5.0) in the file: it is not an MLPerf result log" +
                OtherFormatHint(source) + FirstSkipped(p.mlperf->warnings);
    }
    if (!p.error.empty()) {
      result.errors.push_back(p.error);
      if (IsFrameworkFormat(source.format) || p.unreadable_run) ++result.framework_errors;
      continue;
    }
    ++result.files;
    result.bytes += p.bytes;
    ok_files.push_back(&discovery.files[i]);
    ok_parsed.push_back(&p);
  }

  // Framework logs group by entry and metric wherever their files lie (framework_import.h).
  std::vector<FrameworkSource> framework;
  for (std::size_t i = 0; i < ok_files.size();) {
    if (!ok_parsed[i]->framework) {
      ++i;
      continue;
    }
    framework.push_back({ok_files[i], &*ok_parsed[i]->framework});
    ok_files.erase(ok_files.begin() + static_cast<std::ptrdiff_t>(i));
    ok_parsed.erase(ok_parsed.begin() + static_cast<std::ptrdiff_t>(i));
  }
  // Groups in order of their first file: an MLPerf benchmark folder, a DAWNBench TSV, or a JSON Lines entry (the
  // entry its runs' headers name, runlog::EntryOfRun, wherever the files lie: never the first file's for all).
  std::vector<std::size_t> jsonl_files;  // indices into ok_files
  std::vector<runlog::RunEntryName> jsonl_names;
  for (std::size_t i = 0; i < ok_files.size(); ++i) {
    if (ok_files[i]->format != ImportFormat::kJsonl) continue;
    jsonl_files.push_back(i);
    jsonl_names.push_back(runlog::EntryOfRun(ok_parsed[i]->jsonl->header, ok_files[i]->file));
  }
  DecideJsonlEntries(jsonl_files, ok_files, ok_parsed, options, jsonl_names, result);
  const std::vector<runlog::EntryGroup> entries = runlog::GroupRunsByEntry(jsonl_names);
  std::map<std::size_t, std::size_t> entry_of_file;  // ok_files index -> entries index
  for (std::size_t e = 0; e < entries.size(); ++e) {
    for (std::size_t k : entries[e].runs) entry_of_file[jsonl_files[k]] = e;
  }
  std::vector<std::vector<std::size_t>> slices;
  std::vector<std::string> slice_entry;
  std::map<std::string, std::size_t> slice_of;
  for (std::size_t i = 0; i < ok_files.size(); ++i) {
    const SourceFile& f = *ok_files[i];
    if (f.format == ImportFormat::kJsonl) {
      const runlog::EntryGroup& entry = entries[entry_of_file.at(i)];
      if (jsonl_files[entry.runs.front()] != i) continue;  // the entry's slice was made at its first file
      slices.emplace_back();
      for (std::size_t k : entry.runs) slices.back().push_back(jsonl_files[k]);
      slice_entry.push_back(entry.entry);
      continue;
    }
    const std::string key = std::string(ImportFormatName(f.format)) + "\n" + f.group.string();
    auto [it, added] = slice_of.emplace(key, slices.size());
    if (added) {
      slices.emplace_back();
      slice_entry.emplace_back();
    }
    slices[it->second].push_back(i);
  }
  GroupBuilder builder(options, result);
  auto slice_files = [&](std::size_t s) {
    std::pair<std::vector<const SourceFile*>, std::vector<ParsedFile*>> slice;
    for (std::size_t i : slices[s]) {
      slice.first.push_back(ok_files[i]);
      slice.second.push_back(ok_parsed[i]);
    }
    return slice;
  };
  // MLPerf folders are scored on several threads (compliance, RCPs and power logs take a fifth of an import), each
  // into its own part, and joined below in folder order: the output does not depend on the number of threads.
  std::vector<ImportResult> mlperf_parts(slices.size());
  std::vector<std::exception_ptr> mlperf_failures(slices.size());
  ParallelFor(slices.size(), options.jobs, [&](std::size_t s) {
    if (ok_files[slices[s].front()]->format != ImportFormat::kMlperf) return;
    try {
      const auto [files, group_parsed] = slice_files(s);
      builder.Mlperf(files, group_parsed, mlperf_parts[s]);
    } catch (...) {
      mlperf_failures[s] = std::current_exception();
    }
  });
  const std::set<std::string> say_once = builder.RcpErrorsToSayOnce();
  for (std::size_t s = 0; s < slices.size(); ++s) {
    auto [files, group_parsed] = slice_files(s);
    switch (files.front()->format) {
      case ImportFormat::kMlperf:
        if (mlperf_failures[s]) std::rethrow_exception(mlperf_failures[s]);
        builder.Join(mlperf_parts[s], say_once);
        break;
      case ImportFormat::kDawnbench:
        for (std::size_t k = 0; k < files.size(); ++k) builder.Dawnbench(*files[k], *group_parsed[k]);
        break;
      case ImportFormat::kJsonl:
        builder.Jsonl(slice_entry[s], files, group_parsed);
        break;
      default:
        break;
    }
  }
  BuildFrameworkGroups(options, framework, result);
  // Warnings in file order: each stored run's log holds its reader's warnings and those of the checks every format
  // passes (runlog/run_log_checks.h); the groups' own warnings follow.
  std::vector<std::string> warnings;
  for (const ImportedGroup& g : result.groups) {
    for (const ImportedRun& run : g.runs)
      warnings.insert(warnings.end(), run.log.warnings.begin(), run.log.warnings.end());
  }
  warnings.insert(warnings.end(), result.warnings.begin(), result.warnings.end());
  result.warnings = std::move(warnings);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

nlohmann::ordered_json ToJson(const ImportResult& result) {
  using ordered = nlohmann::ordered_json;
  auto optional = [](const std::optional<double>& v) { return v ? ordered(*v) : ordered(nullptr); };
  ordered groups = ordered::array();
  for (const ImportedGroup& g : result.groups) {
    ordered tta = ordered::array();
    for (const ImportedRun& run : g.runs) tta.push_back(optional(run.tta_minutes));
    ordered out = ordered::object();
    out["source"] = g.source;
    out["format"] = g.format;
    out["benchmark"] = g.benchmark;
    out["system"] = g.system;
    out["runs"] = g.runs.size();
    out["converged"] = g.converged;
    out["tta_minutes"] = tta;
    out["olympic_minutes"] = optional(g.olympic_minutes);
    out["cov"] = optional(g.cov);
    if (g.format == "dawnbench") {
      out["metric"] = g.metric;
      out["threshold"] = optional(g.threshold);
      out["tta_hours"] = optional(g.tta_hours);
    }
    for (auto it = g.details.begin(); it != g.details.end(); ++it) {
      if (!out.contains(it.key())) out[it.key()] = ordered::parse(it.value().dump());
    }
    groups.push_back(std::move(out));
  }
  ordered doc = ordered::object();
  doc["schema_version"] = kImportJsonSchemaVersion;
  doc["groups"] = std::move(groups);
  return doc;
}

// Over clang-tidy's complexity limit since the grouping and the quiet notes joined the per-format blocks; one
// formatter per format is its own change.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
std::string FormatSummary(const ImportResult& result, bool compliance_as_errors) {
  std::string out = result.grouping;
  for (const ImportedGroup& g : result.groups) {
    if (const auto format = ParseImportFormat(g.format); format && IsFrameworkFormat(*format)) {
      out += FormatFrameworkGroup(g);
      continue;
    }
    if (g.format == "dawnbench") {
      out += fmt::format("dawnbench  {}  ({}, {})\n", g.source, g.benchmark.empty() ? "?" : g.benchmark, g.system);
      if (g.threshold) {
        out += fmt::format("  {} >= {}: ", g.metric, FormatNumber(*g.threshold));
        if (g.tta_hours) {
          out += fmt::format("TTA {} h", FormatNumber(*g.tta_hours));
          if (g.details.contains("cost") && g.details["cost"].is_number()) {
            out += fmt::format(", cost ${:.2f}", g.details["cost"].get<double>());
          }
          out += "\n";
        } else {
          out += "not reached\n";
        }
      }
      continue;
    }
    out += fmt::format("{:<9}  {}  ({} on {})\n", g.format, g.source, g.benchmark, g.system);
    out += fmt::format("  {} run{}, {} ", g.runs.size(), g.runs.size() == 1 ? "" : "s", g.converged);
    if (g.mlperf) {
      out += "converged";
      const analysis::MlperfFacts& facts = *g.mlperf;
      if (g.olympic_minutes) {
        out += fmt::format(", olympic mean {} min", FormatNumber(*g.olympic_minutes));
        if (!facts.official_target.value_or(false) && facts.threshold_shown) {
          out += fmt::format(" of TTA at {} (not the official score)", *facts.threshold_shown);
        }
      } else {
        out += ", no olympic score";
        const std::size_t failed = g.runs.size() - g.converged;
        out += fmt::format(" ({} of {} run(s) did not count", failed, g.runs.size());
        const std::size_t drop = static_cast<std::size_t>(facts.drop_each_side.value_or(1));
        out += failed > drop ? fmt::format("; the rules allow {})", drop) : std::string(")");
      }
    } else {
      const json shown = g.stored_threshold ? json(fmt::format("{} >= {}", g.metric, FormatNumber(*g.stored_threshold)))
                                            : json(nullptr);
      out += shown.is_string() ? "reached " + shown.get<std::string>() : std::string("reached (no threshold)");
      std::vector<double> reached;
      for (const ImportedRun& r : g.runs) {
        if (r.tta_minutes) reached.push_back(*r.tta_minutes);
      }
      if (!reached.empty()) {
        std::sort(reached.begin(), reached.end());
        const std::size_t n = reached.size();
        const double median = n % 2 == 1 ? reached[n / 2] : (reached[n / 2 - 1] + reached[n / 2]) / 2;
        out += ", median TTA of those " + TimeToTargetText(median);
      }
    }
    if (g.cov) out += ", CoV " + FormatShareAsPercent(*g.cov, 2);
    out += "\n";
    if (g.mlperf) out += FormatMlperfDetails(*g.mlperf);
  }
  std::size_t runs = 0;
  for (const ImportedGroup& g : result.groups) runs += g.runs.size();
  const double mb = static_cast<double>(result.bytes) / 1e6;
  out += fmt::format(
      "imported {} group(s), {} run(s) from {} file(s), {:.1f} MB in {:.3f} s ({:.0f} MB/s); {} "
      "warning(s){}, {} error(s){}\n",
      result.groups.size(), runs, result.files, mb, result.seconds, result.seconds > 0 ? mb / result.seconds : 0.0,
      result.warnings.size() + (compliance_as_errors ? 0 : result.compliance.size()),
      !compliance_as_errors && !result.compliance.empty()
          ? fmt::format(" ({} of them MLPerf compliance findings)", result.compliance.size())
          : std::string(),
      result.errors.size() + (compliance_as_errors ? result.compliance.size() : 0),
      compliance_as_errors && !result.compliance.empty()
          ? fmt::format(" ({} of them MLPerf compliance findings, --strict)", result.compliance.size())
          : std::string());
  return out;
}

std::optional<std::string> StoredEntrySourceOf(const json& extra) {
  const auto it = extra.is_object() ? extra.find("source") : extra.end();
  if (it == extra.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

json StoredEntryExtra(const ImportedGroup& g) {
  if (g.mlperf) {
    analysis::MlperfFacts facts = *g.mlperf;
    facts.stored = analysis::MlperfStoredEntryFacts{g.source, g.benchmark, g.system, g.olympic_minutes};
    return analysis::MlperfFactsToJson(facts);
  }
  json extra = g.details;
  extra["source"] = g.source;
  extra["benchmark"] = g.benchmark;
  extra["system"] = g.system;
  extra["olympic_minutes"] = JsonOrNull(g.olympic_minutes);
  if (g.format == "dawnbench") {
    extra["tta_hours"] = JsonOrNull(g.tta_hours);
    extra["threshold_in_column_units"] = JsonOrNull(g.threshold);
  }
  return extra;
}

int64_t WriteToStore(store::RunStore& store, const ImportResult& result, const std::string& study_name,
                     const json& plan, const json& environment, std::string* final_name, StudyNameTaken when_taken) {
  std::string name = study_name;
  std::optional<store::StudyInfo> existing = store.FindStudy(study_name);
  if (existing && existing->name != study_name) existing.reset();  // a numeric name matched another study's id
  std::map<std::string, std::string> taken;                        // entry name -> where its runs came from
  if (existing && when_taken == StudyNameTaken::kAddTo) {
    if (existing->kind != "import") {
      throw UsageError("--study",
                       "'" + study_name + "' in " + store.file().string() +
                           " is a study evalsuite ran, not an import: name another --study for imported runs");
    }
    for (const store::EntryRecord& e : store.LoadEntries(existing->id)) {
      taken[e.name] = StoredEntrySourceOf(e.extra).value_or("an earlier import");
    }
  } else {
    existing.reset();
    for (int n = 2; store.FindStudy(name); ++n) name = study_name + " #" + std::to_string(n);
  }
  // Entry names as they will be stored: two groups with one name (the same system/benchmark under two PATHs) stay
  // apart; a name the study already has is refused before anything is written.
  std::vector<std::string> entry_names;
  std::map<std::string, int> entry_uses;
  for (const ImportedGroup& g : result.groups) {
    const int use = ++entry_uses[g.entry];
    entry_names.push_back(use == 1 ? g.entry : g.entry + " #" + std::to_string(use));
    auto clash = taken.find(entry_names.back());
    if (clash != taken.end()) {
      throw UsageError("--study", "study '" + study_name + "' already has an entry '" + clash->first + "' (from " +
                                      clash->second + "); this import's runs of it (" + g.source +
                                      ") would be filed under the same entry: name them with --entry NAME, or "
                                      "import into another --study. Nothing was stored");
    }
  }
  // One transaction: a failure half-way (a full disk, a value the store refuses) leaves the store as it was,
  // with no empty study row behind.
  std::unique_ptr<store::RunStore::Transaction> transaction = store.Begin();
  int64_t study_id = 0;
  if (existing) {
    study_id = existing->id;
    store.RecordInvocation(study_id, "import", plan, environment);  // this import's paths and options, kept
  } else {
    study_id = store.CreateStudy(name, "import", plan, environment);
  }
  if (final_name != nullptr) *final_name = name;
  for (std::size_t k = 0; k < result.groups.size(); ++k) {
    const ImportedGroup& g = result.groups[k];
    store::EntryRecord entry;
    entry.name = entry_names[k];
    entry.description = g.description.empty() ? g.format + " import of " + g.source : g.description;
    entry.source = g.format;
    entry.metric = g.metric;
    entry.time_unit = g.time_unit;
    entry.threshold = g.stored_threshold.value_or(0);
    entry.extra = StoredEntryExtra(g);
    store.UpsertEntry(study_id, entry);
    for (std::size_t i = 0; i < g.runs.size(); ++i) {
      store::RunRecord record;
      record.entry = entry.name;
      record.run_index = static_cast<int>(i);
      record.seeds = analysis::RunSeedsFromJson(g.runs[i].seeds);  // the importer's facts, typed at the store
      record.log = g.runs[i].log;
      record.run_dir = g.runs[i].file.string();
      store.InsertRun(study_id, record);
    }
  }
  transaction->Commit();
  return study_id;
}

}  // namespace evalsuite::importer
