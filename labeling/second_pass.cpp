#include "labeling/second_pass.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

#include "evalsuite/common/error.h"

namespace evalsuite::labeling {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

nlohmann::json NumberOrNull(double value) {
  return std::isnan(value) ? nlohmann::json(nullptr) : nlohmann::json(value);
}

}  // namespace

datasets::CandidateManifest SecondPassManifest(const datasets::CandidateManifest& pass1,
                                               const datasets::Holdout& holdout, const std::string& where) {
  std::unordered_map<std::string, const datasets::Candidate*> by_id;
  for (const datasets::Candidate& c : pass1.items) by_id.emplace(c.id, &c);
  datasets::CandidateManifest manifest;
  manifest.source = {{"second_pass_of", holdout.name}, {"holdout_version", holdout.version_hash}};
  manifest.classes = pass1.classes;
  for (const datasets::HoldoutItem& item : holdout.items) {
    const auto found = by_id.find(item.id);
    if (found == by_id.end()) {
      throw InputError(where, "item '" + item.id +
                                  "' is not among the pass-1 candidates: pass 2 needs the candidates "
                                  "this holdout was frozen from");
    }
    datasets::Candidate candidate = *found->second;
    candidate.path = item.path;
    candidate.sha256 = item.sha256;
    candidate.control.clear();
    manifest.items.push_back(candidate);
  }
  return manifest;
}

std::map<std::string, std::set<std::string>> ItemsJudgedBy(
    const std::map<std::pair<std::string, std::string>, Decision>& decisions) {
  std::map<std::string, std::set<std::string>> judged;
  for (const auto& [key, decision] : decisions) judged[decision.labeler].insert(decision.item_id);
  return judged;
}

SecondPassReport CompareSecondPass(const std::vector<FrequencyPair>& frequencies,
                                   const std::vector<ModelOutcome>& models,
                                   const std::optional<std::array<double, stats::kFrequencyBins>>& target) {
  SecondPassReport report;
  report.images = frequencies.size();
  std::array<double, stats::kFrequencyBins> sum1{}, sum2{}, pass1_histogram{};
  for (const FrequencyPair& f : frequencies) {
    const int b1 = stats::FrequencyBin(f.pass1);
    if (b1 >= 0) pass1_histogram[static_cast<std::size_t>(b1)] += 1;
    if (std::isnan(f.pass2) || b1 < 0) continue;
    ++report.images_with_pass2;
    report.mean_pass1 += f.pass1;
    report.mean_pass2 += f.pass2;
    ++report.bin_images[static_cast<std::size_t>(b1)];
    sum1[static_cast<std::size_t>(b1)] += f.pass1;
    sum2[static_cast<std::size_t>(b1)] += f.pass2;
  }
  const double n = static_cast<double>(report.images_with_pass2);
  report.mean_pass1 = n > 0 ? report.mean_pass1 / n : kNaN;
  report.mean_pass2 = n > 0 ? report.mean_pass2 / n : kNaN;
  report.shift = report.mean_pass2 - report.mean_pass1;
  for (std::size_t b = 0; b < stats::kFrequencyBins; ++b) {
    const double k = static_cast<double>(report.bin_images[b]);
    report.bin_mean_pass1[b] = k > 0 ? sum1[b] / k : kNaN;
    report.bin_mean_pass2[b] = k > 0 ? sum2[b] / k : kNaN;
  }
  report.target = target.value_or(pass1_histogram);
  report.target_source = target ? "reference histogram" : "pass-1 frequencies";
  const double total = std::accumulate(report.target.begin(), report.target.end(), 0.0);
  for (double& share : report.target) share = total > 0 ? share / total : 0;

  // Which pass-2 bins have images: a target share on an empty bin cannot be estimated and is left out.
  std::array<bool, stats::kFrequencyBins> has_images{};
  for (const FrequencyPair& f : frequencies) {
    const int b2 = stats::FrequencyBin(f.pass2);
    if (b2 >= 0) has_images[static_cast<std::size_t>(b2)] = true;
  }
  for (std::size_t b = 0; b < stats::kFrequencyBins; ++b) {
    if (report.target[b] > 0 && !has_images[b]) report.empty_target_bins.push_back(b);
  }
  for (const ModelOutcome& model : models) {
    ModelCorrection c;
    c.name = model.name;
    c.group = model.group;
    std::array<double, stats::kFrequencyBins> right{}, seen{};
    double all_right = 0;
    for (std::size_t i = 0; i < frequencies.size() && i < model.top1.size(); ++i) {
      const int b2 = stats::FrequencyBin(frequencies[i].pass2);
      if (b2 < 0 || model.top1[i] < 0) continue;
      seen[static_cast<std::size_t>(b2)] += 1;
      right[static_cast<std::size_t>(b2)] += model.top1[i];
      all_right += model.top1[i];
      ++c.images;
    }
    c.observed = c.images > 0 ? all_right / static_cast<double>(c.images) : kNaN;
    double corrected = 0, weight = 0;
    for (std::size_t b = 0; b < stats::kFrequencyBins; ++b) {
      if (seen[b] == 0 || report.target[b] <= 0) continue;
      corrected += report.target[b] * right[b] / seen[b];
      weight += report.target[b];
    }
    c.corrected = weight > 0 ? corrected / weight : kNaN;
    c.bias = c.observed - c.corrected;
    report.models.push_back(c);
  }
  return report;
}

