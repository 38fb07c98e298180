// Hidden controls made by a command (issue 56 item 6): from a file of known answers, checked line by line, and from
// the items a team judged unanimously, balanced between the two answers and seeded.
#include "labeling/gold_controls.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "labeling/admin_page.h"
#include "stats/proportion.h"
#include "tests/support/test_support.h"

namespace evalsuite::labeling {
namespace {
using evalsuite::testing::TempDir;
using evalsuite::testing::WriteFile;

datasets::CandidateManifest ControlsManifest(int items) {
  datasets::CandidateManifest manifest;
  for (int i = 0; i < items; ++i) {
    datasets::Candidate item;
    item.id = "n01440764/" + std::to_string(i);
    item.wnid = "n01440764";
    item.path = "images/" + std::to_string(i) + ".jpg";
    manifest.items.push_back(item);
  }
  return manifest;
}

void Vote(std::map<std::pair<std::string, std::string>, Decision>& decisions, int item, const std::string& labeler,
          Label label) {
  const std::string id = "n01440764/" + std::to_string(item);
  decisions[{id, labeler}] = Decision{id, labeler, label, static_cast<int64_t>(decisions.size() + 1)};
}

TEST(GoldControls, ReadsKnownAnswersByIdOrPathAndNamesTheLineAtFault) {
  TempDir dir;
  datasets::CandidateManifest manifest = ControlsManifest(4);
  WriteFile(dir / "answers.csv", "item,answer\nn01440764/0,correct\nimages/1.jpg, incorrect\n\n");
  const std::vector<ControlAnswer> answers = ReadControlAnswers(dir / "answers.csv", manifest);
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(answers[1].item_id, "n01440764/1");
  EXPECT_EQ(answers[1].answer, "incorrect");
  const ControlsChange change = ApplyControls(manifest, answers, false);
  EXPECT_EQ(change.added, 2u);
  EXPECT_EQ(manifest.items[0].control, "correct");
  EXPECT_EQ(change.correct + change.incorrect, 2u);

  for (const auto& [text, expected] : std::vector<std::pair<std::string, std::string>>{
           {"n01440764/9,correct\n", "answers.csv:1: 'n01440764/9'"},
           {"n01440764/0,yes\n", "answers.csv:1: answer 'yes'"},
           {"item,answer\nno comma\n", "answers.csv:2: expected ITEM"},
           {"n01440764/0,correct\nimages/0.jpg,incorrect\n", "answers.csv:2: item 'n01440764/0' is given twice"}}) {
    WriteFile(dir / "answers.csv", text);
    try {
      ReadControlAnswers(dir / "answers.csv", manifest);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
}

TEST(GoldControls, FromLabelsTakesUnanimousItemsHalfOfEachAnswer) {
  const datasets::CandidateManifest manifest = ControlsManifest(10);
  std::map<std::pair<std::string, std::string>, Decision> decisions;
  for (int i = 0; i < 10; ++i) {
    for (const char* labeler : {"ana", "ben", "cy"}) {
      // 0-5 all correct, 6-7 all incorrect, 8 split, 9 with an unsure vote.
      Label label = i < 6 ? Label::kCorrect : Label::kIncorrect;
      if (i == 8 && std::string(labeler) == "ana") label = Label::kCorrect;
      if (i == 9 && std::string(labeler) == "cy") label = Label::kUnsure;
      Vote(decisions, i, labeler, label);
    }
  }
  const std::vector<ControlAnswer> four = ControlsFromLabels(manifest, decisions, 3, 4, 7);
  ASSERT_EQ(four.size(), 4u);
  int incorrect = 0;
  for (const ControlAnswer& a : four) {
    const int item = std::stoi(a.item_id.substr(a.item_id.find('/') + 1));
    EXPECT_LT(item, 8) << "split and unsure items never qualify";
    EXPECT_EQ(a.answer, item < 6 ? "correct" : "incorrect");
    incorrect += a.answer == "incorrect";
  }
  EXPECT_EQ(incorrect, 2);                                                                  // half of each
  EXPECT_EQ(ControlsFromLabels(manifest, decisions, 3, 4, 7)[0].item_id, four[0].item_id);  // seeded
  EXPECT_TRUE(ControlsFromLabels(manifest, decisions, 4, 4, 7).empty());  // three votes each, four asked
  // More asked than there are incorrect items: the rest are correct ones.
  EXPECT_EQ(ControlsFromLabels(manifest, decisions, 3, 7, 7).size(), 7u);
}

// The organizer's page gives each labeler's accuracy on the controls with its interval, not only "3 of 4".
TEST(GoldControls, AdminPageShowsAccuracyWithItsInterval) {
  LabelerProgress p;
  p.labeler = "ana";
  p.controls_judged = 4;
  p.controls_right = 3;
  p.controls_interval = stats::ClopperPearson(3, 4);  // [0.1941, 0.9937]
  const std::string html = RenderAdminPage({p}, 10);
  EXPECT_NE(html.find("3 of 4 (75% [19, 99])"), std::string::npos) << html;
  p.controls_judged = p.controls_right = 0;
  EXPECT_NE(RenderAdminPage({p}, 10).find("0 of 0 (no controls judged)"), std::string::npos);
}

}  // namespace
}  // namespace evalsuite::labeling
