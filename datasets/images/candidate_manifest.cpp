#include "datasets/images/candidate_manifest.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "evalsuite/common/error.h"

namespace evalsuite::datasets {
namespace {

using nlohmann::json;

template <typename T>
T Field(const json& object, const char* key, const std::string& where, bool required = true, T fallback = T()) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (required) throw InputError(where + "." + key, "missing");
    return fallback;
  }
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    throw InputError(where + "." + key, std::string("has the wrong type (") + it->type_name() + ")");
  }
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
  if (!root.is_object()) throw InputError(source_name, "a candidate manifest must be a JSON object");
  const int version = Field<int>(root, "schema_version", source_name);
  if (version != kCandidateManifestSchemaVersion) {
    throw InputError(source_name + ".schema_version",
                     "is " + std::to_string(version) + "; this evalsuite reads version " +
                         std::to_string(kCandidateManifestSchemaVersion));
  }
  CandidateManifest manifest;
  if (root.contains("source")) manifest.source = root["source"];
  if (root.contains("rejected")) manifest.rejected = root["rejected"];
  const json classes = root.value("classes", json::array());
  for (size_t i = 0; i < classes.size(); ++i) {
    const std::string where = source_name + ": classes[" + std::to_string(i) + "]";
    CandidateClass c;
    c.index = Field<int>(classes[i], "index", where);
    c.wnid = Field<std::string>(classes[i], "wnid", where);
    c.synonyms = Field<std::vector<std::string>>(classes[i], "synonyms", where, false);
    c.gloss = Field<std::string>(classes[i], "gloss", where, false);
    manifest.classes[c.wnid] = c;
  }
  if (!root.contains("items") || !root["items"].is_array()) throw InputError(source_name + ": items", "missing");
  const json& items = root["items"];
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string where = source_name + ": items[" + std::to_string(i) + "]";
    const json& j = items[i];
    Candidate c;
    c.id = Field<std::string>(j, "id", where);
    c.class_index = Field<int>(j, "class_index", where);
    c.wnid = Field<std::string>(j, "wnid", where);
    c.query = Field<std::string>(j, "query", where, false);
    c.rank = Field<int>(j, "rank", where, false);
    c.flickr_id = Field<std::string>(j, "flickr_id", where, false);
    c.owner = Field<std::string>(j, "owner", where, false);
    c.owner_name = Field<std::string>(j, "owner_name", where, false);
    c.license = Field<std::string>(j, "license", where, false);
    c.date_upload = Field<int64_t>(j, "date_upload", where, false);
    c.date_taken = Field<std::string>(j, "date_taken", where, false);
    c.url = Field<std::string>(j, "url", where, false);
    c.path = Field<std::string>(j, "path", where);
    c.sha256 = Field<std::string>(j, "sha256", where);
    c.width = Field<int>(j, "width", where, false);
    c.height = Field<int>(j, "height", where, false);
    c.control = Field<std::string>(j, "control", where, false);
    if (j.contains("near_duplicates") && j["near_duplicates"].is_array()) c.near_duplicates = j["near_duplicates"];
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
  json root = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) throw InputError(path.string(), "not valid JSON");
  return CandidateManifestFromJson(root, path.string());
}

void WriteFileAtomically(const std::filesystem::path& file, const std::string& text) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path temporary = file.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw IoError(temporary.string(), "cannot write");
    out << text;
    out.flush();
    if (!out) throw IoError(temporary.string(), "write failed");
  }
  std::error_code ec;
  std::filesystem::rename(temporary, file, ec);
  if (ec) throw IoError(file.string(), "cannot replace: " + ec.message());
}

void WriteCandidateManifest(const CandidateManifest& manifest, const std::filesystem::path& file) {
  std::filesystem::path path = std::filesystem::is_directory(file) ? file / kCandidateManifestFile : file;
  WriteFileAtomically(path, ToJson(manifest).dump(2) + "\n");
}

}  // namespace evalsuite::datasets
