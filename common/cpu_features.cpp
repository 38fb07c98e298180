#include "common/cpu_features.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace evalsuite {
namespace {

std::string Trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  const auto end = s.find_last_not_of(" \t\r");
  return s.substr(begin, end - begin + 1);
}

}  // namespace

CpuFacts ParseCpuInfo(const std::string& cpuinfo_text) {
  CpuFacts facts;
  std::istringstream in(cpuinfo_text);
  std::string line;
  bool seen_processor = false;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = Trim(line.substr(0, colon));
    const std::string value = Trim(line.substr(colon + 1));
    if (key == "processor") {
      if (seen_processor) break;  // the first processor's block is enough: flags are the same on every core
      seen_processor = true;
    } else if (key == "model name" && facts.model.empty()) {
      facts.model = value;
    } else if (key == "vendor_id" && facts.vendor.empty()) {
      facts.vendor = value;
    } else if (key == "cpu family" && facts.family < 0) {
      facts.family = std::atoi(value.c_str());
    } else if (key == "model" && facts.model_number < 0) {
      facts.model_number = std::atoi(value.c_str());
    } else if (key == "cpu MHz" && facts.mhz == 0) {
      facts.mhz = std::atof(value.c_str());
    } else if (key == "flags" && facts.flags.empty()) {
      std::istringstream words(value);
      std::string flag;
      while (words >> flag) facts.flags.insert(flag);
    }
  }
  return facts;
}

const CpuFacts& ThisCpu() {
  static const CpuFacts facts = [] {
    std::ifstream in("/proc/cpuinfo");
    std::stringstream text;
    text << in.rdbuf();
    return ParseCpuInfo(text.str());
  }();
  return facts;
}

nlohmann::json RelevantIsaFlags(const CpuFacts& cpu) {
  nlohmann::json flags = nlohmann::json::object();
  for (const char* flag : {"avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512_vnni", "avx512_bf16",
                           "avx512_fp16", "amx_tile", "amx_bf16", "amx_int8"}) {
    flags[flag] = cpu.Has(flag);
  }
  return flags;
}

}  // namespace evalsuite
