// Facts about the machine and build that go with every run and report: host, cores, OS, compiler,
// evalsuite version and git revision, and the CPU block (model, ISA flags, AMX, oneDNN ISA cap). Callers add what only
// they know (LibTorch, OpenCV versions, threads).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace evalsuite {

nlohmann::json DescribeEnvironment();
// This machine's host name (gethostname), "" when it has none.
std::string HostName();
// "0.1.0" and the short git revision the build was configured from ("unknown" outside a git checkout).
std::string EvalsuiteVersion();
std::string EvalsuiteGitRevision();
// UTC time now as ISO 8601 ("2026-11-21T23:46:04Z").
std::string UtcNowIso8601();
// A Unix time in milliseconds as UTC ISO 8601 with milliseconds ("2026-11-23T15:04:05.123Z"): labeling records
// decisions, which come faster than one per second.
std::string UtcIso8601Millis(double unix_ms);
std::string UtcNowIso8601Millis();

}  // namespace evalsuite
