// log_format = "regex" on what real training scripts print: PyTorch's ImageNet example, Keras's fit(), torchvision's
// reference train.py (clock times, an end line); values that do not parse are warnings naming file:line; hostile
// input (a catastrophically backtracking pattern, binary junk, a 10 MB line) is bounded and never crashes.
#include "runlog/regex_log.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "common/error.h"
#include "common/json_guard.h"
#include "tests/support/test_support.h"

namespace evalsuite::runlog {
namespace {

using testing::TempDir;

RegexLogOptions Options(std::vector<std::string> patterns) {
  RegexLogOptions options;
  options.patterns = std::move(patterns);
  return options;
}

bool AnyWarningHas(const RunLog& log, const std::string& text) {
  for (const std::string& w : log.warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string AllWarnings(const RunLog& log) {
  std::string out;
  for (const std::string& w : log.warnings) out += w + "\n";
  return out;
}

// pytorch/examples imagenet/main.py prints per-batch ProgressMeter lines ("Epoch: [e][ i/N]\tTime ...\tAcc@1 ...",
// "Test: [ i/N]...") and the validation summary " * Acc@1 75.200 Acc@5 92.300" (percent, 0-based epochs). It does
// not print a training time: the script adds one line per epoch (here "=> epoch 0 train time 1234.5 s").
TEST(RegexLogTest, PytorchImagenetExampleOutput) {
  RegexLogOptions options = Options({R"(^Epoch: \[(?<epoch>\d+)\])", R"(^=> epoch \d+ train time (?<time>[\d.]+) s)",
                                     R"(^ \* Acc@1 (?<accuracy>[\d.]+) )"});
  options.metric_unit = "percent";
  const std::string out =
      "=> creating model 'resnet50'\n"
      "Epoch: [0][   1/5005]\tTime  3.102 ( 3.102)\tData  2.051 ( 2.051)\tLoss 6.9310e+00 (6.9310e+00)\t"
      "Acc@1   0.00 (  0.00)\tAcc@5   0.39 (  0.39)\n"
      "Epoch: [0][5001/5005]\tTime  0.212 ( 0.246)\tData  0.001 ( 0.012)\tLoss 4.1102e+00 (5.0131e+00)\t"
      "Acc@1  21.88 ( 12.64)\tAcc@5  44.53 ( 30.31)\n"
      "=> epoch 0 train time 1234.5 s\n"
      "Test: [  1/196]\tTime  1.830 ( 1.830)\tLoss 3.5177e+00 (3.5177e+00)\tAcc@1  27.34 ( 27.34)\tAcc@5  56.64 ( "
      "56.64)\n"
      " * Acc@1 25.112 Acc@5 50.376\n"
      "Epoch: [1][   1/5005]\tTime  0.981 ( 0.981)\tData  0.770 ( 0.770)\tLoss 3.9870e+00 (3.9870e+00)\t"
      "Acc@1  24.22 ( 24.22)\tAcc@5  48.05 ( 48.05)\n"
      "=> epoch 1 train time 2469.25 s\n"
      " * Acc@1 38.020 Acc@5 64.994\n";
  RunLog log = RegexLogReader(options).Parse(out, "stdout.txt");
  ASSERT_EQ(log.points.size(), 2u) << AllWarnings(log);
  EXPECT_DOUBLE_EQ(log.points[0].epoch, 0);  // as printed
  EXPECT_DOUBLE_EQ(log.points[0].train_seconds, 1234.5);
  EXPECT_DOUBLE_EQ(log.points[0].metric, 0.25112);
  EXPECT_DOUBLE_EQ(log.points[1].epoch, 1);
  EXPECT_DOUBLE_EQ(log.points[1].train_seconds, 2469.25);
  EXPECT_DOUBLE_EQ(log.points[1].metric, 0.3802);
  EXPECT_EQ(log.status, analysis::EndedAs::kNoEnd);  // no end pattern: the process's exit decides
  EXPECT_DOUBLE_EQ(log.train_seconds, 2469.25);
  EXPECT_TRUE(log.warnings.empty()) << AllWarnings(log);
}

// Keras's fit(verbose=1) into a file: "Epoch 3/10", then the progress bar (redrawn with '\r', each redraw a line
// here) ending "- 3s 6ms/step - loss: ... - val_accuracy: 0.8813"; the seconds are the epoch's, so they are summed.
TEST(RegexLogTest, KerasFitOutputWithPerEpochSeconds) {
  RegexLogOptions options =
      Options({R"(^Epoch (?<epoch>\d+)/\d+)",
               R"(- (?<time>\d+)s \d+ms/step - loss: (?<loss>[\d.]+) .*val_accuracy: (?<accuracy>[\d.]+))"});
  options.time_kind = "increment";
  const std::string out =
      "Epoch 1/3\n"
      " 32/469 [>.............................] - ETA: 3s - loss: 1.2145 - accuracy: 0.5938\r"
      "256/469 [===============>..............] - ETA: 1s - loss: 0.7013 - accuracy: 0.7561\r"
      "469/469 [==============================] - 3s 6ms/step - loss: 0.5230 - accuracy: 0.8161 - val_loss: 0.4123 "
      "- val_accuracy: 0.8533\n"
      "Epoch 2/3\n"
      "469/469 [==============================] - 2s 5ms/step - loss: 0.3741 - accuracy: 0.8651 - val_loss: 0.3608 "
      "- val_accuracy: 0.8712\n"
      "Epoch 3/3\n"
      "469/469 [==============================] - 2s 5ms/step - loss: 0.3349 - accuracy: 0.8779 - val_loss: 0.3432 "
      "- val_accuracy: 0.8813\n";
  RunLog log = RegexLogReader(options).Parse(out, "stdout.txt");
  ASSERT_EQ(log.points.size(), 3u) << AllWarnings(log);
  const double times[] = {3, 5, 7}, metrics[] = {0.8533, 0.8712, 0.8813}, losses[] = {0.523, 0.3741, 0.3349};
  for (int i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(log.points[i].epoch, i + 1);
    EXPECT_DOUBLE_EQ(log.points[i].train_seconds, times[i]);
    EXPECT_DOUBLE_EQ(log.points[i].metric, metrics[i]);
    ASSERT_TRUE(log.points[i].train_loss);
    EXPECT_DOUBLE_EQ(*log.points[i].train_loss, losses[i]);
  }
  EXPECT_TRUE(log.warnings.empty()) << AllWarnings(log);
}

// torchvision's references/classification/train.py: MetricLogger's "Epoch: [0] Total time: 0:05:12" (the epoch's
// duration as str(timedelta)), evaluate()'s "Test:  Acc@1 ...", and at the end "Training time 1 day, 2:03:04". The
// metric comes before the next epoch's time here; lines after the end line are not read.
TEST(RegexLogTest, TorchvisionReferenceClockTimesAndEndLine) {
  RegexLogOptions options =
      Options({R"(^Epoch: \[(?<epoch>\d+)\] Total time: (?<time>[\d:.]+))", R"(^Test: +Acc@1 (?<accuracy>[\d.]+))"});
  options.time_kind = "increment";
  options.metric_unit = "percent";
  options.end_pattern = R"(^Training time (?<time>.+)$)";
  const std::string out =
      "Epoch: [0]  [   0/5005]  eta: 2:10:57  lr: 0.1  img/s: 41.2  loss: 6.9622 (6.9622)  acc1: 0.0000 (0.0000)\n"
      "Epoch: [0] Total time: 0:05:12\n"
      "Test:  Total time: 0:00:40\n"
      "Test:  Acc@1 10.250 Acc@5 27.870\n"
      "Epoch: [1] Total time: 0:05:10.5\n"
      "Test:  Acc@1 22.114 Acc@5 45.676\n"
      "Training time 1 day, 2:03:04\n"
      "Test:  Acc@1 99.000 Acc@5 99.000\n";
  RunLog log = RegexLogReader(options).Parse(out, "stdout.txt");
  ASSERT_EQ(log.points.size(), 2u) << AllWarnings(log);
  EXPECT_DOUBLE_EQ(log.points[0].epoch, 0);
  EXPECT_DOUBLE_EQ(log.points[0].train_seconds, 312);
  EXPECT_DOUBLE_EQ(log.points[0].metric, 0.1025);
  EXPECT_DOUBLE_EQ(log.points[1].train_seconds, 312 + 310.5);
  EXPECT_DOUBLE_EQ(log.points[1].metric, 0.22114);
  EXPECT_EQ(log.status, analysis::EndedAs::kNotReached);  // complete; the scheduler judges reached from the points
  EXPECT_DOUBLE_EQ(log.train_seconds, 86400 + 2 * 3600 + 3 * 60 + 4);
  EXPECT_TRUE(log.warnings.empty()) << AllWarnings(log);
}

TEST(RegexLogTest, TimeUnitsAndMetricWithoutBoundsAndEpochsCounted) {
  RegexLogOptions options = Options({R"(\[(?<time>[\d.]+) min\] val_loss=(?<metric>[-\d.e]+))"});
  options.time_unit = "minutes";
  RunLog log = RegexLogReader(options).Parse("[1.5 min] val_loss=2.25\n[3 min] val_loss=-1e-3\n", "out");
  ASSERT_EQ(log.points.size(), 2u) << AllWarnings(log);
  EXPECT_DOUBLE_EQ(log.points[0].epoch, 1);  // no epoch group: evaluations counted
  EXPECT_DOUBLE_EQ(log.points[1].epoch, 2);
  EXPECT_DOUBLE_EQ(log.points[0].train_seconds, 90);
  EXPECT_DOUBLE_EQ(log.points[0].metric, 2.25);  // (?<metric>) is not bounded to [0, 1]
  EXPECT_DOUBLE_EQ(log.points[1].metric, -0.001);
}

// Every kind of bad value is a warning "file:line: ..." and its line is skipped; the good lines around it count.
TEST(RegexLogTest, BadValuesAreWarningsNamingFileAndLine) {
  RegexLogOptions options = Options({R"(epoch (?<epoch>\S+) time (?<time>\S+) acc (?<accuracy>\S+))"});
  const std::string out =
      "epoch 1 time 10 acc 0.50\n"     // 1
      "epoch 2 time n/a acc 0.60\n"    // 2 time not a number
      "epoch 2 time 20 acc nan\n"      // 3 NaN
      "epoch 2 time 20 acc 61.5\n"     // 4 percent printed, fraction declared
      "epoch x time 20 acc 0.61\n"     // 5 epoch
      "epoch 2 time 5 acc 0.62\n"      // 6 time going back
      "epoch 2 time -1:00 acc 0.62\n"  // 7 not a clock
      "epoch 2 time 20 acc 0.70\n"     // 8 good
      "epoch 3 time 30 acc 0.8";       // 9 no line end: cut short, not read
  RunLog log = RegexLogReader(options).Parse(out, "run-001/stdout.txt");
  ASSERT_EQ(log.points.size(), 2u) << AllWarnings(log);
  EXPECT_DOUBLE_EQ(log.points[1].metric, 0.7);
  EXPECT_DOUBLE_EQ(log.points[1].train_seconds, 20);
  EXPECT_TRUE(AnyWarningHas(log, "run-001/stdout.txt:2: time \"n/a\" is not a number")) << AllWarnings(log);
  EXPECT_TRUE(AnyWarningHas(log, "run-001/stdout.txt:3: accuracy \"nan\" is not a number")) << AllWarnings(log);
  EXPECT_TRUE(AnyWarningHas(log,
                            "run-001/stdout.txt:4: accuracy \"61.5\" is not a fraction in [0, 1] (a "
                            "percentage? log_metric_unit = \"percent\")"))
      << AllWarnings(log);
  EXPECT_TRUE(AnyWarningHas(log, "run-001/stdout.txt:5: epoch \"x\"")) << AllWarnings(log);
  EXPECT_TRUE(AnyWarningHas(log, "run-001/stdout.txt:6: time \"5\" is below the previous one")) << AllWarnings(log);
  EXPECT_TRUE(AnyWarningHas(log, "run-001/stdout.txt:7: time \"-1:00\"")) << AllWarnings(log);
  EXPECT_TRUE(AnyWarningHas(log, "run-001/stdout.txt:9: the last line has no line end")) << AllWarnings(log);
  EXPECT_EQ(log.warnings.size(), 7u) << AllWarnings(log);
}

TEST(RegexLogTest, MetricWithoutALaterTimeIsNamedNotRecorded) {
  RegexLogOptions options = Options({R"(elapsed (?<time>[\d.]+))", R"(acc (?<accuracy>[\d.]+))"});
  // The time may come after the metric (line 2 completes line 1's value); line 3's value never gets one.
  RunLog log = RegexLogReader(options).Parse("acc 0.5\nelapsed 9\nacc 0.6\n", "out.txt");
  ASSERT_EQ(log.points.size(), 1u);
  EXPECT_DOUBLE_EQ(log.points[0].train_seconds, 9);
  EXPECT_DOUBLE_EQ(log.points[0].metric, 0.5);
  EXPECT_TRUE(AnyWarningHas(log, "out.txt:3: the value 0.6 has no time after it")) << AllWarnings(log);
}

// The problem CheckRegexLogOptions finds in these patterns: "field[index]: message".
std::string ProblemOf(std::vector<std::string> patterns) {
  std::optional<RegexLogProblem> p = CheckRegexLogOptions(Options(std::move(patterns)));
  if (!p) return "";
  return p->field + (p->index ? "[" + std::to_string(*p->index) + "]" : "") + ": " + p->message;
}

TEST(RegexLogTest, OptionsAreCheckedWithTheFieldAtFault) {
  auto problem = [](RegexLogOptions o) { return CheckRegexLogOptions(o); };
  std::string p = ProblemOf({R"(time (?<time>\d+))", R"(acc (?<accuracy>[\d.]+)"});
  EXPECT_EQ(p.rfind("log_regex[1]: does not compile at offset", 0), 0u) << p;
  EXPECT_NE(p.find("missing closing parenthesis"), std::string::npos) << p;
  p = ProblemOf({R"(acc (?<accuracy>[\d.]+))"});
  EXPECT_EQ(p.rfind("log_regex: no pattern has a named group (?<time>...)", 0), 0u) << p;
  p = ProblemOf({R"(time (?<time>\d+))"});
  EXPECT_EQ(p.rfind("log_regex: no pattern has a named group (?<accuracy>...) or (?<metric>...)", 0), 0u) << p;
  p = ProblemOf({R"(time (?<time>\d+) acc (?<acc>[\d.]+))"});
  EXPECT_EQ(p.rfind("log_regex[0]: named group (?<acc>...) is not one evalsuite reads", 0), 0u) << p;
  p = ProblemOf({R"((?<time>\d+) (?<accuracy>[\d.]+) (?<metric>[\d.]+))"});
  EXPECT_EQ(p.rfind("log_regex[0]: has both (?<accuracy>...) and (?<metric>...); use one", 0), 0u) << p;
  p = ProblemOf({R"((?<time>\d+) (?<accuracy>[\d.]+))", R"(f1 (?<metric>[\d.]+))"});
  EXPECT_EQ(p.rfind("log_regex[1]: uses (?<metric>...) where an earlier pattern uses (?<accuracy>...)", 0), 0u) << p;

  RegexLogOptions o = Options({R"((?<time>\d+) (?<accuracy>[\d.]+))"});
  EXPECT_FALSE(problem(o));
  o.time_unit = "fortnights";
  ASSERT_TRUE(problem(o));
  EXPECT_EQ(problem(o)->field, "log_time_unit");
  o.time_unit = "hours";
  o.metric_unit = "permille";
  EXPECT_EQ(problem(o)->field, "log_metric_unit");
  o.metric_unit = "percent";
  o.time_kind = "total";
  EXPECT_EQ(problem(o)->field, "log_time_kind");
  o.time_kind = "increment";
  o.end_pattern = "done (?<epoch>\\d+)";
  EXPECT_EQ(problem(o)->field, "log_end_regex");
  o.end_pattern = "done (";
  EXPECT_EQ(problem(o)->field, "log_end_regex");
  EXPECT_THROW(RegexLogReader{o}, Error);
}

// ^(\w+\s?)*$ on a long word with a bad last character tries every split of the word: PCRE2's limits stop each
// try, the line is named, and after kMaxRegexLimitHits lines the pattern is not tried again; the other pattern goes
// on reading.
TEST(RegexLogTest, CatastrophicBacktrackingIsBoundedAndReported) {
  RegexLogOptions options = Options({R"(^(\w+\s?)*$)", R"(t=(?<time>\d+) acc=(?<accuracy>[\d.]+))"});
  std::string out;
  const std::string evil = std::string(5000, 'a') + "!\n";
  for (int i = 0; i < kMaxRegexLimitHits + 1; ++i) out += evil;
  out += "t=10 acc=0.9\n";
  RunLog log = RegexLogReader(options).Parse(out, "out.txt");
  ASSERT_EQ(log.points.size(), 1u);
  EXPECT_DOUBLE_EQ(log.points[0].metric, 0.9);
  EXPECT_TRUE(AnyWarningHas(log, "out.txt:1: log_regex[0] gave up on this line (PCRE2 ")) << AllWarnings(log);
  EXPECT_TRUE(AnyWarningHas(log, "out.txt:10: log_regex[0] gave up") && AnyWarningHas(log, "not tried on later lines"))
      << AllWarnings(log);
  EXPECT_FALSE(AnyWarningHas(log, "out.txt:11:")) << AllWarnings(log);
  EXPECT_EQ(log.warnings.size(), static_cast<std::size_t>(kMaxRegexLimitHits));
}

// PCRE2's match limit restarts at every start position: "loss: 0.1 " 6,000 times with no val_accuracy makes each of
// the 6,000 starts scan the rest of the line (5.7 s in PCRE2 alone, measured). The step budget over the whole line
// stops it.
TEST(RegexLogTest, QuadraticScanOfALongLineIsBounded) {
  RegexLogOptions options =
      Options({R"(t=(?<time>\d+))", R"(loss: (?<loss>[\d.]+) .*val_accuracy: (?<accuracy>[\d.]+))"});
  std::string out = "t=5\n";
  for (int i = 0; i < 6000; ++i) out += "loss: 0.1 ";
  out += "\nloss: 0.2 - val_accuracy: 0.5\n";
  RunLog log = RegexLogReader(options).Parse(out, "out.txt");
  ASSERT_EQ(log.points.size(), 1u) << AllWarnings(log);
  EXPECT_DOUBLE_EQ(log.points[0].metric, 0.5);
  ASSERT_EQ(log.warnings.size(), 1u) << AllWarnings(log);
  EXPECT_NE(log.warnings[0].find("out.txt:2: log_regex[1] gave up on this line (PCRE2 step budget"), std::string::npos)
      << log.warnings[0];
}

// Bytes of a crashed binary's dump: NULs, invalid UTF-8, escape sequences, partial lines. Nothing matches by
// accident, nothing crashes, the warnings are valid UTF-8, and the good line after the junk counts.
TEST(RegexLogTest, BinaryJunkIsIgnored) {
  RegexLogOptions options = Options({R"(t=(?<time>\S+) acc=(?<accuracy>\S+))"});
  std::string junk;
  uint32_t state = 12345;
  for (int i = 0; i < 200000; ++i) {
    state = state * 1664525u + 1013904223u;
    junk.push_back(static_cast<char>(state >> 24));
  }
  junk += "\nt=\xff\xfe acc=0.5\n";  // invalid UTF-8 where a value should be: \S never matches it
  junk += "t=4 acc=0.\xc3\xa9\n";    // valid UTF-8, not a number: a warning quoting it
  junk += std::string("t=7 acc=0.75 \x1b[0m\0", 18) + "\n";
  RunLog log = RegexLogReader(options).Parse(junk, "out.txt");
  ASSERT_FALSE(log.points.empty());
  EXPECT_DOUBLE_EQ(log.points.back().train_seconds, 7);
  EXPECT_DOUBLE_EQ(log.points.back().metric, 0.75);
  EXPECT_TRUE(AnyWarningHas(log, "accuracy \"0.\xc3\xa9\" is not a number")) << AllWarnings(log);
  for (const std::string& w : log.warnings) EXPECT_TRUE(IsValidUtf8(w)) << w;
  EXPECT_LE(log.warnings.size(), kMaxRegexLogWarnings + 1);
}

// A 10 MB line (a dumped tensor, a progress bar without line ends) is skipped with its size, read in blocks from
// the file, and the evaluation on the next line counts.
TEST(RegexLogTest, TenMegabyteLineIsSkippedFromAFile) {
  TempDir dir;
  const auto file = dir / "stdout.txt";
  {
    std::ofstream out(file, std::ios::binary);
    out << "t=1 acc=0.25\n";
    out << "t=2 acc=0.5 " << std::string(10 * 1024 * 1024, 'x') << "\n";
    out << "t=3 acc=0.75\n";
  }
  RunLog log = RegexLogReader(Options({R"(t=(?<time>\d+) acc=(?<accuracy>[\d.]+))"})).Read(file);
  ASSERT_EQ(log.points.size(), 2u) << AllWarnings(log);
  EXPECT_DOUBLE_EQ(log.points[1].metric, 0.75);
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_NE(log.warnings[0].find(file.string() + ":2: a line of 10485772 bytes"), std::string::npos) << log.warnings[0];
  EXPECT_THROW(RegexLogReader(Options({R"(t=(?<time>\d+) acc=(?<accuracy>[\d.]+))"})).Read(dir / "absent.txt"), Error);
}

TEST(RegexLogTest, WarningsBeyondTheCapAreCounted) {
  std::string out;
  for (int i = 0; i < 250; ++i) out += "t=x acc=0.5\n";
  RunLog log = RegexLogReader(Options({R"(t=(?<time>\S+) acc=(?<accuracy>\S+))"})).Parse(out, "out.txt");
  ASSERT_EQ(log.warnings.size(), kMaxRegexLogWarnings + 1);
  EXPECT_EQ(log.warnings.back(), "out.txt: 150 more warnings not listed");
}

}  // namespace
}  // namespace evalsuite::runlog
