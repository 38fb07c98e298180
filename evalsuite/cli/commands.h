// Registration of every subcommand with the CLI11 app. Each lives in its own file; a command's callback
// throws evalsuite::Error on failure and returns normally on success (main.cpp maps errors to exit codes).
// A callback that finishes with warnings sets the exit code through SetExitCode.
#pragma once

#include <CLI/CLI.hpp>

namespace evalsuite::cli {

void RegisterEntriesCommand(CLI::App& app);      // evalsuite entries
void RegisterTrainCommand(CLI::App& app);        // evalsuite train ENTRY
void RegisterStudyCommand(CLI::App& app);        // evalsuite study run|resume|list|show|plan
void RegisterStudyPlanCommand(CLI::App& study);  // evalsuite study plan FILE --pilot STORE
void RegisterReportCommand(CLI::App& app);       // evalsuite report STORE --out DIR
void RegisterCompareCommand(CLI::App& app);      // evalsuite compare STORE A B: is A faster than B?
void RegisterImportCommand(CLI::App& app);       // evalsuite import PATH...
void RegisterExportCommand(CLI::App& app);       // evalsuite export STORE --out DIR: runs and evaluations as CSV
void RegisterAuditCommand(CLI::App& app);        // evalsuite audit STORE: MLPerf rerun ranges, ranking noise, selection
void RegisterLabelCommand(CLI::App& app);        // evalsuite label serve|agreement|export
void RegisterMachineCommand(CLI::App& app);      // evalsuite machine: peak FLOP/s and bandwidth
void RegisterLatencyCommand(CLI::App& app);      // evalsuite latency MODEL.pt --holdout DIR

// evalsuite holdout crawl|dedupe|freeze|eval|fashion-mnist: one group, one file per verb.
void RegisterHoldoutCommand(CLI::App& app);
void RegisterHoldoutCrawlCommand(CLI::App& holdout);
void RegisterHoldoutCandidatesCommand(CLI::App& holdout);  // --from-folder: the user's own images
void RegisterHoldoutDedupeCommand(CLI::App& holdout);
void RegisterHoldoutFreezeCommand(CLI::App& holdout);
void RegisterHoldoutEvalCommand(CLI::App& holdout);
void RegisterHoldoutFashionMnistCommand(CLI::App& holdout);  // the embedded default's holdout + shifted variants

// The process exit code when the command succeeds (default kExitOk); e.g. kExitWithWarnings after import.
void SetExitCode(int code);
int ExitCode();

}  // namespace evalsuite::cli
