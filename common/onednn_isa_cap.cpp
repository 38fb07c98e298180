#include "common/onednn_isa_cap.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "common/cpu_features.h"
#include "common/json_access.h"

namespace evalsuite {
namespace {

constexpr const char* kOneDnnVariable = "ONEDNN_MAX_CPU_ISA";
constexpr const char* kDnnlVariable = "DNNL_MAX_CPU_ISA";  // the older name, still read by oneDNN 2.x

std::optional<std::string> Getenv(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

bool IsOffSwitch(const std::optional<std::string>& value) {
  if (!value) return false;
  std::string v = *value;
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  return v == "off" || v == "0" || v == "false" || v == "no";
}

}  // namespace

IsaCapDecision DecideOneDnnIsaCap(const std::vector<IsaLevel>& claimed,
                                  const std::function<ProbeOutcome(IsaLevel)>& probe,
                                  const std::optional<std::string>& user_setting, bool disabled) {
  if (user_setting) return {user_setting, "user", "set by the user before evalsuite started; left as it is"};
  if (disabled) return {std::nullopt, "disabled", std::string("turned off by ") + kIsaCapSwitchVariable};
  if (claimed.empty()) return {std::nullopt, "none", "no ISA level is known for this CPU"};
  const IsaLevel highest = claimed.back();
  const ProbeOutcome top = probe(highest);
  if (top.executes) {
    return {std::nullopt, "none", std::string("the highest listed level, ") + OneDnnIsaName(highest) + ", executes"};
  }
  for (auto it = claimed.rbegin() + 1; it != claimed.rend(); ++it) {
    if (probe(*it).executes) {
      return {std::string(OneDnnIsaName(*it)), "evalsuite",
              std::string("this CPU lists ") + OneDnnIsaName(highest) + " but its instructions fail here (" +
                  top.detail + "); oneDNN is capped at the best level that executes"};
    }
  }
  return {std::string(OneDnnIsaName(IsaLevel::kSse41)), "evalsuite",
          std::string("no listed vector level executes here (") + top.detail + "); oneDNN is capped at SSE41"};
}

const nlohmann::json& PrepareOneDnnForThisMachine() {
  static const nlohmann::json record = [] {
    const CpuFacts& cpu = ThisCpu();
    const std::vector<IsaLevel> claimed = ClaimedIsaLevels(cpu);
    // A test seam for the whole chain on any machine: levels named here (oneDNN names, or "top" for the highest
    // this CPU lists) are treated as raising SIGILL, as AMX does on the Sapphire Rapids VMs that need the cap.
    const std::string simulated = Getenv(kIsaProbeFailVariable).value_or("");
    auto simulated_failure = [&](IsaLevel level) {
      const std::string name = OneDnnIsaName(level);
      const bool top = level == claimed.back();
      size_t start = 0;
      while (start <= simulated.size() && !simulated.empty()) {
        const size_t comma = simulated.find(',', start);
        const std::string item =
            simulated.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item == name || (item == "top" && top)) return true;
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      return false;
    };
    std::map<IsaLevel, ProbeOutcome> probed;
    auto probe = [&](IsaLevel level) {
      auto it = probed.find(level);
      if (it == probed.end()) {
        ProbeOutcome outcome =
            simulated_failure(level)
                ? ProbeOutcome{false, std::string("SIGILL (simulated by ") + kIsaProbeFailVariable + ")"}
                : ProbeIsaLevel(level);
        it = probed.emplace(level, outcome).first;
      }
      return it->second;
    };
    std::optional<std::string> user = Getenv(kOneDnnVariable);
    if (!user) user = Getenv(kDnnlVariable);
    const std::optional<std::string> marker = Getenv(kIsaCapMarkerVariable);
    // A cap this process inherited from a parent evalsuite is evalsuite's decision, not the user's: decide
    // again (same machine, same answer) rather than record it as the user's.
    const bool inherited = user && marker && *marker == *user;
    if (inherited) user.reset();
    const IsaCapDecision decision =
        DecideOneDnnIsaCap(claimed, probe, user, IsOffSwitch(Getenv(kIsaCapSwitchVariable)));
    if (decision.source == "evalsuite" && decision.cap) {
      setenv(kOneDnnVariable, decision.cap->c_str(), 1);
      setenv(kDnnlVariable, decision.cap->c_str(), 1);
      setenv(kIsaCapMarkerVariable, decision.cap->c_str(), 1);
    } else if (inherited && decision.source != "evalsuite") {
      // The parent's cap does not hold here (switched off, or not needed): take it back.
      unsetenv(kOneDnnVariable);
      unsetenv(kDnnlVariable);
      unsetenv(kIsaCapMarkerVariable);
    }
    nlohmann::json out;
    out["model"] = cpu.model;
    out["vendor"] = cpu.vendor;
    out["isa_flags"] = RelevantIsaFlags(cpu);
    out["isa_listed"] = OneDnnIsaName(claimed.back());
    nlohmann::json probes = nlohmann::json::object();
    for (const auto& [level, outcome] : probed) probes[OneDnnIsaName(level)] = outcome.detail;
    out["isa_probes"] = probes;
    if (cpu.Has("amx_tile")) {
      out["amx_usable"] = probe(IsaLevel::kAvx512CoreAmx).executes;
    } else {
      out["amx_usable"] = false;
    }
    out["onednn_max_cpu_isa"] = {
        {"value", JsonOrNull(decision.cap)}, {"source", decision.source}, {"reason", decision.reason}};
    return out;
  }();
  return record;
}

}  // namespace evalsuite
