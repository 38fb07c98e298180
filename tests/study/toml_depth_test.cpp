// Study files that would make toml++ recurse itself to death are refused before it parses them, with the line;
// the inputs that reach toml++'s own assertions in checked builds get clean errors.
#include "study/plans/toml_depth.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "study/plans/study_plan.h"
#include "study/plans/study_plan_loader.h"

namespace evalsuite::study {
namespace {

std::string Message(const std::string& text) {
  try {
    ParseStudyPlan(text, "s.toml", {}, 2);
  } catch (const Error& e) {
    return std::string(e.where()) + ": " + e.message();
  }
  return "";
}

TEST(TomlDepth, AHundredThousandPartDottedKeyIsRefusedWithItsLine) {
  std::string key = "a";
  for (int i = 0; i < 100000; ++i) key += ".b";
  EXPECT_EQ(Message("name = \"x\"\n" + key + " = 1\n"),
            "s.toml:2: a dotted key or table header is nested deeper than 64 levels");
  EXPECT_EQ(Message("name = \"x\"\n[" + key + "]\n"),
            "s.toml:2: a dotted key or table header is nested deeper than 64 levels");
  EXPECT_EQ(Message("x = " + std::string(100000, '[') + std::string(100000, ']') + "\n"),
            "s.toml:1: arrays or inline tables are nested deeper than 64 levels");
}

TEST(TomlDepth, OrdinaryFilesPassTheScan) {
  EXPECT_NO_THROW(
      CheckTomlDepth("name = \"a.b.c\" # x.y.z\n[stability]\nmax_cov_upper = 0.1\n"
                     "entries = [ { name = \"e\", command = \"sh [[x]] {y}\" } ]\n"
                     "[[entries]]\nname = 'q.r'\n",
                     "s.toml"));
}

// toml++ 3.3.0 reaches TOML_UNREACHABLE on the first and a debug assertion on the second when built with its
// checks; Debian's build (and evalsuite) must give clean errors naming the file.
TEST(TomlDepth, InputsThatTripTomlppAssertionsGiveCleanErrors) {
  EXPECT_NE(Message("x = 1\xc2\xa1").find("s.toml:1"), std::string::npos);
  EXPECT_NE(Message("[[\nx]]").find("s.toml"), std::string::npos);
}

}  // namespace
}  // namespace evalsuite::study
