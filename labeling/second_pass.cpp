#include "labeling/second_pass.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

#include "evalsuite/common/error.h"
#include "labeling/undefined_value.h"

namespace evalsuite::labeling {
namespace {

constexpr double kIntervalAlpha = 0.05;
// Below this many images in a bin, the percentile bootstrap's interval is noticeably too narrow (it cannot
// see outcomes a small bin happened not to show): the text says so.
constexpr std::size_t kFewImagesPerBin = 20;
constexpr const char* kIntervalMethod =
    "stratified percentile bootstrap: in each resample, every pass-2 bin's images are drawn with replacement "
    "(as many as the bin holds) and the corrected accuracy recomputed; the bins' sizes, the target shares and "
    "each image's pass-2 bin are held fixed";

// One accuracy by pass-2 bin: the images with a pass-2 frequency and an outcome, grouped by that bin.
CorrectedAccuracy CorrectAccuracy(const std::vector<FrequencyPair>& frequencies, const std::vector<int>& outcomes,
                                  const std::vector<double>& weights, std::size_t resamples, std::uint64_t seed) {
  CorrectedAccuracy a;
  std::vector<std::vector<double>> bins(stats::kFrequencyBins);
  double right = 0;
  for (std::size_t i = 0; i < frequencies.size() && i < outcomes.size(); ++i) {
    const int b2 = stats::FrequencyBin(frequencies[i].pass2);
    if (b2 < 0 || outcomes[i] < 0) continue;
    bins[static_cast<std::size_t>(b2)].push_back(outcomes[i]);
    right += outcomes[i];
    ++a.images;
  }
  for (std::size_t b = 0; b < bins.size(); ++b) {
    if (!bins[b].empty() && weights[b] > 0) a.smallest_bin = std::min(a.smallest_bin, bins[b].size());
  }
  a.observed = a.images > 0 ? right / static_cast<double>(a.images) : kNaN;
  a.corrected = stats::StratifiedWeightedMean(bins, weights, kIntervalAlpha, resamples, seed);
  a.bias = a.observed - a.corrected.estimate;
  return a;
}

nlohmann::json AccuracyJson(const CorrectedAccuracy& a) {
  return {{"images", a.images},
          {"observed", NumberOrNull(a.observed)},
          {"corrected", NumberOrNull(a.corrected.estimate)},
          {"corrected_lower", NumberOrNull(a.corrected.interval.lower)},
          {"corrected_upper", NumberOrNull(a.corrected.interval.upper)},
          {"bias", NumberOrNull(a.bias)}};
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
                                   const std::optional<std::array<double, stats::kFrequencyBins>>& target,
                                   std::size_t resamples, std::uint64_t seed) {
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
  report.resamples = resamples;
  report.seed = seed;
  const std::vector<double> weights(report.target.begin(), report.target.end());
  for (const ModelOutcome& model : models) {
    ModelCorrection c{model.name, model.group, {}, {}};
    c.top1 = CorrectAccuracy(frequencies, model.top1, weights, resamples, seed);
    c.top5 = CorrectAccuracy(frequencies, model.top5, weights, resamples, seed);
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
    models.push_back(
        {{"name", m.name}, {"group", m.group}, {"top1", AccuracyJson(m.top1)}, {"top5", AccuracyJson(m.top5)}});
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
           "Engstrom et al. 2020: top-1 and top-5 within bins of the pass-2 frequency (independent labelers), "
           "reweighted to the target shares; bias = observed - corrected"},
          {"interval",
           {{"method", kIntervalMethod},
            {"confidence", 1 - kIntervalAlpha},
            {"resamples", report.resamples},
            {"seed", report.seed}}}};
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
  out += "Accuracy corrected to the " + r.target_source + " by pass-2 frequency bin (Engstrom et al. 2020):\n";
  auto line = [&](const char* what, const CorrectedAccuracy& a) {
    if (a.images == 0) return fmt::format("{} n/a", what);
    return fmt::format("{} observed {}, corrected {} [{}, {}], bias {}", what, pct(a.observed),
                       pct(a.corrected.estimate), pct(a.corrected.interval.lower), pct(a.corrected.interval.upper),
                       std::isnan(a.bias) ? "n/a" : fmt::format("{:+.1f} pts", a.bias * 100));
  };
  for (const ModelCorrection& m : r.models) {
    out += fmt::format("  {} ({}): {}; {}\n", m.name, m.group, line("top-1", m.top1), line("top-5", m.top5));
  }
  if (!r.models.empty()) {
    out += fmt::format("  [{:.0f}% intervals: {}; {} resamples, seed {}]\n", (1 - kIntervalAlpha) * 100,
                       kIntervalMethod, r.resamples, r.seed);
  }
  std::size_t smallest = std::numeric_limits<std::size_t>::max();
  for (const ModelCorrection& m : r.models) smallest = std::min({smallest, m.top1.smallest_bin, m.top5.smallest_bin});
  if (smallest < kFewImagesPerBin) {
    out += fmt::format(
        "Caution: a weighted pass-2 bin holds only {} image(s); with fewer than {} per bin the bootstrap interval "
        "is too narrow\n",
        smallest, kFewImagesPerBin);
  }
  if (!r.empty_target_bins.empty()) {
    out += "Caution: " + std::to_string(r.empty_target_bins.size()) +
           " target bin(s) have no image in pass 2; the correction renormalizes over the others\n";
  }
  return out;
}

}  // namespace evalsuite::labeling
