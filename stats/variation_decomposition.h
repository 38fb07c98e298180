// Where an entry's variation in TTA comes from. A run's TTA is its epochs to target times its time per epoch up to
// the target (TTA / epochs to target): the first varies with the seed (the training's own variation), the second
// with the machine (a busy neighbour, steal, throttling). On a log scale the product is a sum, so the variance
// splits exactly:
//   var(ln TTA) = var(ln epochs) + var(ln time per epoch) + 2 cov(ln epochs, ln time per epoch)
// and for small CoVs CoV^2 ~ var(ln x), so CoV(TTA)^2 ~ CoV(epochs)^2 + CoV(time per epoch)^2 + the covariance term.
// The report states the three CoVs and the three terms with their shares of var(ln TTA). Sample (n - 1) moments.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace evalsuite::stats {

struct VariationDecomposition {
  std::size_t runs = 0;              // runs with a positive TTA and a positive epochs to target (the rest are left out)
  std::optional<double> cov_tta;     // s / mean of TTA
  std::optional<double> cov_epochs;  // of epochs to target
  std::optional<double> cov_time_per_epoch;  // of TTA / epochs to target
  std::optional<double> var_log_tta;         // var(ln TTA)
  std::optional<double> var_log_epochs;
  std::optional<double> var_log_time_per_epoch;
  std::optional<double> covariance_term;  // 2 cov(ln epochs, ln time per epoch)
  // Shares of var(ln TTA) (sum to 1; nullopt when var(ln TTA) is 0): the seed's, the machine's, and their covariance.
  std::optional<double> share_epochs;
  std::optional<double> share_time_per_epoch;
  std::optional<double> share_covariance;
};

// `tta` and `epochs_to_target` are parallel, one per run that reached (nullopt entries and non-positive values are
// left out pairwise). Fewer than two usable runs: every figure nullopt.
VariationDecomposition DecomposeVariation(const std::vector<std::optional<double>>& tta,
                                          const std::vector<std::optional<double>>& epochs_to_target);

}  // namespace evalsuite::stats
