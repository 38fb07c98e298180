#include "datasets/images/folder_candidates.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "common/atomic_file.h"
#include "common/error.h"
#include "common/sha256.h"
#include "datasets/images/image_decode.h"

namespace evalsuite::datasets {
namespace fs = std::filesystem;

namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool LooksLikeImage(const fs::path& file) {
  const std::string extension = Lower(file.extension().string());
  return extension == ".jpg" || extension == ".jpeg" || extension == ".png" || extension == ".webp";
}

}  // namespace

FolderCandidates CandidatesFromFolder(const fs::path& source, const std::vector<CandidateClass>& classes,
                                      const fs::path& out) {
  if (!fs::is_directory(source)) throw IoError(source.string(), "not a folder of class subfolders");
  if (fs::exists(out / kCandidateManifestFile)) {
    throw InputError((out / kCandidateManifestFile).string(), "already exists: choose a new --out folder");
  }
  std::map<std::string, const CandidateClass*> by_name;  // wnid and class name, lower case
  for (const CandidateClass& c : classes) {
    by_name.emplace(Lower(c.wnid), &c);
    if (!c.synonyms.empty()) by_name.emplace(Lower(c.synonyms.front()), &c);
  }
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(source)) {
    if (entry.is_directory()) folders.push_back(entry.path());
  }
  std::sort(folders.begin(), folders.end());
  if (folders.empty()) throw InputError(source.string(), "holds no class subfolders (SOURCE/<wnid or name>/*.jpg)");

  FolderCandidates result;
  CandidateManifest& manifest = result.manifest;
  manifest.source = {{"kind", "folder"}, {"folder", fs::absolute(source).string()}};
  std::error_code error;
  fs::create_directories(out / "images", error);
  if (error) throw IoError((out / "images").string(), "cannot create: " + error.message());
  // Every folder matched before anything is copied; then class by class in class-index order.
  std::vector<std::pair<const CandidateClass*, fs::path>> matched;
  for (const fs::path& folder : folders) {
    const auto found = by_name.find(Lower(folder.filename().string()));
    if (found == by_name.end()) {
      throw InputError(folder.string(), "names no class of the class list (use the wnid or the class name)");
    }
    const CandidateClass& c = *found->second;
    if (manifest.classes.count(c.wnid)) {
      throw InputError(folder.string(), "is a second folder for class " + c.wnid);
    }
    manifest.classes.emplace(c.wnid, c);
    matched.emplace_back(&c, folder);
  }
  std::stable_sort(matched.begin(), matched.end(),
                   [](const auto& a, const auto& b) { return a.first->index < b.first->index; });
  std::map<std::string, std::string> seen;  // sha256 -> first source path
  for (const auto& [class_pointer, folder] : matched) {
    const CandidateClass& c = *class_pointer;
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
      if (entry.is_regular_file() && LooksLikeImage(entry.path())) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    int rank = 0;
    for (const fs::path& file : files) {
      const std::string relative = fs::relative(file, source).generic_string();
      std::ifstream in(file, std::ios::binary);
      std::ostringstream bytes;
      bytes << in.rdbuf();
      const std::string data = bytes.str();
      const DecodedImage decoded = DecodeImage(data);
      const std::string sha256 = Sha256Hex(data);
      std::string reason;
      if (!in) reason = "unreadable";
      if (reason.empty() && !decoded.ok())
        reason = decoded.reason.empty() ? DecodeStatusName(decoded.status) : decoded.reason;
      if (reason.empty() && seen.count(sha256)) reason = "the same bytes as " + seen[sha256];
      if (!reason.empty()) {
        manifest.rejected.push_back({{"path", relative}, {"wnid", c.wnid}, {"reason", reason}});
        ++result.rejected;
        continue;
      }
      seen.emplace(sha256, relative);
      Candidate item;
      item.id = c.wnid + "/" + sha256.substr(0, 16);
      item.class_index = c.index;
      item.wnid = c.wnid;
      item.query = "folder " + folder.filename().string();
      item.rank = ++rank;
      item.url = relative;  // where it came from, relative to the source folder
      item.path = "images/" + sha256 + "." + (decoded.format == "jpeg" ? "jpg" : decoded.format);
      item.sha256 = sha256;
      item.width = decoded.width;
      item.height = decoded.height;
      WriteFileAtomically(out / item.path, data);
      manifest.items.push_back(std::move(item));
      ++result.copied;
    }
  }
  WriteCandidateManifest(manifest, out / kCandidateManifestFile);
  return result;
}

}  // namespace evalsuite::datasets
