// A frozen holdout: the images judged correct under a labeling rule (or a generated set such as the
// Fashion-MNIST holdout split), each with its class and SHA-256, and a version hash over the items. Written by
// `holdout freeze` (and by the Fashion-MNIST holdout export); read by `holdout eval`, which refuses a holdout
// whose files or manifest no longer match their hashes. On disk: DIR/manifest.json, paths relative to DIR.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace evalsuite::datasets {

// Version 2's hash covers the class list, class names and rule as well as the items; version 1 (items only)
// is still read and verified as it was written.
constexpr int kHoldoutSchemaVersion = 2;
constexpr const char* kHoldoutManifestFile = "manifest.json";

struct HoldoutItem {
  std::string id;
  int class_index = -1;  // index in the holdout's class list
  std::string wnid;      // ImageNet wnid, or "" for class lists without one
  std::string class_name;
  std::string path;  // relative to the holdout folder
  std::string sha256;
  nlohmann::json labels = nlohmann::json::object();  // {"correct": 3, "incorrect": 0, "unsure": 1}
  double frequency = 1.0;                            // selection frequency: share of labelers who said correct
};

struct Holdout {
  std::string name;
  std::string class_list = "imagenet-1k";          // "imagenet-1k", "fashion-mnist", or the user's own name
  std::vector<std::string> class_names;            // index -> name, when the list is not ImageNet-1k
  nlohmann::json rule = nlohmann::json::object();  // how it was frozen: {"rule":"majority","min_labelers":2}
  std::string created_at;
  std::vector<HoldoutItem> items;
  std::string version_hash;  // SHA-256 over the canonical JSON of what it covers (see below)
  int schema_version = kHoldoutSchemaVersion;
};

nlohmann::json ItemsToJson(const std::vector<HoldoutItem>& items);
// SHA-256 over the canonical JSON of class_list, class_names, rule and items (schema 2), or of the items
// alone (schema 1): editing any of them without re-freezing is detected by VerifyHoldout.
std::string ComputeHoldoutVersionHash(const Holdout& holdout);

// Writes DIR/manifest.json (atomically), computing the version hash. Image files must already be in DIR.
void WriteHoldout(Holdout holdout, const std::filesystem::path& dir);
// Reads DIR/manifest.json; throws InputError naming the field at fault.
Holdout ReadHoldout(const std::filesystem::path& dir);

// Every problem that makes the holdout untrustworthy: a version hash that does not match the items, a missing
// file, a file whose SHA-256 differs. Empty when the holdout is intact.
std::vector<std::string> VerifyHoldout(const Holdout& holdout, const std::filesystem::path& dir);

// What to do about VerifyHoldout's problems, one sentence per kind present: restore the manifest or re-freeze (a
// new version), restore a changed image or re-freeze, restore a missing file or pass `missing_option` (e.g.
// "--tolerate-missing"; "" when the command has none). "" when there is no problem.
std::string HoldoutProblemsAdvice(const std::vector<std::string>& problems, const std::string& missing_option);

}  // namespace evalsuite::datasets
