#include "study/plans/study_plan.h"

#include <sched.h>

#include <algorithm>
#include <string>
#include <thread>

namespace evalsuite::study {

const PlannedEntry* StudyPlan::FindEntry(const std::string& entry_name) const {
  for (const auto& e : entries) {
    if (e.name == entry_name) return &e;
  }
  return nullptr;
}

const PlannedRun* StudyPlan::FindRun(const std::string& entry, int index) const {
  for (const auto& r : schedule) {
    if (r.entry == entry && r.index == index) return &r;
  }
  return nullptr;
}

int DefaultJobs(int cores) { return std::max(1, std::min(2, cores)); }

int UsableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

}  // namespace evalsuite::study
