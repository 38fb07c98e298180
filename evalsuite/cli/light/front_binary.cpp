#include "evalsuite/cli/light/front_binary.h"

#include <CLI/CLI.hpp>
#include <cstring>

#include "common/onednn_isa_cap.h"
#include "common/openmp_wait_policy.h"
#include "evalsuite/cli/light/command_table.h"
#include "evalsuite/cli/light/forward_to_binary.h"
#include "evalsuite/cli/light/run_app.h"

namespace evalsuite::cli {

int FrontBinaryMain(int argc, char** argv) {
  switch (BinaryServing(argc, argv)) {
    case ServingBinary::kFront:
      break;
    case ServingBinary::kLabel:
      return ForwardToBinary(kLabelBinary, argv);
    case ServingBinary::kFull:
      // holdout eval's decode workers share the cores with LibTorch's OpenMP threads, which must then sleep
      // rather than spin when they wait; libgomp reads this when evalsuite-full loads (openmp_wait_policy.h).
      if (argc > 2 && std::strcmp(argv[1], "holdout") == 0 && std::strcmp(argv[2], "eval") == 0) {
        evalsuite::PreferPassiveOpenMpWait();
      }
      return ForwardToBinary(kFullBinary, argv);
  }
  // A study's runs are child processes that may start LibTorch (built-in entries, a PyTorch script): they
  // inherit the oneDNN cap from this process's environment (see onednn_isa_cap.h).
  if (std::strcmp(argv[1], "study") == 0) evalsuite::PrepareOneDnnForThisMachine();
  CLI::App app;
  ConfigureApp(app);
  AddCommands(app, {&LightCommands()});
  return RunApp(app, argc, argv);
}

}  // namespace evalsuite::cli
