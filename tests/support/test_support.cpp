#include "tests/support/test_support.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

namespace evalsuite::testing {
namespace fs = std::filesystem;

std::optional<fs::path> SharedDataDir() {
  if (const char* env = std::getenv("EVALSUITE_SHARED_DATA"); env && fs::is_directory(env)) return fs::path(env);
#ifdef EVALSUITE_SOURCE_DIR
  fs::path candidate = fs::path(EVALSUITE_SOURCE_DIR) / ".." / "shared" / "data";
  if (fs::is_directory(candidate)) return fs::weakly_canonical(candidate);
#endif
  return std::nullopt;
}

fs::path SourceDir() {
#ifdef EVALSUITE_SOURCE_DIR
  return fs::path(EVALSUITE_SOURCE_DIR);
#else
  return fs::current_path();
#endif
}

TempDir::TempDir() {
  std::random_device device;  // test-only: unique folder names, not experiment seeds
  for (int attempt = 0; attempt < 100; ++attempt) {
    fs::path candidate = fs::temp_directory_path() / ("evalsuite-test-" + std::to_string(device()));
    if (fs::create_directory(candidate)) {
      path_ = candidate;
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary folder");
}

TempDir::~TempDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

namespace {
std::string DrainFd(int fd) {
  std::string data;
  char buffer[65536];
  ssize_t n;
  while ((n = read(fd, buffer, sizeof(buffer))) > 0) data.append(buffer, static_cast<size_t>(n));
  close(fd);
  return data;
}
}  // namespace

CommandResult RunCommand(const std::vector<std::string>& argv) {
  int out_pipe[2], err_pipe[2];
  if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid == 0) {
    int null_fd = open("/dev/null", O_RDONLY);
    dup2(null_fd, 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    close(out_pipe[0]);
    close(err_pipe[0]);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  CommandResult result;
  std::thread err_reader([&] { result.err = DrainFd(err_pipe[0]); });
  result.out = DrainFd(out_pipe[0]);
  err_reader.join();
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

CommandResult RunEvalsuite(const std::vector<std::string>& args) {
  std::vector<std::string> argv{EVALSUITE_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunCommand(argv);
}

pid_t SpawnEvalsuite(const std::vector<std::string>& args, const fs::path& out, const fs::path& err) {
  std::vector<std::string> argv{EVALSUITE_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargs;
  for (auto& a : argv) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, 1);
    dup2(e, 2);
    execv(cargs[0], cargs.data());
    _exit(127);
  }
  return pid;
}

ReapedAtScopeEnd::~ReapedAtScopeEnd() {
  // Still running (not reaped by the test, which makes waitpid fail with ECHILD): stopped here.
  if (pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

std::string ReadFile(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void WriteFile(const fs::path& file, const std::string& content) {
  if (file.has_parent_path()) fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary);
  out << content;
}

std::string MllogRecord(long time_ms, const std::string& key, const std::string& value, const std::string& metadata) {
  return ":::MLLOG {\"namespace\": \"\", \"time_ms\": " + std::to_string(time_ms) +
         ", \"event_type\": \"POINT_IN_TIME\", \"key\": \"" + key + "\", \"value\": " + value +
         ", \"metadata\": " + metadata + "}\n";
}

}  // namespace evalsuite::testing
