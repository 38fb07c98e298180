#include "stats/selection_frequency_correction.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>

#include "stats/not_a_number.h"

namespace evalsuite::stats {
namespace {

constexpr double kEmptyBinShare = 1e-3;

double GridPoint(std::size_t j) { return (static_cast<double>(j) + 0.5) / static_cast<double>(kFrequencyGridPoints); }

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t m = values.size() / 2;
  return values.size() % 2 == 1 ? values[m] : (values[m - 1] + values[m]) / 2;
}

}  // namespace

std::vector<double> FitFrequencyDistribution(const std::vector<ImageVotes>& images, int iterations) {
  const std::size_t grid = kFrequencyGridPoints;
  std::vector<double> weights(grid, 1.0 / static_cast<double>(grid));
  // The likelihood depends on an image only through (votes, yes): one row per distinct pair, with its count.
  std::map<std::pair<int, int>, double> cells;
  for (const ImageVotes& image : images) {
    if (image.votes > 0) cells[{image.votes, image.yes}] += 1;
  }
  if (cells.empty()) return weights;
  std::vector<double> counts;
  std::vector<std::vector<double>> likelihood;  // s^k (1-s)^(n-k); the binomial coefficient cancels
  double total = 0;
  for (const auto& [key, count] : cells) {
    const auto [n, k] = key;
    std::vector<double> row(grid);
    for (std::size_t j = 0; j < grid; ++j) {
      const double s = GridPoint(j);
      row[j] = std::exp(k * std::log(s) + (n - k) * std::log1p(-s));
    }
    likelihood.push_back(std::move(row));
    counts.push_back(count);
    total += count;
  }
  std::vector<double> next(grid);
  for (int iteration = 0; iteration < iterations; ++iteration) {
    std::fill(next.begin(), next.end(), 0.0);
    for (std::size_t c = 0; c < likelihood.size(); ++c) {
      double mass = 0;
      for (std::size_t j = 0; j < grid; ++j) mass += likelihood[c][j] * weights[j];
      if (!(mass > 0)) continue;
      const double scale = counts[c] / mass;
      for (std::size_t j = 0; j < grid; ++j) next[j] += scale * likelihood[c][j] * weights[j];
    }
    for (std::size_t j = 0; j < grid; ++j) weights[j] = next[j] / total;
  }
  return weights;
}

SelectionCorrection CorrectForSelectionFrequency(const std::vector<ImageVotes>& images,
                                                 const std::array<double, kFrequencyBins>& target) {
  SelectionCorrection result;
  std::vector<ImageVotes> right, wrong;
  std::vector<double> votes;
  std::array<double, kFrequencyBins> naive_right{}, naive_count{};
  for (const ImageVotes& image : images) {
    if (image.votes <= 0) continue;
    (image.right ? right : wrong).push_back(image);
    votes.push_back(image.votes);
    const int bin = FrequencyBin(static_cast<double>(image.yes) / image.votes);
    if (bin >= 0) {
      naive_count[static_cast<std::size_t>(bin)] += 1;
      naive_right[static_cast<std::size_t>(bin)] += image.right ? 1 : 0;
    }
  }
  result.images = votes.size();
  result.median_votes = Median(votes);
  const double total_target = std::accumulate(target.begin(), target.end(), 0.0);
  if (result.images == 0) {
    result.withheld = "no image has pass-2 votes and an outcome";
    return result;
  }
  if (!(total_target > 0)) {
    result.withheld = "no target shares";
    return result;
  }
  result.observed = static_cast<double>(right.size()) / static_cast<double>(result.images);
  double naive = 0, naive_weight = 0;
  for (std::size_t b = 0; b < kFrequencyBins; ++b) {
    if (naive_count[b] > 0 && target[b] > 0) {
      naive += target[b] * naive_right[b] / naive_count[b];
      naive_weight += target[b];
    }
  }
  result.naive = naive_weight > 0 ? naive / naive_weight : kNaN;

  const std::vector<double> fit_right = FitFrequencyDistribution(right);
  const std::vector<double> fit_wrong = FitFrequencyDistribution(wrong);
  const double p_right = result.observed;
  std::array<double, kFrequencyBins> mass_right{}, mass_wrong{};
  for (std::size_t j = 0; j < kFrequencyGridPoints; ++j) {
    const auto b = static_cast<std::size_t>(FrequencyBin(GridPoint(j)));
    mass_right[b] += p_right * fit_right[j];
    mass_wrong[b] += (1 - p_right) * fit_wrong[j];
  }
  double corrected = 0, weight = 0;
  for (std::size_t b = 0; b < kFrequencyBins; ++b) {
    result.bin_share[b] = mass_right[b] + mass_wrong[b];
    result.bin_accuracy[b] = result.bin_share[b] >= kEmptyBinShare ? mass_right[b] / result.bin_share[b] : kNaN;
    if (target[b] <= 0) continue;
    if (std::isnan(result.bin_accuracy[b])) {
      result.empty_target_bins.push_back(b);
      continue;
    }
    corrected += target[b] * result.bin_accuracy[b];
    weight += target[b];
  }
  if (result.median_votes < kMinMedianPass2Votes) {
    result.withheld = "the median image has " + std::to_string(static_cast<int>(result.median_votes)) +
                      " pass-2 vote(s); the correction needs at least " +
                      std::to_string(static_cast<int>(kMinMedianPass2Votes)) +
                      " (with fewer, the votes do not tell apart holdouts whose corrected accuracies differ by "
                      "0.2: a simulated pair is missed by 8 points or more at 2, 3 and 5 votes)";
    return result;
  }
  if (!(weight > 0)) {
    result.withheld = "the fit puts no image in any bin the target aims at";
    return result;
  }
  result.estimate = corrected / weight;
  return result;
}

}  // namespace evalsuite::stats
