#include "study/plans/run_producer.h"

#include <map>
#include <set>
#include <utility>

namespace evalsuite::study {
namespace {

// The plan-level fields that change how any run is made. Not here, on purpose: runs (how many), jobs, executor,
// slots, out_dir, cost, ceilings, keep_models (what is kept, not what is computed), description, and the analysis
// settings other than the stopping rule (the verdict's rule, compare, extra thresholds read at analysis).
nlohmann::json PlanRecipe(const StudyPlan& plan) {
  const nlohmann::json stored = PlanToJson(plan);
  nlohmann::json recipe = nlohmann::json::object();
  for (const char* key : {"seed", "threads", "stop_at_target", "evals_per_epoch", "onednn_isa_cap", "precision"}) {
    recipe[key] = stored.at(key);
  }
  // A sequential study's stopping rule decides which runs are made at all.
  // PlanToJson writes it always (null without one).
  recipe["sequential"] = stored.at("sequential");
  // A [variance] design decides each run's seeds; absent (not null) without one, so older recipes stay as stored.
  if (stored.contains("variance")) recipe["variance"] = stored["variance"];
  return recipe;
}

nlohmann::json StoredEntry(const StudyPlan& plan, const PlannedEntry& entry) {
  const nlohmann::json stored = PlanToJson(plan);
  for (const nlohmann::json& e : stored.at("entries")) {
    if (e.at("name") == entry.name) return e;
  }
  return nlohmann::json::object();
}

}  // namespace

nlohmann::json EntryRecipe(const StudyPlan& plan, const PlannedEntry& entry) {
  nlohmann::json recipe = PlanRecipe(plan);
  nlohmann::json stored = StoredEntry(plan, entry);
  stored.erase("description");       // words, not how the run is made
  stored.erase("extra_thresholds");  // read at analysis time only
  recipe["entry"] = std::move(stored);
  return recipe;
}

nlohmann::json RunProducer(const StudyPlan& plan, const PlannedEntry& entry, const PlannedRun& run) {
  nlohmann::json producer = EntryRecipe(plan, entry);
  producer["run"] = {{"entry", run.entry}, {"index", run.index}, {"seed", run.seed}};
  if (run.sources) {
    producer["run"]["init_seed"] = run.sources->init;
    producer["run"]["data_seed"] = run.sources->data_order;
    producer["run"]["aug_seed"] = run.sources->augmentation;
  }
  return producer;
}

PlanChange ComparePlans(const StudyPlan& stored, const StudyPlan& wanted, const std::vector<PlannedRun>& recorded) {
  PlanChange change;
  std::vector<std::string> refused;
  auto note = [](std::vector<std::string>& list, const std::string& text) {
    if (!text.empty()) list.push_back(text);
  };
  // Entries both plans have must make their runs alike.
  std::set<std::string> recorded_entries;
  for (const PlannedRun& r : recorded) recorded_entries.insert(r.entry);
  for (const PlannedEntry& e : stored.entries) {
    const PlannedEntry* now = wanted.FindEntry(e.name);
    if (now == nullptr) {
      if (recorded_entries.count(e.name)) note(refused, "entries[" + e.name + "] removed (it has recorded runs)");
      continue;
    }
    const nlohmann::json before = EntryRecipe(stored, e), after = EntryRecipe(wanted, *now);
    if (before != after) {
      nlohmann::json b = before, a = after;
      // Named as the plan names them: entries[x].command, seed, precision.
      nlohmann::json be = b["entry"], ae = a["entry"];
      b.erase("entry");
      a.erase("entry");
      std::string text;
      if (b != a) text = DescribePlanDifferences(b, a);
      if (be != ae) {
        nlohmann::json wrapped_before = {{"entries", nlohmann::json::array({be})}};
        nlohmann::json wrapped_after = {{"entries", nlohmann::json::array({ae})}};
        text += (text.empty() ? "" : ", ") + DescribePlanDifferences(wrapped_before, wrapped_after);
      }
      // A plan-wide change shows once, not once per entry.
      bool seen = false;
      for (const std::string& r : refused) seen = seen || r == text;
      if (!seen) note(refused, text);
    }
  }
  // Every recorded run stays in the plan, with its seed.
  std::map<std::pair<std::string, int>, uint64_t> wanted_seeds;
  for (const PlannedRun& r : wanted.schedule) wanted_seeds[{r.entry, r.index}] = r.seed;
  std::set<std::pair<std::string, int>> reported;
  for (const PlannedRun& r : recorded) {
    if (!wanted.FindEntry(r.entry) || !reported.insert({r.entry, r.index}).second) continue;
    auto it = wanted_seeds.find({r.entry, r.index});
    if (it == wanted_seeds.end()) {
      note(refused, "runs " + std::to_string(stored.runs) + " -> " + std::to_string(wanted.runs) + " leaves out " +
                        r.entry + "'s recorded run " + std::to_string(r.index + 1));
      break;
    }
    if (it->second != r.seed) {
      note(refused, r.entry + "'s recorded run " + std::to_string(r.index + 1) + " seed " + std::to_string(r.seed) +
                        " -> " + std::to_string(it->second));
      break;  // one is enough to say why; a changed seed rule would list them all
    }
  }
  if (!refused.empty()) {
    change.kind = PlanChange::Kind::kNewStudy;
    for (const std::string& r : refused) change.what += (change.what.empty() ? "" : ", ") + r;
    return change;
  }
  const nlohmann::json before = PlanFingerprint(stored), after = PlanFingerprint(wanted);
  if (before == after) return change;
  change.kind = PlanChange::Kind::kContinues;
  change.what = DescribePlanDifferences(before, after);
  return change;
}

}  // namespace evalsuite::study
