#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/command_table.h"

namespace evalsuite::cli {

const std::vector<Command>& LightCommands() {
  static const std::vector<Command> commands = {{"entries", RegisterEntriesCommand},
                                                {"study", RegisterStudyCommand},
                                                {"report", RegisterReportCommand},
                                                {"import", RegisterImportCommand},
                                                {"label", RegisterLabelCommand}};
  return commands;
}

bool ServedByLightBinary(int argc, char** argv) {
  if (argc < 2) return false;
  for (const Command& command : LightCommands()) {
    if (std::string_view(command.name) == argv[1]) return true;
  }
  return false;
}

void AddCommands(CLI::App& app, const std::vector<Command>& commands) {
  for (const Command& command : commands) command.add(app);
}

}  // namespace evalsuite::cli
