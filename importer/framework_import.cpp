#include "importer/framework_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

#include "common/ascii_case.h"
#include "common/error.h"
#include "importer/framework_metric.h"
#include "importer/run_identity.h"
#include "importer/threshold_scale.h"
#include "runlog/epoch_csv_log.h"
#include "runlog/hf_trainer_log.h"
#include "runlog/keras_csv_log.h"
#include "runlog/lightning_csv_log.h"
#include "runlog/mlflow_run.h"
#include "runlog/run_log_checks.h"
#include "runlog/tensorboard_events.h"
#include "stats/curve.h"
#include "stats/descriptive.h"

namespace evalsuite::importer {
namespace fs = std::filesystem;
using nlohmann::json;

namespace framework_import_detail {

bool IsNumberedFolder(const std::string& name, const std::string& prefix) {
  return name.size() > prefix.size() && name.rfind(prefix, 0) == 0 &&
         std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix.size()), name.end(),
                     [](unsigned char c) { return std::isdigit(c) != 0; });
}

// TF Keras' TensorBoard callback writes a run's training and validation scalars into train/ and validation/.
bool IsTensorboardSplitFolder(const std::string& name) {
  return name == "train" || name == "validation" || name == "eval" || name == "valid";
}

fs::path TensorboardRunFolder(const fs::path& canonical_file) {
  fs::path folder = canonical_file.parent_path();
  if (IsTensorboardSplitFolder(folder.filename().string())) folder = folder.parent_path();
  return folder;
}

// The canonical components of a folder, root first ("/a/b" -> a, b).
std::vector<std::string> FolderComponents(const fs::path& folder) {
  std::vector<std::string> parts;
  for (const fs::path& part : folder.relative_path()) {
    if (!part.empty() && part != ".") parts.push_back(part.string());
  }
  return parts;
}

// What run_identity.h decides the run's entry from: its own folder (Hugging Face: above a checkpoint-N folder;
// TensorBoard: the run folder, train/ and validation/ belonging to it; MLflow: the experiment, by its name), its file
// name, the recorded hyperparameters and the MLflow run name.
RunIdentityFacts IdentityFacts(const runlog::FrameworkRun& run, const SourceFile& source) {
  const fs::path& file = source.canonical;
  fs::path folder = file.parent_path();
  RunIdentityFacts facts;
  if (run.format == "hf-trainer") {
    if (IsNumberedFolder(folder.filename().string(), "checkpoint-")) folder = folder.parent_path();
  } else if (run.format == "mlflow") {
    folder = folder.parent_path();  // file is <experiment>/<run>/meta.yaml
  } else if (run.format == "tensorboard") {
    folder = TensorboardRunFolder(file);
  }
  // A file's own name counts where runs of one folder are told apart by it (run_identity.h): "baseline_seed1.csv"
  // beside "fast_seed1.csv", "bert__trainer_state.json" beside "gpt__trainer_state.json"; fixed names never are.
  if (run.format != "mlflow" && run.format != "tensorboard") facts.file_stem = file.stem().string();
  facts.folders = FolderComponents(folder);
  // The experiment's folder is its id; its name (when meta.yaml gives one, not the id again) is what people call it.
  if (run.format == "mlflow" && !run.experiment.empty() && !IsRunInstanceName(run.experiment) &&
      !facts.folders.empty()) {
    facts.folders.back() = run.experiment;
  }
  facts.hyperparameters = run.hyperparameters;
  facts.hyperparameter_source = run.hyperparameter_source;
  if (run.format == "mlflow") facts.run_name = run.run_name;
  facts.label = run.label;
  return facts;
}

const char* DisplayName(const std::string& format) {
  if (format == "hf-trainer") return "Hugging Face Trainer";
  if (format == "lightning") return "Lightning CSVLogger";
  if (format == "keras") return "Keras CSVLogger";
  if (format == "mlflow") return "MLflow";
  if (format == "tensorboard") return "TensorBoard";
  if (format == "epoch-csv") return "epoch CSV";
  return "framework";
}

