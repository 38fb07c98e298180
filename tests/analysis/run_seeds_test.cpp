// A run's typed seeds (analysis/run_seeds.h) round-trip every form a store holds, byte for byte: the built-in
// trainer's, an external entry's, MLPerf's "seed", a framework log's "source", a negative or string seed, none.
#include "analysis/run_seeds.h"

#include <gtest/gtest.h>

namespace evalsuite::analysis {
namespace {

TEST(RunSeedsTest, EveryStoredFormRoundTripsByteForByte) {
  const char* forms[] = {
      R"({"augmentation":3,"data_order":2,"derivation":"SplitMix64: init = stream 1","init":1,"run":7})",
      R"({"init":8,"run":7})",
      R"({"seed":1})",
      R"({"run":40,"source":"seed_everything"})",
      R"({"run":-3})",
      R"({"run":"abc"})",
      R"({"run":12345678901234567890})",
      R"({})",
  };
  for (const char* form : forms) {
    SCOPED_TRACE(form);
    const nlohmann::json stored = nlohmann::json::parse(form);
    const RunSeeds seeds = RunSeedsFromJson(stored);
    EXPECT_EQ(RunSeedsToJson(seeds).dump(), stored.dump());
    EXPECT_EQ(RunSeedsFromJson(RunSeedsToJson(seeds)), seeds);
  }
}

TEST(RunSeedsTest, TypedFieldsHoldNonNegativeIntegersOnly) {
  const RunSeeds seeds =
      RunSeedsFromJson(nlohmann::json::parse(R"({"run":7,"init":1,"data_order":2,"augmentation":3,"derivation":"x"})"));
  EXPECT_EQ(seeds.run, 7u);
  EXPECT_EQ(seeds.Of("init"), 1u);
  EXPECT_EQ(seeds.Of("data_order"), 2u);
  EXPECT_EQ(seeds.Of("augmentation"), 3u);
  EXPECT_FALSE(seeds.Of("derivation"));
  EXPECT_EQ(seeds.other, nlohmann::json({{"derivation", "x"}}));

  // A seed built in code as a signed integer is the same seed as the parsed one.
  EXPECT_EQ(RunSeedsFromJson({{"run", 7}}), RunSeedsFromJson(nlohmann::json::parse(R"({"run":7})")));
  // A negative seed or a string is kept as it came, not made a typed seed.
  EXPECT_FALSE(RunSeedsFromJson({{"run", -3}}).run);
  EXPECT_FALSE(RunSeedsFromJson({{"init", "abc"}}).init);
  // A bare value (older importers wrote one) is the run seed; null is no seeds.
  EXPECT_EQ(RunSeedsFromJson(nlohmann::json(5)).run, 5u);
  EXPECT_EQ(RunSeedsToJson(RunSeedsFromJson(nlohmann::json())).dump(), "{}");
}

}  // namespace
}  // namespace evalsuite::analysis
