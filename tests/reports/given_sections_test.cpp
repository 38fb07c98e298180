// The sections made elsewhere, decoded once where they are read (reports/given_sections.h): an error names the file
// and field and changes nothing, two generalization files add up in both the typed model and report.json's echo,
// the hardware rows are rated and decoded once, and the builder refuses a section given as JSON alone.
#include "reports/given_sections.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "reports/extra_sections.h"
#include "reports/generalization_section.h"
#include "reports/hardware_section.h"
#include "reports/report.h"
#include "tests/reports/report_fixture.h"

namespace evalsuite::reports {
namespace {

using nlohmann::json;

TEST(GivenSections, BadGeneralizationNamesTheFileAndFieldAndChangesNothing) {
  StabilityReportInput input = testing::SyntheticInput();
  AddGeneralizationSection(input, testing::GeneralizationSection(), "a.json");
  const json bad = json::array({{{"image_set", "x"}, {"models", json::array({{{"name", 3}}})}}});
  try {
    AddGeneralizationSection(input, bad, "bad.json");
    FAIL() << "a model name that is not text was accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.where(), "bad.json");
    EXPECT_NE(std::string(error.what()).find("[0].models[0].name"), std::string::npos) << error.what();
  }
  EXPECT_EQ(input.generalization.size(), testing::GeneralizationSection().size());
  EXPECT_EQ(input.extra_sections[kGeneralizationSectionKey], testing::GeneralizationSection());
}

TEST(GivenSections, TwoGeneralizationFilesAddUpTypedAndAsShown) {
  StabilityReportInput input = testing::SyntheticInput();
  const json first = testing::GeneralizationSection();
  const json second = testing::GeneralizationSection()[0];  // a lone image set
  AddGeneralizationSection(input, first, "a.json");
  AddGeneralizationSection(input, second, "b.json");
  ASSERT_EQ(input.generalization.size(), first.size() + 1);
  EXPECT_EQ(input.generalization.back().image_set, second["image_set"].get<std::string>());
  EXPECT_EQ(input.extra_sections[kGeneralizationSectionKey], CombineGeneralizationSections(first, second));
  const ReportModel model = BuildStabilityReport(input);
  EXPECT_EQ(model.generalization.size(), first.size() + 1);
  EXPECT_EQ(model.sections[kGeneralizationSectionKey], CombineGeneralizationSections(first, second));
}

TEST(GivenSections, BuilderRefusesAGeneralizationSectionGivenAsJsonAlone) {
  StabilityReportInput input = testing::SyntheticInput();
  input.extra_sections[kGeneralizationSectionKey] = testing::GeneralizationSection();
  EXPECT_THROW(BuildStabilityReport(input), Error);  // it would be in report.json and drawn nowhere
}

TEST(GivenSections, HardwareRowsAreRatedAndDecodedOnce) {
  StabilityReportInput input;
  input.environment = {{"machine_ceilings",
                        {{"source", "measured"},
                         {"where", "here"},
                         {"machine", {{"peak_fp32_flops", 40e9}, {"bandwidth_bytes", 10e9}}}}}};
  input.hardware_given = {
      {"entries", json::array({{{"entry", "a"}, {"precision", "fp32"}, {"intensity", 2}, {"achieved_flops", 15e9}}})}};
  EXPECT_THROW(BuildStabilityReport(input), Error);  // given, not yet decoded
  DecodeHardwareSection(input);
  ASSERT_TRUE(input.hardware.has_value());
  ASSERT_EQ(input.hardware->entries.size(), 1u);
  EXPECT_DOUBLE_EQ(*input.hardware->entries[0].mfu, 15.0 / 40.0);  // against the study's ceilings
  EXPECT_DOUBLE_EQ(input.extra_sections[kHardwareSectionKey]["entries"][0]["mfu"].get<double>(), 15.0 / 40.0);
  EXPECT_THROW(DecodeHardwareSection(input), Error);  // a second pass would rate the rows again
  const ReportModel model = BuildStabilityReport(input);
  ASSERT_TRUE(model.hardware.has_value());
  EXPECT_EQ(model.hardware->entries[0].entry, "a");
}

TEST(GivenSections, NoHardwareGivenAndNoCeilingsGivesNoSection) {
  StabilityReportInput input;
  DecodeHardwareSection(input);
  EXPECT_FALSE(input.hardware.has_value());
  EXPECT_FALSE(input.extra_sections.contains(kHardwareSectionKey));
}

}  // namespace
}  // namespace evalsuite::reports
