// The device table external entries fall back on (common/accelerator_peaks.h): device strings as
// torch.cuda.get_device_name() and people write them, dense peaks per precision, and no guess for a device or
// variant it does not know.
#include "common/accelerator_peaks.h"

#include <gtest/gtest.h>

namespace evalsuite {
namespace {

TEST(AcceleratorPeaksTest, LooksUpDatasheetFiguresPerPrecision) {
  // A100 datasheet: FP32 19.5, TF32 156, BF16 312 TFLOPS dense; the SXM4 80GB's HBM2e 2,039 GB/s.
  auto a100 = LookUpAcceleratorPeak("NVIDIA A100-SXM4-80GB", "bf16");
  ASSERT_TRUE(a100.has_value());
  EXPECT_DOUBLE_EQ(a100->peak_flops, 312e12);
  EXPECT_DOUBLE_EQ(a100->bandwidth, 2039e9);
  EXPECT_EQ(a100->source, "NVIDIA A100 datasheet");
  EXPECT_DOUBLE_EQ(LookUpAcceleratorPeak("NVIDIA A100-SXM4-80GB", "tf32")->peak_flops, 156e12);
  EXPECT_DOUBLE_EQ(LookUpAcceleratorPeak("a100 pcie 40gb", "fp32")->peak_flops, 19.5e12);
  EXPECT_DOUBLE_EQ(LookUpAcceleratorPeak("NVIDIA A100 80GB PCIe", "bf16")->bandwidth, 1935e9);
  // V100: 125 TFLOPS on its FP16 tensor cores (SXM2), no BF16 at all.
  EXPECT_DOUBLE_EQ(LookUpAcceleratorPeak("Tesla V100-SXM2-16GB", "fp16")->peak_flops, 125e12);
  EXPECT_FALSE(LookUpAcceleratorPeak("Tesla V100-SXM2-16GB", "bf16").has_value());
  // H100 SXM ("NVIDIA H100 80GB HBM3" to PyTorch): 1,979 TFLOPS BF16 with sparsity, 989.5 dense.
  EXPECT_DOUBLE_EQ(LookUpAcceleratorPeak("NVIDIA H100 80GB HBM3", "bf16")->peak_flops, 989.5e12);
  EXPECT_DOUBLE_EQ(LookUpAcceleratorPeak("NVIDIA H100 PCIe", "fp8")->peak_flops, 1513e12);
  // TPU v3: 123 TFLOPS bf16 and 900 GB/s per chip.
  auto tpu = LookUpAcceleratorPeak("TPU v3-8", "bf16");
  ASSERT_TRUE(tpu.has_value());
  EXPECT_DOUBLE_EQ(tpu->peak_flops, 123e12);
  EXPECT_DOUBLE_EQ(tpu->bandwidth, 900e9);
  // TPU v2 has no row (no per-chip figure in its documentation to check against): no peak rather than a guess.
  EXPECT_FALSE(LookUpAcceleratorPeak("TPU v2-8", "bf16").has_value());
}

TEST(AcceleratorPeaksTest, NoGuessForUnknownDevicesVariantsOrPrecisions) {
  EXPECT_FALSE(LookUpAcceleratorPeak("A100", "bf16").has_value());  // which of four bandwidths?
  EXPECT_FALSE(LookUpAcceleratorPeak("Graphcore IPU", "fp16").has_value());
  EXPECT_FALSE(LookUpAcceleratorPeak("NVIDIA A100-SXM4-80GB", "").has_value());
  EXPECT_FALSE(LookUpAcceleratorPeak("NVIDIA A100-SXM4-80GB", "int4").has_value());
  EXPECT_TRUE(IsKnownPrecision("tf32"));
  EXPECT_FALSE(IsKnownPrecision("fp64"));
}

}  // namespace
}  // namespace evalsuite
