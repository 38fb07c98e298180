// The ceilings the hardware section divides by: a study's recorded ceilings (measured or from a file) replace the
// section file's machine and give the exact MFU, attainable FLOP/s and bound; the theoretical peak never replaces
// a measured machine; a study without recorded ceilings (an older store) leaves the section as it was given.
#include "reports/hardware_ceilings.h"

#include <gtest/gtest.h>

#include "reports/given_sections.h"
#include "reports/hardware_section.h"
#include "reports/report.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

// Figures chosen so every expected value is exact in binary floating point or a short decimal.
json CeilingsSection() {
  return json::parse(R"({
    "machine": {"cpu_model": "section's CPU", "peak_fp32_flops": 1e12, "peak_bf16_flops": 2e12,
                "bandwidth_bytes": 1e11},
    "entries": [
      {"entry": "baseline", "precision": "fp32", "intensity": 2, "achieved_flops": 15e9, "mfu": 0.015,
       "phases": [{"side": 28, "intensity": 2, "achieved_flops": 15e9, "mfu": 0.015}]},
      {"entry": "bf16", "precision": "bf16", "intensity": 8, "achieved_flops": 20e9, "mfu": 0.01}]})");
}

// A model holding only a hardware section, as a report of no entries with `--section hardware=FILE` has.
ReportModel ModelWithHardware(const json& section) {
  ReportModel model;
  model.title = "t";
  model.sections[kHardwareSectionKey] = section;
  model.hardware = ParseHardwareSection(section);
  return model;
}

json Environment(const std::string& source) {
  return {{"host", "h"},
          {"machine_ceilings",
           {{"source", source},
            {"where", "hand-set"},
            {"machine", {{"peak_fp32_flops", 40e9}, {"peak_bf16_flops", 160e9}, {"bandwidth_bytes", 10e9}}}}}};
}

TEST(HardwareCeilings, StudyCeilingsGiveTheExactMfuAndBound) {
  const json out = ApplyStudyCeilings(CeilingsSection(), Environment("measured"));
  const json& m = out["machine"];
  EXPECT_EQ(m["peak_fp32_flops"].get<double>(), 40e9);
  EXPECT_EQ(m["ridge_fp32"].get<double>(), 4.0);
  EXPECT_EQ(m["ridge_bf16"].get<double>(), 16.0);
  EXPECT_EQ(m["ceilings_source"]["kind"], "measured in this study");
  const json& fp32 = out["entries"][0];
  EXPECT_DOUBLE_EQ(fp32["mfu"].get<double>(), 15e9 / 40e9);  // 0.375
  EXPECT_EQ(fp32["peak_flops"].get<double>(), 40e9);
  // Intensity 2 is left of the ridge (4): the roof allows 2 x 10 GB/s = 20 GFLOP/s, and 15 reaches 75% of it.
  EXPECT_EQ(fp32["attainable_flops"].get<double>(), 20e9);
  EXPECT_EQ(fp32["bound"], "memory-bound");
  EXPECT_DOUBLE_EQ(fp32["phases"][0]["mfu"].get<double>(), 0.375);
  const json& bf16 = out["entries"][1];
  EXPECT_DOUBLE_EQ(bf16["mfu"].get<double>(), 20e9 / 160e9);  // 0.125, against the bf16 peak
  EXPECT_EQ(bf16["attainable_flops"].get<double>(), 80e9);    // 8 x 10 GB/s, left of the bf16 ridge (16)
  EXPECT_EQ(bf16["bound"], "overhead-bound");                 // 25% of what the roof allows

  const std::string md = RenderMarkdown(ModelWithHardware(out));
  EXPECT_NE(md.find("| ceilings used | measured in this study | hand-set |"), std::string::npos) << md;
  EXPECT_NE(md.find("37.5%"), std::string::npos) << md;
}

