// The built-in entries a study may name, as the study needs them: name, description, default threshold and
// epoch budget. One lookup function, so the catalog's source (evalsuite/entries/) stays behind one seam.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace evalsuite::study {

struct BuiltinEntryFacts {
  std::string name;
  std::string description;
  std::string metric = "val_top1";
  double default_threshold = 0.91;
  int default_epochs = 10;
};

std::optional<BuiltinEntryFacts> FindBuiltinEntry(const std::string& name);
std::vector<BuiltinEntryFacts> BuiltinEntries();

}  // namespace evalsuite::study
