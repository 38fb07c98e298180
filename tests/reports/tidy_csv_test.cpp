// Tidy CSV: RFC 4180 quoting, one row per attempt with the analysis layer's status, counted flag and TTA, and one row
// per evaluation.
#include "reports/tidy_csv.h"

#include <gtest/gtest.h>

namespace evalsuite::reports {
namespace {

TEST(TidyCsvTest, QuotesOnlyWhatNeedsQuoting) {
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(CsvField(""), "");
}

TEST(TidyCsvTest, OneRowPerAttemptWithItsCountedFlagAndTta) {
  analysis::Entry entry;
  entry.name = "fast, v2";  // a comma in a name stays one field
  entry.threshold = 0.8;
  entry.extra["source"] = "/logs/fast";
  analysis::Run interrupted;
  interrupted.index = 0;
  interrupted.status = analysis::RunStatus::kInterrupted;
  interrupted.points = {{1, 0.5}};
  interrupted.epochs = {1};
  analysis::Run reached;
  reached.index = 0;
  reached.attempt = 1;
  reached.status = analysis::RunStatus::kReached;
  reached.seeds.run = 42;
  reached.points = {{1, 0.5}, {2, 0.85}, {3, 0.9}};
  reached.epochs = {0.5, 1, 1.5};
  reached.time_spent = 3.5;
  reached.origin = "/runs/fast/run-000";
  entry.runs = {interrupted, reached};
  TidyStudy study{"s", "study", {entry}, 1};
  const std::string runs = RunsCsv({study});
  EXPECT_NE(runs.find("s,study,\"fast, v2\",study,val_top1,seconds,0.8,0,0,incomplete,false,,,false,,1,1,0.5,,"
                      "/logs/fast\n"),
            std::string::npos)
      << runs;
  EXPECT_NE(runs.find("s,study,\"fast, v2\",study,val_top1,seconds,0.8,0,1,reached,true,42,2,true,1,3.5,3,0.9,"
                      "/runs/fast/run-000,/logs/fast\n"),
            std::string::npos)
      << runs;
  const std::string evaluations = EvaluationsCsv({study});
  EXPECT_EQ(evaluations,
            "study,entry,run_index,attempt,evaluation,epoch,time,metric\n"
            "s,\"fast, v2\",0,0,0,1,1,0.5\n"
            "s,\"fast, v2\",0,1,0,0.5,1,0.5\n"
            "s,\"fast, v2\",0,1,1,1,2,0.85\n"
            "s,\"fast, v2\",0,1,2,1.5,3,0.9\n");
}

}  // namespace
}  // namespace evalsuite::reports
