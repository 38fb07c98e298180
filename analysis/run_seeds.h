// A run's seeds, typed: the run seed and each source's (weight initialization, data order, augmentation), each
// present only where the run recorded it, and whatever else a log or an importer recorded under other names (MLPerf's
// "seed", a framework log's "source", the trainer's "derivation"), kept as it came. Decoded once at the store's edge
// (RunSeedsFromJson) and encoded there (RunSeedsToJson); the two round-trip every stored form byte for byte.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace evalsuite::analysis {

struct RunSeeds {
  std::optional<uint64_t> run;           // the seed evalsuite (or the log) gave the run
  std::optional<uint64_t> init;          // weight initialization
  std::optional<uint64_t> data_order;    // the order the training data is drawn in
  std::optional<uint64_t> augmentation;  // random crops, flips, ...
  // Other names, as recorded: never one of the four above with a non-negative integer value (those are the fields).
  nlohmann::json other = nlohmann::json::object();

  // The seed of a source by its recorded name ("run", "init", "data_order", "augmentation"); nullopt when the run
  // has none. A study's [variance] design records each source's seed, so runs group by it.
  std::optional<uint64_t> Of(std::string_view source) const;
  bool operator==(const RunSeeds& other_seeds) const;
};

// An object with a key per seed. Stored, shown in report.json and exported as it always was.
nlohmann::json RunSeedsToJson(const RunSeeds& seeds);
// An object as stored; a bare value (older importers wrote one) is the run seed; null: no seeds. A known name whose
// value is not a non-negative integer (a negative seed, a string) is kept under `other`, so nothing is lost.
RunSeeds RunSeedsFromJson(const nlohmann::json& json);

}  // namespace evalsuite::analysis
