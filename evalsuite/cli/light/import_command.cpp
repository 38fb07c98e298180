// evalsuite import PATH... [--format auto|mlperf|dawnbench|jsonl|hf-trainer|lightning|keras|mlflow|tensorboard|
//                          epoch-csv]
//                          [--store FILE | --no-store] [--json FILE] [--threshold X] [--metric NAME] [--entry NAME]
//                          [--group-by path|params|NAME...]
//                          [--rcp PATH] [--rcp-pass pruned|full] [--ruleset V] [--strict] [--study NAME] [--jobs N]
// Exit: 0 all clean, 3 imported with warnings (lines or facts skipped, MLPerf compliance findings), 1 some file
// could not be read (the others were imported) or, with --strict, an MLPerf rule was broken (nothing is stored),
// 2 usage (including an output that would land inside a folder being imported).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/atomic_file.h"
#include "common/environment.h"
#include "common/error.h"
#include "common/exit_codes.h"
#include "common/json_access.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/option_checks.h"
#include "importer/framework_import.h"
#include "importer/importer.h"
#include "importer/mlperf_rules.h"
#include "store/entry_extra_json.h"
#include "store/run_store.h"

namespace evalsuite::cli {
namespace {
namespace fs = std::filesystem;

// A file with thousands of broken lines should not drown the terminal: the count still reaches the exit code.
constexpr std::size_t kWarningsShownPerFile = 10;

struct ImportArgs {
  std::vector<std::string> paths;
  std::string format = "auto";
  std::string store = "evalsuite.db";
  bool no_store = false;
  std::string json_out;
  std::optional<double> threshold;
  std::string rcp;
  std::string rcp_pass = "pruned";
  std::string ruleset;
  bool strict = false;
  std::string compliance = "apply";
  std::string study;
  unsigned jobs = 0;
  bool quiet = false;
  std::string metric;  // framework logs (importer/framework_import.h)
  std::string entry;
  std::vector<std::string> group_by;  // importer/run_identity.h
};

fs::path CanonicalOutput(const std::string& file) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(file), ec);
  return ec ? fs::absolute(file).lexically_normal() : p;
}

// Import only reads: refuse an output that would be written inside (or over) what it imports.
void CheckOutputOutsideInputs(const std::string& option, const std::string& file,
                              const std::vector<std::string>& paths) {
  const fs::path out = CanonicalOutput(file);
  for (const std::string& p : paths) {
    std::error_code ec;
    if (!fs::exists(p, ec)) continue;
    const fs::path in = fs::weakly_canonical(fs::absolute(p), ec);
    const bool inside = fs::is_directory(in, ec) ? importer::IsWithin(out, in) : out == in;
    if (inside) {
      throw UsageError(option, "\"" + file + "\" lies inside \"" + p +
                                   "\", which is being imported; import never writes into the folders it reads: "
                                   "choose a file elsewhere" +
                                   (option == "--store" ? " (or --no-store)" : ""));
    }
  }
}

// "basenet" for .../CIFAR10/train/basenet.tsv, "resnet" for a folder .../resnet/, "training_results_v4.1" for that
// folder (a folder's name is kept whole: its dots are a round's version, not an extension).
std::string ShortSourceName(const std::string& path) {
  fs::path p = fs::path(path).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  std::error_code ec;
  const std::string name = fs::is_directory(p, ec) ? p.filename().string() : p.stem().string();
  return name.empty() || name == "." || name == ".." ? fs::absolute(p).lexically_normal().filename().string() : name;
}

// The options that decide what an import stores: two imports with the same ones store the same runs.
nlohmann::json ImportIdentity(const nlohmann::json& plan) {
  nlohmann::json identity = plan;
  identity.erase("paths");  // as typed; canonical_paths says what they are
  return identity;
}

// An earlier import study of the same canonical paths with the same options, if any.
std::optional<store::StudyInfo> EarlierSameImport(store::RunStore& store, const nlohmann::json& plan) {
  for (const store::StudyInfo& s : store.ListStudies()) {
    if (s.kind == "import" && s.plan.is_object() && s.plan.contains("canonical_paths") &&
        ImportIdentity(s.plan) == ImportIdentity(plan)) {
      return s;
    }
  }
  return std::nullopt;
}

