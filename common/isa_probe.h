// Does an instruction-set level really execute here? Runs one instruction of the level in a child process and
// watches how the child ends. cpuid and /proc/cpuinfo are not enough: on some VMs (Sapphire Rapids guests)
// they list AMX and the kernel grants the AMX state, yet the first tile instruction raises SIGILL.
#pragma once

#include <string>
#include <vector>

#include "common/cpu_features.h"

namespace evalsuite {

// oneDNN's ISA levels that matter on x86 servers, lowest first; OneDnnIsaName gives ONEDNN_MAX_CPU_ISA's name.
enum class IsaLevel { kSse41, kAvx2, kAvx512Core, kAvx512CoreVnni, kAvx512CoreBf16, kAvx512CoreAmx };
const char* OneDnnIsaName(IsaLevel level);

// The levels /proc/cpuinfo claims, lowest first (kSse41 always, as the floor).
std::vector<IsaLevel> ClaimedIsaLevels(const CpuFacts& cpu);

struct ProbeOutcome {
  bool executes = false;
  std::string detail;  // "executes", "SIGILL", "arch_prctl(ARCH_REQ_XCOMP_PERM) refused", ...
};

// Runs the level's instructions (AMX: permission request, tile config, tilezero, tdpbf16ps) in a child
// process (one that shares this one's memory while this thread waits: nothing is copied). Never crashes the caller.
ProbeOutcome ProbeIsaLevel(IsaLevel level);
// For tests of the probing machinery: a child that executes `ud2`, which raises SIGILL on every x86 CPU.
ProbeOutcome ProbeUndefinedInstruction();

}  // namespace evalsuite
