// `evalsuite entries [--json]`: the built-in entries with their metric, default threshold, epoch budget and
// description (with --json: every hyperparameter too).
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>

#include "entries/builtin_entries.h"
#include "evalsuite/cli/commands.h"

namespace evalsuite::cli {

void RegisterEntriesCommand(CLI::App& app) {
  CLI::App* command = app.add_subcommand("entries", "List the built-in training entries (Fashion-MNIST recipes)");
  auto json_output = std::make_shared<bool>(false);
  command->add_flag("--json", *json_output, "Print JSON, with every hyperparameter of each recipe");
  command->callback([json_output] {
    const auto& catalog = entries::BuiltinEntries();
    if (*json_output) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& entry : catalog) out.push_back(entries::EntryToJson(entry));
      std::cout << out.dump(2) << "\n";
      return;
    }
    size_t width = 5;
    for (const auto& entry : catalog) width = std::max(width, entry.name.size());
    std::cout << fmt::format("{:<{}}  {:<8}  {:>9}  {:>6}  {}\n", "entry", width, "metric", "threshold", "epochs",
                             "description");
    for (const auto& entry : catalog) {
      std::cout << fmt::format("{:<{}}  {:<8}  {:>9.3f}  {:>6}  {}\n", entry.name, width, entry.metric, entry.threshold,
                               entry.epoch_budget, entry.description);
    }
  });
}

}  // namespace evalsuite::cli
