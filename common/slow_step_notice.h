// A progress line for work that is usually quick: nothing is printed unless the work has taken more than a couple
// of seconds; then "<what>: <seconds> s: <step>" goes to the stream (stderr) at each new step and, while one step
// lasts, every few seconds, and the destructor says how long it took in all. Thread-safe; a background thread
// keeps time, so a single long step (loading 10,000 runs) is reported too.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace evalsuite {

class SlowStepNotice {
 public:
  static constexpr std::chrono::milliseconds kQuiet{2000};   // said nothing before this
  static constexpr std::chrono::milliseconds kRepeat{3000};  // at most one line this often while a step lasts

  // `quiet`: how long to say nothing (tests shorten it).
  SlowStepNotice(std::ostream& out, std::string what, std::chrono::milliseconds quiet = kQuiet);
  ~SlowStepNotice();
  SlowStepNotice(const SlowStepNotice&) = delete;
  SlowStepNotice& operator=(const SlowStepNotice&) = delete;

  void Step(const std::string& step);

 private:
  void PrintLocked(std::chrono::steady_clock::time_point now);
  void Watch();

  std::ostream& out_;
  const std::string what_;
  const std::chrono::milliseconds quiet_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string step_;
  bool step_said_ = true;
  bool printed_ = false;
  bool done_ = false;
  std::chrono::steady_clock::time_point last_print_{};
  std::thread watcher_;
};

}  // namespace evalsuite
