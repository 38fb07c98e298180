#include "study/execution/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "study/execution/failure_cause.h"

namespace evalsuite::study {
namespace {

using Clock = std::chrono::steady_clock;

std::string Fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*f", digits, value);
  return buffer;
}

std::string DescribeRecord(const store::RunRecord& record, double wall_seconds) {
  std::string text = record.entry + " #" + std::to_string(record.run_index) + " (seed " +
                     std::to_string(record.seeds.run.value_or(0)) + "): " + runlog::LogEndName(record.log.status);
  if (store::DidNotRun(record)) {
    // Said first: a run that never trained is not a training result (the error carries the cause and a hint).
    std::string label;
    const std::string cause = CauseOfNotRun(record.log.error, &label);
    text = record.entry + " #" + std::to_string(record.run_index) + " (seed " +
           std::to_string(record.seeds.run.value_or(0)) + "): " + label + " - " + cause +
           " (not counted; study resume runs it again)";
  } else if (record.log.status == analysis::EndedAs::kFailed) {
    text += " - " + record.log.error;
  } else {
    text += ", " + std::to_string(record.log.points.size()) + " evaluations";
    if (!record.log.points.empty()) text += ", last metric " + Fixed(record.log.points.back().metric, 4);
  }
  text += ", " + Fixed(wall_seconds, 1) + " s";
  return text;
}

// The line both renderings open a study with.
void WriteStudyStartLine(std::ostream& out, const std::string& study, int total, int done, int jobs, int threads) {
  out << "study " << study << ": " << total - done << " of " << total << " runs to do, " << jobs << " at once, "
      << threads << " thread(s) each" << std::endl;
}

void WriteAnsweredLine(std::ostream& out, const std::string& study, int total, int done) {
  out << "study " << study << ": finished: its sequential stopping rule answered after " << done << " of " << total
      << " planned runs, so no run is left to do (the answer follows)" << std::endl;
}

// Counts and times shared by both renderings.
class Tally {
 public:
  void Start(int total, int done) {
    total_ = total;
    done_ = done;
    start_ = Clock::now();
  }
  void Finished() {
    ++done_;
    ++finished_here_;
  }
  double Elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  std::string Counts() const { return std::to_string(done_) + "/" + std::to_string(total_); }
  std::string Remaining() const {
    if (finished_here_ == 0) return "remaining unknown";
    double per_run = Elapsed() / finished_here_;
    return "~" + FormatDuration(per_run * (total_ - done_)) + " left";
  }

 private:
  int total_ = 0, done_ = 0, finished_here_ = 0;
  Clock::time_point start_;
};

class PlainProgress : public ProgressReporter {
 public:
  explicit PlainProgress(std::ostream& out) : out_(out) {}
  void StudyStarted(const std::string& study, int total, int done, int jobs, int threads) override {
    tally_.Start(total, done);
    WriteStudyStartLine(out_, study, total, done, jobs, threads);
  }
  void StudyAlreadyAnswered(const std::string& study, int total, int done) override {
    WriteAnsweredLine(out_, study, total, done);
  }
  void RunStarted(const RunningRunView& run) override {
    out_ << "[" << tally_.Counts() << "] start " << run.entry << " #" << run.index << " (seed " << run.seed << ")"
         << std::endl;
  }
  void Update(const std::vector<RunningRunView>&) override {}
  void RunFinished(const store::RunRecord& record, double wall_seconds) override {
    tally_.Finished();
    out_ << "[" << tally_.Counts() << "] " << DescribeRecord(record, wall_seconds) << "; "
         << FormatDuration(tally_.Elapsed()) << " elapsed, " << tally_.Remaining() << std::endl;
  }
  void StudyFinished() override {}

 private:
  std::ostream& out_;
  Tally tally_;
};

class TerminalProgress : public ProgressReporter {
 public:
  explicit TerminalProgress(std::ostream& out) : out_(out) {}
  void StudyStarted(const std::string& study, int total, int done, int jobs, int threads) override {
    tally_.Start(total, done);
    WriteStudyStartLine(out_, study, total, done, jobs, threads);
  }
  void StudyAlreadyAnswered(const std::string& study, int total, int done) override {
    WriteAnsweredLine(out_, study, total, done);
  }
  void RunStarted(const RunningRunView& run) override { running_.push_back(run); }
  void Update(const std::vector<RunningRunView>& running) override {
    running_ = running;
    Draw();
  }
  void RunFinished(const store::RunRecord& record, double wall_seconds) override {
    tally_.Finished();
    running_.erase(
        std::remove_if(running_.begin(), running_.end(),
                       [&](const RunningRunView& r) { return r.entry == record.entry && r.index == record.run_index; }),
        running_.end());
    out_ << "\r\033[K" << DescribeRecord(record, wall_seconds) << std::endl;
    Draw();
  }
  void StudyFinished() override { out_ << "\r\033[K" << std::flush; }

 private:
  void Draw() {
    std::string line =
        "[" + tally_.Counts() + "] " + FormatDuration(tally_.Elapsed()) + " elapsed, " + tally_.Remaining();
    for (const auto& run : running_) {
      line += " | " + run.entry + " #" + std::to_string(run.index) + " seed " + std::to_string(run.seed);
      if (run.epoch) {
        line += " epoch " + runlog::FormatEpoch(*run.epoch);
        if (run.epochs_budget > 0) line += "/" + std::to_string(run.epochs_budget);
        if (run.metric) line += " (" + Fixed(*run.metric, 3) + ")";
      } else {
        line += " starting";
      }
    }
    winsize size{};
    std::size_t width = ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 10 ? size.ws_col : 120;
    if (line.size() >= width) line = line.substr(0, width - 2) + "~";
    out_ << "\r\033[K" << line << std::flush;
  }

  std::ostream& out_;
  Tally tally_;
  std::vector<RunningRunView> running_;
};

class SilentProgress : public ProgressReporter {
 public:
  void StudyStarted(const std::string&, int, int, int, int) override {}
  void RunStarted(const RunningRunView&) override {}
  void Update(const std::vector<RunningRunView>&) override {}
  void RunFinished(const store::RunRecord& /*record*/, double /*wall_seconds*/) override {}
  void StudyFinished() override {}
};

}  // namespace

std::string FormatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
  long total = std::lround(seconds);
  char buffer[32];
  if (total >= 3600) {
    std::snprintf(buffer, sizeof(buffer), "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  } else {
    std::snprintf(buffer, sizeof(buffer), "%ld:%02ld", total / 60, total % 60);
  }
  return buffer;
}

std::unique_ptr<ProgressReporter> MakeProgressReporter(std::ostream& out, bool terminal) {
  if (terminal) return std::make_unique<TerminalProgress>(out);
  return std::make_unique<PlainProgress>(out);
}

std::unique_ptr<ProgressReporter> MakeSilentProgress() { return std::make_unique<SilentProgress>(); }

}  // namespace evalsuite::study
