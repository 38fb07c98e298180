#include "stats/entry_verdict.h"

namespace evalsuite::stats {

EntryVerdict JudgeEntryStability(const EntryStatistics& statistics, const StabilityRule& rule) {
  EntryVerdict out;
  const bool epochs_asked = rule.basis == kBasisEpochs;
  const bool on_epochs = epochs_asked && statistics.in_epochs.has_value();
  out.basis = on_epochs ? kBasisEpochs : kBasisTime;
  out.epochs_unavailable = epochs_asked && !on_epochs;
  out.judged = on_epochs ? &*statistics.in_epochs : &statistics.at_target;
  out.verdict = JudgeStability(*out.judged, rule);
  if (on_epochs) {
    out.result_on_epochs = out.verdict.result;
  } else if (statistics.in_epochs) {
    out.result_on_epochs = JudgeStability(*statistics.in_epochs, rule).result;
  }
  return out;
}

const char* JudgedOnName(const std::string& basis) { return basis == kBasisEpochs ? "epochs to target" : "TTA"; }

}  // namespace evalsuite::stats
