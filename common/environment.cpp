#include "common/environment.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <thread>

#include "common/onednn_isa_cap.h"
#include "evalsuite_git_revision.h"  // EVALSUITE_GIT_REVISION, written at build time (cmake/GitRevision.cmake)

namespace evalsuite {

std::string HostName() {
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  return host;
}

nlohmann::json DescribeEnvironment() {
  nlohmann::json env;
  env["host"] = HostName();
  env["cores"] = std::thread::hardware_concurrency();
  utsname uts{};
  if (uname(&uts) == 0) env["os"] = std::string(uts.sysname) + " " + uts.release + " " + uts.machine;
  env["compiler"] = std::string("g++ ") + __VERSION__;
  env["evalsuite_version"] = EVALSUITE_VERSION;
  env["git_revision"] = EVALSUITE_GIT_REVISION;
  // CPU model, ISA flags, whether AMX executes, the oneDNN ISA cap in force (see onednn_isa_cap.h).
  env["cpu"] = PrepareOneDnnForThisMachine();
  return env;
}

std::string EvalsuiteVersion() { return EVALSUITE_VERSION; }
std::string EvalsuiteGitRevision() { return EVALSUITE_GIT_REVISION; }

std::string UtcNowIso8601() {
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string UtcIso8601Millis(double unix_ms) {
  const auto whole = static_cast<std::time_t>(std::floor(unix_ms / 1000));
  const int millis = static_cast<int>(unix_ms - static_cast<double>(whole) * 1000);
  std::tm tm{};
  gmtime_r(&whole, &tm);
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, std::clamp(millis, 0, 999));
  return buffer;
}

std::string UtcNowIso8601Millis() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return UtcIso8601Millis(static_cast<double>(std::chrono::duration_cast<std::chrono::milliseconds>(now).count()));
}

}  // namespace evalsuite
