#include "study/execution/run_execution.h"

#include <fmt/format.h>
#include <signal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "common/error.h"
#include "common/json_access.h"
#include "common/onednn_isa_cap.h"
#include "stats/curve.h"
#include "study/execution/failure_cause.h"
#include "study/plans/ceilings_record.h"
#include "study/plans/command_template.h"
#include "study/plans/log_formats.h"

namespace evalsuite::study {
namespace {

namespace fs = std::filesystem;

// The shortest text that reads back as the same double (0.91, not 0.91000000000000003).
std::string FormatNumber(double value) {
  char buffer[64];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

runlog::RunLog ReadLog(const PlannedEntry& entry, const fs::path& run_dir) {
  fs::path file = RunLogPath(entry, run_dir);
  runlog::RunLog log;
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    log.warnings.push_back(file.string() + ": no log was written");
    return log;
  }
  std::optional<RunLogFormat> format = FormatOfEntry(entry);
  if (!format) {
    log.warnings.push_back(file.string() + ": unknown log format '" + entry.log_format + "'");
    return log;
  }
  try {
    return format->read(file, entry);
  } catch (const Error& e) {
    log.warnings.push_back(std::string("log unreadable: ") + e.what());
    return log;
  }
}

// Seeds as stored: the run seed evalsuite chose, plus what the entry derived from it (its header's "seeds"); in a
// [variance] design, each source's seed as the design gave it, so the analysis can group runs by it whatever the
// entry's log says.
analysis::RunSeeds MergeSeeds(const PlannedRun& run, const runlog::RunLog& log) {
  nlohmann::json header_seeds = nlohmann::json::object();
  auto it = log.header.find("seeds");
  if (it != log.header.end() && it->is_object()) header_seeds = *it;
  analysis::RunSeeds seeds = analysis::RunSeedsFromJson(header_seeds);  // the log's edge
  seeds.run = run.seed;
  seeds.other.erase("run");  // a log's own "run" of another type gives way to the seed evalsuite chose
  if (run.sources) {
    seeds.init = run.sources->init;
    seeds.data_order = run.sources->data_order;
    seeds.augmentation = run.sources->augmentation;
    for (const char* name : {"init", "data_order", "augmentation"}) seeds.other.erase(name);
  }
  return seeds;
}

store::RunRecord BaseRecord(const StudyPlan& plan, const PlannedRun& run, const fs::path& run_dir, runlog::RunLog log) {
  store::RunRecord record;
  record.entry = run.entry;
  record.run_index = run.index;
  record.seeds = MergeSeeds(run, log);
  record.threads = plan.threads;
  record.run_dir = run_dir.string();
  record.log = std::move(log);
  if (record.log.train_seconds <= 0 && !record.log.points.empty()) {
    record.log.train_seconds = record.log.points.back().train_seconds;
  }
  return record;
}

}  // namespace

nlohmann::json UsageToJson(double wall_seconds, const ResourceUsage& usage) {
  return {{"wall_seconds", wall_seconds},
          {"user_seconds", usage.user_seconds},
          {"system_seconds", usage.system_seconds},
          {"max_rss_kb", usage.max_rss_kb}};
}

fs::path RunLogPath(const PlannedEntry& entry, const fs::path& run_dir) {
  std::optional<RunLogFormat> format = FormatOfEntry(entry);
  return run_dir / (format && format->source == LogSource::kStdout ? kRunStdoutFile : kRunLogFile);
}

fs::path RunDirFor(const StudyPlan& plan, const std::string& entry, int index) {
  char name[64];
  std::snprintf(name, sizeof(name), "run-%03d", index);
  return fs::path(plan.out_dir) / entry / name;
}

fs::path AsideDirFor(const fs::path& run_dir, int k) { return run_dir.string() + ".attempt-" + std::to_string(k); }

fs::path MoveAttemptAside(const fs::path& run_dir, const std::function<bool(const fs::path&)>& taken) {
  std::error_code ec;
  for (int k = 1;; ++k) {
    const fs::path aside = AsideDirFor(run_dir, k);
    if (fs::exists(aside, ec) || (taken && taken(aside))) continue;
    fs::rename(run_dir, aside, ec);
    if (ec) {
      throw IoError(run_dir.string(), "cannot move an earlier try aside to " + aside.string() + ": " + ec.message());
    }
    return aside;
  }
}

ChildSpec BuildChildSpec(const StudyPlan& plan, const PlannedEntry& entry, const PlannedRun& run,
                         const fs::path& run_dir, const fs::path& evalsuite_binary) {
  ChildSpec spec;
  spec.working_dir = run_dir;
  spec.stdout_file = run_dir / kRunStdoutFile;
  spec.stderr_file = run_dir / kRunStderrFile;
  const std::string threads = std::to_string(plan.threads);
  // Libraries that size their thread pools from the environment (OpenMP, MKL, PyTorch) get the run's share.
  spec.environment = {{"OMP_NUM_THREADS", threads},
                      {"MKL_NUM_THREADS", threads},
                      {"EVALSUITE_THREADS", threads},
                      {"EVALSUITE_SEED", std::to_string(run.seed)},
                      {"EVALSUITE_RUN_DIR", run_dir.string()}};
  if (!plan.onednn_isa_cap) {
    // The plan turns evalsuite's oneDNN cap off: the child decides nothing either, and a cap evalsuite set
    // (recognized by its marker) is taken away; a user's own ONEDNN_MAX_CPU_ISA still passes through.
    spec.environment[kIsaCapSwitchVariable] = "off";
    const char* marker = std::getenv(kIsaCapMarkerVariable);
    const char* cap = std::getenv("ONEDNN_MAX_CPU_ISA");
    if (marker != nullptr && cap != nullptr && std::string(marker) == cap) {
      spec.unset_environment = {"ONEDNN_MAX_CPU_ISA", "DNNL_MAX_CPU_ISA", kIsaCapMarkerVariable};
    }
  }
  const fs::path log = run_dir / kRunLogFile;
  if (entry.builtin) {
    spec.argv = {evalsuite_binary.string(),
                 "train",
                 entry.name,
                 "--seed",
                 std::to_string(run.seed),
                 "--threads",
                 threads,
                 "--epochs",
                 std::to_string(entry.epochs),
                 "--target",
                 FormatNumber(entry.threshold)};
    if (entry.train_subset) {
      spec.argv.push_back("--train-subset");
      spec.argv.push_back(std::to_string(*entry.train_subset));
    }
    // The study's own recorded ceilings, with their step timings, decide bf16 or fp32 for every run alike
    // (entries/precision_choice.h).
    spec.argv.insert(spec.argv.end(), {"--precision", plan.precision, "--precision-ceilings",
                                       (fs::path(plan.out_dir) / kRunCeilingsFile).string()});
    if (run.sources) {  // a [variance] design's seeds, taken as they are instead of derived from --seed
      spec.argv.insert(spec.argv.end(), {"--init-seed", std::to_string(run.sources->init), "--data-seed",
                                         std::to_string(run.sources->data_order), "--aug-seed",
                                         std::to_string(run.sources->augmentation)});
    }
    if (plan.stop_at_target) spec.argv.push_back("--stop-at-target");
    if (plan.evals_per_epoch != 1) {
      spec.argv.push_back("--evals-per-epoch");
      spec.argv.push_back(std::to_string(plan.evals_per_epoch));
    }
    spec.argv.push_back("--log");
    spec.argv.push_back(log.string());
    if (plan.keep_models) {
      spec.argv.push_back("--model-dir");
      spec.argv.push_back((run_dir / "model").string());
    }
    return spec;
  }
  const SourceSeeds sources = run.sources ? *run.sources : DerivedSourceSeeds(run.seed);
  std::map<std::string, std::string> values = {
      {"seed", std::to_string(run.seed)},
      {"init_seed", std::to_string(sources.init)},
      {"data_seed", std::to_string(sources.data_order)},
      {"aug_seed", std::to_string(sources.augmentation)},
      {"run_dir", run_dir.string()},
      {"log", log.string()},
      {"threads", threads},
      {"epochs", std::to_string(entry.epochs)},
      {"threshold", FormatNumber(entry.threshold)},
      {"train_subset", entry.train_subset ? std::to_string(*entry.train_subset) : ""},
      {"model_dir", (run_dir / "model").string()},
      {"run_index", std::to_string(run.index)},
      {"evals_per_epoch", std::to_string(plan.evals_per_epoch)},
      {"study_dir", plan.study_dir},
  };
  std::string command = ExpandCommandTemplate(entry.command, values);
  if (IsSimpleShellCommand(entry.command)) command = "exec " + command;
  spec.argv = {"/bin/sh", "-c", command};
  return spec;
}

store::RunRecord CollectFinishedRun(const StudyPlan& plan, const PlannedEntry& entry, const PlannedRun& run,
                                    const fs::path& run_dir, const ChildOutcome& outcome) {
  store::RunRecord record = BaseRecord(plan, run, run_dir, ReadLog(entry, run_dir));
  record.exit_status = outcome.exit.exit_status;
  record.signal = outcome.exit.signal;
  record.stderr_tail = TailOfFile(run_dir / kRunStderrFile);
  if (record.log.wall_seconds <= 0) record.log.wall_seconds = outcome.wall_seconds;
  record.execution["executor"] = "local";
  if (outcome.exit.usage) record.execution["usage"] = UsageToJson(outcome.wall_seconds, *outcome.exit.usage);
  const bool had_end_record = record.log.status != analysis::EndedAs::kNoEnd;

  std::string failure;
  const bool process_failed =
      outcome.timed_out || outcome.exit.signal || !outcome.exit.exit_status || *outcome.exit.exit_status != 0;
  if (process_failed) {
    // A full disk often leaves no stderr behind (it could not be written either): ask the file system.
    std::string evidence = record.stderr_tail;
    const std::optional<unsigned long long> free_bytes = FreeBytes(run_dir.string());
    if (free_bytes && *free_bytes < (1ull << 20)) evidence += "\nNo space left on device (" + run_dir.string() + ")";
    const FailureCause cause = DescribeFailure(outcome.exit, outcome.timed_out, evidence, outcome.oom_killed);
    failure =
        outcome.timed_out ? "timed out after " + FormatNumber(entry.timeout_seconds) + " s (killed)" : cause.cause;
    if (!cause.hint.empty()) failure += " (" + cause.hint + ")";
    // Before its first evaluation the run says nothing about the entry's training: it did not run here. After it,
    // a death of the machine's making (disk, memory) says nothing either (MarkProcessFailed decides).
    if (!record.log.error.empty() && record.log.error != failure) failure += ": " + record.log.error;
    MarkProcessFailed(record, failure, cause.environment);
    return record;
  }
  if (record.log.status == analysis::EndedAs::kFailed) {
    failure = record.log.error.empty() ? "the entry reported a failure" : record.log.error;
  } else if (record.log.points.empty()) {
    // Nothing the run did can be read (no evaluation logged, or none the reader could take: a metric off its
    // scale, a pattern that never matched): it says nothing about the entry's training, so it did not run here, as
    // a crash before the first evaluation; a verdict of NOT STABLE from it would be the reader's mistake, not the
    // entry's. What the reader said about the log (file:line and why) is the user's lead.
    failure = "exited without recording any evaluation it could read";
    if (!record.log.warnings.empty()) failure += " (" + record.log.warnings.front() + ")";
    if (!record.log.error.empty() && record.log.error != failure) failure += ": " + record.log.error;
    MarkProcessFailed(record, failure, false);
    return record;
  }
  if (!failure.empty()) {
    if (!record.log.error.empty() && record.log.error != failure) failure += ": " + record.log.error;
    record.log.error = failure;
    record.log.status = analysis::EndedAs::kFailed;
    return record;
  }
  // A log may name a target of its own; every run of the study is judged against the study's, said where they
  // differ (a cold reader's header said 0.9, the study 0.95, and nothing told which counted).
  if (const std::optional<double> logged = NumberOf(Field(record.log.header, "threshold"));
      logged && std::abs(*logged - entry.threshold) > 1e-12 * std::max(1.0, std::abs(entry.threshold))) {
    record.log.warnings.push_back(
        fmt::format("{}: the log's header names the target {:g}; the run is judged against the study's threshold, {:g}",
                    RunLogPath(entry, run_dir).string(), *logged, entry.threshold));
  }
  std::optional<RunLogFormat> format = FormatOfEntry(entry);
  if (!had_end_record && format && format->has_end_record(entry)) {
    record.log.warnings.push_back(RunLogPath(entry, run_dir).string() + ": no end record");
  }
  stats::RunCurve curve = store::RunCurveOf(record.log);
  record.log.status =
      stats::TimeToTarget(curve.points, entry.threshold) ? analysis::EndedAs::kReached : analysis::EndedAs::kNotReached;
  return record;
}

std::optional<store::RunRecord> CollectCompletedOrphan(const StudyPlan& plan, const PlannedEntry& entry,
                                                       const PlannedRun& run, const fs::path& run_dir) {
  runlog::RunLog log = ReadLog(entry, run_dir);
  if (log.status == analysis::EndedAs::kNoEnd) return std::nullopt;
  // The entry wrote its end record, so its process was ending; what it claims is checked as for any finished
  // run (status from the points and the threshold), as if it had exited 0.
  ChildOutcome outcome;
  outcome.exit.exit_status = 0;
  outcome.wall_seconds = log.wall_seconds;
  store::RunRecord record = CollectFinishedRun(plan, entry, run, run_dir, outcome);
  record.exit_status.reset();
  record.log.warnings.push_back(RunLogPath(entry, run_dir).string() +
                                ": recorded on resume (the study ended after the run, before recording it)");
  return record;
}

store::RunRecord CollectInterruptedRun(const StudyPlan& plan, const PlannedEntry& entry, const PlannedRun& run,
                                       const fs::path& run_dir, const std::string& why) {
  store::RunRecord record = BaseRecord(plan, run, run_dir, ReadLog(entry, run_dir));
  record.stderr_tail = TailOfFile(run_dir / kRunStderrFile);
  record.log.status = analysis::EndedAs::kNoEnd;
  record.log.error = why;
  return record;
}

LogProgress PeekLogProgress(const fs::path& log_file) {
  LogProgress progress;
  std::string tail = TailOfFile(log_file, 4, 4096);
  std::size_t end = tail.size();
  while (end > 0) {
    std::size_t start = tail.rfind('\n', end - 1);
    start = start == std::string::npos ? 0 : start + 1;
    std::string line = tail.substr(start, end - start);
    end = start > 0 ? start - 1 : 0;
    auto record = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    // `== "eval"` rather than value("type", ""), which throws on a log whose "type" is not a string ({"type":1}):
    // a live peek at a user's log must never end the study.
    if (record.is_object() && record.contains("type") && record["type"] == "eval") {
      if (record.contains("epoch") && record["epoch"].is_number()) progress.epoch = record["epoch"].get<double>();
      if (record.contains("metric") && record["metric"].is_number()) {
        progress.metric = record["metric"].get<double>();
      }
      break;
    }
    if (start == 0) break;
  }
  return progress;
}

}  // namespace evalsuite::study

