// evalsuite: can a fast training result be trusted? The front binary. Commands that need neither LibTorch, OpenCV
// nor the labeling server (import, report, compare, study, entries) run here, so they start in milliseconds instead
// of loading about 290 shared libraries; `label` is handed to evalsuite-label, every other command and top-level
// --help to evalsuite-full, both beside this binary, with the same arguments (evalsuite/cli/light/command_table.h
// decides which, forward_to_binary.h hands over).
#include <CLI/CLI.hpp>
#include <cstring>

#include "evalsuite/cli/light/command_table.h"
#include "evalsuite/cli/light/forward_to_binary.h"
#include "evalsuite/cli/light/run_app.h"
#include "common/onednn_isa_cap.h"
#include "common/openmp_wait_policy.h"

int main(int argc, char** argv) {
  namespace cli = evalsuite::cli;
  switch (cli::BinaryServing(argc, argv)) {
    case cli::ServingBinary::kFront:
      break;
    case cli::ServingBinary::kLabel:
      return cli::ForwardToBinary(cli::kLabelBinaryName, "the labeling server", argv);
    case cli::ServingBinary::kFull:
      // holdout eval's decode workers share the cores with LibTorch's OpenMP threads, which must then sleep
      // rather than spin when they wait; libgomp reads this when evalsuite-full loads (openmp_wait_policy.h).
      if (argc > 2 && std::strcmp(argv[1], "holdout") == 0 && std::strcmp(argv[2], "eval") == 0) {
        evalsuite::PreferPassiveOpenMpWait();
      }
      return cli::ForwardToBinary(cli::kFullBinaryName, "LibTorch and OpenCV", argv);
  }
  // A study's runs are child processes that may start LibTorch (built-in entries, a PyTorch script): they
  // inherit the oneDNN cap from this process's environment (see onednn_isa_cap.h).
  if (std::strcmp(argv[1], "study") == 0) evalsuite::PrepareOneDnnForThisMachine();
  CLI::App app;
  cli::ConfigureApp(app);
  cli::AddCommands(app, {&cli::LightCommands()});
  return cli::RunApp(app, argc, argv);
}
