// What makes a study's runs what they are, decided here and nowhere else: the fields of a plan that change how a run
// is made (an entry's command or built-in recipe, its threshold, epochs, data subset, timeout and log format; the
// plan's seed rule, threads, precision, evaluation schedule and stopping rule) and, for one run, its entry, index and
// seed. Everything else in a plan (how many runs, the verdict's rule, the pairs to compare, where runs execute) only
// says which runs to make or how to read them.
//
// Two readers ask it, so that they can never disagree: the study runner, when a study of the same name is run again
// (ComparePlans: a change to how runs are made needs a new study; more runs, a new entry or another analysis setting
// continue it and keep every finished run), and the run folders' records (run_folder_record.h), which let resume
// adopt a folder only when the record names this very run's producer.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "study/plans/study_plan.h"

namespace evalsuite::study {

// How every run of `entry` is made under `plan`: the plan's run-making fields and the entry's.
nlohmann::json EntryRecipe(const StudyPlan& plan, const PlannedEntry& entry);
// What made one run: EntryRecipe plus the run's entry, index and seed. Two runs with equal producers are the same run.
nlohmann::json RunProducer(const StudyPlan& plan, const PlannedEntry& entry, const PlannedRun& run);

// How a study named again relates to the stored one.
struct PlanChange {
  enum class Kind {
    kSame,       // nothing that matters differs: continue
    kContinues,  // more runs, a new entry or another analysis setting: continue under the new plan, keep every run
    kNewStudy,   // runs would be made differently, or recorded runs would leave the plan: refused
  };
  Kind kind = Kind::kSame;
  std::string what;  // for people: what differs ("runs 3 -> 6", "entries[b].command \"x\" -> \"y\"")
};

// `recorded` are the runs the store holds for the study (entry, index, seed: any attempt). A change that makes an
// existing entry's runs differently, changes a recorded run's seed, or drops a recorded run from the plan (fewer runs,
// an entry removed) is kNewStudy; anything else that differs is kContinues.
PlanChange ComparePlans(const StudyPlan& stored, const StudyPlan& wanted, const std::vector<PlannedRun>& recorded);

}  // namespace evalsuite::study
