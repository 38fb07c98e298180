// One child process per run, in its own process group: a small supervisor (the group leader, forked from the
// study) runs the command (stdin from /dev/null, stdout and stderr to files) and exits as the command did. When
// the study dies, even by kill -9, the supervisor's death signal makes it SIGKILL the whole group, so no process
// of a run (a pipeline, a launcher's workers) trains on. A timeout or an interrupt signals the whole group.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite {

struct ChildSpec {
  std::vector<std::string> argv;  // argv[0]: a path, or a name looked up in PATH
  std::filesystem::path working_dir;
  std::filesystem::path stdout_file;
  std::filesystem::path stderr_file;
  std::map<std::string, std::string> environment;  // added to (or replacing in) this process's environment
  std::vector<std::string> unset_environment;      // removed from it
  std::vector<int> cpu_affinity;  // the command runs on these CPUs only (sched_setaffinity); empty: inherited
};

// What the run's process tree used, from wait4() on the supervisor: the CPU times of every process of the run that
// was waited for (the supervisor waits for the command, the command for its own children), and the peak resident
// set of the largest single process among them (the kernel's ru_maxrss of reaped children).
struct ResourceUsage {
  double user_seconds = 0;
  double system_seconds = 0;
  long max_rss_kb = 0;
};

struct ChildExit {
  std::optional<int> exit_status;      // when it exited
  std::optional<int> signal;           // when a signal ended it
  std::optional<ResourceUsage> usage;  // when it was reaped here
};

class ChildProcess {
 public:
  // Throws ExternalError when the process cannot be started; an exec failure shows as exit status 127 with
  // the reason in the stderr file.
  explicit ChildProcess(const ChildSpec& spec);
  ~ChildProcess();  // kills and reaps a child still running
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  // Non-blocking: the exit once the child has ended (and been reaped), nullopt while it runs.
  std::optional<ChildExit> Poll();
  ChildExit Wait();
  // Sends the signal to the child's whole process group.
  void Signal(int signal);

 private:
  pid_t pid_ = -1;
  std::optional<ChildExit> exit_;
};

// "exit status 3", "signal 11 (SIGSEGV)"...
std::string DescribeExit(const ChildExit& exit);
// The last `max_lines` lines of a text file (at most the final `max_bytes`), "" when it can't be read.
std::string TailOfFile(const std::filesystem::path& file, int max_lines = 20, std::size_t max_bytes = 4096);

}  // namespace evalsuite
