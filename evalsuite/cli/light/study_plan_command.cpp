// evalsuite study plan FILE --pilot STORE [--pilot-study S] [--ratio 0.9] [--power 0.8] [--assurance 0.8]
//                                         [--alpha 0.05] [--simulations 2000] [--json F]
// How many runs per entry the study FILE needs, from pilot runs already in a store: for the stability question,
// for each comparison the plan names (a TTA ratio shown with the given power, simulated from the pilot runs with
// their censoring), and what those runs cost in machine time (study/plans/run_planning.h).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/atomic_file.h"
#include "common/error.h"
#include "common/test_level.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/option_checks.h"
#include "store/entry_choice.h"
#include "store/run_store.h"
#include "store/study_choice.h"
#include "study/plans/run_planning.h"
#include "study/plans/study_plan.h"
#include "study/plans/study_plan_loader.h"
#include "study/plans/variance_design_cost.h"
#include "study/study_summary.h"

namespace evalsuite::cli {
namespace {

struct PlanArgs {
  std::string study_file, pilot, pilot_study, json_out;
  std::vector<std::string> compare;  // --compare A B: the pair to plan, instead of the file's compare key
  study::RunPlanningOptions options;
};

// The pilot runs of the plan's entries, wherever they are in the pilot store (store/entry_choice.h), each under the
// plan's name for it. An entry no study has is left out: the planner names it.
reports::StabilityReportInput PilotInput(store::RunStore& store, const study::StudyPlan& plan, const PlanArgs& args,
                                         std::string& pilot_names) {
  std::vector<std::string> names;
  for (const study::PlannedEntry& e : plan.entries) names.push_back(e.name);
  const std::vector<store::EntryLocation> located =
      store::LocateEntries(store, names, args.pilot_study, args.pilot, store::MissingEntry::kLeaveOut);
  if (located.empty()) {
    // Nothing to locate: the default study, whose planner output says that no entry has pilot runs.
    const store::StudyInfo pilot = store::ChooseStudy(store, args.pilot_study, args.pilot);
    pilot_names = pilot.name;
    return study::BuildReportInput(store, {pilot});
  }
  std::vector<std::string> shown;
  reports::StabilityReportInput input = study::BuildReportInputFor(store, located, shown);
  std::vector<analysis::Entry> entries;
  for (std::size_t i = 0; i < located.size(); ++i) {
    for (analysis::Entry& e : input.entries) {
      if (e.name != shown[i]) continue;
      e.name = located[i].entry;
      entries.push_back(std::move(e));
      break;
    }
  }
  input.entries = std::move(entries);
  for (const store::StudyInfo& s : store::StudiesOf(located)) pilot_names += (pilot_names.empty() ? "" : ", ") + s.name;
  return input;
}

}  // namespace

void RegisterStudyPlanCommand(CLI::App& study_app) {
  auto args = std::make_shared<PlanArgs>();
  CLI::App* plan = study_app.add_subcommand("plan", "How many runs a study needs, from pilot runs in a store");
  plan->add_option("STUDY", args->study_file, "the study's TOML file")->required();
  plan->add_option("--pilot", args->pilot, "the store holding pilot runs of the plan's entries")->required();
  plan->add_option("--pilot-study", args->pilot_study, "the pilot study, by name or id (default: the latest)");
  plan->add_option("--ratio", args->options.ratio,
                   "the TTA ratio to detect, faster over slower (default 0.9: 10% faster)");
  plan->add_option("--power", args->options.power, "the chance to detect it, and the stability assurance (0.8)");
  plan->add_option("--assurance", args->options.assurance,
                   "the chance, over the pilot's own uncertainty, that the planned runs give that power (0.8)");
  plan->add_option("--alpha", args->options.alpha, "the comparison's level (default 0.05)");
  plan->add_option("--simulations", args->options.simulations, "simulated studies per size (default 2000)")
      ->check(WholeNumber(100, 1000000));
  plan->add_option("--compare", args->compare,
                   "the pair to plan, two entries of the plan (default: the file's compare key; without one, the "
                   "plan's two entries, or each entry against a copy of itself)")
      ->expected(2);
  plan->add_option("--json", args->json_out, "write the figures as JSON to this file");
  plan->callback([args] {
    CheckTestLevel(args->options.alpha);  // as compare checks it, before reading anything
    study::StudyPlan plan = study::LoadStudyPlan(args->study_file, {}, study::UsableCores());
    if (!args->compare.empty()) {
      for (const std::string& name : args->compare) {
        if (plan.FindEntry(name) == nullptr) {
          std::string entries;
          for (const auto& e : plan.entries) entries += (entries.empty() ? "" : ", ") + e.name;
          throw UsageError("--compare",
                           "'" + name + "' is not an entry of " + args->study_file + " (entries: " + entries + ")");
        }
      }
      if (args->compare[0] == args->compare[1]) throw UsageError("--compare", "name two different entries");
      plan.analysis.compare = {{args->compare[0], args->compare[1]}};
    }
    auto store = store::RunStore::OpenForReading(args->pilot);
    std::string pilot_names;
    const reports::StabilityReportInput pilot = PilotInput(*store, plan, *args, pilot_names);
    const study::RunPlanning planning = study::PlanRunsFromPilot(plan, pilot, args->options);
    nlohmann::json figures = study::RunPlanningToJson(planning);
    if (plan.analysis.variance) figures["variance"] = study::VarianceDesignCost(plan, planning);
    std::cout << "plan for " << plan.name << " from the pilot study " << pilot_names << " in " << args->pilot << "\n"
              << study::FormatRunPlanning(planning);
    if (plan.analysis.variance) std::cout << study::FormatVarianceDesignCost(figures["variance"]);
    if (!args->json_out.empty()) WriteFileAtomically(args->json_out, figures.dump(2) + "\n");
  });
}

}  // namespace evalsuite::cli
