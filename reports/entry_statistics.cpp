#include "reports/entry_statistics.h"

#include "evalsuite/common/stats_boundary.h"

namespace evalsuite::reports {

stats::EntryStatistics AnalyzeEntryRuns(const std::string& entry_name, const std::vector<stats::RunCurve>& curves,
                                        const std::optional<std::vector<stats::RunCurve>>& epoch_curves,
                                        double threshold, std::size_t consecutive) {
  stats::EntryStatistics entry;
  entry.at_target = StatsOnUserData(EntryField(entry_name),
                                    [&] { return stats::AnalyzeStability(curves, threshold, 0.05, consecutive); });
  if (epoch_curves && !epoch_curves->empty()) {
    entry.in_epochs = StatsOnUserData(EntryField(entry_name) + " (epochs)", [&] {
      return stats::AnalyzeStability(*epoch_curves, threshold, 0.05, consecutive);
    });
    entry.variation = stats::DecomposeVariation(entry.at_target.tta, entry.in_epochs->tta);
  }
  return entry;
}

}  // namespace evalsuite::reports
