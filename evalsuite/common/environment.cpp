#include "evalsuite/common/environment.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <thread>

#include "evalsuite/common/onednn_isa_cap.h"

namespace evalsuite {

nlohmann::json DescribeEnvironment() {
  nlohmann::json env;
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  env["host"] = host;
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

}  // namespace evalsuite
