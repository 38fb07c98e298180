// The candidate manifest: images found for each class (by the Flickr crawl, or brought by the user), before
// anyone labels them. Written by `holdout crawl` (and annotated by `holdout dedupe`), read by the labeling tool.
// On disk: DIR/candidates.json, image paths relative to DIR. Writes are atomic (temporary file + rename), so
// an interrupted writer never leaves a half-written manifest.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace evalsuite::datasets {

constexpr int kCandidateManifestSchemaVersion = 1;
constexpr const char* kCandidateManifestFile = "candidates.json";

struct CandidateClass {
  int index = -1;                     // class index in the class list (ImageNet-1k: 0-999)
  std::string wnid;                   // "n01440764"
  std::vector<std::string> synonyms;  // WordNet lemmas, first is the class name
  std::string gloss;                  // WordNet definition
};

struct Candidate {
  std::string id;  // unique within the manifest: "<wnid>/<flickr id>" (or "<wnid>/<sha256>")
  int class_index = -1;
  std::string wnid;
  std::string query;  // the search text that found it
  int rank = 0;       // 1-based relevance rank within its class, across synonyms
  std::string flickr_id;
  std::string owner;
  std::string owner_name;
  std::string license;
  int64_t date_upload = 0;  // Unix seconds
  std::string date_taken;
  std::string url;   // the source URL it was downloaded from
  std::string path;  // relative to the manifest's folder: "images/<sha256>.jpg"
  std::string sha256;
  int width = 0;
  int height = 0;
  // Set by dedupe: [{"kind": "within"|"reference", "match": "<path or id>", "distance": 3}]. Nothing is deleted.
  nlohmann::json near_duplicates = nlohmann::json::array();
  // Hidden control for labeler accuracy (ImageNetV2 style): "", "correct" or "incorrect" (the known answer).
  std::string control;
};

struct CandidateManifest {
  nlohmann::json source = nlohmann::json::object();  // how it was made: since, per_class, endpoint (no API key!)
  std::map<std::string, CandidateClass> classes;     // by wnid
  std::vector<Candidate> items;
  nlohmann::json rejected = nlohmann::json::array();  // [{"url":..,"flickr_id":..,"wnid":..,"reason":..}]
};

nlohmann::json ToJson(const CandidateManifest& manifest);
// Throws InputError naming `source_name` and the field at fault ("items[3].sha256: ...").
CandidateManifest CandidateManifestFromJson(const nlohmann::json& json, const std::string& source_name);

// `file` is the manifest path (DIR/candidates.json) or its folder.
CandidateManifest ReadCandidateManifest(const std::filesystem::path& file);
void WriteCandidateManifest(const CandidateManifest& manifest, const std::filesystem::path& file);

}  // namespace evalsuite::datasets
