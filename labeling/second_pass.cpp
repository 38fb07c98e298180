#include "labeling/second_pass.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <unordered_map>

#include "common/error.h"
#include "labeling/holdout_sampling.h"
#include "labeling/labeler_name.h"
#include "labeling/undefined_value.h"

namespace evalsuite::labeling {
namespace {

std::string Method() {
  return fmt::format(
      "Engstrom et al. 2020, section 5.3: the distribution of true selection frequency among the images a model got "
      "right, and among those it got wrong, fitted to their pass-2 votes (Binomial(n, s) given s; s on a grid of {} "
      "points, {} EM steps from uniform); accuracy per bin of true frequency by Bayes, weighted by the target "
      "shares; withheld below a median of {} pass-2 votes per image; bias = observed - corrected. "
      "naive_bin_reweighted groups the images by their observed pass-2 frequency instead, which is biased by "
      "several points at 2 to 40 votes",
      stats::kFrequencyGridPoints, stats::kFrequencyFitIterations, stats::kMinMedianPass2Votes);
}

// One accuracy: the images with pass-2 votes and an outcome, corrected by the binomial-mixture model.
CorrectedAccuracy CorrectAccuracy(const std::vector<FrequencyPair>& frequencies, const std::vector<int>& outcomes,
                                  const std::array<double, stats::kFrequencyBins>& target) {
  CorrectedAccuracy a;
  std::vector<stats::ImageVotes> images;
  for (std::size_t i = 0; i < frequencies.size() && i < outcomes.size(); ++i) {
    if (frequencies[i].pass2_votes <= 0 || outcomes[i] < 0) continue;
    images.push_back({frequencies[i].pass2_votes, frequencies[i].pass2_yes, outcomes[i] == 1});
  }
  a.images = images.size();
  a.correction = stats::CorrectForSelectionFrequency(images, target);
  a.observed = a.images > 0 ? a.correction.observed : kNaN;
  a.bias = a.observed - a.correction.estimate;
  return a;
}

nlohmann::json AccuracyJson(const CorrectedAccuracy& a) {
  const stats::SelectionCorrection& c = a.correction;
  nlohmann::json bins = nlohmann::json::array();
  for (std::size_t b = 0; b < stats::kFrequencyBins; ++b) {
    bins.push_back({{"bin", stats::FrequencyBinLabel(b)},
                    {"fitted_share", c.bin_share[b]},
                    {"accuracy", NumberOrNull(c.bin_accuracy[b])}});
  }
  nlohmann::json empty = nlohmann::json::array();
  for (std::size_t b : c.empty_target_bins) empty.push_back(stats::FrequencyBinLabel(b));
  return {{"images", a.images},
          {"median_pass2_votes", c.median_votes},
          {"observed", NumberOrNull(a.observed)},
          {"corrected", NumberOrNull(c.estimate)},
          {"withheld", c.withheld.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.withheld)},
          {"bias", NumberOrNull(a.bias)},
          {"naive_bin_reweighted", NumberOrNull(c.naive)},
          {"by_true_frequency_bin", bins},
          {"target_bins_without_images", empty}};
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

std::map<std::string, std::set<std::string>> ItemsSeenBy(const std::vector<LabelEvent>& events) {
  std::map<std::string, std::set<std::string>> seen;
  // Keyed by LabelerKey: "Ana" in pass 1 is "ana" in pass 2.
  for (const LabelEvent& e : events) seen[LabelerKey(e.labeler)].insert(e.item_id);
  return seen;
}

SecondPassReport CompareSecondPass(const std::vector<FrequencyPair>& frequencies,
                                   const std::vector<ModelOutcome>& models,
                                   const std::optional<std::array<double, stats::kFrequencyBins>>& target,
                                   const std::string& target_source) {
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
  report.target_source = target ? target_source : "pass-1 frequencies";
  const double total = std::accumulate(report.target.begin(), report.target.end(), 0.0);
  for (double& share : report.target) share = total > 0 ? share / total : 0;
  for (const ModelOutcome& model : models) {
    ModelCorrection c{model.name, model.group, {}, {}};
    c.top1 = CorrectAccuracy(frequencies, model.top1, report.target);
    c.top5 = CorrectAccuracy(frequencies, model.top5, report.target);
    report.models.push_back(c);
  }
  return report;
}

std::optional<std::array<double, stats::kFrequencyBins>> SamplingTarget(const nlohmann::json& holdout_rule,
                                                                        const std::vector<std::string>& classes,
                                                                        const std::string& where) {
  if (!holdout_rule.is_object() || !holdout_rule.contains("sampling")) return std::nullopt;
  const nlohmann::json& sampling = holdout_rule["sampling"];
  if (!sampling.is_object() || !sampling.contains("reference")) return std::nullopt;
  std::array<double, stats::kFrequencyBins> target{};
  if (sampling.contains("aim_by_bin")) {
    const nlohmann::json& aim = sampling["aim_by_bin"];
    if (!aim.is_array() || aim.size() != stats::kFrequencyBins) {
      throw InputError(where + ": rule.sampling.aim_by_bin", "must be an array of 5 counts");
    }
    for (std::size_t b = 0; b < stats::kFrequencyBins; ++b) {
      if (!aim[b].is_number() || !(aim[b].get<double>() >= 0)) {
        throw InputError(where + ": rule.sampling.aim_by_bin[" + std::to_string(b) + "]", "must be a count >= 0");
      }
      target[b] = aim[b].get<double>();
    }
    return target;
  }
  // A manifest from before the aim was recorded: the same aim from its recorded histogram and per-class count.
  if (!sampling["reference"].is_object() || !sampling["reference"].contains("histogram")) return std::nullopt;
  const ReferenceHistogram reference =
      HistogramFromJson(sampling["reference"]["histogram"], where + ": rule.sampling.reference.histogram");
  const std::size_t per_class = sampling.contains("per_class") && sampling["per_class"].is_number_unsigned()
                                    ? sampling["per_class"].get<std::size_t>()
                                    : 10;
  const auto aim = SamplingAim(reference, classes, per_class);
  for (std::size_t b = 0; b < stats::kFrequencyBins; ++b) target[b] = static_cast<double>(aim[b]);
  return target;
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
  return {{"images", report.images},
          {"images_with_pass2", report.images_with_pass2},
          {"mean_frequency_pass1", NumberOrNull(report.mean_pass1)},
          {"mean_frequency_pass2", NumberOrNull(report.mean_pass2)},
          {"frequency_shift", NumberOrNull(report.shift)},
          {"by_pass1_bin", bins},
          {"target", report.target_source},
          {"models", models},
          {"method", Method()},
          {"min_median_pass2_votes", stats::kMinMedianPass2Votes},
          {"interval", nullptr}};
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
  if (r.models.empty()) {
    out += "No model accuracy to correct: give --eval (holdout eval's --json output for this holdout)\n";
    return out;
  }
  out += fmt::format(
      "Accuracy corrected to the target ({}: shares {:.3f}) by Engstrom et al. 2020's model of each "
      "image's pass-2 votes:\n",
      r.target_source, fmt::join(r.target, " "));
  std::set<std::string> reasons, empty_bins;
  auto line = [&](const char* what, const CorrectedAccuracy& a) {
    if (a.images == 0) return fmt::format("{} n/a", what);
    if (!a.correction.withheld.empty()) {
      reasons.insert(a.correction.withheld);
      return fmt::format("{} observed {}, corrected: withheld", what, pct(a.observed));
    }
    for (std::size_t b : a.correction.empty_target_bins) empty_bins.insert(stats::FrequencyBinLabel(b));
    return fmt::format("{} observed {}, corrected {}, bias {}", what, pct(a.observed), pct(a.correction.estimate),
                       std::isnan(a.bias) ? "n/a" : fmt::format("{:+.1f} pts", a.bias * 100));
  };
  for (const ModelCorrection& m : r.models) {
    out += fmt::format("  {} ({}): {}; {}\n", m.name, m.group, line("top-1", m.top1), line("top-5", m.top5));
  }
  for (const std::string& reason : reasons) out += "Withheld: " + reason + "\n";
  out += "  [no interval: its coverage has not been checked by simulation]\n";
  if (!empty_bins.empty()) {
    std::string list;
    for (const std::string& b : empty_bins) list += (list.empty() ? "" : ", ") + b;
    out +=
        "Caution: the fit puts no image in target bin(s) " + list + "; the correction renormalizes over the others\n";
  }
  return out;
}

}  // namespace evalsuite::labeling
