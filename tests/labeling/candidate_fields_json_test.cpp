// A candidate manifest's free-form fields as labeling reads them: a near-duplicate flag (numbers kept as written)
// and the source's class list, "imagenet-1k" when it names none.
#include "labeling/candidate_fields_json.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace evalsuite::labeling {
namespace {

using nlohmann::json;

TEST(CandidateFieldsJsonTest, AFlagKeepsItsFieldsAsWritten) {
  const NearDuplicateFlag f =
      NearDuplicateFlagFromJson(json{{"kind", "within"}, {"match", "a/b.jpg"}, {"distance", 3}});
  EXPECT_EQ(f.kind, "within");
  EXPECT_EQ(f.match, "a/b.jpg");
  EXPECT_EQ(f.distance.dump(), "3");  // an integer stays one on the page
  EXPECT_TRUE(f.similarity.is_null());
  const NearDuplicateFlag bare = NearDuplicateFlagFromJson(json{{"distance", "far"}});
  EXPECT_EQ(bare.kind, "");
  EXPECT_EQ(bare.match, "");
  EXPECT_TRUE(bare.distance.is_null());
  EXPECT_THROW(NearDuplicateFlagFromJson(json{{"match", 5}}), Error);
}

TEST(CandidateFieldsJsonTest, TheClassListDefaultsToImageNet) {
  EXPECT_EQ(CandidateClassListFromJson(json::object()), "imagenet-1k");
  EXPECT_EQ(CandidateClassListFromJson(json(nullptr)), "imagenet-1k");
  EXPECT_EQ(CandidateClassListFromJson(json{{"class_list", "fashion-mnist"}}), "fashion-mnist");
  try {
    CandidateClassListFromJson(json{{"class_list", 1}});
    FAIL() << "a numeric class list was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "source.class_list");
  }
}

}  // namespace
}  // namespace evalsuite::labeling