// Why a basis other than seconds: the report says so beside the TTA.
std::string NoClockReason(const std::string& format) {
  if (format == "hf-trainer") {
    return "trainer_state.json records no clock per evaluation (eval_runtime is one evaluation's duration, "
           "train_runtime the whole run's), so TTA is in epochs";
  }
  if (format == "lightning") return "Lightning's CSVLogger records no clock, so TTA is in steps";
  if (format == "keras") return "Keras' CSVLogger records no clock, so TTA is in epochs";
  if (format == "epoch-csv") return "the CSV has no \"time\" column, so TTA is in epochs";
  return "";
}

// Of a Hugging Face output folder's states (its own trainer_state.json and each checkpoint-N/trainer_state.json), the
// run is the output folder's own, else the highest checkpoint's: the older checkpoints hold the start of the same log.
std::set<const runlog::FrameworkRun*> OlderHfCheckpoints(const std::vector<FrameworkSource>& sources,
                                                         std::vector<std::string>& notes) {
  std::map<fs::path, std::vector<std::pair<long long, const FrameworkSource*>>> by_output;
  std::map<fs::path, const FrameworkSource*> final_state;
  for (const FrameworkSource& s : sources) {
    if (s.file->format != ImportFormat::kHfTrainer) continue;
    const fs::path folder = s.file->canonical.parent_path();
    const std::string name = folder.filename().string();
    if (IsNumberedFolder(name, "checkpoint-")) {
      by_output[folder.parent_path()].push_back({std::strtoll(name.c_str() + 11, nullptr, 10), &s});
    } else if (s.file->canonical.filename() == "trainer_state.json") {
      final_state[folder] = &s;
    }
  }
  std::set<const runlog::FrameworkRun*> older;
  for (auto& [output, states] : by_output) {
    const auto final_it = final_state.find(output);
    if (final_it == final_state.end() && states.size() < 2) continue;
    const FrameworkSource* newest = final_it != final_state.end() ? final_it->second : nullptr;
    if (newest == nullptr) {
      newest = std::max_element(states.begin(), states.end(), [](const auto& a, const auto& b) {
                 return a.first < b.first;
               })->second;
    }
    for (const auto& state : states) {
      if (state.second == newest) continue;
      for (const runlog::FrameworkRun& run : *state.second->runs) older.insert(&run);
    }
    notes.push_back(fmt::format(
        "{}: {} trainer_state.json files of one output folder; only {} is read (the older "
        "checkpoints hold the start of the same log)",
        output.string(), states.size() + (final_it != final_state.end() ? 1 : 0), newest->file->file.string()));
  }
  return older;
}

// The event files of one TensorBoard run folder, as one run on the clock of the earliest file; a file in train/ or
// validation/ gives its tags that prefix ("validation/epoch_accuracy"), as TensorBoard names its runs.
runlog::FrameworkRun MergeTensorboardRun(
    const fs::path& run_folder, const std::vector<std::pair<const SourceFile*, runlog::FrameworkRun*>>& files) {
  runlog::FrameworkRun merged;
  merged.format = "tensorboard";
  merged.source = files.front().first->file.parent_path();
  if (IsTensorboardSplitFolder(merged.source.filename().string())) merged.source = merged.source.parent_path();
  merged.label = files.size() == 1 ? files.front().second->label : merged.source.string();
  merged.basis = runlog::TimeBasis::kSeconds;
  merged.basis_rule = files.front().second->basis_rule;
  double origin = INFINITY;
  for (const auto& [source, run] : files) {
    if (run->facts.contains("start_wall_time")) origin = std::min(origin, run->facts["start_wall_time"].get<double>());
  }
  for (const auto& [source, run] : files) {
    const double shift = run->facts.contains("start_wall_time") && std::isfinite(origin)
                             ? run->facts["start_wall_time"].get<double>() - origin
                             : 0.0;
    const std::string split = source->canonical.parent_path() == run_folder
                                  ? std::string()
                                  : source->canonical.parent_path().filename().string() + "/";
    for (auto& [tag, points] : run->series) {
      auto& into = merged.series[split + tag];
      for (runlog::SeriesPoint p : points) {
        p.progress += shift;
        into.push_back(p);
      }
    }
    merged.progress_spent = std::max(merged.progress_spent, run->progress_spent + shift);
    merged.warnings.insert(merged.warnings.end(), run->warnings.begin(), run->warnings.end());
  }
  if (files.size() > 1) {
    for (auto& [tag, points] : merged.series) {
      std::stable_sort(points.begin(), points.end(), [](const runlog::SeriesPoint& a, const runlog::SeriesPoint& b) {
        return a.progress < b.progress;
      });
    }
    merged.facts["event_files"] = files.size();
  }
  return merged;
}

