// What the CPU says it is: model name and the instruction-set flags that decide which kernels LibTorch's
// oneDNN picks (AVX-512, AVX-512 BF16, AMX). Read from /proc/cpuinfo, which is what the kernel and a VM
// advertise; whether the instructions really execute is isa_probe.h's job, not this file's.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace evalsuite {

struct CpuFacts {
  std::string model;            // "Intel(R) Xeon(R) Processor", "AMD EPYC 7B13", "" when unknown
  std::string vendor;           // "GenuineIntel", "AuthenticAMD"
  std::set<std::string> flags;  // every flag of the first processor in /proc/cpuinfo
  int family = -1;              // "cpu family" (AMD 25 = Zen 3/4, 26 = Zen 5); -1 when unknown
  int model_number = -1;        // "model"
  double mhz = 0;               // "cpu MHz" as the kernel reports it (nominal/TSC under a VM); 0 when unknown

  bool Has(const std::string& flag) const { return flags.count(flag) > 0; }
};

// Parses the text of /proc/cpuinfo (the first processor block); empty facts for empty text.
CpuFacts ParseCpuInfo(const std::string& cpuinfo_text);
// This machine's facts (read once per process).
const CpuFacts& ThisCpu();

// The flags that matter for the kernels evalsuite runs, as {"avx2": true, "avx512f": ..., "amx_tile": ...}.
nlohmann::json RelevantIsaFlags(const CpuFacts& cpu);

}  // namespace evalsuite
