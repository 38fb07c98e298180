#include "study/plans/plan_key_reference.h"

#include <sstream>

namespace evalsuite::study {
namespace {

// A row with an integer range; the test sets the key to min - 1 and max + 1 and expects the reader to refuse both.
PlanKeyDoc Int(std::string table, std::string key, std::string default_value, int64_t min, int64_t max,
               std::string meaning) {
  std::string allowed = std::to_string(min) + " to " + std::to_string(max);
  return {std::move(table),   std::move(key),     "integer", std::move(default_value),
          std::move(allowed), std::move(meaning), min,       max};
}
PlanKeyDoc Other(std::string table, std::string key, std::string type, std::string default_value, std::string allowed,
                 std::string meaning) {
  return {std::move(table),   std::move(key),     std::move(type), std::move(default_value),
          std::move(allowed), std::move(meaning), std::nullopt,    std::nullopt};
}

// Page order: the study, its entries, then the tables. Keep each meaning to what a user decides with it; the
// readers' files hold the reasons.
std::vector<PlanKeyDoc> MakeReference() {
  const std::string top;
  return {
      Other(top, "name", "string", "the file's stem", "letters, digits, '.', '_', '-'",
            "the study's name: its run folders and its name in the store"),
      Other(top, "description", "string", "\"\"", "any", "shown in the report"),
      Other(top, "entries", "array", "(required)", "built-in names and/or entry tables",
            "what the study runs: a built-in entry's name (`evalsuite entries`) or a table, see entries[] below"),
      Int(top, "runs", "5", 1, 10000, "runs per entry"),
      Int(top, "seed", "1", 0, INT64_MAX, "the study's base seed: every run's seed is derived from it and the run"),
      Other(top, "threshold", "number", "each built-in entry's own", "> 0; a fraction for accuracy metrics",
            "the target (TTA = training time to the first evaluation at or above it); entries inherit it"),
      Other(top, "extra_thresholds", "array of numbers", "[]", "each > 0",
            "more targets for the report's threshold sensitivity"),
      Int(top, "epochs", "each built-in entry's own", 1, 100000, "the epoch budget; entries inherit it"),
      Int(top, "train_subset", "all training images", 1, 1000000000, "train on the first N training images"),
      Int(top, "jobs", "2 (1 on one core); devices / devices_per_run with devices", 1, 256, "runs at once"),
      Int(top, "threads", "usable cores / jobs", 1, 1024, "threads per run"),
      Other(top, "keep_models", "boolean", "false", "true, false",
            "built-in runs save their model under run_dir/model"),
      Other(top, "stop_at_target", "boolean", "false", "true, false",
            "runs stop at the target (faster; no data above it)"),
      Other(top, "timeout_seconds", "number", "0 (none)", ">= 0", "per run; entries may set their own"),
      Int(top, "evals_per_epoch", "1", 1, 10000,
          "built-in entries: validation evaluations per epoch (a finer TTA); external ones get {evals_per_epoch}"),
      Other(top, "precision", "string", "\"auto\"", "\"auto\", \"fp32\", \"bf16\"",
            "built-in entries whose recipe uses bf16: auto trains them in bf16 only where the machine's measured "
            "ceilings show bf16 faster"),
      Other(top, "onednn_isa_cap", "boolean", "true", "true, false",
            "runs inherit evalsuite's oneDNN ISA cap; false: they get EVALSUITE_ONEDNN_ISA_CAP=off"),
      Other(top, "executor", "string", "\"local\"", "\"local\", \"slurm\"",
            "where runs execute: child processes, or a Slurm job array ([slurm])"),
      Other(top, "cost_per_hour", "number", "none", ">= 0",
            "the machine's price per hour: the report's cost per entry"),
      Other(top, "devices", "array", "[] (none)", "device ids, integers or strings",
            "accelerators handed to runs through CUDA/HIP/ROCR_VISIBLE_DEVICES"),
      Int(top, "devices_per_run", "1", 1, 1024, "devices each concurrent run gets"),
      Int(top, "cpus_per_run", "0 (not pinned)", 0, 4096, "> 0: each run pinned to its own CPUs"),
      Other(top, "machine_ceilings", "string", "\"measure\" ($EVALSUITE_MACHINE_CEILINGS when set)",
            "\"measure\", \"skip\", or a file `evalsuite machine --json` wrote (relative to the study file)",
            "the machine's ceilings for the report's MFU, recorded once per study"),
      Other(top, "gpu_sample_seconds", "number", "1", ">= 0 (0 = off)",
            "where nvidia-smi is on PATH: each run's GPU memory and utilization every N s"),
      Other(top, "compare", "array of pairs", "[]", "pairs of this study's entries with the same metric and target",
            "report sections: is A faster than B?"),
      Other(top, "stability", "table", "the defaults below", "see [stability]", "the stability verdict's rule"),
      Other(top, "sequential", "table", "none (a fixed number of runs)", "see [sequential]",
            "stop as soon as the question is answered (local executor only)"),
      Other(top, "slurm", "table", "none", "see [slurm]", "sbatch options for executor = \"slurm\""),
      Other(top, "variance", "table", "none (every run its own seeds)", "see [variance]",
            "vary sources of randomness separately in a crossed design; runs become its cells x repeats"),

      Other("entries[]", "name", "string", "(required)", "a built-in entry's name, or any name with command",
            "the entry's name in the store and the report"),
      Other("entries[]", "command", "string", "none (a built-in entry)",
            "a command template with {seed}, {init_seed}, {data_seed}, {aug_seed}, {run_dir}, {log}, {threads}, "
            "{epochs}, {threshold}, {train_subset}, "
            "{model_dir}, {run_index}, {evals_per_epoch}, {study_dir}",
            "makes the entry external: the command one run executes"),
      Other("entries[]", "log_format", "string", "\"jsonl\"", "\"jsonl\", \"mlperf\", \"dawnbench\", \"regex\"",
            "external entries: how the run's log is read"),
      Other("entries[]", "description", "string", "the built-in entry's own, else \"\"", "any", "shown in the report"),
      Other("entries[]", "metric", "string", "\"val_top1\"", "any name",
            "external entries: the metric's name (accuracy-like names take fractions as thresholds)"),
      Other("entries[]", "threshold", "number", "the study's threshold, else the built-in entry's own",
            "> 0; a fraction for accuracy metrics", "the entry's target (external entries need one)"),
      Other("entries[]", "extra_thresholds", "array of numbers", "the study's", "each > 0", "more targets"),
      Int("entries[]", "epochs", "the study's, else the built-in entry's own", 1, 100000, "the epoch budget"),
      Int("entries[]", "train_subset", "the study's", 1, 1000000000, "train on the first N training images"),
      Int("entries[]", "validation_size", "none", 1, 1000000000,
          "external entries: images the metric is measured on (the report's binomial standard error)"),
      Other("entries[]", "timeout_seconds", "number", "the study's", ">= 0", "this entry's runs' timeout"),
      Other("entries[]", "log_regex", "string or array of strings", "(required with log_format = \"regex\")",
            "PCRE2 patterns with named groups accuracy or metric, time, epoch, loss",
            "regex logs: the patterns tried on every line of the run's standard output"),
      Other("entries[]", "log_end_regex", "string", "none", "a PCRE2 pattern, optional group time",
            "regex logs: the line that ends training"),
      Other("entries[]", "log_time_unit", "string", "\"seconds\"",
            "\"seconds\", \"milliseconds\", \"minutes\", \"hours\"", "regex logs: the unit of the time group"),
      Other("entries[]", "log_time_kind", "string", "\"elapsed\"", "\"elapsed\", \"increment\"",
            "regex logs: training time so far, or time since the previous evaluation (summed)"),
      Other("entries[]", "log_metric_unit", "string", "\"fraction\"", "\"fraction\", \"percent\"",
            "regex logs: percent values are divided by 100"),

      Other("stability", "max_cov_upper", "number", "0.10", "a fraction in (0, 1]",
            "the CoV of TTA must be shown at most this by its 95% upper bound"),
      Other("stability", "min_hit_rate", "number", "0.90", "a fraction in [0, 1]",
            "the share of runs that must reach the target"),
      Int("stability", "min_reached", "3", 0, 100000, "runs that must reach the target"),
      Int("stability", "consecutive_evaluations", "1", 1, 1000,
          "TTA is the first of k evaluations in a row at or above the target (k > 1 needs stop_at_target = false)"),
      Other("stability", "basis", "string", "\"time\"", "\"time\", \"epochs\"",
            "what the verdict judges: TTA, or epochs to target (leaves the machine's speed out)"),

      Int("sequential", "min_runs", "(required)", 2, 10000, "runs per entry before the first look"),
      Int("sequential", "max_runs", "(required)", 2, 10000, "runs per entry at most (at least min_runs)"),
      Other("sequential", "alpha", "number", "0.05", "in (0, 0.5)", "the error rate kept over all looks"),
      Other("sequential", "question", "string or pair", "(required)", "\"stability\" or [\"A\", \"B\"]",
            "what ends the study: every entry's stability verdict, or whether A is faster than B"),

      Other("variance", "vary", "array of strings", "(required)",
            "\"init\", \"data_order\", \"augmentation\", each at most once",
            "the sources varied, each over `levels` seeds; the others hold one seed. External entries' commands "
            "must take {init_seed}, {data_seed}, {aug_seed} for the sources varied"),
      Int("variance", "levels", "3", 2, 100, "seeds per varied source: the design has levels^sources cells"),
      Int("variance", "repeats", "2", 1, 100,
          "runs of each cell with the very same seeds: what differs between them is nondeterminism (1: it cannot be "
          "told from the residual, a warning)"),

      Other("slurm", "partition", "string", "the cluster's default", "one sbatch value", "sbatch --partition"),
      Other("slurm", "account", "string", "the cluster's default", "one sbatch value", "sbatch --account"),
      Other("slurm", "time_limit", "string", "the partition's", "one sbatch value, e.g. \"02:00:00\"",
            "sbatch --time, per run"),
      Int("slurm", "cpus_per_task", "the plan's threads per run", 1, 4096, "sbatch --cpus-per-task"),
      Int("slurm", "gpus_per_task", "none", 1, 1024, "sbatch --gpus-per-task"),
      Other("slurm", "gres", "string", "none", "one sbatch value, e.g. \"gpu:1\"", "sbatch --gres"),
      Other("slurm", "mem", "string", "the cluster's default", "one sbatch value, e.g. \"16G\"", "sbatch --mem"),
      Int("slurm", "max_concurrent", "0 (Slurm decides)", 0, 1000000, "--array=...%K: tasks running at once"),
      Other("slurm", "sbatch_options", "array of strings", "[]", "sbatch options", "passed to sbatch as they are"),
      Other("slurm", "poll_seconds", "number", "5", "in [0.05, 3600]",
            "how often the coordinator asks squeue and looks at run folders"),
  };
}

std::string Cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

const std::vector<PlanKeyDoc>& PlanKeyReference() {
  static const std::vector<PlanKeyDoc> keys = MakeReference();
  return keys;
}

std::string PlanKeyReferenceMarkdown() {
  std::ostringstream out;
  out << "# Study file keys\n\n"
      << "Generated by `evalsuite reference --out docs/reference` from "
      << "`study/plans/plan_key_reference.cpp`; do not edit by hand. A study file is TOML "
      << "(`studies/quick.toml` is one); an unknown key is an error naming the file, line and key, and a command-line "
      << "flag (`--runs`, `--jobs`, ...) wins over its key. Guides: [comparing and planning](../compare-and-plan.md), "
      << "[your own script](../own-script.md), [Slurm](../slurm.md).\n";
  std::string table = "-";
  for (const PlanKeyDoc& doc : PlanKeyReference()) {
    if (doc.table != table) {
      table = doc.table;
      out << "\n## "
          << (table.empty()          ? "Top level"
              : table == "entries[]" ? "`[[entries]]`"
                                     : "`[" + table + "]`")
          << "\n\n| key | type | default | allowed | meaning |\n|---|---|---|---|---|\n";
    }
    out << "| `" << doc.key << "` | " << Cell(doc.type) << " | " << Cell(doc.default_value) << " | "
        << Cell(doc.allowed) << " | " << Cell(doc.meaning) << " |\n";
  }
  return out.str();
}

}  // namespace evalsuite::study