std::string JoinNames(const std::map<std::string, std::vector<runlog::SeriesPoint>>& series) {
  std::string out;
  std::size_t n = 0;
  for (const auto& [name, points] : series) {
    if (n++ == 12) {
      out += ", ...";
      break;
    }
    out += (out.empty() ? "" : ", ") + name;
  }
  return out.empty() ? "nothing" : out;
}

// One run ready for its group.
struct PreparedRun {
  const SourceFile* source = nullptr;
  runlog::FrameworkRun run;
  std::string entry;
  std::string metric;  // as logged
};

std::string FormatValue(double v) { return fmt::format("{:.6g}", v); }

// Where a group's runs lie, for its summary line and description: the folder they share, with how many folders
// they come from ("hf/baseline (3 folders)"), not the first run's folder alone.
std::string GroupSource(const std::vector<PreparedRun*>& members) {
  std::vector<std::string> folders;
  for (const PreparedRun* p : members) {
    if (std::find(folders.begin(), folders.end(), p->source->group_source) == folders.end()) {
      folders.push_back(p->source->group_source);
    }
  }
  const PreparedRun& first = *members.front();
  if (folders.size() < 2) {
    return first.source->group_source.empty() || first.source->group_source == "."
               ? first.source->file.filename().string()
               : first.source->group_source;
  }
  fs::path common;
  const fs::path head(folders.front());
  for (const fs::path& part : head) {
    const fs::path next = common / part;
    const bool shared =
        std::all_of(folders.begin(), folders.end(), [&](const std::string& f) { return IsWithin(fs::path(f), next); });
    if (!shared) break;
    common = next;
  }
  return fmt::format("{} ({} folders)", common.empty() ? std::string(".") : common.generic_string(), folders.size());
}

}  // namespace framework_import_detail

std::vector<runlog::FrameworkRun> ReadFrameworkSource(const SourceFile& source) {
  switch (source.format) {
    case ImportFormat::kHfTrainer:
      return {runlog::ReadHfTrainerState(source.file)};
    case ImportFormat::kLightning:
      return {runlog::ReadLightningMetricsCsv(source.file)};
    case ImportFormat::kKeras:
      return runlog::ReadKerasCsv(source.file);
    case ImportFormat::kMlflow: {
      fs::path folder = source.file.parent_path();
      if (folder.empty()) folder = ".";
      return {runlog::ReadMlflowRun(folder)};
    }
    case ImportFormat::kTensorboard:
      return {runlog::ReadTensorboardEvents(source.file)};
    case ImportFormat::kEpochCsv:
      return {runlog::ReadEpochCsv(source.file)};
    default:
      throw InputError(source.file.string(), "not a framework log");
  }
}

