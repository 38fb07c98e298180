#include "common/slow_step_notice.h"

#include <fmt/format.h>

#include <algorithm>

namespace evalsuite {

SlowStepNotice::SlowStepNotice(std::ostream& out, std::string what, std::chrono::milliseconds quiet)
    : out_(out), what_(std::move(what)), quiet_(quiet), watcher_([this] { Watch(); }) {}

SlowStepNotice::~SlowStepNotice() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
    if (printed_) {
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      out_ << fmt::format("{}: done in {:.1f} s\n", what_, seconds) << std::flush;
    }
  }
  wake_.notify_all();
  watcher_.join();
}

void SlowStepNotice::Step(const std::string& step) {
  std::lock_guard<std::mutex> lock(mutex_);
  step_ = step;
  step_said_ = false;
  const auto now = std::chrono::steady_clock::now();
  // A burst of quick steps after the quiet time: one line a second is enough to show it moves.
  if (now - start_ >= quiet_ && now - last_print_ >= std::chrono::seconds(1)) PrintLocked(now);
}

void SlowStepNotice::PrintLocked(std::chrono::steady_clock::time_point now) {
  const double seconds = std::chrono::duration<double>(now - start_).count();
  out_ << fmt::format("{}: {:.0f} s: {}\n", what_, seconds, step_) << std::flush;
  printed_ = true;
  step_said_ = true;
  last_print_ = now;
}

void SlowStepNotice::Watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!done_) {
    wake_.wait_for(lock, std::min<std::chrono::milliseconds>(quiet_, std::chrono::milliseconds(250)));
    if (done_) break;
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < quiet_ || step_.empty()) continue;
    if (!step_said_ || now - last_print_ >= kRepeat) PrintLocked(now);
  }
}

}  // namespace evalsuite
