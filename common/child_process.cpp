#include "common/child_process.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>

#include "common/error.h"

extern char** environ;

namespace evalsuite {
namespace {

void WriteAll(int fd, const char* text) {
  std::size_t length = strlen(text);
  while (length > 0) {
    ssize_t n = write(fd, text, length);
    if (n <= 0) return;
    text += n;
    length -= static_cast<std::size_t>(n);
  }
}

// The supervisor's SIGHUP handler (the study died): SIGKILL to every process of the run's group, itself too.
void KillOwnProcessGroup(int) { kill(0, SIGKILL); }

ChildExit FromWaitStatus(int status, const rusage& usage) {
  ChildExit exit;
  if (WIFEXITED(status)) exit.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) exit.signal = WTERMSIG(status);
  ResourceUsage used;
  used.user_seconds = static_cast<double>(usage.ru_utime.tv_sec) + usage.ru_utime.tv_usec / 1e6;
  used.system_seconds = static_cast<double>(usage.ru_stime.tv_sec) + usage.ru_stime.tv_usec / 1e6;
  used.max_rss_kb = usage.ru_maxrss;
  exit.usage = used;
  return exit;
}

}  // namespace

ChildProcess::ChildProcess(const ChildSpec& spec) {
  if (spec.argv.empty()) throw Error(ErrorKind::kInternal, "command", "empty command");
  // Everything the child needs is prepared before fork: after it only async-signal-safe calls are allowed.
  std::vector<std::string> env_strings;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    std::string key = entry.substr(0, entry.find('='));
    if (spec.environment.count(key)) continue;
    if (std::find(spec.unset_environment.begin(), spec.unset_environment.end(), key) != spec.unset_environment.end()) {
      continue;
    }
    env_strings.push_back(entry);
  }
  for (const auto& [key, value] : spec.environment) env_strings.push_back(key + "=" + value);
  std::vector<char*> envp, argv;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = spec.argv;
  for (auto& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::string out_file = spec.stdout_file.string(), err_file = spec.stderr_file.string();
  std::string dir = spec.working_dir.string();
  std::string exec_failed = "evalsuite: cannot run '" + spec.argv[0] + "': ";
  std::string chdir_failed = "evalsuite: cannot enter " + dir + ": ";
  pid_t parent = getpid();
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (int cpu : spec.cpu_affinity) CPU_SET(cpu, &cpus);
  const bool pin = !spec.cpu_affinity.empty();

  pid_ = fork();
  if (pid_ < 0) throw ExternalError(spec.argv[0], std::string("cannot start a process: ") + strerror(errno));
  if (pid_ == 0) {
    // The supervisor: leader of the run's process group. It forks the command into the group and waits for it.
    // A death signal only reaches a process's direct child, so when the study dies (even by kill -9) the
    // supervisor gets SIGHUP and kills the whole group: every process of a pipeline or a launcher script,
    // not only the shell. Its own exit mirrors the command's (status or signal), which is what the study sees.
    setpgid(0, 0);
    signal(SIGHUP, KillOwnProcessGroup);
    prctl(PR_SET_PDEATHSIG, SIGHUP);
    if (getppid() != parent) KillOwnProcessGroup(SIGHUP);  // the study died between fork and prctl
    // Interrupts and timeouts are signalled to the whole group: they are for the command, which the
    // supervisor outlives so that it can report how the command ended.
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    const pid_t supervisor = getpid();
    const pid_t command = fork();
    if (command < 0) _exit(126);
    if (command == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != supervisor) _exit(137);
      // The command starts with default dispositions, not the study's nor the supervisor's.
      signal(SIGHUP, SIG_DFL);
      signal(SIGINT, SIG_DFL);
      signal(SIGTERM, SIG_DFL);
      signal(SIGPIPE, SIG_DFL);
      int in = open("/dev/null", O_RDONLY);
      int out = open(out_file.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      int err = open(err_file.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (in < 0 || out < 0 || err < 0) _exit(126);
      if (pin && sched_setaffinity(0, sizeof(cpus), &cpus) != 0) _exit(126);
      dup2(in, 0);
      dup2(out, 1);
      dup2(err, 2);
      if (!dir.empty() && chdir(dir.c_str()) != 0) {
        WriteAll(2, chdir_failed.c_str());
        WriteAll(2, strerror(errno));
        WriteAll(2, "\n");
        _exit(126);
      }
      execvpe(argv[0], argv.data(), envp.data());
      WriteAll(2, exec_failed.c_str());
      WriteAll(2, strerror(errno));
      WriteAll(2, "\n");
      _exit(127);
    }
    int status = 0;
    while (waitpid(command, &status, 0) < 0) {
      if (errno != EINTR) _exit(126);
    }
    if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
    const int ended_by = WTERMSIG(status);
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);  // a crash of the command must not dump the supervisor (a study copy)
    signal(ended_by, SIG_DFL);
    raise(ended_by);
    _exit(128 + ended_by);
  }
  setpgid(pid_, pid_);  // also from the parent, so a Signal() right after start reaches the group
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !exit_) {
    Signal(SIGKILL);
    Wait();
  }
}

std::optional<ChildExit> ChildProcess::Poll() {
  if (exit_) return exit_;
  int status = 0;
  rusage usage{};
  pid_t r = wait4(pid_, &status, WNOHANG, &usage);
  if (r == pid_) exit_ = FromWaitStatus(status, usage);
  return exit_;
}

ChildExit ChildProcess::Wait() {
  while (!exit_) {
    int status = 0;
    rusage usage{};
    pid_t r = wait4(pid_, &status, 0, &usage);
    if (r == pid_) {
      exit_ = FromWaitStatus(status, usage);
    } else if (r < 0 && errno != EINTR) {
      exit_ = ChildExit{};
    }
  }
  return *exit_;
}

void ChildProcess::Signal(int signal) {
  if (pid_ <= 0 || exit_) return;
  if (kill(-pid_, signal) != 0) kill(pid_, signal);
}

std::string DescribeExit(const ChildExit& exit) {
  if (exit.signal) {
    const char* name = sigabbrev_np(*exit.signal);
    std::string text = "signal " + std::to_string(*exit.signal) + (name ? std::string(" (SIG") + name + ")" : "");
    return text;
  }
  if (exit.exit_status) return "exit status " + std::to_string(*exit.exit_status);
  return "unknown end";
}

std::string TailOfFile(const std::filesystem::path& file, int max_lines, std::size_t max_bytes) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) return "";
  std::streamoff size = in.tellg();
  std::streamoff start =
      size > static_cast<std::streamoff>(max_bytes) ? size - static_cast<std::streamoff>(max_bytes) : 0;
  in.seekg(start);
  std::string text(static_cast<std::size_t>(size - start), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  int lines = 0;
  for (std::size_t i = text.size(); i-- > 0;) {
    if (text[i] == '\n' && ++lines == max_lines) return text.substr(i + 1);
  }
  if (start > 0) {
    std::size_t first_newline = text.find('\n');  // drop the partial first line
    if (first_newline != std::string::npos) return text.substr(first_newline + 1);
  }
  return text;
}

}  // namespace evalsuite
