#include "study/plans/study_plan_loader.h"

#include <toml++/toml.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "common/error.h"
#include "common/file_kind.h"
#include "study/plans/ceilings_record.h"
#include "study/plans/comparison_plan_keys.h"
#include "study/plans/plan_entry_keys.h"
#include "study/plans/plan_seeds.h"
#include "study/plans/run_order.h"
#include "study/plans/toml_depth.h"
#include "study/plans/toml_reader.h"
#include "study/plans/variance_keys.h"

namespace evalsuite::study {
namespace {

namespace fs = std::filesystem;
using Reader = TomlReader;

const std::set<std::string> kStudyKeys = {"name",
                                          "description",
                                          "entries",
                                          "runs",
                                          "seed",
                                          "threshold",
                                          "extra_thresholds",
                                          "epochs",
                                          "train_subset",
                                          "jobs",
                                          "threads",
                                          "keep_models",
                                          "stop_at_target",
                                          "timeout_seconds",
                                          "stability",
                                          "evals_per_epoch",
                                          "onednn_isa_cap",
                                          "executor",
                                          "slurm",
                                          "cost_per_hour",
                                          "devices",
                                          "devices_per_run",
                                          "cpus_per_run",
                                          "machine_ceilings",
                                          "gpu_sample_seconds",
                                          "compare",
                                          "sequential",
                                          "variance",
                                          "precision"};
const std::set<std::string> kStabilityKeys = {"max_cov_upper", "min_hit_rate", "min_reached", "consecutive_evaluations",
                                              "basis"};

// The study's own keys at the top of the file: its name, runs and seed, how each run trains, and the defaults
// every entry takes unless it says otherwise (`defaults`, `threads`: applied later, after the flags).
void ReadStudyKeys(const toml::table& root, const Reader& reader, const fs::path& source_path,
                   const PlanOverrides& overrides, StudyPlan& plan, EntryDefaults& defaults,
                   std::optional<int>& threads) {
  if (const toml::node* n = root.get("name")) {
    plan.name = reader.String(*n, "name");
    if (!IsSafeFolderName(plan.name)) {
      reader.Fail(Reader::Line(*n), "name", "use letters, digits, '.', '_' and '-' only (it names folders)");
    }
  } else {
    plan.name = source_path.stem().string();
  }
  if (const toml::node* n = root.get("description")) plan.description = reader.String(*n, "description");
  if (const toml::node* n = root.get("runs")) plan.runs = static_cast<int>(reader.Integer(*n, "runs", 1, kMaxRuns));
  if (const toml::node* n = root.get("seed")) {
    plan.seed = static_cast<uint64_t>(reader.Integer(*n, "seed", 0, INT64_MAX));
  }
  if (const toml::node* n = root.get("threshold")) {
    defaults.threshold = reader.Threshold(*n, "threshold");
    defaults.threshold_line = Reader::Line(*n);
  }
  if (const toml::node* n = root.get("extra_thresholds")) {
    defaults.extra_thresholds = reader.Thresholds(*n, "extra_thresholds");
    defaults.extra_thresholds_line = Reader::Line(*n);
  }
  if (const toml::node* n = root.get("epochs"))
    defaults.epochs = static_cast<int>(reader.Integer(*n, "epochs", 1, kMaxEpochs));
  if (const toml::node* n = root.get("train_subset")) {
    defaults.train_subset = static_cast<int>(reader.Integer(*n, "train_subset", 1, kMaxTrainSubset));
  }
  if (const toml::node* n = root.get("jobs")) plan.jobs = static_cast<int>(reader.Integer(*n, "jobs", 1, kMaxJobs));
  if (const toml::node* n = root.get("threads"))
    threads = static_cast<int>(reader.Integer(*n, "threads", 1, kMaxThreads));
  if (const toml::node* n = root.get("keep_models")) plan.keep_models = reader.Bool(*n, "keep_models");
  if (const toml::node* n = root.get("stop_at_target")) plan.stop_at_target = reader.Bool(*n, "stop_at_target");
  if (const toml::node* n = root.get("precision")) {
    plan.precision = reader.String(*n, "precision");
    if (plan.precision != "auto" && plan.precision != "fp32" && plan.precision != "bf16") {
      reader.Fail(Reader::Line(*n), "precision",
                  "must be \"auto\" (bf16 only where its timed steps reach the target sooner), \"fp32\" or \"bf16\"");
    }
  }
  if (const toml::node* n = root.get("onednn_isa_cap")) plan.onednn_isa_cap = reader.Bool(*n, "onednn_isa_cap");
  if (overrides.onednn_isa_cap) plan.onednn_isa_cap = *overrides.onednn_isa_cap;
  if (const toml::node* n = root.get("evals_per_epoch")) {
    plan.evals_per_epoch = static_cast<int>(reader.Integer(*n, "evals_per_epoch", 1, 10000));
  }
  if (const toml::node* n = root.get("timeout_seconds")) {
    defaults.timeout_seconds = reader.Number(*n, "timeout_seconds");
    if (*defaults.timeout_seconds < 0) reader.Fail(Reader::Line(*n), "timeout_seconds", "must be >= 0");
  }
}

// `[stability]`: the rule a verdict applies (stats::StabilityRule), checked against the plan's stop_at_target.
void ReadStabilityKeys(const toml::table& root, const Reader& reader, StudyPlan& plan) {
  const toml::node* n = root.get("stability");
  if (!n) return;
  if (!n->is_table()) reader.Fail(Reader::Line(*n), "stability", "must be a table");
  const toml::table& rule = *n->as_table();
  reader.RejectUnknownKeys(rule, kStabilityKeys, "stability.", "[stability]");
  if (const toml::node* r = rule.get("max_cov_upper")) {
    plan.analysis.rule.max_cov_upper = reader.Number(*r, "stability.max_cov_upper");
    // A fraction, as min_hit_rate is: 10 would be a CoV limit of 1000% and judge nearly anything STABLE.
    if (!(plan.analysis.rule.max_cov_upper > 0 && plan.analysis.rule.max_cov_upper <= 1)) {
      reader.Fail(Reader::Line(*r), "stability.max_cov_upper", "must be a fraction in (0, 1] (0.10 is 10%)");
    }
  }
  if (const toml::node* r = rule.get("min_hit_rate")) {
    plan.analysis.rule.min_hit_rate = reader.Number(*r, "stability.min_hit_rate");
    if (plan.analysis.rule.min_hit_rate < 0 || plan.analysis.rule.min_hit_rate > 1) {
      reader.Fail(Reader::Line(*r), "stability.min_hit_rate", "must be a fraction in [0, 1]");
    }
  }
  if (const toml::node* r = rule.get("basis")) {
    plan.analysis.rule.basis = reader.String(*r, "stability.basis");
    if (plan.analysis.rule.basis != stats::kBasisTime && plan.analysis.rule.basis != stats::kBasisEpochs) {
      reader.Fail(Reader::Line(*r), "stability.basis",
                  "must be \"time\" (TTA, DAWNBench's definition) or \"epochs\" (epochs to target, which leaves "
                  "the machine's speed out)");
    }
  }
  if (const toml::node* r = rule.get("min_reached")) {
    plan.analysis.rule.min_reached = static_cast<std::size_t>(reader.Integer(*r, "stability.min_reached", 0, 100000));
  }
  if (const toml::node* r = rule.get("consecutive_evaluations")) {
    plan.analysis.rule.consecutive_evaluations =
        static_cast<std::size_t>(reader.Integer(*r, "stability.consecutive_evaluations", 1, 1000));
    if (plan.analysis.rule.consecutive_evaluations > 1 && plan.stop_at_target) {
      reader.Fail(Reader::Line(*r), "stability.consecutive_evaluations",
                  "needs stop_at_target = false: a run stopped at its first crossing never shows more in a row");
    }
  }
}

// Where and on what the runs run: the executor, devices and CPUs per run, the machine's ceilings and cost, GPU
// sampling; a flag for devices or ceilings wins over the file.
void ReadMachineKeys(const toml::table& root, const Reader& reader, const PlanOverrides& overrides, StudyPlan& plan) {
  ReadExecutorKeys(root, reader, plan.executor, plan.slurm);
  if (const toml::node* n = root.get("devices")) {
    if (!n->is_array()) reader.Fail(Reader::Line(*n), "devices", "must be an array of device ids, e.g. [0, 1]");
    int i = 0;
    for (const toml::node& d : *n->as_array()) {
      const std::string key = "devices[" + std::to_string(i++) + "]";
      plan.devices.push_back(d.is_integer() ? std::to_string(reader.Integer(d, key, 0, 1 << 20))
                                            : reader.String(d, key));
    }
  }
  if (const toml::node* n = root.get("devices_per_run")) {
    plan.devices_per_run = static_cast<int>(reader.Integer(*n, "devices_per_run", 1, 1024));
  }
  if (const toml::node* n = root.get("cpus_per_run")) {
    plan.cpus_per_run = static_cast<int>(reader.Integer(*n, "cpus_per_run", 0, 4096));
  }
  if (overrides.devices) plan.devices = *overrides.devices;
  if (!plan.devices.empty() && static_cast<int>(plan.devices.size()) < plan.devices_per_run) {
    throw UsageError("devices_per_run", std::to_string(plan.devices_per_run) + " devices per run, but only " +
                                            std::to_string(plan.devices.size()) + " devices given");
  }
  if (const toml::node* n = root.get("cost_per_hour")) {
    plan.cost_per_hour = reader.Number(*n, "cost_per_hour");
    if (*plan.cost_per_hour < 0) reader.Fail(Reader::Line(*n), "cost_per_hour", "must be >= 0");
  }
  if (overrides.machine_ceilings_default) plan.machine_ceilings = *overrides.machine_ceilings_default;
  if (const toml::node* n = root.get("machine_ceilings")) {
    plan.machine_ceilings = reader.String(*n, "machine_ceilings");
    if (plan.machine_ceilings.empty()) {
      reader.Fail(Reader::Line(*n), "machine_ceilings",
                  "use \"measure\", \"skip\" or the path of a file `evalsuite machine --json` wrote");
    }
  }
  if (overrides.machine_ceilings) plan.machine_ceilings = *overrides.machine_ceilings;

  if (const toml::node* n = root.get("gpu_sample_seconds")) {
    plan.gpu_sample_seconds = reader.Number(*n, "gpu_sample_seconds");
    if (plan.gpu_sample_seconds < 0) reader.Fail(Reader::Line(*n), "gpu_sample_seconds", "must be >= 0 (0: off)");
  }
}

// Command-line flags win over the file; then jobs and threads per run default from the devices and cores.
void ApplyFlags(const toml::table& root, const PlanOverrides& overrides, int cores, StudyPlan& plan,
                EntryDefaults& defaults, std::optional<int> threads) {
  if (overrides.executor) {
    if (*overrides.executor != kLocalExecutor && *overrides.executor != kSlurmExecutor) {
      throw UsageError("--executor", "'" + *overrides.executor + "': use local or slurm");
    }
    plan.executor = *overrides.executor;
  }
  if (overrides.name) {
    if (!IsSafeFolderName(*overrides.name)) throw UsageError("--name", "use letters, digits, '.', '_' and '-' only");
    plan.name = *overrides.name;
  }
  if (overrides.runs) plan.runs = *overrides.runs;
  if (overrides.jobs) plan.jobs = *overrides.jobs;
  if (overrides.threads) threads = *overrides.threads;
  if (overrides.seed) plan.seed = *overrides.seed;
  if (overrides.epochs) defaults.epochs = *overrides.epochs;
  if (overrides.train_subset) defaults.train_subset = *overrides.train_subset;
  if (plan.runs < 1) throw UsageError("--runs", "must be at least 1");
  if (plan.jobs < 1) throw UsageError("--jobs", "must be at least 1");
  if (threads && *threads < 1) throw UsageError("--threads", "must be at least 1");
  if (defaults.epochs && *defaults.epochs < 1) throw UsageError("--epochs", "must be at least 1");
  if (defaults.train_subset && *defaults.train_subset < 1) throw UsageError("--train-subset", "must be at least 1");
  if (!root.get("jobs") && !overrides.jobs) {
    plan.jobs =
        plan.devices.empty() ? DefaultJobs(cores) : static_cast<int>(plan.devices.size()) / plan.devices_per_run;
  }
  plan.threads = threads ? *threads : std::max(1, cores / plan.jobs);
}

// The runs in the order they run (run_order.h's interleaving) with their seeds, which are derived in plan order
// (entry by entry, index by index) so that the order never changes a run's seed.
std::vector<PlannedRun> ScheduleRuns(const StudyPlan& plan) {
  std::vector<PlannedRun> schedule;
  std::vector<std::string> names;
  for (const auto& e : plan.entries) names.push_back(e.name);
  std::vector<RunKey> order = InterleavedRunOrder(plan.seed, names, plan.runs);
  std::vector<RunKey> by_entry;
  for (const auto& name : names) {
    for (int i = 0; i < plan.runs; ++i) by_entry.push_back({name, i});
  }
  std::vector<uint64_t> seeds = DeriveSeedPerRun(plan.seed, by_entry);
  for (const RunKey& key : order) {
    std::size_t entry_position = std::find(names.begin(), names.end(), key.entry) - names.begin();
    PlannedRun run{key.entry, key.index, seeds[entry_position * plan.runs + key.index], std::nullopt};
    if (plan.analysis.variance) run.sources = DesignRunSeeds(*plan.analysis.variance, plan.seed, key.index);
    schedule.push_back(std::move(run));
  }
  return schedule;
}

// Paths as the runs will need them: the study file and its folder, a ceilings file relative to that folder, the
// output folder; all absolute.
void ResolvePlanPaths(const fs::path& source_path, const PlanOverrides& overrides, StudyPlan& plan) {
  if (!source_path.empty()) {
    fs::path absolute = fs::absolute(source_path).lexically_normal();
    plan.study_file = absolute.string();
    plan.study_dir = absolute.parent_path().string();
  } else {
    plan.study_dir = fs::current_path().string();
  }
  if (plan.machine_ceilings != kMeasureCeilings && plan.machine_ceilings != kSkipCeilings) {
    // A ceilings file named in the study file is relative to its folder (the flag's is made absolute by the CLI).
    plan.machine_ceilings = (fs::path(plan.study_dir) / plan.machine_ceilings).lexically_normal().string();
  }
  fs::path out = overrides.out_dir ? fs::path(*overrides.out_dir) : fs::path("evalsuite-runs") / plan.name;
  plan.out_dir = fs::absolute(out).lexically_normal().string();
}

StudyPlan BuildPlan(const toml::table& root, const Reader& reader, const fs::path& source_path,
                    const PlanOverrides& overrides, int cores) {
  reader.RejectUnknownKeys(root, kStudyKeys, "", "a study");
  StudyPlan plan;
  EntryDefaults defaults;
  std::optional<int> threads;
  ReadStudyKeys(root, reader, source_path, overrides, plan, defaults, threads);
  ReadStabilityKeys(root, reader, plan);
  ReadMachineKeys(root, reader, overrides, plan);
  ApplyFlags(root, overrides, cores, plan, defaults, threads);
  plan.entries = ReadPlanEntries(root, reader, defaults, overrides);
  const toml::node* runs_node = root.get("runs");
  ReadComparisonKeys(root, reader, runs_node && !overrides.runs ? Reader::Line(*runs_node) : 0,
                     overrides.runs.has_value(), plan);
  ReadVarianceKeys(root, reader, runs_node && !overrides.runs ? Reader::Line(*runs_node) : 0,
                   overrides.runs.has_value(), plan);
  plan.schedule = ScheduleRuns(plan);
  ResolvePlanPaths(source_path, overrides, plan);
  return plan;
}

toml::table ParseToml(const std::string& text, const std::string& source_name) {
  CheckTomlDepth(text, source_name);  // before toml++, which recurses once per level
  try {
    return toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    throw InputError(FileLine(source_name, static_cast<long>(e.source().begin.line)),
                     "not valid TOML: " + std::string(e.description()));
  }
}

}  // namespace

StudyPlan LoadStudyPlan(const fs::path& file, const PlanOverrides& overrides, int cores) {
  RequireReadableFile(file, "a study file (a TOML plan such as studies/quick.toml)");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot read the study file");
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().find_first_not_of(" \t\r\n") == std::string::npos) {
    throw InputError(file.string(), "the study file is empty: it needs at least `entries = [...]` (see studies/)");
  }
  Reader reader(file.string());
  reader.SetTopLevelKeys(kStudyKeys);
  return BuildPlan(ParseToml(text.str(), file.string()), reader, file, overrides, cores);
}

StudyPlan ParseStudyPlan(const std::string& toml_text, const std::string& source_name, const PlanOverrides& overrides,
                         int cores) {
  Reader reader(source_name);
  reader.SetTopLevelKeys(kStudyKeys);
  return BuildPlan(ParseToml(toml_text, source_name), reader, fs::path(source_name), overrides, cores);
}

}  // namespace evalsuite::study
