#include "datasets/images/candidate_manifest.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "common/atomic_file.h"
#include "common/error.h"
#include "common/json_fields.h"
#include "common/json_guard.h"

namespace evalsuite::datasets {
namespace {

using nlohmann::json;

constexpr int64_t kIntMax = 2147483647;

// Whole-file JSON from a user: nesting refused before a tree is built (json_guard.h).
json ParseManifestText(std::istream& in, const std::string& where) {
  std::stringstream text;
  text << in.rdbuf();
  return ParseUserJson(text.str(), where);
}

}  // namespace

json ToJson(const CandidateManifest& manifest) {
  json classes = json::array();
  for (const auto& [wnid, c] : manifest.classes) {
    classes.push_back({{"index", c.index}, {"wnid", c.wnid}, {"synonyms", c.synonyms}, {"gloss", c.gloss}});
  }
  json items = json::array();
  for (const Candidate& c : manifest.items) {
    items.push_back({{"id", c.id},
                     {"class_index", c.class_index},
                     {"wnid", c.wnid},
                     {"query", c.query},
                     {"rank", c.rank},
                     {"flickr_id", c.flickr_id},
                     {"owner", c.owner},
                     {"owner_name", c.owner_name},
                     {"license", c.license},
                     {"date_upload", c.date_upload},
                     {"date_taken", c.date_taken},
                     {"url", c.url},
                     {"path", c.path},
                     {"sha256", c.sha256},
                     {"width", c.width},
                     {"height", c.height},
                     {"near_duplicates", c.near_duplicates},
                     {"control", c.control}});
  }
  return {{"schema_version", kCandidateManifestSchemaVersion},
          {"source", manifest.source},
          {"classes", classes},
          {"items", items},
          {"rejected", manifest.rejected}};
}

CandidateManifest CandidateManifestFromJson(const json& root, const std::string& source_name) {
  RequireObject(root, source_name);
  const int64_t version = RequiredInteger(root, "schema_version", source_name, 0, kIntMax);
  if (version != kCandidateManifestSchemaVersion) {
    throw InputError(source_name + ".schema_version", "is " + std::to_string(version) +
                                                          "; this evalsuite reads version " +
                                                          std::to_string(kCandidateManifestSchemaVersion));
  }
  CandidateManifest manifest;
  if (const json* source = OptionalObject(root, "source", source_name)) manifest.source = *source;
  if (const json* rejected = OptionalArray(root, "rejected", source_name)) manifest.rejected = *rejected;
  if (const json* classes = OptionalArray(root, "classes", source_name)) {
    for (size_t i = 0; i < classes->size(); ++i) {
      const std::string where = source_name + ": classes[" + std::to_string(i) + "]";
      const json& j = (*classes)[i];
      RequireObject(j, where);
      CandidateClass c;
      c.index = static_cast<int>(RequiredInteger(j, "index", where, -1, kIntMax));
      c.wnid = RequiredString(j, "wnid", where);
      c.synonyms = OptionalStringArray(j, "synonyms", where).value_or(std::vector<std::string>{});
      c.gloss = OptionalString(j, "gloss", where).value_or("");
      manifest.classes[c.wnid] = c;
    }
  }
  const json* items = OptionalArray(root, "items", source_name);
  if (items == nullptr) throw InputError(source_name + ": items", "missing");
  for (size_t i = 0; i < items->size(); ++i) {
    const std::string where = source_name + ": items[" + std::to_string(i) + "]";
    const json& j = (*items)[i];
    RequireObject(j, where);
    Candidate c;
    c.id = RequiredString(j, "id", where);
    c.class_index = static_cast<int>(RequiredInteger(j, "class_index", where, -1, kIntMax));
    c.wnid = RequiredString(j, "wnid", where);
    c.query = OptionalString(j, "query", where).value_or("");
    c.rank = static_cast<int>(OptionalInteger(j, "rank", where, 0, kIntMax).value_or(0));
    c.flickr_id = OptionalString(j, "flickr_id", where).value_or("");
    c.owner = OptionalString(j, "owner", where).value_or("");
    c.owner_name = OptionalString(j, "owner_name", where).value_or("");
    c.license = OptionalString(j, "license", where).value_or("");
    c.date_upload = OptionalInteger(j, "date_upload", where).value_or(0);
    c.date_taken = OptionalString(j, "date_taken", where).value_or("");
    c.url = OptionalString(j, "url", where).value_or("");
    c.path = RequiredString(j, "path", where);
    c.sha256 = RequiredString(j, "sha256", where);
    c.width = static_cast<int>(OptionalInteger(j, "width", where, 0, kIntMax).value_or(0));
    c.height = static_cast<int>(OptionalInteger(j, "height", where, 0, kIntMax).value_or(0));
    c.control = OptionalString(j, "control", where).value_or("");
    if (const json* flags = OptionalArray(j, "near_duplicates", where)) {
      // The labeling page shows each flag's kind and match: they must be strings where present (a flag of another
      // shape is the manifest's error, not the labeling server's, which would fail the page of that item).
      for (std::size_t f = 0; f < flags->size(); ++f) {
        const std::string flag_where = where + ".near_duplicates[" + std::to_string(f) + "]";
        RequireObject((*flags)[f], flag_where);
        OptionalString((*flags)[f], "kind", flag_where);
        OptionalString((*flags)[f], "match", flag_where);
      }
      c.near_duplicates = *flags;
    }
    if (c.path.find("..") != std::string::npos || (!c.path.empty() && c.path.front() == '/')) {
      throw InputError(where + ".path", "must be relative to the manifest's folder and stay inside it");
    }
    manifest.items.push_back(std::move(c));
  }
  return manifest;
}

CandidateManifest ReadCandidateManifest(const std::filesystem::path& file) {
  std::filesystem::path path = std::filesystem::is_directory(file) ? file / kCandidateManifestFile : file;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(path.string(), "cannot open the candidate manifest");
  const json root = ParseManifestText(in, path.string());
  return CandidateManifestFromJson(root, path.string());
}

void WriteCandidateManifest(const CandidateManifest& manifest, const std::filesystem::path& file) {
  std::filesystem::path path = std::filesystem::is_directory(file) ? file / kCandidateManifestFile : file;
  WriteFileAtomically(path, ToJson(manifest).dump(2) + "\n");
}

}  // namespace evalsuite::datasets