namespace evalsuite::study {

LogProgress PeekRunProgress(const PlannedEntry& entry, const fs::path& run_dir) {
  std::optional<RunLogFormat> format = FormatOfEntry(entry);
  if (!format || format->source == LogSource::kLogFile) return PeekLogProgress(run_dir / kRunLogFile);
  if (entry.log_format != "regex") return {};
  // The last whole lines of the output through the entry's patterns: the latest evaluation they complete (a line
  // still being written is not read). A tail that misses the line with the epoch gives less: progress only.
  LogProgress progress;
  std::ifstream in(run_dir / kRunStdoutFile, std::ios::binary | std::ios::ate);
  if (!in) return progress;
  const std::streamoff size = in.tellg(), start = std::max<std::streamoff>(0, size - 8192);
  std::string tail(static_cast<std::size_t>(size - start), '\0');
  in.seekg(start);
  in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
  if (start > 0) tail.erase(0, std::min(tail.size(), tail.find('\n') + 1));  // a cut first line
  try {
    const runlog::RunLog log = runlog::RegexLogReader(entry.regex_log).Parse(tail, "");
    if (!log.points.empty()) {
      progress.epoch = log.points.back().epoch;
      progress.metric = log.points.back().metric;
    }
  } catch (const Error&) {
  }
  return progress;
}

}  // namespace evalsuite::study
