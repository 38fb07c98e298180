// The accuracy-by-selection-frequency tables: one image set's bins, and several sets side by side.
#include <gtest/gtest.h>

#include "reports/generalization_tables.h"

namespace evalsuite::reports {
namespace {

ImageSetModel ImageSet(const std::string& name, const std::string& variant, double gap) {
  ImageSetModel set;
  set.image_set = name;
  set.selection_rule = "sampling:x";
  set.selection_variant = variant;
  for (int b = 0; b < 5; ++b) {
    FrequencyBinRow bin;
    bin.bin = b == 4 ? "[0.8, 1.0]" : "[0.0, 0.2)";
    bin.images = 10 + b;
    bin.models = {{"r18", {0.9, 0.55, 0.997}}, {"fast", {0.8, 0.44, 0.97}}};
    bin.groups = {{"pretrained", 0.9}, {"tta-optimized", 0.9 + gap}};
    bin.gap_top1 = gap;
    bin.candidate_group = "tta-optimized";
    bin.reference_group = "pretrained";
    set.frequency_bins.push_back(bin);
  }
  return set;
}

// An image set without frequencies (no labeled holdout).
ImageSetModel WithoutFrequencies(const std::string& name) {
  ImageSetModel set;
  set.image_set = name;
  return set;
}

TEST(FrequencyBinsTables, OneSetPerBinAndSetsSideBySide) {
  const ReportTable one = GeneralizationFrequencyBinsTable(ImageSet("v2-matched", "matched-frequency", -0.1));
  ASSERT_EQ(one.rows.size(), 5u);
  EXPECT_EQ(one.header.size(), 5u);  // bin, images, two models, gap
  EXPECT_EQ(one.header[2], "r18 top-1 [95% CI]");
  EXPECT_EQ(one.header[4], "Gap top-1 (tta-optimized mean − pretrained mean)");  // a section without "reference"
  EXPECT_EQ(one.rows[4][0], "[0.8, 1.0]");
  EXPECT_EQ(one.rows[4][1], "14");
  EXPECT_EQ(one.rows[0][4], "-10.00%");
  EXPECT_TRUE(GeneralizationFrequencyBinsTable(WithoutFrequencies("fmnist")).rows.empty());

  const ReportTable sets =
      FrequencyBinsAcrossSetsTable({ImageSet("v2-matched", "matched-frequency", -0.1),
                                    ImageSet("v2-top", "top-images", -0.02), WithoutFrequencies("fmnist")});
  ASSERT_EQ(sets.rows.size(), 10u);  // the set without frequencies has no rows
  EXPECT_EQ(sets.rows[0][1], "matched-frequency");
  EXPECT_EQ(sets.rows[5][0], "v2-top");
  EXPECT_EQ(sets.rows[5][6], "-2.00%");
}

// Issue 56 item 4: the gap is measured from the verdict's reference model, and both tables name it.
TEST(FrequencyBinsTables, NameTheVerdictsReferenceModel) {
  ImageSetModel set = ImageSet("holdout", "", -0.1);
  for (FrequencyBinRow& bin : set.frequency_bins) bin.reference = "r18";
  const ReportTable one = GeneralizationFrequencyBinsTable(set);
  EXPECT_EQ(one.header[4], "Gap top-1 (tta-optimized mean − r18)");
  const ReportTable sets = FrequencyBinsAcrossSetsTable({set});
  EXPECT_EQ(sets.rows[0][5], "90.00% (r18)");
}

}  // namespace
}  // namespace evalsuite::reports
