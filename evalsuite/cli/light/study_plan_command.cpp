// evalsuite study plan FILE --pilot STORE [--pilot-study S] [--ratio 0.9] [--power 0.8] [--assurance 0.8]
//                                         [--alpha 0.05] [--simulations 2000] [--json F]
// How many runs per entry the study FILE needs, from pilot runs already in a store: for the stability question,
// for each comparison the plan names (a TTA ratio shown with the given power, simulated from the pilot runs with
// their censoring), and what those runs cost in machine time (evalsuite/study/plans/run_planning.h).
#include <iostream>
#include <memory>
#include <string>

#include "evalsuite/cli/light/option_checks.h"
#include "evalsuite/cli/commands.h"
#include "common/atomic_file.h"
#include "common/test_level.h"
#include "evalsuite/study/plans/run_planning.h"
#include "evalsuite/store/run_store.h"
#include "evalsuite/store/study_choice.h"
#include "evalsuite/study/plans/study_plan.h"
#include "evalsuite/study/study_summary.h"

namespace evalsuite::cli {
namespace {

struct PlanArgs {
  std::string study_file, pilot, pilot_study, json_out;
  study::RunPlanningOptions options;
};

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
  plan->add_option("--json", args->json_out, "write the figures as JSON to this file");
  plan->callback([args] {
    CheckTestLevel(args->options.alpha);  // as compare checks it, before reading anything
    const study::StudyPlan plan = study::LoadStudyPlan(args->study_file, {}, study::UsableCores());
    auto store = study::RunStore::OpenForReading(args->pilot);
    const study::StudyInfo pilot = store::ChooseStudy(*store, args->pilot_study, args->pilot);
    const nlohmann::json figures =
        study::PlanRunsFromPilot(plan, study::BuildReportInput(*store, {pilot}), args->options);
    std::cout << "plan for " << plan.name << " from the pilot study " << pilot.name << " in " << args->pilot << "\n"
              << study::FormatRunPlanning(figures);
    if (!args->json_out.empty()) WriteFileAtomically(args->json_out, figures.dump(2) + "\n");
  });
}

}  // namespace evalsuite::cli
