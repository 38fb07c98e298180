// Keeps LibTorch's oneDNN off instruction sets that this machine lists but does not execute. Call
// PrepareOneDnnForThisMachine() before LibTorch's first convolution or matrix multiply (oneDNN reads
// ONEDNN_MAX_CPU_ISA once, at its first use); the environment variable it sets also reaches every child
// process, so external entries (a Python PyTorch script) get the same cap. A user's own setting always wins.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/isa_probe.h"

namespace evalsuite {

// Set to "off" (or "0", "false", "no") to keep evalsuite from capping oneDNN's ISA.
constexpr const char* kIsaCapSwitchVariable = "EVALSUITE_ONEDNN_ISA_CAP";
// Set beside the cap by evalsuite, so that a child evalsuite tells an inherited cap from the user's.
constexpr const char* kIsaCapMarkerVariable = "EVALSUITE_ONEDNN_ISA_CAP_SET";
// For tests on machines whose instructions all execute: ISA levels (oneDNN names, or "top") that the probe
// reports as raising SIGILL, so the whole chain (cap, record, children) can be exercised anywhere.
constexpr const char* kIsaProbeFailVariable = "EVALSUITE_ISA_PROBE_FAIL";

struct IsaCapDecision {
  std::optional<std::string> cap;  // the ONEDNN_MAX_CPU_ISA value to set or in force; none: no cap
  std::string source;              // "evalsuite", "user", "disabled" or "none"
  std::string reason;              // one sentence a user can read
};

// The decision, apart from any probing or environment: `claimed` are the levels the CPU lists (lowest first),
// `executes` runs a probe (called only as needed, highest claimed level first), `user_setting` is the
// ONEDNN_MAX_CPU_ISA or DNNL_MAX_CPU_ISA the user set, `disabled` the user's off switch.
IsaCapDecision DecideOneDnnIsaCap(const std::vector<IsaLevel>& claimed,
                                  const std::function<ProbeOutcome(IsaLevel)>& probe,
                                  const std::optional<std::string>& user_setting, bool disabled);

// Once per process: reads the user's settings, probes, sets ONEDNN_MAX_CPU_ISA and DNNL_MAX_CPU_ISA when a cap
// is needed, and returns the record for run headers and reports: CPU model, ISA flags, what the probes said,
// whether AMX is usable, and the cap in force with its source.
const nlohmann::json& PrepareOneDnnForThisMachine();

}  // namespace evalsuite
