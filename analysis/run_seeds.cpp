#include "analysis/run_seeds.h"

#include <string>

namespace evalsuite::analysis {
namespace {

// The typed field of a name, or nullptr for a name kept under `other`.
template <typename Seeds>
auto* SeedField(Seeds& seeds, std::string_view name) {
  if (name == "run") return &seeds.run;
  if (name == "init") return &seeds.init;
  if (name == "data_order") return &seeds.data_order;
  if (name == "augmentation") return &seeds.augmentation;
  return static_cast<decltype(&seeds.run)>(nullptr);
}

void ReadRunSeed(RunSeeds& seeds, const std::string& name, const nlohmann::json& value) {
  // A non-negative integer, whichever way it was built: parsed JSON makes it unsigned, code may make it signed.
  const bool unsigned_integer = value.is_number_unsigned() || (value.is_number_integer() && value.get<int64_t>() >= 0);
  if (auto* field = SeedField(seeds, name); field != nullptr && unsigned_integer) {
    *field = value.get<uint64_t>();
  } else {
    seeds.other[name] = value;
  }
}

}  // namespace

std::optional<uint64_t> RunSeeds::Of(std::string_view source) const {
  const std::optional<uint64_t>* field = SeedField(*this, source);
  return field != nullptr ? *field : std::nullopt;
}

bool RunSeeds::operator==(const RunSeeds& o) const {
  return run == o.run && init == o.init && data_order == o.data_order && augmentation == o.augmentation &&
         other == o.other;
}

nlohmann::json RunSeedsToJson(const RunSeeds& seeds) {
  nlohmann::json json = seeds.other.is_object() ? seeds.other : nlohmann::json::object();
  for (const char* name : {"run", "init", "data_order", "augmentation"}) {
    if (const std::optional<uint64_t> seed = seeds.Of(name)) json[name] = *seed;
  }
  return json;
}

RunSeeds RunSeedsFromJson(const nlohmann::json& json) {
  RunSeeds seeds;
  if (json.is_null()) return seeds;
  if (!json.is_object()) {
    ReadRunSeed(seeds, "run", json);
    return seeds;
  }
  for (auto it = json.begin(); it != json.end(); ++it) ReadRunSeed(seeds, it.key(), it.value());
  return seeds;
}

}  // namespace evalsuite::analysis
