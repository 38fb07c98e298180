#include "labeling/holdout_freeze.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>

#include "common/environment.h"
#include "common/error.h"
#include "common/sha256.h"
#include "labeling/candidate_fields_json.h"
#include "labeling/label_server.h"
#include "labeling/safe_path.h"

namespace evalsuite::labeling {
namespace fs = std::filesystem;

bool FreezeRule::Accepts(const ItemAgreement& item) const {
  const std::size_t n = item.labelers();
  if (n == 0 || n < min_labelers) return false;
  if (kind == Kind::kMajority) return 2 * item.correct > n;
  if (kind == Kind::kDawidSkeneAtLeast) return item.dawid_skene >= min_frequency;  // false for NaN
  return item.selection_frequency() >= min_frequency;
}

FreezeRule ParseFreezeRule(const std::string& text, std::size_t min_labelers) {
  FreezeRule rule;
  rule.text = text;
  rule.min_labelers = min_labelers;
  if (min_labelers < 1) throw UsageError("--min-labelers", "must be at least 1");
  if (text == "majority") return rule;
  for (const auto& [prefix, kind] :
       {std::pair<std::string, FreezeRule::Kind>{"frequency>=", FreezeRule::Kind::kFrequencyAtLeast},
        {"dawid-skene>=", FreezeRule::Kind::kDawidSkeneAtLeast}}) {
    if (text.rfind(prefix, 0) != 0) continue;
    const std::string number = text.substr(prefix.size());
    std::size_t used = 0;
    double value = NAN;
    try {
      value = std::stod(number, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != number.size() || !(value >= 0 && value <= 1)) {
      throw UsageError("--rule", "'" + text + "': the " +
                                     (kind == FreezeRule::Kind::kFrequencyAtLeast ? "frequency" : "probability") +
                                     " must be a number between 0 and 1");
    }
    rule.kind = kind;
    rule.min_frequency = value;
    return rule;
  }
  throw UsageError("--rule", "'" + text +
                                 "' is not a rule: use majority, frequency>=X (e.g. frequency>=0.7) or dawid-skene>=P "
                                 "(e.g. dawid-skene>=0.9)");
}

namespace {

// Removes the staging folder unless the freeze completed.
class StagingDir {
 public:
  explicit StagingDir(fs::path path) : path_(std::move(path)) {}
  ~StagingDir() {
    if (!committed_) {
      std::error_code ignored;
      fs::remove_all(path_, ignored);
    }
  }
  const fs::path& path() const { return path_; }
  void Commit() { committed_ = true; }

 private:
  fs::path path_;
  bool committed_ = false;
};

}  // namespace

FreezeSummary FreezeHoldout(const datasets::CandidateManifest& manifest, const fs::path& candidates_dir,
                            const std::map<std::pair<std::string, std::string>, Decision>& decisions,
                            const FreezeRule& rule, const fs::path& out_dir, const std::string& name) {
  std::error_code error;
  if (fs::exists(out_dir, error) && !(fs::is_directory(out_dir, error) && fs::is_empty(out_dir, error))) {
    throw UsageError("--out", out_dir.string() + " exists and is not empty: a frozen holdout is never overwritten");
  }
  const fs::path root = fs::canonical(candidates_dir, error);
  if (error) throw IoError(candidates_dir.string(), "cannot open the candidate folder: " + error.message());

  const AgreementReport agreement = ComputeAgreement(manifest, decisions);
  FreezeSummary summary;
  summary.candidates = manifest.items.size();
  datasets::Holdout& holdout = summary.holdout;
  holdout.name = name.empty() ? out_dir.filename().string() : name;
  holdout.class_list = CandidateClassListFromJson(manifest.source);
  holdout.rule = {{"rule", rule.text},
                  {"min_labelers", rule.min_labelers},
                  {"labelers", agreement.labelers},
                  {"fleiss_kappa", std::isnan(agreement.fleiss.kappa) ? nlohmann::json(nullptr)
                                                                      : nlohmann::json(agreement.fleiss.kappa)},
                  {"controls_left_out", true},
                  {"near_duplicates_left_out", !rule.keep_near_duplicates}};
  if (rule.sampling) holdout.rule["rule"] = "sampling:" + rule.sampling->text;
  holdout.created_at = UtcNowIso8601();
  if (holdout.class_list != "imagenet-1k") {
    for (const auto& [wnid, c] : manifest.classes) {
      if (c.index < 0) continue;
      if (holdout.class_names.size() <= static_cast<std::size_t>(c.index)) holdout.class_names.resize(c.index + 1);
      holdout.class_names[c.index] = c.synonyms.empty() ? wnid : c.synonyms.front();
    }
  }

  std::vector<std::size_t> chosen;
  std::vector<bool> eligible(manifest.items.size(), false);
  const std::size_t min_labelers = rule.sampling ? rule.sampling->min_votes : rule.min_labelers;
  for (std::size_t i = 0; i < manifest.items.size(); ++i) {
    const datasets::Candidate& candidate = manifest.items[i];
    const ItemAgreement& item = agreement.items[i];  // ComputeAgreement keeps manifest order
    if (!candidate.control.empty()) {
      ++summary.controls_left_out;
    } else if (!rule.keep_near_duplicates && candidate.near_duplicates.is_array() &&
               !candidate.near_duplicates.empty()) {
      ++summary.near_duplicates_left_out;
    } else if (item.labelers() == 0 || item.labelers() < min_labelers) {
      ++summary.too_few_labelers;
    } else if (rule.sampling) {
      eligible[i] = true;
    } else if (!rule.Accepts(item)) {
      ++summary.rejected_by_rule;
    } else {
      chosen.push_back(i);
    }
  }
  if (rule.sampling) {
    summary.sampling = SampleHoldout(manifest, agreement, eligible, *rule.sampling);
    chosen = summary.sampling->chosen;
    holdout.rule["min_labelers"] = min_labelers;
    holdout.rule["sampling"] = SamplingToJson(*rule.sampling, *summary.sampling);
    std::size_t eligible_count = 0;
    for (bool e : eligible) eligible_count += e ? 1 : 0;
    summary.rejected_by_rule = eligible_count - chosen.size();  // eligible but not drawn
    // Sampling has no rule to blame: what leaves nothing to draw from is --min-votes (or the variant's own bar).
    if (eligible_count == 0) {
      throw InputError("--min-votes", "no candidate has " + std::to_string(min_labelers) + " or more votes (" +
                                          std::to_string(summary.too_few_labelers) +
                                          " with fewer): lower --min-votes or label more; nothing frozen");
    }
    if (chosen.empty()) {
      throw InputError("--sampling", "'" + rule.sampling->text + "' draws none of the " +
                                         std::to_string(eligible_count) + " candidates with " +
                                         std::to_string(min_labelers) + " or more votes: nothing frozen");
    }
  }
  if (chosen.empty()) {
    throw InputError("--rule", "no candidate meets '" + rule.text + "' with at least " +
                                   std::to_string(rule.min_labelers) + " labelers (" +
                                   std::to_string(summary.too_few_labelers) + " with too few labelers, " +
                                   std::to_string(summary.rejected_by_rule) + " rejected by the rule): nothing frozen");
  }
  std::stable_sort(chosen.begin(), chosen.end(), [&manifest](std::size_t a, std::size_t b) {
    return std::tie(manifest.items[a].class_index, manifest.items[a].rank) <
           std::tie(manifest.items[b].class_index, manifest.items[b].rank);
  });

  const fs::path parent = out_dir.has_parent_path() ? out_dir.parent_path() : fs::path(".");
  fs::create_directories(parent, error);
  if (error) throw IoError(parent.string(), "cannot create the folder: " + error.message());
  StagingDir staging(parent / ("." + out_dir.filename().string() + ".freezing-" + RandomToken().substr(0, 12)));
  fs::create_directories(staging.path(), error);
  if (error) throw IoError(staging.path().string(), "cannot create the folder: " + error.message());

  for (std::size_t i : chosen) {
    const datasets::Candidate& candidate = manifest.items[i];
    const ItemAgreement& item = agreement.items[i];
    const std::string where = (candidates_dir / candidate.path).string();
    const auto source = ResolveInside(root, candidate.path);
    if (!source) throw InputError(where, "missing, or not inside the candidate folder (item " + candidate.id + ")");
    const std::string sha256 = Sha256FileHex(*source);
    if (sha256 != candidate.sha256) {
      throw InputError(where, "SHA-256 " + sha256 + " differs from the manifest's " + candidate.sha256 +
                                  ": the image changed after it was labeled");
    }
    const fs::path target = staging.path() / candidate.path;
    fs::create_directories(target.parent_path(), error);
    if (!error) fs::copy_file(*source, target, fs::copy_options::overwrite_existing, error);
    if (error) throw IoError(target.string(), "cannot copy the image: " + error.message());

    datasets::HoldoutItem entry;
    entry.id = candidate.id;
    entry.class_index = candidate.class_index;
    entry.wnid = candidate.wnid;
    const auto c = manifest.classes.find(candidate.wnid);
    entry.class_name =
        c == manifest.classes.end() || c->second.synonyms.empty() ? candidate.wnid : c->second.synonyms.front();
    entry.path = candidate.path;
    entry.sha256 = sha256;
    entry.labels = {{"correct", item.correct}, {"incorrect", item.incorrect}, {"unsure", item.unsure}};
    entry.frequency = item.selection_frequency();
    if (!std::isnan(item.dawid_skene)) entry.labels["dawid_skene"] = item.dawid_skene;
    holdout.items.push_back(std::move(entry));
  }
  summary.selected = holdout.items.size();

  datasets::WriteHoldout(holdout, staging.path());
  const datasets::Holdout written = datasets::ReadHoldout(staging.path());
  const std::vector<std::string> problems = datasets::VerifyHoldout(written, staging.path());
  if (!problems.empty()) throw IoError(staging.path().string(), "the frozen holdout does not verify: " + problems[0]);
  holdout.version_hash = written.version_hash;

  if (fs::exists(out_dir, error)) fs::remove(out_dir, error);  // empty (checked above)
  fs::rename(staging.path(), out_dir, error);
  if (error) throw IoError(out_dir.string(), "cannot move the frozen holdout into place: " + error.message());
  staging.Commit();
  return summary;
}

}  // namespace evalsuite::labeling
