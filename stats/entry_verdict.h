// Which basis an entry's stability verdict is judged on, and the verdict it gives: the one decision the report and
// `study show` both ask for. The rule's basis (StabilityRule::basis: TTA by default, DAWNBench's definition, or epochs
// to target) applies where the entry's statistics allow it: epochs to target needs every counted run to have logged
// epochs, and an entry whose runs did not is judged on TTA, saying so.
#pragma once

#include <string>

#include "stats/stability.h"
#include "stats/stability_statistics.h"

namespace evalsuite::stats {

struct EntryVerdict {
  std::string basis = kBasisTime;   // what the verdict was judged on: kBasisTime or kBasisEpochs
  bool epochs_unavailable = false;  // the rule asked for epochs to target, but not every counted run logged epochs
  const StabilityStats* judged = nullptr;  // the statistics judged: points into the EntryStatistics given
  StabilityVerdict verdict;
  std::string result_on_epochs;  // the verdict on epochs to target whatever the basis; empty where undefined
};

// `statistics` must outlive the result (EntryVerdict::judged points into it).
EntryVerdict JudgeEntryStability(const EntryStatistics& statistics, const StabilityRule& rule);

// What the verdict was judged on, as the outputs name it: "epochs to target" or "TTA".
const char* JudgedOnName(const std::string& basis);

// The note an entry gets when the rule asked for epochs to target and it was judged on TTA instead.
constexpr const char* kEpochsUnavailableNote =
    "[stability] basis = \"epochs\" asks for epochs to target, but not every run logged epochs: judged on TTA";

}  // namespace evalsuite::stats