nlohmann::json ToJson(const SecondPassReport& report) {
  nlohmann::json bins = nlohmann::json::array();
  for (std::size_t b = 0; b < stats::kFrequencyBins; ++b) {
    bins.push_back({{"bin", stats::FrequencyBinLabel(b)},
                    {"images", report.bin_images[b]},
                    {"mean_pass1", NumberOrNull(report.bin_mean_pass1[b])},
                    {"mean_pass2", NumberOrNull(report.bin_mean_pass2[b])},
                    {"target_share", report.target[b]}});
  }
  nlohmann::json models = nlohmann::json::array();
  for (const ModelCorrection& m : report.models) {
    models.push_back({{"name", m.name},
                      {"group", m.group},
                      {"images", m.images},
                      {"observed_top1", NumberOrNull(m.observed)},
                      {"corrected_top1", NumberOrNull(m.corrected)},
                      {"bias", NumberOrNull(m.bias)}});
  }
  nlohmann::json empty = nlohmann::json::array();
  for (std::size_t b : report.empty_target_bins) empty.push_back(stats::FrequencyBinLabel(b));
  return {{"images", report.images},
          {"images_with_pass2", report.images_with_pass2},
          {"mean_frequency_pass1", NumberOrNull(report.mean_pass1)},
          {"mean_frequency_pass2", NumberOrNull(report.mean_pass2)},
          {"frequency_shift", NumberOrNull(report.shift)},
          {"by_pass1_bin", bins},
          {"target", report.target_source},
          {"target_bins_without_pass2_images", empty},
          {"models", models},
          {"method",
           "Engstrom et al. 2020: top-1 within bins of the pass-2 frequency (independent labelers), reweighted to "
           "the target shares; bias = observed - corrected"}};
}

std::string RenderSecondPassText(const SecondPassReport& r) {
  auto pct = [](double v) { return std::isnan(v) ? std::string("n/a") : fmt::format("{:.1f}%", v * 100); };
  auto num = [](double v) { return std::isnan(v) ? std::string("n/a") : fmt::format("{:.3f}", v); };
  std::string out = fmt::format(
      "Pass 2: {} of {} frozen images judged again. Mean selection frequency {} in pass 1, {} in pass 2: shift {}\n",
      r.images_with_pass2, r.images, num(r.mean_pass1), num(r.mean_pass2),
      std::isnan(r.shift) ? "n/a" : fmt::format("{:+.3f}", r.shift));
  out += "By pass-1 bin (images: mean pass 1 -> mean pass 2):\n";
  for (std::size_t b = 0; b < stats::kFrequencyBins; ++b) {
    out += fmt::format("  {:<11} {:>5}: {} -> {}\n", stats::FrequencyBinLabel(b), r.bin_images[b],
                       num(r.bin_mean_pass1[b]), num(r.bin_mean_pass2[b]));
  }
  out += "Top-1 corrected to the " + r.target_source + " by pass-2 frequency bin (Engstrom et al. 2020):\n";
  for (const ModelCorrection& m : r.models) {
    out += fmt::format("  {} ({}): observed {}, corrected {}, bias {}\n", m.name, m.group, pct(m.observed),
                       pct(m.corrected), std::isnan(m.bias) ? "n/a" : fmt::format("{:+.1f} pts", m.bias * 100));
  }
  if (!r.empty_target_bins.empty()) {
    out += "Caution: " + std::to_string(r.empty_target_bins.size()) +
           " target bin(s) have no image in pass 2; the correction renormalizes over the others\n";
  }
  return out;
}

}  // namespace evalsuite::labeling
