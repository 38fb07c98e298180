// The built-in entries a study may name, as the study needs them: name, description, default threshold and
// epoch budget. One lookup function, so the catalog's source (entries/) stays behind one seam.
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

// Named apart from entries::FindBuiltinEntry / entries::BuiltinEntries, which give the whole recipe.
std::optional<BuiltinEntryFacts> FindBuiltinEntryFacts(const std::string& name);
std::vector<BuiltinEntryFacts> AllBuiltinEntryFacts();

}  // namespace evalsuite::study