// --quiet keeps warnings and errors and drops the notes (how a threshold or metric was read: long, and the same at
// every import); one line says how many were left out, so nothing is hidden without a word.
void PrintDiagnostics(const importer::ImportResult& result, bool quiet) {
  std::map<std::string, std::size_t> per_file;
  std::map<std::string, std::size_t> hidden;
  for (const std::string& w : result.warnings) {
    const std::string file = w.substr(0, w.find(':'));
    if (++per_file[file] <= kWarningsShownPerFile) {
      std::cerr << "evalsuite: warning: " << w << "\n";
    } else {
      ++hidden[file];
    }
  }
  for (const auto& [file, n] : hidden) {
    std::cerr << "evalsuite: warning: " << file << ": " << n << " more warning(s) not shown\n";
  }
  for (const std::string& e : result.errors) std::cerr << "evalsuite: error: " << e << "\n";
  if (quiet) {
    if (!result.notes.empty()) {
      std::cerr << "evalsuite: " << result.notes.size() << " note(s) on how the logs were read left out (--quiet)\n";
    }
    return;
  }
  for (const std::string& n : result.notes) std::cerr << "evalsuite: note: " << n << "\n";
}

void RunImport(const ImportArgs& args) {
  importer::ImportOptions options;
  for (const std::string& p : args.paths) options.paths.emplace_back(p);
  auto format = importer::ParseImportFormat(args.format);
  if (!format) {
    throw UsageError("--format",
                     "expected auto, mlperf, dawnbench, jsonl, hf-trainer, lightning, keras, mlflow, "
                     "tensorboard or epoch-csv, got \"" +
                         args.format + "\"");
  }
  options.format = *format;
  options.metric = args.metric;
  options.entry = args.entry;
  if (!args.group_by.empty()) {
    if (!args.entry.empty()) {
      throw UsageError("--group-by", "--entry files every run under one entry; give --entry or --group-by, not both");
    }
    options.group_by = importer::ParseGroupBy(args.group_by);
  }
  options.threshold = args.threshold;
  if (!args.rcp.empty()) {
    std::error_code ec;
    if (!fs::exists(args.rcp, ec)) throw UsageError("--rcp", "\"" + args.rcp + "\": no such file or folder");
    options.rcp = fs::path(args.rcp);
  }
  if (args.rcp_pass == "pruned") {
    options.rcp_pass = importer::RcpPass::kPruned;
  } else if (args.rcp_pass == "full") {
    options.rcp_pass = importer::RcpPass::kFull;
  } else {
    throw UsageError("--rcp-pass", "expected pruned or full, got \"" + args.rcp_pass + "\"");
  }
  if (!args.ruleset.empty()) {
    if (importer::FindRuleset(args.ruleset) == nullptr) {
      std::string known;
      for (const importer::Ruleset& r : importer::Rulesets()) known += (known.empty() ? "" : ", ") + r.version;
      throw UsageError("--ruleset", "unknown ruleset \"" + args.ruleset + "\" (known: " + known + ")");
    }
    options.ruleset = importer::FindRuleset(args.ruleset)->version;
  }
  options.jobs = args.jobs;
  if (args.compliance == "report") {
    options.apply_compliance = false;
  } else if (args.compliance != "apply") {
    throw UsageError("--compliance", "expected apply or report, got \"" + args.compliance + "\"");
  }
  if (!args.json_out.empty()) CheckOutputOutsideInputs("--json", args.json_out, args.paths);

  // A store that exists is opened before reading anything, so that a bad --store fails at once; a new one is
  // created only when there is something to store (a failed import leaves no file behind).
  std::unique_ptr<store::RunStore> store;
  if (!args.no_store) {
    CheckOutputOutsideInputs("--store", args.store, args.paths);
    std::error_code ec;
    if (fs::exists(args.store, ec)) {
      store = store::RunStore::Open(args.store);
    } else {
      const fs::path folder = fs::absolute(args.store).parent_path();
      if (!fs::is_directory(folder, ec)) {
        throw UsageError("--store", "\"" + args.store + "\": the folder " + folder.string() + " does not exist");
      }
    }
  }

  // The machine is described before the logs are read: its CPU probe forks a child, and a fork is cheap while this
  // process is small (after the read, the child's page tables and the copies on write cost 1 to 3 ms).
  const nlohmann::json environment = args.no_store ? nlohmann::json() : DescribeEnvironment();
  importer::ImportResult result = importer::Import(options);
  PrintDiagnostics(result, args.quiet);
  for (const std::string& c : result.compliance) {
    std::cerr << "evalsuite: " << (args.strict ? "error" : "warning") << ": compliance: " << c << "\n";
  }
  if (!args.quiet) std::cout << importer::FormatSummary(result, args.strict);
  if (args.strict && !result.compliance.empty()) {
    throw InputError(result.compliance.front().substr(0, result.compliance.front().find(':')),
                     std::to_string(result.compliance.size()) +
                         " MLPerf compliance finding(s) and --strict: nothing was stored or written");
  }

  if (!args.json_out.empty()) {
    WriteFileAtomically(args.json_out, importer::ToJson(result).dump(2) + "\n");
  }
  // A framework log that could not be read fails the whole import: nothing is stored (its error is printed above).
  if (result.framework_errors > 0) {
    throw InputError(
        result.errors.front().substr(0, result.errors.front().find(':')),
        std::to_string(result.errors.size()) +
            " file(s) could not be read, among them runs that cannot be judged (a framework's log, or a run "
            "log off its declared scale): nothing was stored, and no verdict is made from them");
  }
  // A framework log names no target, and a run stored without one would reach at its first evaluation.
  if (!args.no_store) {
    for (const importer::ImportedGroup& g : result.groups) {
      const auto group_format = importer::ParseImportFormat(g.format);
      if (group_format && importer::IsFrameworkFormat(*group_format) && !g.stored_threshold) {
        throw UsageError("--threshold",
                         "entry \"" + g.entry + "\" (" + g.source + ") has no target: give --threshold on " +
                             store::ThresholdAsLoggedFromJson(g.details).metric_as_logged.value_or(g.metric) +
                             "'s own scale (or --no-store to look first); nothing was stored");
      }
    }
  }

  bool duplicate = false;
  if (!args.no_store && !result.groups.empty()) {
    if (!store) store = store::RunStore::Open(args.store);
    nlohmann::json plan = {
        {"command", "import"},
        {"paths", args.paths},
        {"format", args.format},
        {"threshold", JsonOrNull(args.threshold)},
        {"rcp", args.rcp.empty() ? nlohmann::json(nullptr) : nlohmann::json(args.rcp)},
        {"rcp_pass", args.rcp_pass},
        {"ruleset", args.ruleset.empty() ? nlohmann::json(nullptr) : nlohmann::json(args.ruleset)},
        {"strict", args.strict},
        {"metric", args.metric.empty() ? nlohmann::json(nullptr) : nlohmann::json(args.metric)},
        {"entry", args.entry.empty() ? nlohmann::json(nullptr) : nlohmann::json(args.entry)},
        {"group_by", args.group_by.empty() ? nlohmann::json(nullptr) : nlohmann::json(args.group_by)},
        {"compliance", args.compliance},
        {"units", {{"time", "seconds"}, {"metric", "fraction"}}}};
    nlohmann::json canonical = nlohmann::json::array();
    for (const fs::path& root : result.roots) canonical.push_back(root.string());
    plan["canonical_paths"] = canonical;
    const std::optional<store::StudyInfo> earlier = EarlierSameImport(*store, plan);
    const std::string base_name =
        args.study.empty()
            ? "import " + ShortSourceName(args.paths.front())  // made unique by " #2"; `study list` shows the time
            : args.study;
    std::string name;
    duplicate = earlier.has_value();
    // --study names the study: an import adds its entries to it (kept apart, refused where a name is taken).
    const bool adding = !args.study.empty() && store->FindStudy(args.study).has_value();
    importer::WriteToStore(*store, result, base_name, plan, environment, &name,
                           args.study.empty() ? importer::StudyNameTaken::kNewStudy : importer::StudyNameTaken::kAddTo);
    if (earlier) {
      std::cerr << "evalsuite: warning: " << args.paths.front()
                << ": already imported with the same options as study \"" << earlier->name << "\" (id " << earlier->id
                << ", " << earlier->created_at << "); stored again as \"" << name << "\"\n";
    }
    if (!args.quiet) {
      std::cout << (adding ? "added to study \"" : "stored as study \"") << name << "\" in " << args.store << "\n";
    }
  }

  if (!result.errors.empty()) {
    throw IoError(
        result.errors.front().substr(0, result.errors.front().find(':')),
        std::to_string(result.errors.size()) + " file(s) or folder(s) could not be read; " +
            (result.groups.empty() ? std::string("nothing was imported or stored") : "the rest was imported"));
  }
  if (result.groups.empty()) {
    throw InputError(args.paths.front(),
                     "nothing to import: no MLPerf result_*.txt, DAWNBench .tsv, .jsonl run log, trainer_state.json, "
                     "Lightning, Keras or epoch-indexed CSV, MLflow run folder or TensorBoard event file found");
  }
  SetExitCode(result.warnings.empty() && result.compliance.empty() && !duplicate ? kExitOk : kExitWithWarnings);
}

}  // namespace

