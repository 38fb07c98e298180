// The sections `report --section NAME=FILE` takes (reports/extra_sections.h): a known name with the shape its
// producer writes passes, an unknown name lists the known ones, and a file of another shape says what is wrong.
#include "reports/extra_sections.h"

#include <gtest/gtest.h>

#include "tests/reports/report_fixture.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

TEST(ExtraSectionsTest, WhatTheProducersWritePasses) {
  EXPECT_EQ(ExtraSectionProblem("generalization", testing::GeneralizationSection()), "");
  EXPECT_EQ(ExtraSectionProblem("generalization", testing::GeneralizationSection()[0]), "");  // one image set
  EXPECT_EQ(ExtraSectionProblem("hardware", json{{"machine", {{"peak_fp32_flops", 1e12}}}}), "");
  EXPECT_EQ(ExtraSectionProblem("hardware", json{{"entries", {{{"entry", "fast"}}}}}), "");
}

TEST(ExtraSectionsTest, UnknownNamesAndWrongShapesAreNamed) {
  EXPECT_FALSE(IsExtraSectionName("bogus"));
  EXPECT_TRUE(IsExtraSectionName("hardware"));
  EXPECT_EQ(ExtraSectionProblem("bogus", json::object()), "unknown section 'bogus' (known: generalization, hardware)");
  const std::string numbers = ExtraSectionProblem("generalization", json{1, 2, 3});
  EXPECT_EQ(numbers.rfind("[0] is a number, not an image set object (expected an array of image sets", 0), 0u)
      << numbers;
  EXPECT_NE(ExtraSectionProblem("generalization", json::array()).find("is an empty array"), std::string::npos);
  EXPECT_NE(ExtraSectionProblem("generalization", json{{{"image_set", "h"}}}).find("[0] has no \"models\" array"),
            std::string::npos);
  EXPECT_NE(ExtraSectionProblem("hardware", json{1, 2}).find("is an array whose first element is a number"),
            std::string::npos);
  EXPECT_NE(ExtraSectionProblem("hardware", json{{"a", 1}}).find("has neither a \"machine\" nor any \"entries\""),
            std::string::npos);
  EXPECT_NE(ExtraSectionProblem("hardware", json{{"entries", {1}}}).find("entries[0] is not an entry object"),
            std::string::npos);
}

}  // namespace
}  // namespace evalsuite::reports
