// A holdout's frozen rule shown as the report's selection block: as given, with "" for an absent name and null for
// an absent figure.
#include "generalization/holdout_selection_json.h"

#include <gtest/gtest.h>

namespace evalsuite::generalization {
namespace {

using nlohmann::json;

TEST(HoldoutSelectionJsonTest, ALabelRuleShowsItsName) {
  EXPECT_EQ(HoldoutSelectionFromJson(json{{"rule", "majority"}, {"min_labelers", 2}}), (json{{"rule", "majority"}}));
  EXPECT_EQ(HoldoutSelectionFromJson(json::object()), (json{{"rule", ""}}));
}

TEST(HoldoutSelectionJsonTest, ASampledHoldoutShowsItsSampling) {
  const json selection = HoldoutSelectionFromJson(json{
      {"rule", "sampled"}, {"sampling", {{"variant", "threshold"}, {"seed", 7}, {"reference", {{"kind", "v1"}}}}}});
  EXPECT_EQ(selection, (json{{"rule", "sampled"},
                             {"variant", "threshold"},
                             {"seed", 7},
                             {"per_class", nullptr},
                             {"min_votes", nullptr},
                             {"reference", "v1"}}));
}

}  // namespace
}  // namespace evalsuite::generalization
