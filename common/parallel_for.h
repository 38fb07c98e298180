// ParallelFor(count, jobs, body): body(i) for every i in [0, count) on up to `jobs` threads (0: one per hardware
// thread), the calling thread among them; returns when all are done. Items are handed out one at a time, so uneven
// items (a 40 MB log beside a 4 KB one) balance. `body` must not throw and writes only to item i's own slot: callers
// collect results in index order afterwards, so output never depends on the thread count.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace evalsuite {

template <typename Body>
void ParallelFor(std::size_t count, unsigned jobs, const Body& body) {
  if (jobs == 0) jobs = std::max(1U, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, count));
  if (jobs <= 1) {
    for (std::size_t i = 0; i < count; ++i) body(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) body(i);
  };
  std::vector<std::thread> threads;
  threads.reserve(jobs - 1);
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
}

}  // namespace evalsuite
