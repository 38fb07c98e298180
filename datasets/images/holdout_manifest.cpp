#include "datasets/images/holdout_manifest.h"

#include <fstream>

#include "datasets/images/candidate_manifest.h"
#include "evalsuite/common/environment.h"
#include "evalsuite/common/error.h"
#include "evalsuite/common/sha256.h"

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

std::string ComputeHoldoutVersionHash(const std::vector<HoldoutItem>& items) {
  // nlohmann::json keeps object keys sorted, so dump() is a canonical serialization.
  return Sha256Hex(ItemsToJson(items).dump());
}

void WriteHoldout(Holdout holdout, const std::filesystem::path& dir) {
  holdout.version_hash = ComputeHoldoutVersionHash(holdout.items);
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
  json root = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) throw InputError(where, "not a valid JSON object");
  if (root.value("schema_version", 0) != kHoldoutSchemaVersion) {
    throw InputError(where + ": schema_version", "missing or unsupported");
  }
  Holdout holdout;
  try {
    holdout.name = root.value("name", "");
    holdout.class_list = root.value("class_list", "imagenet-1k");
    holdout.class_names = root.value("class_names", std::vector<std::string>{});
    holdout.rule = root.value("rule", json::object());
    holdout.created_at = root.value("created_at", "");
    holdout.version_hash = root.at("version_hash").get<std::string>();
  } catch (const json::exception& e) {
    throw InputError(where, std::string("bad top-level field: ") + e.what());
  }
  if (!root.contains("items") || !root["items"].is_array()) throw InputError(where + ": items", "missing");
  const json& items = root["items"];
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string item_where = where + ": items[" + std::to_string(i) + "]";
    try {
      HoldoutItem item;
      item.id = items[i].at("id").get<std::string>();
      item.class_index = items[i].at("class_index").get<int>();
      item.wnid = items[i].value("wnid", "");
      item.class_name = items[i].value("class_name", "");
      item.path = items[i].at("path").get<std::string>();
      item.sha256 = items[i].at("sha256").get<std::string>();
      item.labels = items[i].value("labels", json::object());
      item.frequency = items[i].value("frequency", 1.0);
      if (item.path.find("..") != std::string::npos || (!item.path.empty() && item.path.front() == '/')) {
        throw InputError(item_where + ".path", "must stay inside the holdout folder");
      }
      holdout.items.push_back(std::move(item));
    } catch (const json::exception& e) {
      throw InputError(item_where, e.what());
    }
  }
  return holdout;
}

std::vector<std::string> VerifyHoldout(const Holdout& holdout, const std::filesystem::path& dir) {
  std::vector<std::string> problems;
  const std::string computed = ComputeHoldoutVersionHash(holdout.items);
  if (computed != holdout.version_hash) {
    problems.push_back((dir / kHoldoutManifestFile).string() + ": version_hash " + holdout.version_hash +
                       " does not match the items (" + computed + "): the manifest was modified");
  }
  for (const HoldoutItem& item : holdout.items) {
    const std::filesystem::path file = dir / item.path;
    if (!std::filesystem::exists(file)) {
      problems.push_back(file.string() + ": missing");
      continue;
    }
    const std::string actual = Sha256FileHex(file);
    if (actual != item.sha256) {
      problems.push_back(file.string() + ": SHA-256 " + actual + " differs from the manifest's " + item.sha256);
    }
  }
  return problems;
}

}  // namespace evalsuite::datasets
