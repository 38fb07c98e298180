// CandidateManifestFromJson: a field of the wrong shape is an input error naming the item and field, before any
// labeling page is served from the manifest.
#include <gtest/gtest.h>

#include "common/error.h"
#include "datasets/images/candidate_manifest.h"

namespace evalsuite::datasets {
namespace {

nlohmann::json ManifestWithFlags(const nlohmann::json& flags) {
  return {{"schema_version", kCandidateManifestSchemaVersion},
          {"items",
           {{{"id", "n01440764/1"},
             {"class_index", 0},
             {"wnid", "n01440764"},
             {"path", "n01440764/1.jpg"},
             {"sha256", std::string(64, 'a')},
             {"near_duplicates", flags}}}}};
}

std::string ErrorOf(const nlohmann::json& manifest) {
  try {
    CandidateManifestFromJson(manifest, "cands.json");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    return e.what();
  }
  return "";
}

TEST(CandidateManifestFieldsTest, NearDuplicateFlagsOfTheWrongShapeNameTheItemAndFlag) {
  EXPECT_NE(
      ErrorOf(ManifestWithFlags({{{"kind", 1}, {"match", "x"}}})).find("cands.json: items[0].near_duplicates[0].kind"),
      std::string::npos);
  EXPECT_NE(
      ErrorOf(ManifestWithFlags({{{"kind", "within"}, {"match", {1, 2}}}})).find("items[0].near_duplicates[0].match"),
      std::string::npos);
  EXPECT_NE(ErrorOf(ManifestWithFlags({"n01440764/2"})).find("items[0].near_duplicates[0]"), std::string::npos);
  const CandidateManifest ok =
      CandidateManifestFromJson(ManifestWithFlags({{{"kind", "within"}, {"match", "n01440764/2"}}}), "cands.json");
  ASSERT_EQ(ok.items.size(), 1u);
  EXPECT_EQ(ok.items[0].near_duplicates[0]["match"], "n01440764/2");
}

}  // namespace
}  // namespace evalsuite::datasets
