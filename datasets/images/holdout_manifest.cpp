#include "datasets/images/holdout_manifest.h"

#include <fstream>
#include <sstream>

#include "common/atomic_file.h"
#include "common/environment.h"
#include "common/error.h"
#include "common/json_fields.h"
#include "common/json_guard.h"
#include "common/sha256.h"
#include "datasets/images/candidate_manifest.h"

namespace evalsuite::datasets {
namespace {
using nlohmann::json;
}  // namespace

json ItemsToJson(const std::vector<HoldoutItem>& items) {
  json array = json::array();
  for (const HoldoutItem& item : items) {
    array.push_back({{"id", item.id},
                     {"class_index", item.class_index},
                     {"wnid", item.wnid},
                     {"class_name", item.class_name},
                     {"path", item.path},
                     {"sha256", item.sha256},
                     {"labels", item.labels},
                     {"frequency", item.frequency}});
  }
  return array;
}

std::string ComputeHoldoutVersionHash(const Holdout& holdout) {
  // nlohmann::json keeps object keys sorted, so dump() is a canonical serialization.
  if (holdout.schema_version == 1) return Sha256Hex(ItemsToJson(holdout.items).dump());
  const json covered = {{"class_list", holdout.class_list},
                        {"class_names", holdout.class_names},
                        {"rule", holdout.rule},
                        {"items", ItemsToJson(holdout.items)}};
  return Sha256Hex(covered.dump());
}

void WriteHoldout(Holdout holdout, const std::filesystem::path& dir) {
  holdout.schema_version = kHoldoutSchemaVersion;
  holdout.version_hash = ComputeHoldoutVersionHash(holdout);
  if (holdout.created_at.empty()) holdout.created_at = UtcNowIso8601();
  json root = {{"schema_version", kHoldoutSchemaVersion},
               {"name", holdout.name},
               {"class_list", holdout.class_list},
               {"class_names", holdout.class_names},
               {"rule", holdout.rule},
               {"created_at", holdout.created_at},
               {"version_hash", holdout.version_hash},
               {"items", ItemsToJson(holdout.items)}};
  WriteFileAtomically(dir / kHoldoutManifestFile, root.dump(1) + "\n");
}

Holdout ReadHoldout(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / kHoldoutManifestFile;
  const std::string where = file.string();
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(where, "cannot open the holdout manifest (is this a frozen holdout folder?)");
  std::stringstream text;
  text << in.rdbuf();
  const json root = ParseUserJson(text.str(), where);
  RequireObject(root, where);
  const std::optional<int64_t> version = OptionalInteger(root, "schema_version", where, 0, 2147483647);
  if (version != 1 && version != kHoldoutSchemaVersion) {
    throw InputError(where + ".schema_version", version ? "is " + std::to_string(*version) + ", this evalsuite reads " +
                                                              std::to_string(kHoldoutSchemaVersion)
                                                        : std::string("missing"));
  }
  Holdout holdout;
  holdout.schema_version = static_cast<int>(*version);
  holdout.name = OptionalString(root, "name", where).value_or("");
  holdout.class_list = OptionalString(root, "class_list", where).value_or("imagenet-1k");
  holdout.class_names = OptionalStringArray(root, "class_names", where).value_or(std::vector<std::string>{});
  if (const json* rule = OptionalObject(root, "rule", where)) holdout.rule = *rule;
  holdout.created_at = OptionalString(root, "created_at", where).value_or("");
  holdout.version_hash = RequiredString(root, "version_hash", where);
  const json* items = OptionalArray(root, "items", where);
  if (items == nullptr) throw InputError(where + ": items", "missing");
  for (size_t i = 0; i < items->size(); ++i) {
    const std::string item_where = where + ": items[" + std::to_string(i) + "]";
    const json& j = (*items)[i];
    RequireObject(j, item_where);
    HoldoutItem item;
    item.id = RequiredString(j, "id", item_where);
    item.class_index = static_cast<int>(RequiredInteger(j, "class_index", item_where, -1, 2147483647));
    item.wnid = OptionalString(j, "wnid", item_where).value_or("");
    item.class_name = OptionalString(j, "class_name", item_where).value_or("");
    item.path = RequiredString(j, "path", item_where);
    item.sha256 = RequiredString(j, "sha256", item_where);
    if (const json* labels = OptionalObject(j, "labels", item_where)) item.labels = *labels;
    item.frequency = OptionalNumber(j, "frequency", item_where).value_or(1.0);
    if (item.path.find("..") != std::string::npos || (!item.path.empty() && item.path.front() == '/')) {
      throw InputError(item_where + ".path", "must stay inside the holdout folder");
    }
    holdout.items.push_back(std::move(item));
  }
  return holdout;
}

namespace {
// The problems' wording, which HoldoutProblemsAdvice recognizes them by.
constexpr const char* kManifestModified = ": the manifest was modified";
constexpr const char* kFileMissing = ": missing";
constexpr const char* kImageChanged = " differs from the manifest's ";

bool EndsWith(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}
}  // namespace

std::string HoldoutProblemsAdvice(const std::vector<std::string>& problems, const std::string& missing_option) {
  bool manifest = false, changed = false, missing = false;
  for (const std::string& problem : problems) {
    manifest = manifest || EndsWith(problem, kManifestModified);
    missing = missing || EndsWith(problem, kFileMissing);
    changed = changed || problem.find(kImageChanged) != std::string::npos;
  }
  std::string advice;
  auto add = [&advice](const std::string& sentence) { advice += (advice.empty() ? "" : "\n") + sentence; };
  if (manifest) {
    add("What to do: put back the manifest.json the freeze wrote (from a copy or version control); to change the "
        "holdout, re-freeze it (evalsuite holdout freeze --candidates DIR --out NEW_FOLDER): a new version, so that "
        "results on the old one stay comparable among themselves");
  }
  if (changed) {
    add("What to do: put back the original image files (the manifest holds each one's SHA-256), or re-freeze "
        "(evalsuite holdout freeze ... --out NEW_FOLDER) to make a version with the new images");
  }
  if (missing) {
    add(missing_option.empty()
            ? "What to do: put the missing files back, or re-freeze without them"
            : "What to do: put the missing files back, or pass " + missing_option +
                  " to evaluate without them (each counts as unreadable and is listed in the results)");
  }
  return advice;
}

std::vector<std::string> VerifyHoldout(const Holdout& holdout, const std::filesystem::path& dir) {
  std::vector<std::string> problems;
  const std::string computed = ComputeHoldoutVersionHash(holdout);
  if (computed != holdout.version_hash) {
    problems.push_back((dir / kHoldoutManifestFile).string() + ": version_hash " + holdout.version_hash +
                       " does not match " +
                       (holdout.schema_version == 1 ? "the items" : "the class list, class names, rule and items") +
                       " (" + computed + ")" + kManifestModified);
  }
  for (const HoldoutItem& item : holdout.items) {
    const std::filesystem::path file = dir / item.path;
    if (!std::filesystem::exists(file)) {
      problems.push_back(file.string() + kFileMissing);
      continue;
    }
    const std::string actual = Sha256FileHex(file);
    if (actual != item.sha256) {
      problems.push_back(file.string() + ": SHA-256 " + actual + kImageChanged + item.sha256);
    }
  }
  return problems;
}

}  // namespace evalsuite::datasets
