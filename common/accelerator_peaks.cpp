#include "common/accelerator_peaks.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

namespace evalsuite {
namespace {

constexpr double kTera = 1e12;
constexpr double kGiga = 1e9;

// One device variant: dense peaks per precision (0 = the device has no such mode) and its memory bandwidth.
struct Row {
  const char* device;
  double fp32, tf32, bf16, fp16, fp8;  // TFLOP/s
  double bandwidth_gb;                 // GB/s
  const char* source;
};

// Datasheet figures as printed (dense; where a datasheet prints only "with sparsity" figures, half of them, as its
// footnote says).
//   V100: "NVIDIA Tesla V100 GPU Accelerator" datasheet: SXM2 15.7 FP32 / 125 tensor (FP16) TFLOPS, PCIe 14 / 112,
//         HBM2 900 GB/s. No TF32 or BF16 mode.
//   A100: "NVIDIA A100 Tensor Core GPU" datasheet: FP32 19.5, TF32 156, BF16 and FP16 312 TFLOPS (dense);
//         bandwidth 40GB PCIe 1,555, 80GB PCIe 1,935, 40GB SXM 1,555, 80GB SXM 2,039 GB/s.
//   H100: "NVIDIA H100 Tensor Core GPU" datasheet: SXM FP32 67, TF32 989*, BF16/FP16 1,979*, FP8 3,958* TFLOPS,
//         3.35 TB/s; PCIe FP32 51, TF32 756*, BF16/FP16 1,513*, FP8 3,026*, 2 TB/s (* with sparsity: dense is half).
//   T4:   "NVIDIA T4 Tensor Core GPU" datasheet: FP32 8.1, mixed FP16/FP32 65 TFLOPS, 320 GB/s.
//   TPU:  Google Cloud TPU documentation (cloud.google.com/tpu/docs/v3, /v4, "Key specifications"): per chip
//         v3 123 TFLOPS bf16 and 900 GBps, v4 275 TFLOPS bf16 and 1,200 GBps HBM (fp32 matmuls are multi-pass bf16).
//         TPU v2 is left out: its page no longer prints per-chip figures, and a figure not checked against its
//         source does not belong here (declare `peak_flops` for it).
const std::vector<Row>& Rows() {
  static const std::vector<Row> kRows = {
      {"NVIDIA V100 SXM2", 15.7, 0, 0, 125, 0, 900, "NVIDIA Tesla V100 datasheet"},
      {"NVIDIA V100 PCIe", 14, 0, 0, 112, 0, 900, "NVIDIA Tesla V100 datasheet"},
      {"NVIDIA A100 SXM4 40GB", 19.5, 156, 312, 312, 0, 1555, "NVIDIA A100 datasheet"},
      {"NVIDIA A100 SXM4 80GB", 19.5, 156, 312, 312, 0, 2039, "NVIDIA A100 datasheet"},
      {"NVIDIA A100 PCIe 40GB", 19.5, 156, 312, 312, 0, 1555, "NVIDIA A100 datasheet"},
      {"NVIDIA A100 PCIe 80GB", 19.5, 156, 312, 312, 0, 1935, "NVIDIA A100 datasheet"},
      {"NVIDIA H100 SXM5", 67, 494.5, 989.5, 989.5, 1979, 3350,
       "NVIDIA H100 datasheet (dense: half of the sparse figures)"},
      {"NVIDIA H100 PCIe", 51, 378, 756.5, 756.5, 1513, 2000,
       "NVIDIA H100 datasheet (dense: half of the sparse figures)"},
      {"NVIDIA T4", 8.1, 0, 0, 65, 0, 320, "NVIDIA T4 datasheet"},
      {"Google TPU v3", 0, 0, 123, 0, 0, 900, "Google Cloud TPU v3 documentation"},
      {"Google TPU v4", 0, 0, 275, 0, 0, 1200, "Google Cloud TPU v4 documentation"},
  };
  return kRows;
}

// Lower-case alphanumeric tokens: "NVIDIA A100-SXM4-80GB" -> {nvidia, a100, sxm4, 80gb}.
std::set<std::string> Tokens(std::string_view text) {
  std::set<std::string> tokens;
  std::string token;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      token += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!token.empty()) {
      tokens.insert(token);
      token.clear();
    }
  }
  if (!token.empty()) tokens.insert(token);
  return tokens;
}

bool HasPrefix(const std::set<std::string>& tokens, std::string_view prefix) {
  return std::any_of(tokens.begin(), tokens.end(), [&](const std::string& t) { return t.rfind(prefix, 0) == 0; });
}

// The row a device string names, or null. The variant must be named where variants differ (form factor, memory):
// "A100" alone could be any of four bandwidths.
const Row* FindRow(std::string_view device) {
  const std::set<std::string> t = Tokens(device);
  auto row = [](std::string_view name) -> const Row* {
    for (const Row& r : Rows()) {
      if (name == r.device) return &r;
    }
    return nullptr;
  };
  const bool sxm = HasPrefix(t, "sxm"), pcie = HasPrefix(t, "pcie");
  if (t.count("v100") != 0) return sxm ? row("NVIDIA V100 SXM2") : pcie ? row("NVIDIA V100 PCIe") : nullptr;
  if (t.count("a100") != 0) {
    const bool gb80 = t.count("80gb") != 0, gb40 = t.count("40gb") != 0;
    if (sxm && gb80) return row("NVIDIA A100 SXM4 80GB");
    if (sxm && gb40) return row("NVIDIA A100 SXM4 40GB");
    if (pcie && gb80) return row("NVIDIA A100 PCIe 80GB");
    if (pcie && gb40) return row("NVIDIA A100 PCIe 40GB");
    return nullptr;
  }
  // torch.cuda.get_device_name() calls the SXM part "NVIDIA H100 80GB HBM3".
  if (t.count("h100") != 0) {
    if (pcie) return row("NVIDIA H100 PCIe");
    return sxm || t.count("hbm3") != 0 ? row("NVIDIA H100 SXM5") : nullptr;
  }
  if (t.count("t4") != 0 || t.count("teslat4") != 0) return row("NVIDIA T4");
  const bool tpu = t.count("tpu") != 0;
  for (const char* version : {"v3", "v4"}) {
    if ((tpu && HasPrefix(t, version)) || t.count(std::string("tpu") + version) != 0) {
      return row(std::string("Google TPU ") + version);
    }
  }
  return nullptr;
}

}  // namespace

bool IsKnownPrecision(std::string_view precision) {
  return precision == "fp32" || precision == "tf32" || precision == "bf16" || precision == "fp16" || precision == "fp8";
}

std::optional<AcceleratorPeak> LookUpAcceleratorPeak(std::string_view device, std::string_view precision) {
  const Row* row = FindRow(device);
  if (row == nullptr) return std::nullopt;
  const double tera = precision == "fp32"   ? row->fp32
                      : precision == "tf32" ? row->tf32
                      : precision == "bf16" ? row->bf16
                      : precision == "fp16" ? row->fp16
                      : precision == "fp8"  ? row->fp8
                                            : 0;
  if (!(tera > 0)) return std::nullopt;
  return AcceleratorPeak{row->device, std::string(precision), tera * kTera, row->bandwidth_gb * kGiga, row->source};
}

}  // namespace evalsuite
