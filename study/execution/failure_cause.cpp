#include "study/execution/failure_cause.h"

#include <signal.h>
#include <sys/statvfs.h>

#include <fstream>
#include <sstream>
#include <utility>

#include "analysis/run_decisions.h"

namespace evalsuite::study {
namespace {

bool Contains(const std::string& text, const char* needle) { return text.find(needle) != std::string::npos; }

// /sys/fs/cgroup + the path /proc/self/cgroup gives for cgroup v2 ("0::/user.slice/...").
std::string OwnCgroupDir() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("0::", 0) == 0) return "/sys/fs/cgroup" + line.substr(3);
  }
  return "/sys/fs/cgroup";
}

}  // namespace

void MarkProcessFailed(store::RunRecord& record, const std::string& cause, bool environment) {
  analysis::ProcessFailure failure = analysis::DecideProcessFailure(!record.log.points.empty(), cause, environment);
  record.did_not_run = failure.did_not_run;
  record.log.status = analysis::EndedAs::kFailed;
  record.log.error = std::move(failure.error);
}

std::optional<unsigned long long> FreeBytes(const std::string& path) {
  struct statvfs info {};
  if (statvfs(path.c_str(), &info) != 0) return std::nullopt;
  return static_cast<unsigned long long>(info.f_bavail) * info.f_frsize;
}

std::optional<long> OomKillCount() {
  for (const std::string& dir : {OwnCgroupDir(), std::string("/sys/fs/cgroup")}) {
    std::ifstream in(dir + "/memory.events");
    std::string key;
    long value = 0;
    while (in >> key >> value) {
      if (key == "oom_kill") return value;
    }
  }
  return std::nullopt;
}

FailureCause DescribeFailure(const ChildExit& exit, bool timed_out, const std::string& stderr_tail, bool oom_killed) {
  FailureCause f;
  const bool no_space = Contains(stderr_tail, "No space left on device") || Contains(stderr_tail, "ENOSPC") ||
                        Contains(stderr_tail, "Disk quota exceeded");
  const bool no_memory = Contains(stderr_tail, "std::bad_alloc") || Contains(stderr_tail, "Cannot allocate memory") ||
                         Contains(stderr_tail, "MemoryError") || Contains(stderr_tail, "out of memory");
  if (timed_out) {
    f.cause = "timed out (killed)";
    f.hint = "raise the entry's timeout_seconds, or check that the command starts training at all";
  } else if (exit.signal) {
    f.cause = "killed by " + DescribeExit(exit);
    switch (*exit.signal) {
      case SIGILL:
        f.hint =
            "SIGILL: an instruction this CPU or VM does not execute (often AMX or AVX-512 code in oneDNN on a VM that "
            "lists instructions it cannot run). evalsuite caps oneDNN itself when its probe sees this (see the "
            "report's environment); for an external entry set ONEDNN_MAX_CPU_ISA=AVX512_CORE_BF16 (or AVX2) in its "
            "environment, or rebuild it for this CPU";
        break;
      case SIGKILL:
        if (oom_killed) {
          f.environment = true;
          f.cause += ", by the kernel's OOM killer";
          f.hint = "out of memory: lower the batch size, or run fewer runs at once (--jobs 1)";
        } else {
          f.hint = "killed from outside, or probably out of memory (the kernel log says which): try --jobs 1";
        }
        break;
      case SIGSEGV:
      case SIGBUS:
        f.hint = "a crash in the entry's own code or a library it loads: the stderr tail and a core dump tell where";
        break;
      case SIGABRT:
        f.hint = no_memory ? "out of memory: lower the batch size or run fewer runs at once"
                           : "the entry aborted (an assertion or an uncaught exception): see its stderr";
        break;
      default:
        break;
    }
  } else if (exit.exit_status) {
    const int status = *exit.exit_status;
    f.cause = DescribeExit(exit);
    if (status == 127) {
      f.cause += ": command not found";
      f.hint = "check the entry's command and PATH (the run's stderr names what was not found)";
    } else if (status == 126) {
      f.cause += ": command not executable";
      f.hint = "make the entry's script executable (chmod +x) or run it through its interpreter";
    } else if (no_space) {
      f.environment = true;
      f.cause += ": no space left on device";
      f.hint = "free disk space in the study's out folder; `study resume` runs it again";
    } else if (no_memory) {
      f.environment = true;
      f.cause += ": out of memory";
      f.hint = "lower the batch size, or run fewer runs at once (--jobs 1)";
    }
  } else {
    f.cause = "ended in an unknown way";
  }
  return f;
}

}  // namespace evalsuite::study
