// The shipped ImageNet-1k class list: 1000 classes, every wnid a WordNet 3.0 noun synset (Debian's
// wordnet-base data.noun, always checked), agreeing with ../shared/data/imagenet/class_info.json when present;
// user class lists and class selection with errors that name the file and line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "common/error.h"
#include "datasets/imagenet/class_list.h"
#include "datasets/imagenet/wordnet.h"
#include "tests/support/test_support.h"

namespace evalsuite::datasets {
namespace {

using evalsuite::testing::ReadFile;
using evalsuite::testing::TempDir;
using evalsuite::testing::WriteFile;

TEST(ImageNetClassesTest, ThousandClassesInStandardOrder) {
  const ClassList& list = ImageNet1kClasses();
  ASSERT_EQ(list.classes.size(), 1000u);
  std::set<std::string> wnids;
  for (size_t i = 0; i < list.classes.size(); ++i) {
    EXPECT_EQ(list.classes[i].index, static_cast<int>(i));
    EXPECT_TRUE(IsWnid(list.classes[i].wnid)) << list.classes[i].wnid;
    if (i > 0) EXPECT_LT(list.classes[i - 1].wnid, list.classes[i].wnid);  // ILSVRC indices are sorted wnids
    wnids.insert(list.classes[i].wnid);
  }
  EXPECT_EQ(wnids.size(), 1000u);
  EXPECT_EQ(list.classes[0].wnid, "n01440764");
  EXPECT_EQ(list.classes[999].wnid, "n15075141");
  EXPECT_EQ(list.FindByWnid("n01443537")->index, 1);
  EXPECT_EQ(list.FindByIndex(2)->name, "great white shark");
}

TEST(ImageNetClassesTest, EmbeddedListIsTheShippedFile) {
  EXPECT_EQ(std::string(ImageNet1kClassesText()),
            ReadFile(evalsuite::testing::SourceDir() / "datasets" / "imagenet" / "imagenet1k_classes.tsv"));
}

TEST(ImageNetClassesTest, EveryWnidResolvesInWordNet30) {
  WordNetNouns wordnet(DefaultWordNetNounFile());  // wordnet-base is a build dependency: no skip
  for (const ClassListEntry& entry : ImageNet1kClasses().classes) {
    const Synset synset = wordnet.Lookup(entry.wnid);
    EXPECT_EQ(synset.wnid, entry.wnid);
    ASSERT_FALSE(synset.lemmas.empty()) << entry.wnid;
    EXPECT_EQ(synset.lemmas.front(), entry.name) << entry.wnid;
    EXPECT_FALSE(synset.gloss.empty()) << entry.wnid;
  }
  const Synset tench = wordnet.Lookup("n01440764");
  EXPECT_EQ(tench.lemmas, (std::vector<std::string>{"tench", "Tinca tinca"}));
  EXPECT_EQ(tench.gloss,
            "freshwater dace-like game fish of Europe and western Asia noted for ability to survive outside water");
}

TEST(ImageNetClassesTest, AgreesWithClassInfoJson) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  const nlohmann::json info = nlohmann::json::parse(ReadFile(shared / "imagenet" / "class_info.json"));
  ASSERT_EQ(info.size(), 1000u);
  WordNetNouns wordnet(DefaultWordNetNounFile());
  const ClassList& list = ImageNet1kClasses();
  for (const nlohmann::json& c : info) {
    const ClassListEntry* entry = list.FindByIndex(c.at("cid").get<int>());
    ASSERT_NE(entry, nullptr) << c.at("cid");
    EXPECT_EQ(entry->wnid, c.at("wnid").get<std::string>());
    const Synset synset = wordnet.Lookup(entry->wnid);
    EXPECT_EQ(synset.lemmas, c.at("synset").get<std::vector<std::string>>()) << entry->wnid;
    EXPECT_EQ(synset.gloss, c.at("gloss").get<std::string>()) << entry->wnid;
  }
}

TEST(ImageNetClassesTest, WordNetRefusesOffsetsThatAreNotSynsets) {
  WordNetNouns wordnet(DefaultWordNetNounFile());
  try {
    wordnet.Lookup("n01440765");  // one byte into the tench line
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_NE(e.message().find("WordNet 3.0"), std::string::npos) << e.message();
  }
  EXPECT_THROW(wordnet.Lookup("n99999999"), Error);
  EXPECT_THROW(wordnet.Lookup("tench"), Error);
  EXPECT_THROW(WordNetNouns("/nonexistent/data.noun"), Error);
  const Synset parsed = ParseSynsetLine(
      "02084071 05 n 03 dog 0 domestic_dog 0 Canis_familiaris 0 023 @ 02083346 n 0000 | a member of the genus Canis  ",
      "x");
  EXPECT_EQ(parsed.lemmas, (std::vector<std::string>{"dog", "domestic dog", "Canis familiaris"}));
  EXPECT_EQ(parsed.gloss, "a member of the genus Canis");
}

TEST(ImageNetClassesTest, UserClassListsAndTheirErrors) {
  const ClassList mine = ParseClassList("# my classes\n\n3\tn01440764\ttench\n0\tn01443537\n", "mine.tsv");
  ASSERT_EQ(mine.classes.size(), 2u);
  EXPECT_EQ(mine.classes[0].index, 3);
  EXPECT_EQ(mine.classes[1].name, "");
  auto error_where = [](const std::string& text) {
    try {
      ParseClassList(text, "mine.tsv");
    } catch (const Error& e) {
      return e.where();
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_where("0\tn01440764\n1 n01443537\n"), "mine.tsv:2");  // spaces, not a tab
  EXPECT_EQ(error_where("x\tn01440764\n"), "mine.tsv:1");
  EXPECT_EQ(error_where("0\tn0144076\n"), "mine.tsv:1");
  EXPECT_EQ(error_where("0\tn01440764\n0\tn01443537\n"), "mine.tsv:2");  // index twice
  EXPECT_EQ(error_where("0\tn01440764\n1\tn01440764\n"), "mine.tsv:2");  // wnid twice
  EXPECT_EQ(error_where("# only comments\n"), "mine.tsv");
  TempDir dir;
  WriteFile(dir / "list.tsv", "5\tn01440764\n");
  EXPECT_EQ(ReadClassList(dir / "list.tsv").classes[0].index, 5);
  EXPECT_THROW(ReadClassList(dir / "absent.tsv"), Error);
}

TEST(ImageNetClassesTest, SelectionByRangeAndWnidFile) {
  const ClassList& all = ImageNet1kClasses();
  EXPECT_EQ(SelectClasses(all, std::nullopt, std::nullopt).classes.size(), 1000u);
  const ClassList range = SelectClasses(all, std::nullopt, "10-19");
  ASSERT_EQ(range.classes.size(), 10u);
  EXPECT_EQ(range.classes.front().index, 10);
  EXPECT_EQ(range.classes.back().index, 19);
  EXPECT_EQ(SelectClasses(all, std::nullopt, "7").classes.size(), 1u);
  TempDir dir;
  WriteFile(dir / "wnids.txt", "# a subset\nn01443537\n\n  n01440764  \n2\tn01484850\tgreat white shark\n");
  const ClassList listed = SelectClasses(all, dir / "wnids.txt", std::nullopt);
  ASSERT_EQ(listed.classes.size(), 3u);
  EXPECT_EQ(listed.classes[0].index, 0);  // list order, indices untouched
  EXPECT_EQ(SelectClasses(all, dir / "wnids.txt", "1-5").classes.size(), 2u);
  for (const char* bad : {"5-2", "a-b", "-3", "1-"}) EXPECT_THROW(SelectClasses(all, std::nullopt, bad), Error) << bad;
  EXPECT_THROW(SelectClasses(all, std::nullopt, "2000-3000"), Error);  // selects nothing
  WriteFile(dir / "unknown.txt", "n01440764\nn12345678\n");
  try {
    SelectClasses(all, dir / "unknown.txt", std::nullopt);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), (dir / "unknown.txt").string() + ":2");
  }
}

}  // namespace
}  // namespace evalsuite::datasets
