#include "labeling/assignment.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "common/error.h"
#include "common/sha256.h"
#include "labeling/labeler_name.h"

namespace evalsuite::labeling {

void CheckAssignmentPlan(const AssignmentPlan& plan) {
  std::map<std::string, std::string> by_key;
  for (const std::string& name : plan.roster) {
    const auto [at, fresh] = by_key.emplace(LabelerKey(name), name);
    if (fresh) continue;
    throw UsageError("--labelers", at->second == name
                                       ? "'" + name + "' appears twice"
                                       : "'" + at->second + "' and '" + name +
                                             "' are one labeler (names compare without case, after NFKC): "
                                             "keep one spelling");
  }
  if (plan.overlap > 0 && plan.roster.empty()) throw UsageError("--overlap", "needs the team roster (--labelers)");
  if (plan.overlap > plan.roster.size()) {
    throw UsageError("--overlap", std::to_string(plan.overlap) + " labelers per item, but the roster has " +
                                      std::to_string(plan.roster.size()));
  }
}

bool AssignmentPlan::Excludes(const std::string& labeler, const std::string& item_id) const {
  const auto found = excluded.find(LabelerKey(labeler));  // keyed by LabelerKey (second_pass.h ItemsSeenBy)
  return found != excluded.end() && found->second.count(item_id) > 0;
}

bool OnRoster(const AssignmentPlan& plan, const std::string& labeler) {
  if (plan.roster.empty()) return true;
  const std::string key = LabelerKey(labeler);
  return std::any_of(plan.roster.begin(), plan.roster.end(),
                     [&key](const std::string& name) { return LabelerKey(name) == key; });
}

std::string RosterSpelling(const AssignmentPlan& plan, const std::string& labeler) {
  const std::string key = LabelerKey(labeler);
  for (const std::string& name : plan.roster) {
    if (LabelerKey(name) == key) return name;
  }
  return labeler;
}

std::vector<std::size_t> AssignedItems(const datasets::CandidateManifest& manifest, const AssignmentPlan& plan,
                                       const std::string& labeler) {
  std::vector<std::size_t> order(manifest.items.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // The canonical order (class index, wnid, rank) first: the rotation and the shuffle start from it.
  std::stable_sort(order.begin(), order.end(), [&manifest](std::size_t a, std::size_t b) {
    const datasets::Candidate& x = manifest.items[a];
    const datasets::Candidate& y = manifest.items[b];
    return std::tie(x.class_index, x.wnid, x.rank) < std::tie(y.class_index, y.wnid, y.rank);
  });
  if (!plan.roster.empty() && plan.overlap > 0) {
    const std::size_t me = std::find(plan.roster.begin(), plan.roster.end(), labeler) - plan.roster.begin();
    const std::size_t team = plan.roster.size();
    std::vector<std::size_t> mine;
    for (std::size_t k = 0; k < order.size(); ++k) {
      // Labelers k, k+1, ..., k+overlap-1 (mod team) get the k-th item.
      if ((me + team - k % team) % team < plan.overlap) mine.push_back(order[k]);
    }
    order = std::move(mine);
  }
  if (plan.excluded.count(LabelerKey(labeler))) {
    order.erase(std::remove_if(order.begin(), order.end(),
                               [&](std::size_t i) { return plan.Excludes(labeler, manifest.items[i].id); }),
                order.end());
  }
  if (!plan.shuffle) return order;
  // std::mt19937_64 is specified exactly by the standard, so the order is the same on every platform.
  const std::string seed_hex = Sha256Hex(labeler).substr(0, 16);
  std::mt19937_64 rng(std::stoull(seed_hex, nullptr, 16));
  std::vector<std::string> classes;
  std::map<std::string, std::vector<std::size_t>> by_class;
  for (std::size_t index : order) {
    const std::string& wnid = manifest.items[index].wnid;
    if (!by_class.count(wnid)) classes.push_back(wnid);
    by_class[wnid].push_back(index);
  }
  // Fisher-Yates by hand: std::shuffle's algorithm is unspecified, this order must not change with the library.
  auto shuffle = [&rng](auto& values) {
    for (std::size_t i = values.size(); i > 1; --i) std::swap(values[i - 1], values[rng() % i]);
  };
  shuffle(classes);
  std::vector<std::size_t> out;
  for (const std::string& wnid : classes) {
    shuffle(by_class[wnid]);
    out.insert(out.end(), by_class[wnid].begin(), by_class[wnid].end());
  }
  return out;
}

}  // namespace evalsuite::labeling
