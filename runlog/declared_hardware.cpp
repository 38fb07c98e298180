#include "runlog/declared_hardware.h"

#include <fmt/format.h>

#include <cmath>

#include "common/accelerator_peaks.h"

namespace evalsuite::runlog {
namespace {

using nlohmann::json;

// Upper bounds far beyond any real value, so a unit slip (TFLOP/s written as FLOP/s x 1e12 twice) is caught:
// a 405B-parameter model on 8,192 tokens is 2e16 FLOPs per sample; the largest systems reach about 1e19 FLOP/s.
constexpr double kMaxFlopsPerSample = 1e18;
constexpr double kMaxBytesPerSample = 1e16;
constexpr double kMaxSamplesPerEpoch = 1e13;
constexpr double kMaxPeakFlops = 1e18;      // one device
constexpr double kMaxPeakBandwidth = 1e15;  // one device, bytes/s
constexpr double kMaxDevices = 1e6;

class Reader {
 public:
  Reader(const json& header, const std::string& where, std::vector<std::string>* warnings)
      : header_(header), where_(where), warnings_(warnings) {}

  // A finite number in (0, max]; absent gives nullopt silently, anything else with a warning.
  std::optional<double> Positive(const char* key, double max) {
    auto it = header_.find(key);
    if (it == header_.end() || it->is_null()) return std::nullopt;
    if (!it->is_number()) return Warn(key, "must be a number, got " + it->dump());
    const double v = it->get<double>();
    if (!std::isfinite(v) || v <= 0) return Warn(key, "must be a finite number above 0, got " + it->dump());
    if (v > max)
      return Warn(key, fmt::format("{} is beyond any real value (at most {:g}); a unit slip?", it->dump(), max));
    return v;
  }

  std::string Word(const char* key) {
    auto it = header_.find(key);
    if (it == header_.end() || it->is_null()) return "";
    if (!it->is_string() || it->get<std::string>().empty()) {
      Warn(key, "must be a non-empty string, got " + it->dump());
      return "";
    }
    return it->get<std::string>();
  }

  std::nullopt_t Warn(const char* key, const std::string& why) {
    if (warnings_ != nullptr)
      warnings_->push_back(fmt::format("{}: header field \"{}\" {}; ignored", where_, key, why));
    return std::nullopt;
  }

 private:
  const json& header_;
  const std::string& where_;
  std::vector<std::string>* warnings_;
};

}  // namespace

DeclaredHardware ReadDeclaredHardware(const json& header, const std::string& where,
                                      std::vector<std::string>* warnings) {
  DeclaredHardware d;
  if (!header.is_object()) return d;
  Reader r(header, where, warnings);
  d.flops_per_sample = r.Positive("flops_per_sample", kMaxFlopsPerSample);
  d.bytes_per_sample = r.Positive("bytes_per_sample", kMaxBytesPerSample);
  d.samples_per_epoch = r.Positive("samples_per_epoch", kMaxSamplesPerEpoch);
  d.peak_flops = r.Positive("peak_flops", kMaxPeakFlops);
  d.peak_bandwidth = r.Positive("peak_bandwidth", kMaxPeakBandwidth);
  d.device = r.Word("device");
  d.precision = r.Word("precision");
  if (!d.precision.empty() && !IsKnownPrecision(d.precision)) {
    r.Warn("precision", "must be fp32, tf32, bf16, fp16 or fp8, got \"" + d.precision + "\"");
    d.precision.clear();
  }
  if (const std::optional<double> count = r.Positive("device_count", kMaxDevices)) {
    if (*count == std::floor(*count)) {
      d.device_count = static_cast<int>(*count);
    } else {
      r.Warn("device_count", fmt::format("must be a whole number, got {}", header["device_count"].dump()));
    }
  }
  return d;
}

}  // namespace evalsuite::runlog