void RegisterImportCommand(CLI::App& app) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* command = app.add_subcommand(
      "import",
      "Import MLPerf result logs, DAWNBench entries, JSON Lines run logs, or the frameworks' own logs (Hugging Face "
      "trainer_state.json, Lightning and Keras CSV loggers, MLflow runs, TensorBoard event files) into the run store");
  command->add_option("paths", args->paths, "Files, or folders searched recursively")->required();
  command->add_option("--format", args->format,
                      "auto (default: by file name and content), mlperf, dawnbench, jsonl, hf-trainer, lightning, "
                      "keras, mlflow, tensorboard or epoch-csv (an epoch-indexed CSV of metrics, YOLO's results.csv)");
  command->add_option("--metric", args->metric,
                      "Framework logs: the logged metric to judge runs on (eval_accuracy, val_loss...); default: the "
                      "first validation accuracy, then F1..., error rate, loss (the note names the choice)");
  command->add_option("--entry", args->entry,
                      "Framework logs, and JSON Lines logs whose header names no entry: the entry every run is filed "
                      "under; default: --group-by's rule (the grouping is printed)");
  command
      ->add_option("--group-by", args->group_by,
                   "Framework logs and JSON Lines logs without an entry: how runs are grouped into entries. "
                   "Default: by folder (seed, run, version and checkpoint folders are runs of one entry), then by "
                   "the recorded hyperparameters other than the seed (hparams.yaml, MLflow params) and MLflow run "
                   "names; path: folders only; params: hyperparameters only; NAME...: those hyperparameters' "
                   "values. The grouping is printed before anything is stored")
      ->expected(1, -1);
  command->add_option("--store", args->store, "The run store (SQLite); default: evalsuite.db here");
  command->add_flag("--no-store", args->no_store, "Only print (and write --json); do not touch a store");
  command->add_option("--json", args->json_out, "Write the groups, scores and TTAs as JSON to this file");
  command
      ->add_option("--threshold", args->threshold,
                   "Target overriding the default, as a fraction (0.94) or a percentage (94): a value on the "
                   "other scale than the file's is converted, with a note (defaults: DAWNBench CIFAR10 top-1 0.94, "
                   "ImageNet top-5 0.93, SQuAD F1 0.73; MLPerf: the benchmark's quality target). Framework logs "
                   "have no default; a lower-is-better metric's target is as logged (--threshold 0.35 for "
                   "eval_wer means WER <= 0.35)")
      ->check(FiniteNumber());
  command->add_option("--rcp", args->rcp,
                      "MLPerf RCP file, or folder of rcps_<benchmark>.json, instead of the RCPs built in for the "
                      "folder's ruleset");
  command->add_option("--rcp-pass", args->rcp_pass, "pruned (the package checker's default) or full");
  command->add_option("--ruleset", args->ruleset,
                      "MLPerf Training ruleset (0.5.0 ... 6.1.0) for every folder; default: detected per folder");
  command->add_flag("--strict", args->strict, "MLPerf compliance findings are errors (exit 1, nothing stored)");
  command->add_option("--compliance", args->compliance,
                      "apply (default): runs today's MLPerf compliance rules reject are dropped, as the official "
                      "summarizer drops them; report: the findings are printed but no run is dropped, and the score "
                      "is labelled as not the official one (to reproduce a round's published table)");
  command->add_option("--study", args->study,
                      "Study name in the store; an existing import study of that name gets this import's entries "
                      "beside its own (default: a new study \"import <first path's name>\", then \" #2\", \" #3\"...)");
  command->add_option("--jobs", args->jobs, "Parsing threads (default: one per hardware thread)")
      ->check(WholeNumber(0, 1024));
  command->add_flag("--quiet", args->quiet, "Print only warnings and errors");
  command->callback([args] { RunImport(*args); });
}

}  // namespace evalsuite::cli