TEST(HardwareCeilings, ExternalEntriesKeepTheirOwnDevicesFigures) {
  const json external = {{"entry", "gpu-run"},       {"source", "external"},
                         {"precision", "bf16"},      {"intensity", 50},
                         {"achieved_flops", 100e12}, {"peak_flops", 312e12},
                         {"mfu", 100e12 / 312e12},   {"peak_source", "table: NVIDIA A100"}};
  json section = CeilingsSection();
  section["entries"].push_back(external);
  const json out = ApplyStudyCeilings(section, Environment("measured"));
  EXPECT_DOUBLE_EQ(out["entries"][0]["mfu"].get<double>(), 0.375);  // built-in: this study's machine
  EXPECT_EQ(out["entries"][2], external);                           // external: untouched
  // A section of external entries alone gets this machine's ceilings beside them, and keeps them as they were.
  const json alone = ApplyStudyCeilings({{"entries", {external}}}, Environment("measured"));
  EXPECT_EQ(alone["entries"][0], external);
  EXPECT_EQ(alone["machine"]["peak_fp32_flops"].get<double>(), 40e9);
  EXPECT_EQ(ApplyStudyCeilings({{"entries", {external}}}, Environment("theoretical")), json({{"entries", {external}}}));
}

TEST(HardwareCeilings, AFileRecordedByTheStudyIsNamed) {
  json environment = Environment("file");
  environment["machine_ceilings"]["file"] = "/x/ceilings.json";
  const json out = ApplyStudyCeilings(CeilingsSection(), environment);
  EXPECT_EQ(out["machine"]["ceilings_source"]["kind"], "file /x/ceilings.json");
  EXPECT_DOUBLE_EQ(out["entries"][0]["mfu"].get<double>(), 0.375);
}

TEST(HardwareCeilings, StudyCeilingsWithoutASectionShowTheMachineAlone) {
  const json out = ApplyStudyCeilings(json(), Environment("measured"));
  ASSERT_TRUE(HasHardwareSection(out));
  EXPECT_TRUE(out["entries"].empty());
  const std::string md = RenderMarkdown(ModelWithHardware(out));
  EXPECT_NE(md.find("No entry profiled against these ceilings"), std::string::npos) << md;
  EXPECT_EQ(md.find("### Per entry"), std::string::npos);
}

TEST(HardwareCeilings, TheoreticalPeakNeverReplacesAMeasuredMachine) {
  const json out = ApplyStudyCeilings(CeilingsSection(), Environment("theoretical"));
  EXPECT_EQ(out["machine"]["peak_fp32_flops"].get<double>(), 1e12);
  EXPECT_EQ(out["entries"][0]["mfu"].get<double>(), 0.015);  // the file's own figure, untouched
  EXPECT_EQ(out["machine"]["ceilings_source"]["kind"], "the hardware section's file");
  // ... and alone (a study that skipped the probe) it makes no section.
  EXPECT_TRUE(ApplyStudyCeilings(json(), Environment("theoretical")).is_null());
}

TEST(HardwareCeilings, AStoreWithoutCeilingsKeepsTheSectionAsGiven) {
  const json old_environment = {{"host", "h"}};
  EXPECT_TRUE(ApplyStudyCeilings(json(), old_environment).is_null());
  const json out = ApplyStudyCeilings(CeilingsSection(), old_environment);
  EXPECT_EQ(out["entries"], CeilingsSection()["entries"]);
  EXPECT_EQ(out["machine"]["peak_fp32_flops"].get<double>(), 1e12);
  // Through the whole report: no hardware section appears for an old store without --section.
  StabilityReportInput input;
  input.environment = old_environment;
  DecodeHardwareSection(input);  // reports/given_sections.h: where the store's rows are read
  EXPECT_FALSE(ToJson(BuildStabilityReport(input)).contains(kHardwareSectionKey));
  StabilityReportInput measured;
  measured.environment = Environment("measured");
  DecodeHardwareSection(measured);
  EXPECT_DOUBLE_EQ(ToJson(BuildStabilityReport(measured))[kHardwareSectionKey]["machine"]["ridge_fp32"].get<double>(),
                   4.0);
}

}  // namespace
}  // namespace evalsuite::reports
