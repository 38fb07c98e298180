#include "tests/support/open_at_once.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "tests/support/test_support.h"

namespace evalsuite::testing {

std::vector<std::string> ErrorsOpeningAtOnce(int threads, int rounds,
                                             const std::function<void(const std::filesystem::path&)>& open) {
  TempDir dir;
  std::vector<std::string> errors;
  std::mutex mutex;
  for (int round = 0; round < rounds; ++round) {
    const auto file = dir.path() / ("round-" + std::to_string(round)) / "shared.db";
    std::filesystem::create_directories(file.parent_path());
    std::atomic<int> ready{0};
    std::vector<std::thread> openers;
    for (int t = 0; t < threads; ++t) {
      openers.emplace_back([&] {
        ++ready;
        while (ready.load() < threads) std::this_thread::yield();  // all start together
        try {
          open(file);
        } catch (const std::exception& e) {
          std::lock_guard<std::mutex> lock(mutex);
          errors.push_back(e.what());
        }
      });
    }
    for (auto& opener : openers) opener.join();
  }
  return errors;
}

}  // namespace evalsuite::testing
