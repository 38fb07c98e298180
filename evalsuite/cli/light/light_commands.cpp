#include <algorithm>

#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/command_table.h"
#include "evalsuite/cli/light/help_footers.h"

namespace evalsuite::cli {

const std::vector<Command>& LightCommands() {
  static const std::vector<Command> commands = {
      {"entries", RegisterEntriesCommand, 0}, {"study", RegisterStudyCommand, 2},
      {"report", RegisterReportCommand, 3},   {"compare", RegisterCompareCommand, 3},
      {"import", RegisterImportCommand, 4},   {"export", RegisterExportCommand, 5},
      {"audit", RegisterAuditCommand, 5}};
  return commands;
}

ServingBinary BinaryServing(int argc, char** argv) {
  if (argc < 2) return ServingBinary::kFull;
  // The version is every binary's own (ConfigureApp): asking it need not load LibTorch (0.6 s).
  if (argc == 2 && std::string_view(argv[1]) == "--version") return ServingBinary::kFront;
  for (const Command& command : LightCommands()) {
    if (std::string_view(command.name) == argv[1]) return ServingBinary::kFront;
  }
  for (const char* name : kLabelCommandNames) {
    if (std::string_view(name) == argv[1]) return ServingBinary::kLabel;
  }
  return ServingBinary::kFull;
}

void AddCommands(CLI::App& app, const std::vector<const std::vector<Command>*>& tables) {
  std::vector<Command> commands;
  for (const std::vector<Command>* table : tables) commands.insert(commands.end(), table->begin(), table->end());
  std::stable_sort(commands.begin(), commands.end(),
                   [](const Command& a, const Command& b) { return a.help_rank < b.help_rank; });
  for (const Command& command : commands) command.add(app);
  ApplyHelpFooters(app);
}

}  // namespace evalsuite::cli
