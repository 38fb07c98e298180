// evalsuite label serve|controls|agreement|export|debias: the labeling web page over a candidate manifest (or, with
// --pass 2, over a frozen holdout for labelers who did not judge its images), agreement between labelers, the
// raw label log for other tools, and the comparison of the two passes. The store defaults to labels.sqlite
// beside candidates.json; pass 2's to labels-pass2.sqlite in the holdout folder.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "common/error.h"
#include "common/json_fields.h"
#include "common/listen_port.h"
#include "datasets/images/candidate_manifest.h"
#include "datasets/images/holdout_manifest.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/option_checks.h"
#include "labeling/agreement.h"
#include "labeling/csv_cell.h"
#include "labeling/gold_controls.h"
#include "labeling/label_server.h"
#include "labeling/label_store.h"
#include "labeling/safe_path.h"
#include "labeling/second_pass.h"

namespace evalsuite::cli {
namespace {
namespace fs = std::filesystem;
using labeling::CsvRow;
using labeling::LabelStore;

struct CommonArgs {
  std::string candidates;  // DIR/candidates.json or DIR
  std::string store;       // default DIR/labels.sqlite
};

fs::path CandidatesDir(const std::string& candidates) {
  const fs::path path(candidates);
  return fs::is_directory(path) ? path : (path.has_parent_path() ? path.parent_path() : fs::path("."));
}

fs::path StoreFile(const CommonArgs& args) {
  return args.store.empty() ? CandidatesDir(args.candidates) / labeling::kDefaultStoreFile : fs::path(args.store);
}

// agreement and export read an existing store; opening a missing one would silently create an empty log.
fs::path ExistingStoreFile(const CommonArgs& args) {
  const fs::path store = StoreFile(args);
  if (!fs::exists(store)) {
    throw InputError(store.string(), "no label store here: label with `evalsuite label serve` first (or --store FILE)");
  }
  return store;
}

void AddCommonOptions(CLI::App& command, CommonArgs& args) {
  command.add_option("--candidates", args.candidates, "The candidate manifest (DIR/candidates.json or DIR)")
      ->required();
  command.add_option("--store", args.store, "The label store (SQLite); default: labels.sqlite beside the manifest");
}

std::string HostName() {
  char name[256] = {0};
  if (gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0') return "HOST";
  return name;
}

// --- serve ------------------------------------------------------------------------------------------------

struct ServeArgs {
  CommonArgs common;
  std::string labeler;
  std::string bind = "127.0.0.1";
  int port = 8080;
  std::string examples;
  std::string token;
  std::vector<std::string> allow_hosts;
  std::string instructions;
  std::vector<std::string> roster;
  std::size_t overlap = 0;
  bool shuffle = false;
  int pass = 1;
  std::string holdout;      // pass 2: the frozen holdout
  std::string pass2_store;  // pass 2: default HOLDOUT/labels-pass2.sqlite
};

fs::path SecondPassStore(const std::string& holdout, const std::string& given) {
  return given.empty() ? fs::path(holdout) / labeling::kSecondPassStoreFile : fs::path(given);
}

void RunServe(const ServeArgs& args) {
  datasets::CandidateManifest manifest = datasets::ReadCandidateManifest(args.common.candidates);
  fs::path images_dir = CandidatesDir(args.common.candidates);
  fs::path store_file = StoreFile(args.common);
  std::map<std::string, std::set<std::string>> judged_in_pass1;
  if (args.pass == 2) {
    if (args.holdout.empty()) throw UsageError("--holdout", "--pass 2 serves a frozen holdout: name its folder");
    const datasets::Holdout holdout = datasets::ReadHoldout(args.holdout);
    manifest = labeling::SecondPassManifest(manifest, holdout, args.holdout);
    LabelStore pass1(ExistingStoreFile(args.common));
    judged_in_pass1 = labeling::ItemsSeenBy(pass1.Events());
    images_dir = args.holdout;
    store_file = SecondPassStore(args.holdout, args.pass2_store);
  } else if (!args.holdout.empty() || !args.pass2_store.empty()) {
    throw UsageError("--holdout", "only --pass 2 serves a frozen holdout");
  }
  std::string problem;
  const auto labeler = labeling::NormalizeLabelerName(args.labeler, problem);
  if (!labeler) throw UsageError("--labeler", problem);
  labeling::ServerOptions options;
  options.bind = args.bind;
  options.port = args.port;
  options.default_labeler = *labeler;
  for (const std::string& name : args.roster) {
    const auto member = labeling::NormalizeLabelerName(name, problem);
    if (!member) throw UsageError("--labelers", "'" + name + "': " + problem);
    options.assignment.roster.push_back(*member);
  }
  options.assignment.overlap = args.overlap;
  options.assignment.excluded = judged_in_pass1;
  options.assignment.shuffle = args.shuffle || !args.roster.empty();
  // Refused before the store is opened or created: a roster naming one labeler twice ("ana,Ana"), and a --labeler
  // the roster leaves out, whose page would answer 403 to every request.
  labeling::CheckAssignmentPlan(options.assignment);
  if (!labeling::OnRoster(options.assignment, *labeler)) {
    std::string roster;
    for (const std::string& name : options.assignment.roster) roster += (roster.empty() ? "" : ",") + name;
    throw UsageError("--labeler", "'" + *labeler + "' is not on the roster (--labelers " + roster +
                                      "): add them to it, or serve as one of them");
  }
  options.default_labeler = labeling::RosterSpelling(options.assignment, *labeler);
  options.admin_token = labeling::RandomToken();
  for (const std::string& name : args.allow_hosts) {
    const auto host = labeling::HostOfHeader(name);
    if (!host || host->find_first_of("/?#@ ") != std::string::npos) {
      throw UsageError("--allow-host", "'" + name + "' is not a host name");
    }
    options.allow_hosts.insert(*host);
  }
  options.examples_dir = args.examples;
  if (!args.instructions.empty()) {
    std::ifstream in(args.instructions, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in || text.str().size() > 16 * 1024) {
      throw InputError(args.instructions, "cannot read the instructions (a UTF-8 text file of at most 16 KiB)");
    }
    options.instructions = text.str();
  }
  options.access_token = args.token;
  const bool loopback = labeling::IsLoopbackAddress(args.bind);
  if (!loopback && options.access_token.empty()) {
    options.access_token = labeling::RandomToken();  // never serve a non-loopback address unguarded
    std::cout << "No --token given for " << args.bind << ": generated one.\n";
  }
  // A port another server listens on is refused before the store is opened or created (common/listen_port.h).
  if (args.port != 0) {
    if (const std::string problem = ListenProblem(args.bind, args.port); !problem.empty()) {
      throw IoError("--port", problem);
    }
  }
  LabelStore store(store_file);

  // Block the stop signals before the server starts its threads, and handle them on one thread with sigwait:
  // stopping the server from a signal handler would not be async-signal-safe.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  labeling::LabelServer server(manifest, images_dir, store, options);
  const int port = server.Bind();
  const std::string host = loopback ? (args.bind == "::1" ? "[::1]" : args.bind)
                                    : (args.bind == "0.0.0.0" || args.bind == "::" ? HostName() : args.bind);
  std::string url = "http://" + host + ":" + std::to_string(port) +
                    "/?labeler=" + labeling::PercentEncode(options.default_labeler, /*keep_slash=*/false);
  if (!options.access_token.empty())
    url += "&token=" + labeling::PercentEncode(options.access_token, /*keep_slash=*/false);
  std::cout << "Labeling " << server.item_count()
            << (args.pass == 2 ? " frozen images (pass 2: each labeler gets only "
                                 "those they did not judge in pass 1)"
                               : " candidates")
            << " of " << manifest.classes.size() << " classes as " << options.default_labeler << "\n"
            << "Store: " << store.file().string() << "\n"
            << "Open: " << url << "\n"
            << "Other labelers: the same URL with their own ?labeler=NAME. Stop with Ctrl-C.\n"
            << "Progress (organizer only): " << url.substr(0, url.find("/?")) << "/admin?admin=" << options.admin_token
            << (options.access_token.empty() ? "" : "&token=" + options.access_token) << std::endl;

  std::atomic<bool> run_returned{false};
  std::thread signal_thread([&server, &run_returned, stop_signals] {
    int signal_number = 0;
    sigwait(&stop_signals, &signal_number);
    while (!run_returned && !server.running()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!run_returned) server.Stop();
  });
  server.Run();
  run_returned = true;
  pthread_kill(signal_thread.native_handle(), SIGTERM);  // wakes the signal thread if Run ended on its own
  signal_thread.join();
  std::cout << "Stopped; every acknowledged decision is in " << store.file().string() << std::endl;
}

// --- agreement --------------------------------------------------------------------------------------------

struct AgreementArgs {
  CommonArgs common;
  std::string format = "text";
  std::string out;
};

void WriteOutput(const std::string& out, const std::string& text) {
  if (out.empty() || out == "-") {
    std::cout << text;
    std::cout.flush();
    return;
  }
  const fs::path tmp = fs::path(out).string() + ".tmp";
  {
    std::ofstream file(tmp, std::ios::binary);
    if (!file) throw IoError(out, "cannot write");
    file << text;
    if (!file.flush()) throw IoError(out, "cannot write");
  }
  std::error_code error;
  fs::rename(tmp, out, error);
  if (error) throw IoError(out, "cannot write: " + error.message());
}

void RunAgreement(const AgreementArgs& args) {
  const datasets::CandidateManifest manifest = datasets::ReadCandidateManifest(args.common.candidates);
  LabelStore store(ExistingStoreFile(args.common));
  const auto report = labeling::ComputeAgreement(manifest, labeling::CurrentDecisions(store.Events()));
  WriteOutput(args.out,
              args.format == "json" ? labeling::ToJson(report).dump(2) + "\n" : labeling::RenderAgreementText(report));
}

// --- export -----------------------------------------------------------------------------------------------

struct ExportArgs {
  CommonArgs common;
  std::string format = "jsonl";
  std::string out;
  bool decisions = false;
};

std::string FormatSeconds(double seconds) {
  std::ostringstream out;
  out << seconds;
  return out.str();
}

void RunExport(const ExportArgs& args) {
  const datasets::CandidateManifest manifest = datasets::ReadCandidateManifest(args.common.candidates);
  LabelStore store(ExistingStoreFile(args.common));
  std::unordered_map<std::string, const datasets::Candidate*> by_id;
  for (const auto& item : manifest.items) by_id.emplace(item.id, &item);
  auto wnid_of = [&](const std::string& id) { return by_id.count(id) ? by_id[id]->wnid : std::string(); };
  auto class_of = [&](const std::string& id) { return by_id.count(id) ? by_id[id]->class_index : -1; };
  auto control_of = [&](const std::string& id) { return by_id.count(id) ? by_id[id]->control : std::string(); };
  const bool csv = args.format == "csv";
  std::string text;
  const std::vector<labeling::LabelEvent> events = store.Events();
  // Every field the store records goes out (the export is how a team moves its labels to its own tools); a
  // decision row carries the fields of the event that made it.
  std::unordered_map<int64_t, const labeling::LabelEvent*> by_seq;
  for (const labeling::LabelEvent& e : events) by_seq.emplace(e.seq, &e);
  if (args.decisions) {
    if (csv) {
      text += CsvRow({"item", "wnid", "class_index", "labeler", "label", "seq", "control", "time", "seconds",
                      "image_sha256", "displayed_at"});
    }
    for (const auto& [key, d] : labeling::CurrentDecisions(events)) {
      const std::string label(labeling::LabelName(d.label));
      const labeling::LabelEvent& e = *by_seq.at(d.seq);
      if (csv) {
        text += CsvRow({d.item_id, wnid_of(d.item_id), std::to_string(class_of(d.item_id)), d.labeler, label,
                        std::to_string(d.seq), control_of(d.item_id), e.time, FormatSeconds(e.seconds), e.image_sha256,
                        e.displayed_at});
      } else {
        text += nlohmann::json{{"item", d.item_id},
                               {"wnid", wnid_of(d.item_id)},
                               {"class_index", class_of(d.item_id)},
                               {"labeler", d.labeler},
                               {"label", label},
                               {"seq", d.seq},
                               {"control", control_of(d.item_id)},
                               {"time", e.time},
                               {"seconds", e.seconds},
                               {"image_sha256", e.image_sha256},
                               {"displayed_at", e.displayed_at}}
                    .dump() +
                "\n";
      }
    }
  } else {
    if (csv) {
      text += CsvRow({"seq", "time", "labeler", "item", "wnid", "class_index", "action", "label", "undoes", "seconds",
                      "control", "image_sha256", "displayed_at"});
    }
    for (const labeling::LabelEvent& e : events) {
      const std::string action = e.is_undo ? "undo" : "label";
      const std::string label(labeling::LabelName(e.label));
      if (csv) {
        text += CsvRow({std::to_string(e.seq), e.time, e.labeler, e.item_id, wnid_of(e.item_id),
                        std::to_string(class_of(e.item_id)), action, label, e.is_undo ? std::to_string(e.undoes) : "",
                        FormatSeconds(e.seconds), control_of(e.item_id), e.image_sha256, e.displayed_at});
      } else {
        nlohmann::json row = {{"seq", e.seq},
                              {"time", e.time},
                              {"labeler", e.labeler},
                              {"item", e.item_id},
                              {"wnid", wnid_of(e.item_id)},
                              {"class_index", class_of(e.item_id)},
                              {"action", action},
                              {"label", label},
                              {"seconds", e.seconds},
                              {"control", control_of(e.item_id)},
                              {"image_sha256", e.image_sha256},
                              {"displayed_at", e.displayed_at}};
        if (e.is_undo) row["undoes"] = e.undoes;
        text += row.dump() + "\n";
      }
    }
  }
  WriteOutput(args.out, text);
}

// --- controls ---------------------------------------------------------------------------------------------

struct ControlsArgs {
  CommonArgs common;
  std::string answers;  // CSV of known answers
  bool from_labels = false;
  std::size_t min_votes = 3;
  std::size_t count = 20;
  uint64_t seed = 0;
  bool clear = false;
};

void RunControls(const ControlsArgs& args) {
  if (args.from_labels && !args.answers.empty()) {
    throw UsageError("--answers", "give --answers FILE or --from-labels, not both");
  }
  if (!args.from_labels && args.answers.empty() && !args.clear) {
    throw UsageError("--answers",
                     "say where the known answers come from: --answers FILE (ITEM,ANSWER lines) or "
                     "--from-labels (items the team judged unanimously)");
  }
  const fs::path manifest_file = CandidatesDir(args.common.candidates) / datasets::kCandidateManifestFile;
  datasets::CandidateManifest manifest = datasets::ReadCandidateManifest(args.common.candidates);
  std::vector<labeling::ControlAnswer> answers;
  std::string source;
  if (!args.answers.empty()) {
    answers = labeling::ReadControlAnswers(args.answers, manifest);
    source = args.answers;
  } else if (args.from_labels) {
    LabelStore store(ExistingStoreFile(args.common));
    answers = labeling::ControlsFromLabels(manifest, labeling::CurrentDecisions(store.Events()), args.min_votes,
                                           args.count, args.seed);
    source = "items judged unanimously by at least " + std::to_string(args.min_votes) + " labelers in " +
             store.file().string();
    if (answers.empty()) {
      throw InputError(store.file().string(), "no item qualifies as a control: none has at least " +
                                                  std::to_string(args.min_votes) +
                                                  " votes, all alike and none unsure (lower --min-votes, or "
                                                  "give known answers with --answers FILE)");
    }
  }
  const labeling::ControlsChange change = labeling::ApplyControls(manifest, answers, args.clear);
  datasets::WriteCandidateManifest(manifest, manifest_file);
  std::cout << manifest_file.string() << ": " << change.correct + change.incorrect << " hidden controls ("
            << change.correct << " correct, " << change.incorrect << " incorrect)";
  if (!source.empty()) {
    std::cout << "; " << change.added << " added, " << change.changed << " changed from " << source;
  }
  if (change.cleared > 0) std::cout << "; " << change.cleared << " cleared first";
  std::cout << "\nLabelers cannot tell them from other items; they are left out of the freeze. Each labeler's "
               "accuracy on them, with its 95% interval: `evalsuite label agreement` and the admin page (a running "
               "`label serve` sees them after a restart).\n";
}

// --- debias -----------------------------------------------------------------------------------------------

struct DebiasArgs {
  CommonArgs common;
  std::string holdout;
  std::string pass2_store;
  std::string eval;  // holdout eval's JSON: its predictions file gives each model's per-image top-1
  std::string format = "text";
  std::string out;
};

// Each model's per-image top-1 on `holdout`, from the image set of `eval_json` that evaluated this very holdout.
std::vector<labeling::ModelOutcome> ModelOutcomesFromEval(const fs::path& eval_json, const datasets::Holdout& holdout) {
  std::ifstream in(eval_json, std::ios::binary);
  if (!in) throw IoError(eval_json.string(), "cannot read holdout eval's JSON");
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(eval_json.string(), std::string("not valid JSON: ") + e.what());
  }
  const nlohmann::json sets = doc.is_array() ? doc : nlohmann::json::array({doc});
  // Typed reads (common/json_fields.h): a field of the wrong type is an input error naming the file and field, not
  // nlohmann's type_error, which reads as an internal error.
  const std::string where = eval_json.string();
  for (const nlohmann::json& set : sets) {
    if (!set.is_object() || OptionalString(set, "holdout_version", where).value_or("") != holdout.version_hash)
      continue;
    const std::string predictions_file = OptionalString(set, "predictions_file", where).value_or("");
    if (predictions_file.empty()) {
      throw InputError(eval_json.string(), "the image set has no predictions_file: run holdout eval with --json");
    }
    const std::string image_set = OptionalString(set, "image_set", where).value_or("");
    std::map<std::string, std::size_t> position;
    for (std::size_t i = 0; i < holdout.items.size(); ++i) position[holdout.items[i].id] = i;
    std::map<std::string, labeling::ModelOutcome> by_model;
    if (const nlohmann::json* models = OptionalArray(set, "models", where)) {
      for (std::size_t i = 0; i < models->size(); ++i) {
        const std::string model_where = where + ": models[" + std::to_string(i) + "]";
        const std::string name = OptionalString((*models)[i], "name", model_where).value_or("");
        labeling::ModelOutcome& m = by_model[name];
        m.name = name;
        m.group = OptionalString((*models)[i], "group", model_where).value_or("");
        m.top1.assign(holdout.items.size(), -1);
        m.top5.assign(holdout.items.size(), -1);
      }
    }
    std::ifstream lines(predictions_file, std::ios::binary);
    if (!lines) throw IoError(predictions_file, "cannot read the predictions file");
    std::string line;
    for (std::size_t number = 1; std::getline(lines, line); ++number) {
      nlohmann::json p;
      try {
        p = nlohmann::json::parse(line);
      } catch (const nlohmann::json::exception&) {
        throw InputError(predictions_file + ":" + std::to_string(number), "not a JSON line");
      }
      const std::string line_where = predictions_file + ":" + std::to_string(number);
      if (OptionalString(p, "image_set", line_where).value_or("") != image_set) continue;
      const auto model = by_model.find(OptionalString(p, "model", line_where).value_or(""));
      const auto at = position.find(OptionalString(p, "id", line_where).value_or(""));
      if (model == by_model.end() || at == position.end()) continue;
      for (const auto& [key, outcomes] :
           {std::pair{"top1_correct", &model->second.top1}, std::pair{"top5_correct", &model->second.top5}}) {
        if (!p.contains(key)) continue;
        if (!p[key].is_number_integer() || (p[key] != 0 && p[key] != 1)) {
          throw InputError(predictions_file + ":" + std::to_string(number), std::string(key) + " is not 0 or 1");
        }
        (*outcomes)[at->second] = p[key].get<int>();
      }
    }
    std::vector<labeling::ModelOutcome> outcomes;
    for (auto& [name, outcome] : by_model) outcomes.push_back(std::move(outcome));
    return outcomes;
  }
  throw InputError(eval_json.string(), "no image set evaluated holdout version " + holdout.version_hash.substr(0, 12));
}

void RunDebias(const DebiasArgs& args) {
  const datasets::Holdout holdout = datasets::ReadHoldout(args.holdout);
  const datasets::CandidateManifest pass2_manifest =
      labeling::SecondPassManifest(datasets::ReadCandidateManifest(args.common.candidates), holdout, args.holdout);
  const fs::path pass2_file = SecondPassStore(args.holdout, args.pass2_store);
  if (!fs::exists(pass2_file)) {
    throw InputError(pass2_file.string(), "no pass-2 labels: run `evalsuite label serve --pass 2` first");
  }
  LabelStore pass2(pass2_file);
  const auto agreement = labeling::ComputeAgreement(pass2_manifest, labeling::CurrentDecisions(pass2.Events()));
  std::vector<labeling::FrequencyPair> frequencies;
  for (std::size_t i = 0; i < holdout.items.size(); ++i) {
    const labeling::ItemAgreement& item = agreement.items[i];
    frequencies.push_back({holdout.items[i].frequency, item.selection_frequency(), static_cast<int>(item.labelers()),
                           static_cast<int>(item.correct)});
  }
  // The sampling's aim over the classes it sampled: the pass-1 candidates' classes (and any class of the holdout).
  std::set<std::string> classes;
  for (const auto& [wnid, c] : pass2_manifest.classes) classes.insert(wnid);
  for (const datasets::HoldoutItem& item : holdout.items) classes.insert(item.wnid);
  const std::optional<std::array<double, stats::kFrequencyBins>> target =
      labeling::SamplingTarget(holdout.rule, std::vector<std::string>(classes.begin(), classes.end()), args.holdout);
  const std::vector<labeling::ModelOutcome> models =
      args.eval.empty() ? std::vector<labeling::ModelOutcome>{} : ModelOutcomesFromEval(args.eval, holdout);
  const labeling::SecondPassReport report = labeling::CompareSecondPass(frequencies, models, target);
  WriteOutput(args.out,
              args.format == "json" ? labeling::ToJson(report).dump(2) + "\n" : labeling::RenderSecondPassText(report));
}

}  // namespace

void RegisterLabelCommand(CLI::App& app) {
  CLI::App* label =
      app.add_subcommand("label",
                         "Label candidate images in the browser; hidden controls; agreement; export labels; pass 2 "
                         "debias");
  label->require_subcommand(1);

  auto serve_args = std::make_shared<ServeArgs>();
  CLI::App* serve = label->add_subcommand("serve",
                                          "Serve the labeling page: one candidate at a time or a grid per class (g); "
                                          "keys y/n/d, s skips, u undoes, ? lists them");
  AddCommonOptions(*serve, serve_args->common);
  serve->add_option("--labeler", serve_args->labeler, "Your name as it goes into the store (others add ?labeler=)")
      ->required();
  serve->add_option("--bind", serve_args->bind, "Address to listen on; anything but loopback requires a token")
      ->capture_default_str();
  serve->add_option("--port", serve_args->port, "Port (0: any free port)")->capture_default_str()->check(PortNumber());
  serve
      ->add_option("--examples", serve_args->examples,
                   "Folder of example images per class: DIR/<wnid>/*.jpg or DIR/<wnid>_*.jpg")
      ->check(CLI::ExistingDirectory);
  serve->add_option("--token", serve_args->token,
                    "Access token every request must carry (generated when binding a non-loopback address)");
  serve
      ->add_option("--instructions", serve_args->instructions,
                   "Text file: what counts as correct, shown on the page (default: ImageNetV2's wording)")
      ->check(CLI::ExistingFile);
  serve
      ->add_option("--labelers", serve_args->roster,
                   "The team roster (comma-separated): only they may label; names compare without case (after NFKC), "
                   "so \"ana,Ana\" is refused")
      ->delimiter(',');
  serve
      ->add_option("--overlap", serve_args->overlap,
                   "Labelers per item with a roster (e.g. 3): each item goes to that many of them in rotation")
      ->check(WholeNumber(0, 1000));
  serve->add_flag("--shuffle", serve_args->shuffle,
                  "Each labeler gets an order of their own (classes and items shuffled; on with --labelers)");
  serve->add_option("--allow-host", serve_args->allow_hosts,
                    "A host name the page may be opened under besides IP addresses and localhost (repeatable); "
                    "other Host headers are refused (DNS rebinding)");
  serve
      ->add_option("--pass", serve_args->pass,
                   "2: serve the frozen --holdout again, each image only to labelers who did not judge it in "
                   "pass 1 (the store named by --store), into --pass2-store")
      ->check(CLI::IsMember({1, 2}))
      ->capture_default_str();
  serve->add_option("--holdout", serve_args->holdout, "Pass 2: the frozen holdout folder");
  serve->add_option("--pass2-store", serve_args->pass2_store,
                    "Pass 2: its label store (default: labels-pass2.sqlite in the holdout folder)");
  serve->callback([serve_args] { RunServe(*serve_args); });

  auto debias_args = std::make_shared<DebiasArgs>();
  CLI::App* debias =
      label->add_subcommand("debias",
                            "Pass 1 against pass 2 (label serve --pass 2): the frequency shift, and each model's top-1 "
                            "corrected for it (Engstrom et al. 2020)");
  AddCommonOptions(*debias, debias_args->common);
  debias->add_option("--holdout", debias_args->holdout, "The frozen holdout")->required();
  debias->add_option("--pass2-store", debias_args->pass2_store, "Pass 2's store (default: in the holdout folder)");
  debias->add_option("--eval", debias_args->eval,
                     "holdout eval's --json output for this holdout (its predictions file gives each model's images)");
  debias->add_option("--format", debias_args->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  debias->add_option("--out", debias_args->out, "Write to FILE instead of standard output");
  debias->callback([debias_args] { RunDebias(*debias_args); });

  auto agreement_args = std::make_shared<AgreementArgs>();
  CLI::App* agreement = label->add_subcommand(
      "agreement", "Selection frequency per item, Cohen's/Fleiss' kappa, labeler accuracy on hidden controls");
  AddCommonOptions(*agreement, agreement_args->common);
  agreement->add_option("--format", agreement_args->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  agreement->add_option("--out", agreement_args->out, "Write to FILE instead of standard output");
  agreement->callback([agreement_args] { RunAgreement(*agreement_args); });

  auto controls_args = std::make_shared<ControlsArgs>();
  CLI::App* controls = label->add_subcommand(
      "controls",
      "Make hidden controls (gold items) from known answers or unanimous labels; labelers' accuracy on them is in "
      "agreement and the admin page");
  AddCommonOptions(*controls, controls_args->common);
  controls
      ->add_option("--answers", controls_args->answers,
                   "CSV of known answers, one a line: ITEM,ANSWER (ITEM an item id or image path; ANSWER correct "
                   "or incorrect)")
      ->check(CLI::ExistingFile);
  controls->add_flag("--from-labels", controls_args->from_labels,
                     "Take items the team judged unanimously (no unsure vote) as controls");
  controls->add_option("--min-votes", controls_args->min_votes, "--from-labels: votes an item needs")
      ->capture_default_str()
      ->check(WholeNumber(1, 1000));
  controls
      ->add_option("--count", controls_args->count,
                   "--from-labels: how many controls to add (half correct, half incorrect where possible)")
      ->capture_default_str()
      ->check(WholeNumber(1, 1000000));
  controls->add_option("--seed", controls_args->seed, "--from-labels: which items are chosen")->capture_default_str();
  controls->add_flag("--clear", controls_args->clear, "Remove every existing control first (alone: just remove them)");
  controls->callback([controls_args] { RunControls(*controls_args); });

  auto export_args = std::make_shared<ExportArgs>();
  CLI::App* export_command =
      label->add_subcommand("export", "Write the label log (every event, undos included) as JSON Lines or CSV");
  AddCommonOptions(*export_command, export_args->common);
  export_command->add_option("--format", export_args->format, "jsonl or csv")
      ->check(CLI::IsMember({"jsonl", "csv"}))
      ->capture_default_str();
  export_command->add_option("--out", export_args->out, "Write to FILE instead of standard output");
  export_command->add_flag("--decisions", export_args->decisions,
                           "One row per item and labeler with the standing label, instead of every event");
  export_command->callback([export_args] { RunExport(*export_args); });
}

}  // namespace evalsuite::cli
