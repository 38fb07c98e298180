#include "stats/variation_decomposition.h"

#include <algorithm>
#include <cmath>

#include "stats/descriptive.h"

namespace evalsuite::stats {
namespace {

double Average(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

double SampleCovariance(const std::vector<double>& a, const std::vector<double>& b) {
  const double ma = Average(a), mb = Average(b);
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += (a[i] - ma) * (b[i] - mb);
  return sum / static_cast<double>(a.size() - 1);
}

}  // namespace

VariationDecomposition DecomposeVariation(const std::vector<std::optional<double>>& tta,
                                          const std::vector<std::optional<double>>& epochs_to_target) {
  VariationDecomposition d;
  std::vector<double> t, e, per_epoch, log_t, log_e, log_per_epoch;
  for (std::size_t i = 0; i < std::min(tta.size(), epochs_to_target.size()); ++i) {
    if (!tta[i] || !epochs_to_target[i] || !(*tta[i] > 0) || !(*epochs_to_target[i] > 0)) continue;
    t.push_back(*tta[i]);
    e.push_back(*epochs_to_target[i]);
    per_epoch.push_back(*tta[i] / *epochs_to_target[i]);
    log_t.push_back(std::log(t.back()));
    log_e.push_back(std::log(e.back()));
    log_per_epoch.push_back(std::log(per_epoch.back()));
  }
  d.runs = t.size();
  if (d.runs < 2) return d;
  d.cov_tta = CoefficientOfVariation(t);
  d.cov_epochs = CoefficientOfVariation(e);
  d.cov_time_per_epoch = CoefficientOfVariation(per_epoch);
  d.var_log_tta = SampleCovariance(log_t, log_t);
  d.var_log_epochs = SampleCovariance(log_e, log_e);
  d.var_log_time_per_epoch = SampleCovariance(log_per_epoch, log_per_epoch);
  d.covariance_term = 2 * SampleCovariance(log_e, log_per_epoch);
  if (*d.var_log_tta > 0) {
    d.share_epochs = *d.var_log_epochs / *d.var_log_tta;
    d.share_time_per_epoch = *d.var_log_time_per_epoch / *d.var_log_tta;
    d.share_covariance = *d.covariance_term / *d.var_log_tta;
  }
  return d;
}

}  // namespace evalsuite::stats
