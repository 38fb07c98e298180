// The accuracy-by-selection-frequency tables: one image set's bins, and several sets side by side.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "reports/generalization_tables.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

json ImageSet(const std::string& name, const std::string& variant, double gap) {
  json by_bin = json::array();
  for (int b = 0; b < 5; ++b) {
    by_bin.push_back({{"bin", b == 4 ? "[0.8, 1.0]" : "[0.0, 0.2)"},
                      {"images", 10 + b},
                      {"models",
                       {{{"name", "r18"},
                         {"group", "pretrained"},
                         {"top1", {{"correct", 9}, {"accuracy", 0.9}, {"lower", 0.55}, {"upper", 0.997}}}},
                        {{"name", "fast"},
                         {"group", "tta-optimized"},
                         {"top1", {{"correct", 8}, {"accuracy", 0.8}, {"lower", 0.44}, {"upper", 0.97}}}}}},
                      {"groups",
                       {{{"group", "pretrained"}, {"models", 1}, {"mean_top1", 0.9}},
                        {{"group", "tta-optimized"}, {"models", 1}, {"mean_top1", 0.9 + gap}}}},
                      {"gap_top1", gap},
                      {"candidate_group", "tta-optimized"},
                      {"reference_group", "pretrained"}});
  }
  return {{"image_set", name},
          {"selection", {{"rule", "sampling:x"}, {"variant", variant}}},
          {"frequency_bins", {{"by_bin", by_bin}}}};
}

TEST(FrequencyBinsTables, OneSetPerBinAndSetsSideBySide) {
  const ReportTable one = GeneralizationFrequencyBinsTable(ImageSet("v2-matched", "matched-frequency", -0.1));
  ASSERT_EQ(one.rows.size(), 5u);
  EXPECT_EQ(one.header.size(), 5u);  // bin, images, two models, gap
  EXPECT_EQ(one.header[2], "r18 top-1 [95% CI]");
  EXPECT_EQ(one.header[4], "Gap top-1 (tta-optimized − pretrained)");
  EXPECT_EQ(one.rows[4][0], "[0.8, 1.0]");
  EXPECT_EQ(one.rows[4][1], "14");
  EXPECT_EQ(one.rows[0][4], "-10.00%");
  EXPECT_TRUE(GeneralizationFrequencyBinsTable(json{{"image_set", "fmnist"}}).rows.empty());

  const ReportTable sets = FrequencyBinsAcrossSetsTable(
      json::array({ImageSet("v2-matched", "matched-frequency", -0.1), ImageSet("v2-top", "top-images", -0.02),
                   json{{"image_set", "fmnist"}}}));
  ASSERT_EQ(sets.rows.size(), 10u);  // the set without frequencies has no rows
  EXPECT_EQ(sets.rows[0][1], "matched-frequency");
  EXPECT_EQ(sets.rows[5][0], "v2-top");
  EXPECT_EQ(sets.rows[5][6], "-2.00%");
}

}  // namespace
}  // namespace evalsuite::reports
