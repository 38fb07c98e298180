// evalsuite report STORE --out DIR [--study NAME]... [--title TEXT] [--section NAME=FILE.json]...
// Loads the studies' runs (all of them by default) and writes report.json (canonical), report.md and a
// self-contained report.html, every run's evaluations in report-points.jsonl beside them. --section places a JSON
// produced elsewhere (e.g. `holdout eval`'s generalization array) into the model under NAME.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/json_guard.h"
#include "common/slow_step_notice.h"
#include "evalsuite/cli/commands.h"
#include "reports/extra_sections.h"
#include "reports/generalization_section.h"
#include "reports/given_sections.h"
#include "reports/hardware_entries_merge.h"
#include "reports/report.h"
#include "store/run_store.h"
#include "store/study_choice.h"
#include "study/study_summary.h"

namespace evalsuite::cli {
namespace {
namespace fs = std::filesystem;

struct ReportArgs {
  std::string store;
  std::string out;
  std::vector<std::string> studies;
  std::string title;
  std::vector<std::string> sections;
};

nlohmann::json ReadSection(const std::string& spec, std::string* name) {
  std::size_t equals = spec.find('=');
  if (equals == std::string::npos || equals == 0) throw UsageError("--section", "expected NAME=FILE.json, got " + spec);
  *name = spec.substr(0, equals);
  std::string file = spec.substr(equals + 1);
  // The name first: a misspelled one is refused before any file is read (reports/extra_sections.h).
  if (!reports::IsExtraSectionName(*name)) throw UsageError("--section", reports::ExtraSectionProblem(*name, {}));
  RequireReadableFile(file, "a JSON file");
  std::ifstream in(file);
  if (!in) throw IoError(file, "cannot read the section file");
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json json = ParseUserJson(text.str(), file);
  // A file holding {"NAME": ...} (a whole model fragment) gives its NAME member.
  if (json.is_object() && json.size() == 1 && json.contains(*name)) json = json[*name];
  if (const std::string problem = reports::ExtraSectionProblem(*name, json); !problem.empty()) {
    throw InputError(file, "not a " + *name + " section: " + problem);
  }
  return json;
}

}  // namespace

void RegisterReportCommand(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* report = app.add_subcommand("report", "Write the stability report (JSON, Markdown, HTML) of a store");
  report->add_option("STORE", args->store, "the run store (SQLite)")->required();
  report->add_option("--out", args->out, "folder for report.json, report.md and report.html (required)");
  report->add_option("--study", args->studies, "studies to include, by name or id (default: all)");
  report->add_option("--title", args->title, "the report's title");
  report->add_option("--section", args->sections,
                     "NAME=FILE.json: an extra section, generalization (holdout eval --json; repeat it to show "
                     "several files' image sets together) or hardware (machine --json, once), e.g. "
                     "generalization=g.json");
  report->callback([args] {
    if (args->out.empty()) {
      throw UsageError("--out", "where to write the report is required: e.g. evalsuite report " + args->store +
                                    " --out report/ writes report/report.html, report.json and report.md");
    }
    // A report of thousands of runs takes seconds: after two, a line on stderr says where it is.
    std::optional<SlowStepNotice> notice(std::in_place, std::cerr, "report");
    notice->Step("loading the runs from " + args->store);
    auto store = store::RunStore::OpenForReading(args->store);
    std::vector<store::StudyInfo> studies;
    if (args->studies.empty()) {
      studies = store->ListStudies();
      if (studies.empty()) throw UsageError(args->store, "the store holds no study yet");
    } else {
      for (const std::string& name : args->studies) studies.push_back(store::ChooseStudy(*store, name, args->store));
    }
    reports::StabilityReportInput input =
        study::BuildReportInput(*store, studies, study::StoreHardwareRows::kLeaveUndecoded);
    if (!args->title.empty()) input.title = args->title;
    std::map<std::string, std::string> given;  // section name -> the first file that gave it
    for (const std::string& spec : args->sections) {
      std::string name;
      nlohmann::json section = ReadSection(spec, &name);
      const std::string file = spec.substr(spec.find('=') + 1);
      // A second file of a section is never dropped: image sets add up (two holdouts, or two evaluations of one);
      // a report describes one machine, so a second hardware file is refused with the reason.
      if (const auto first = given.find(name); first != given.end()) {
        if (name != reports::kGeneralizationSectionKey) {
          throw UsageError("--section", name + " is given twice (" + first->second + " and " + file +
                                            "): a report describes one machine; give one " + name + " file");
        }
      }
      given.emplace(name, file);
      if (name == reports::kGeneralizationSectionKey) {
        // Decoded here, once, so that an error names the file; the report reads the typed image sets.
        reports::AddGeneralizationSection(input, section, file);
        continue;
      }
      // The store's entries (the study's own built-in runs, external entries that declared their FLOPs) join the
      // entries of `evalsuite machine`'s file, one row per entry.
      const nlohmann::json from_store =
          input.hardware_given.is_object() ? input.hardware_given : nlohmann::json::object();
      for (const std::string& entry : reports::MergeHardwareEntries(section, from_store)) {
        std::cerr << "report: hardware entry '" << entry << "' is shown from this study's runs; the row of " << file
                  << " is left out\n";
      }
      input.hardware_given = std::move(section);
    }
    reports::DecodeHardwareSection(input);  // the study's ceilings applied to every row, once
    reports::ReportModel model =
        reports::BuildStabilityReport(input, [&](const std::string& step) { notice->Step(step); });
    notice->Step("writing " + (fs::path(args->out) / "report.json").string() + ", report.html, report.md and " +
                 reports::kRunPointsFile);
    reports::WriteReport(model, reports::RunPointsJsonLines(input), args->out);
    notice.reset();  // its last line ("done in") before the summary
    // Runs as the report counts them (its "counted" flag: the one rule, reports/report_builder.cpp); interrupted
    // attempts and runs that did not run are shown in the report but said apart here.
    std::size_t runs = 0, others = 0;
    for (const reports::EntryModel& e : model.entries) {
      for (const reports::RunModel& run : e.runs) (run.counted ? runs : others) += 1;
    }
    auto plural = [](std::size_t n, const char* one, const char* many) {
      return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    std::cout << "report of " << plural(studies.size(), "study", "studies") << ", "
              << plural(input.entries.size(), "entry", "entries") << ", " << plural(runs, "run", "runs");
    if (others > 0) {
      std::cout << " (and " << plural(others, "attempt", "attempts") << " not counted: interrupted, or did not run)";
    }
    std::cout << ": " << (fs::path(args->out) / "report.html").string() << " (and report.json, report.md)\n";
  });
}

}  // namespace evalsuite::cli