// Over clang-tidy's complexity limit: reading, scale checks, grouping and scoring of every framework run in one pass.
// Splitting it into those stages is its own change, one that can rerun the framework-log oracle after each move.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
void BuildFrameworkGroups(const ImportOptions& options, const std::vector<FrameworkSource>& sources,
                          ImportResult& result) {
  using namespace framework_import_detail;
  if (sources.empty()) return;
  auto note = [&](const std::string& text) {
    if (std::find(result.notes.begin(), result.notes.end(), text) == result.notes.end()) result.notes.push_back(text);
  };
  const std::set<const runlog::FrameworkRun*> older = OlderHfCheckpoints(sources, result.notes);

  // Runs in source order; TensorBoard's files of one run folder become one run where the first of them stood.
  std::vector<PreparedRun> prepared;
  std::map<fs::path, std::vector<std::pair<const SourceFile*, runlog::FrameworkRun*>>> tensorboard;
  std::vector<fs::path> tensorboard_order;
  for (const FrameworkSource& s : sources) {
    for (runlog::FrameworkRun& run : *s.runs) {
      if (older.count(&run)) continue;
      if (run.marked_deleted) {
        note(run.label + ": an MLflow run marked deleted (lifecycle_stage) is not imported");
        continue;
      }
      if (run.format == "tensorboard") {
        const fs::path folder = TensorboardRunFolder(s.file->canonical);
        if (!tensorboard.count(folder)) {
          tensorboard_order.push_back(folder);
          prepared.push_back({s.file, runlog::FrameworkRun(), "", ""});
          prepared.back().run.label = folder.string();  // placeholder, filled below
        }
        tensorboard[folder].push_back({s.file, &run});
        continue;
      }
      prepared.push_back({s.file, std::move(run), "", ""});
    }
  }
  for (PreparedRun& p : prepared) {
    if (p.run.format.empty()) {
      const fs::path folder(p.run.label);
      p.run = MergeTensorboardRun(folder, tensorboard[folder]);
    }
  }

  // Entry and metric of each run; a run without the metric is an error naming its file.
  std::vector<PreparedRun*> kept;
  for (PreparedRun& p : prepared) {
    if (!options.metric.empty()) {
      if (!p.run.series.count(options.metric)) {
        result.errors.push_back(fmt::format("{}: no metric \"{}\" in the log (it logs: {})", p.run.label,
                                            options.metric, JoinNames(p.run.series)));
        ++result.framework_errors;
        continue;
      }
      p.metric = options.metric;
    } else {
      std::vector<std::string> names;
      for (const auto& [name, points] : p.run.series) names.push_back(name);
      bool only_training = false;
      const std::optional<std::string> chosen = ChooseMetric(names, false, &only_training);
      if (!chosen) {
        result.errors.push_back(fmt::format("{}: no metric to judge the run on (the log holds: {}); --metric names one",
                                            p.run.label, JoinNames(p.run.series)));
        ++result.framework_errors;
        continue;
      }
      p.metric = *chosen;
      if (only_training) {
        p.run.warnings.push_back(
            fmt::format("{}: no validation metric in the log; the run is judged on {}", p.run.label, p.metric));
      }
    }
    kept.push_back(&p);
  }
  // Entries: one decision for every run (run_identity.h), shown before anything is stored.
  std::vector<RunIdentityFacts> identities;
  identities.reserve(kept.size());
  for (const PreparedRun* p : kept) identities.push_back(IdentityFacts(p->run, *p->source));
  const EntryGrouping grouping = GroupRunsIntoEntries(identities, options.group_by, options.entry);
  for (std::size_t i = 0; i < kept.size(); ++i) kept[i]->entry = grouping.entries[grouping.entry_of_run[i]].name;
  result.grouping += FormatEntryGrouping(grouping, identities);
  result.warnings.insert(result.warnings.end(), grouping.warnings.begin(), grouping.warnings.end());

  // Groups: one entry, metric and basis.
  std::vector<std::vector<PreparedRun*>> groups;
  std::map<std::string, std::size_t> group_of;
  std::map<std::string, std::set<std::string>> keys_of_entry;
  for (PreparedRun* p : kept) {
    const std::string key = p->entry + "\n" + p->metric + "\n" + runlog::TimeBasisName(p->run.basis);
    auto [it, added] = group_of.emplace(key, groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(p);
    keys_of_entry[p->entry].insert(key);
  }

  for (const std::vector<PreparedRun*>& members : groups) {
    const PreparedRun& first = *members.front();
    const std::string& metric = first.metric;
    const runlog::TimeBasis basis = first.run.basis;
    const std::string unit = runlog::TimeBasisName(basis);
    std::vector<double> values;
    for (const PreparedRun* p : members) {
      for (const runlog::SeriesPoint& point : p->run.series.at(metric)) values.push_back(point.value);
    }
    const MetricNature nature = NatureOfMetric(metric, values);
    const bool lower = nature.direction == MetricDirection::kLowerIsBetter;

    ImportedGroup group;
    group.format = first.run.format;
    group.source = GroupSource(members);
    group.location = first.source->group;
    group.entry = keys_of_entry[first.entry].size() > 1 ? fmt::format("{} ({})", first.entry, metric) : first.entry;
    group.benchmark = group.entry;
    group.system = DisplayName(group.format);
    group.time_unit = unit;
    group.metric = lower ? "-" + metric : metric;
    if (options.metric.empty()) {
      note(fmt::format("metric of {}: {} ({}{})", group.entry, metric, kMetricChoiceRule,
                       lower ? "; lower is better" : ""));
    }
    std::optional<double> as_written;
    if (options.threshold) {
      if (nature.rate) {
        // A rate's threshold on the other scale (fraction or percent) is converted, with a note: one rule for every
        // format (run_identity.h).
        const ThresholdOnScale read = ThresholdOnMetricScale(*options.threshold, {true, nature.percent}, metric,
                                                             lower ? "<=" : ">=", first.run.label);
        as_written = read.value;
        if (!read.note.empty()) note(read.note);
      } else {
        as_written = *options.threshold;
      }
      if (!std::isfinite(*as_written) ||
          (nature.scale && (*as_written < nature.scale->low || *as_written > nature.scale->high))) {
        throw UsageError("--threshold",
                         fmt::format("{:g} is off the scale of {} in {}: not {}", *options.threshold, metric,
                                     first.run.label, nature.scale ? nature.scale->name : "finite"));
      }
      group.threshold = as_written;
      group.stored_threshold = lower ? -*as_written : *as_written;
    } else {
      result.warnings.push_back(
          fmt::format("{}: framework logs name no target for {}; give --threshold (as logged, "
                      "e.g. 0.9 for an accuracy, 0.35 for a WER) for TTA",
                      first.run.label, metric));
    }
    const std::string op = lower ? "<=" : ">=";
    const std::string reason = basis == runlog::TimeBasis::kSeconds ? std::string() : NoClockReason(group.format);
    group.description = fmt::format("{} import of {}: {} {} {}{}; TTA in {} ({}){}", DisplayName(group.format),
                                    group.source, metric, op, as_written ? FormatValue(*as_written) : "(no target)",
                                    lower ? " (lower is better; stored negated as " + group.metric + ")" : "", unit,
                                    first.run.basis_rule, reason.empty() ? "" : "; " + reason);
    if (!reason.empty()) note(fmt::format("time of {}: {}", group.entry, reason));

    FrameworkFacts facts;  // the group's details, encoded once below
    std::vector<double> reached;
    for (PreparedRun* p : members) {
      runlog::FrameworkRun& run = p->run;
      ImportedRun imported;
      imported.file = run.source;
      runlog::RunLog& log = imported.log;
      log.warnings = run.warnings;
      for (const runlog::SeriesPoint& point : run.series.at(metric)) {
        runlog::EvalPoint e;
        e.epoch = point.epoch;
        e.train_seconds = point.progress;
        e.wall_seconds = basis == runlog::TimeBasis::kSeconds ? point.progress : 0.0;
        e.metric = point.value;
        e.line = point.line;
        log.points.push_back(e);
      }
      log.train_seconds = run.progress_spent;
      log.wall_seconds = basis == runlog::TimeBasis::kSeconds ? run.progress_spent : 0.0;
      // The checks every format passes, on the values as logged (their warnings then speak the log's numbers).
      const std::size_t logged = log.points.size();
      runlog::CheckRunLog(log, run.label, nature.scale);
      if (logged > 0 && log.points.empty()) {
        // Not a run that missed its target: a run that could not be read. No verdict is made from it.
        result.errors.push_back(
            fmt::format("{}: none of the {} evaluation(s) of {} could be read ({}); the run is "
                        "not imported",
                        run.label, logged, metric, log.warnings.back()));
        ++result.framework_errors;
        continue;
      }
      if (!log.points.empty()) log.train_seconds = std::max(log.train_seconds, log.points.back().train_seconds);
      if (basis == runlog::TimeBasis::kSeconds) log.wall_seconds = log.train_seconds;
      if (lower) {
        for (runlog::EvalPoint& e : log.points) e.metric = -e.metric;
      }
      std::optional<double> run_tta;
      if (group.stored_threshold) {
        std::vector<stats::CurvePoint> curve;
        for (const runlog::EvalPoint& e : log.points) curve.push_back({e.train_seconds, e.metric});
        run_tta = stats::TimeToTarget(curve, *group.stored_threshold);
      }
      if (run.status == analysis::EndedAs::kFailed || run.status == analysis::EndedAs::kNoEnd) {
        log.status = run.status;
        log.error = run.status_note;
      } else {
        log.status = run_tta ? analysis::EndedAs::kReached : analysis::EndedAs::kNotReached;
      }
      log.header = {{"entry", group.entry},
                    {"format", group.format},
                    {"metric", group.metric},
                    {"metric_as_logged", metric},
                    {"direction", lower ? "lower is better" : "higher is better"},
                    {"time_unit", unit},
                    {"time_rule", run.basis_rule},
                    {"source", run.label}};
      if (group.stored_threshold) log.header["threshold"] = *group.stored_threshold;
      if (!run.run_name.empty()) log.header["run_name"] = run.run_name;
      if (!run.experiment.empty()) log.header["experiment"] = run.experiment;
      if (!run.hyperparameters.empty()) {
        log.header["hyperparameters"] = run.hyperparameters;
        log.header["hyperparameter_source"] = run.hyperparameter_source;
      }
      log.header["entry_rule"] = grouping.rule;
      if (!run.status_note.empty()) log.header["status_note"] = run.status_note;
      for (auto it = run.facts.begin(); it != run.facts.end(); ++it) log.header[it.key()] = it.value();
      if (!run.seed.is_null()) {
        imported.seeds = {{"run", run.seed}, {"source", run.seed_source}};
        log.header["seeds"] = imported.seeds;
      }
      if (run_tta && basis == runlog::TimeBasis::kSeconds) imported.tta_minutes = *run_tta / 60.0;
      if (run_tta) reached.push_back(*run_tta);
      facts.tta.push_back(run_tta);
      facts.evaluations.push_back(log.points.size());
      facts.files.push_back(run.label);
      facts.seeds.push_back(run.seed);
      group.runs.push_back(std::move(imported));
    }
    group.converged = reached.size();
    if (reached.size() >= 2) {
      const double cov = stats::CoefficientOfVariation(reached);
      if (std::isfinite(cov)) group.cov = cov;
    }
    facts.time_unit = unit;
    facts.metric_as_logged = metric;
    facts.lower_is_better = lower;
    facts.threshold_as_logged = as_written;
    facts.time_rule = first.run.basis_rule;
    facts.no_clock = reason;
    // Where a point's "epoch" is the log's step (MLflow, TensorBoard), the progress axis says so.
    facts.steps_axis = group.format == "mlflow" || group.format == "tensorboard";
    group.details = FrameworkFactsToJson(facts);
    group.framework = std::move(facts);
    result.groups.push_back(std::move(group));
  }
}

std::string FormatFrameworkGroup(const ImportedGroup& g) {
  using framework_import_detail::FormatValue;
  std::string out = fmt::format("{:<9}  {}  ({}, entry \"{}\")\n", g.format, g.source, g.system, g.entry);
  const FrameworkFacts facts = g.framework.value_or(FrameworkFacts{});
  const std::string metric = g.framework ? facts.metric_as_logged : g.metric;
  const bool lower = facts.lower_is_better;
  out += fmt::format("  {} {} {}: {} of {} runs reached", metric,
                     lower ? "<=" : ">=", g.threshold ? FormatValue(*g.threshold) : "(no --threshold)", g.converged,
                     g.runs.size());
  if (g.cov) out += fmt::format(", CoV {:.2f}%", *g.cov * 100);
  out += "\n";
  const std::vector<std::optional<double>>& tta = facts.tta;
  for (std::size_t i = 0; i < g.runs.size(); ++i) {
    const runlog::RunLog& log = g.runs[i].log;
    double best = NAN;
    for (const runlog::EvalPoint& p : log.points) best = std::isnan(best) ? p.metric : std::max(best, p.metric);
    std::string line =
        fmt::format("  {}: {} evaluation(s)", i < facts.files.size() ? facts.files[i] : "?",
                    i < facts.evaluations.size() ? std::to_string(facts.evaluations[i]) : std::string("?"));
    if (!std::isnan(best)) line += fmt::format(", best {}", FormatValue(lower ? -best : best));
    if (i < tta.size() && tta[i]) {
      line += fmt::format(", TTA {} {}", FormatValue(*tta[i]), g.time_unit);
    } else if (g.threshold) {
      line += ", target not reached";
    }
    if (log.status == analysis::EndedAs::kNoEnd || log.status == analysis::EndedAs::kFailed) {
      line += fmt::format(" [{}: {}]", runlog::LogEndName(log.status), log.error);
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace evalsuite::importer
