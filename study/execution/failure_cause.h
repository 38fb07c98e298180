// Why a run's process failed, said so that a user can act on it: the cause ("SIGILL", "command not found",
// "out of memory") and a hint (the setting or check that avoids it). A run that died before its first
// evaluation "did not run": it says nothing about the entry's training, so statistics leave it out, the report
// says "did not run here" instead of judging stability, and resume runs it again.
#pragma once

#include <optional>
#include <string>

#include "common/child_process.h"
#include "store/run_store.h"

namespace evalsuite::study {

struct FailureCause {
  std::string cause;         // "killed by signal 4 (SIGILL)", "exit status 127: command not found", ...
  std::string hint;          // what to do about it; may be empty
  bool environment = false;  // the machine, not the entry: no space left, out of memory, the OOM killer
};

// `oom_killed`: the kernel's OOM killer killed a process of this cgroup while the run ran (OomKillCount()).
FailureCause DescribeFailure(const ChildExit& exit, bool timed_out, const std::string& stderr_tail, bool oom_killed);

// The kernel's count of OOM kills in this process's cgroup (cgroup v2 memory.events, "oom_kill"); nullopt where
// it can't be read. Compared before and after a run to tell an OOM kill from another SIGKILL.
std::optional<long> OomKillCount();

// The one place an executor (local: run_execution.cpp, Slurm: slurm_executor.cpp) records a failed process: the run
// failed with `cause` as its error; whether it did not run (RunRecord::did_not_run: the store records it as
// analysis::RunStatus::kDidNotRun) and the words its error opens with are analysis::DecideProcessFailure's.
void MarkProcessFailed(store::RunRecord& record, const std::string& cause, bool environment);

using analysis::CauseOfNotRun;

// Free bytes for an unprivileged writer in the file system holding `path`; nullopt when it cannot be asked.
std::optional<unsigned long long> FreeBytes(const std::string& path);

}  // namespace evalsuite::study
