#include "stats/paired_difference_size.h"

#include <boost/math/distributions/normal.hpp>
#include <cmath>

namespace evalsuite::stats {

std::optional<std::size_t> PairedItemsToExclude(std::size_t only_a, std::size_t only_b, std::size_t n, double bound,
                                                double alpha, double assurance, std::size_t most) {
  if (n == 0) return std::nullopt;
  const double items = static_cast<double>(n);
  const double difference = (static_cast<double>(only_a) - static_cast<double>(only_b)) / items;
  const double distance = std::abs(difference - bound);
  if (distance < 1e-12) return std::nullopt;
  const double p10 = (static_cast<double>(only_a) + 0.5) / items, p01 = (static_cast<double>(only_b) + 0.5) / items;
  const double variance = std::max(p10 + p01 - difference * difference, 1e-12);
  const boost::math::normal normal;
  const double z = boost::math::quantile(normal, 1 - alpha / 2);
  const double z_assurance = assurance <= 0.5 ? 0.0 : boost::math::quantile(normal, assurance);
  const double needed = std::ceil((z + z_assurance) * (z + z_assurance) * variance / (distance * distance));
  if (!(needed <= static_cast<double>(most))) return std::nullopt;
  return static_cast<std::size_t>(std::max(1.0, needed));
}

}  // namespace evalsuite::stats
