#include "study/plans/builtin_entry_lookup.h"

#include "entries/builtin_entries.h"

namespace evalsuite::study {
namespace {

BuiltinEntryFacts ToFacts(const entries::BuiltinEntry& entry) {
  return {entry.name, entry.description, entry.metric, entry.threshold, entry.epoch_budget};
}

}  // namespace

std::vector<BuiltinEntryFacts> AllBuiltinEntryFacts() {
  std::vector<BuiltinEntryFacts> facts;
  for (const auto& entry : entries::BuiltinEntries()) facts.push_back(ToFacts(entry));
  return facts;
}

std::optional<BuiltinEntryFacts> FindBuiltinEntryFacts(const std::string& name) {
  const entries::BuiltinEntry* entry = entries::FindBuiltinEntry(name);
  if (!entry) return std::nullopt;
  return ToFacts(*entry);
}

}  // namespace evalsuite::study
