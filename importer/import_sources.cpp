#include "importer/import_sources.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <system_error>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "common/ascii_case.h"
#include "common/file_kind.h"
#include "importer/framework_probe.h"

namespace evalsuite::importer {
namespace fs = std::filesystem;
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The official tools' runs: the files that glob "result_*.txt" finds (case as written; "result_1.TXT" and a
// stray ".!65506!result_4.txt" are not runs).
bool IsMlperfResultName(const std::string& name) { return name.rfind("result_", 0) == 0 && EndsWith(name, ".txt"); }

// A DAWNBench entry's TSV names its columns on its first line, "hours" among them (runlog/dawnbench_log.h): a folder
// walk takes a .tsv for one only then, so a table of another kind beside the logs (a SOURCES.tsv) is not a run.
bool HasDawnbenchHeader(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  if (!std::getline(in, line)) return false;
  if (line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
  std::size_t start = 0;
  while (start <= line.size()) {
    std::size_t end = line.find('\t', start);
    std::string column = line.substr(start, end == std::string::npos ? std::string::npos : end - start);
    while (!column.empty() && (column.back() == '\r' || column.back() == ' ')) column.pop_back();
    if (AsciiLowercase(column) == "hours") return true;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return false;
}

// The format of a file met while walking a folder; nullopt = not imported.
std::optional<ImportFormat> FormatInFolder(const fs::path& file, ImportFormat forced) {
  const std::string name = file.filename().string();
  const std::string ext = AsciiLowercase(file.extension().string());
  if (forced == ImportFormat::kAuto && IsMlperfResultName(name)) return ImportFormat::kMlperf;
  if (forced == ImportFormat::kAuto || IsFrameworkFormat(forced)) {
    if (std::optional<ImportFormat> framework = ProbeFrameworkFile(file, forced)) return framework;
    if (forced != ImportFormat::kAuto) return std::nullopt;
  }
  switch (forced) {
    case ImportFormat::kAuto:
      if (IsMlperfResultName(name)) return ImportFormat::kMlperf;
      if (ext == ".tsv" && HasDawnbenchHeader(file)) return ImportFormat::kDawnbench;
      if (ext == ".jsonl") return ImportFormat::kJsonl;
      return std::nullopt;
    case ImportFormat::kMlperf:
      // In a folder only the files the summarizer reads are runs (not rcp_checker.log, NCCL outputs, power
      // logs); a file named on the command line is read whatever its name.
      if (IsMlperfResultName(name)) return ImportFormat::kMlperf;
      return std::nullopt;
    case ImportFormat::kDawnbench:
      if (ext == ".tsv") return ImportFormat::kDawnbench;
      return std::nullopt;
    case ImportFormat::kJsonl:
      if (ext == ".jsonl") return ImportFormat::kJsonl;
      return std::nullopt;
    default:
      return std::nullopt;
  }
  return std::nullopt;
}

// A file named on the command line: its extension decides under auto, MLPerf being the default.
std::optional<ImportFormat> FormatOfArgument(fs::path& file, ImportFormat forced) {
  const std::string ext = AsciiLowercase(file.extension().string());
  if (ext == ".json") {  // a DAWNBench entry named by its JSON: import the TSV beside it
    fs::path tsv = file;
    tsv.replace_extension(".tsv");
    std::error_code ec;
    if (fs::exists(tsv, ec) && (forced == ImportFormat::kAuto || forced == ImportFormat::kDawnbench)) {
      file = tsv;
      return ImportFormat::kDawnbench;
    }
  }
  if (forced == ImportFormat::kAuto) {
    if (std::optional<ImportFormat> framework = ProbeFrameworkFile(file, forced)) return framework;
  }
  if (forced != ImportFormat::kAuto) return forced;
  if (ext == ".tsv") return ImportFormat::kDawnbench;
  // A CSV no reader recognised: the epoch-CSV reader says what its header lacks (never "not an MLPerf log").
  if (ext == ".csv") return ImportFormat::kEpochCsv;
  if (ext == ".jsonl") return ImportFormat::kJsonl;
  return ImportFormat::kMlperf;
}

// Collects regular files below `folder`; a folder that cannot be read is an error naming it, and the walk goes on.
// Symbolic links to folders are not followed (no cycles); links to files are.
// Entries that are neither folders nor regular files (a dangling link, say) go to `others`: one named like a log
// is an unreadable file, not something to pass over in silence.
void Walk(const fs::path& folder, std::vector<fs::path>& files, std::vector<fs::path>& others,
          std::vector<std::string>& errors) {
  std::error_code ec;
  fs::directory_iterator it(folder, ec);
  if (ec) {
    errors.push_back(folder.string() + ": cannot read the folder: " + ec.message());
    return;
  }
  std::vector<fs::path> subfolders;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) {
      errors.push_back(folder.string() + ": cannot list the folder: " + ec.message());
      break;
    }
    std::error_code type_ec;
    const fs::file_status link = it->symlink_status(type_ec);
    if (fs::is_directory(link)) {
      subfolders.push_back(it->path());
    } else if (it->is_regular_file(type_ec)) {
      files.push_back(it->path());
    } else if (!it->is_directory(type_ec)) {
      others.push_back(it->path());
    }
  }
  for (const fs::path& sub : subfolders) Walk(sub, files, others, errors);
}

fs::path Canonical(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::absolute(p).lexically_normal() : c;
}

}  // namespace

bool NaturalLess(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (da && db) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      // Compare as numbers without overflow: strip leading zeros, then length, then digits.
      std::size_t is = i, js = j;
      while (is + 1 < ie && a[is] == '0') ++is;
      while (js + 1 < je && b[js] == '0') ++js;
      if (ie - is != je - js) return ie - is < je - js;
      const int c = a.compare(is, ie - is, b, js, je - js);
      if (c != 0) return c < 0;
      if (ie - i != je - j) return ie - i < je - j;  // "01" after "1"
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

bool IsWithin(const fs::path& path, const fs::path& folder) {
  auto p = path.begin();
  for (auto f = folder.begin(); f != folder.end(); ++f, ++p) {
    if (f->empty()) continue;  // a trailing separator
    if (p == path.end() || *p != *f) return false;
  }
  return true;
}

Discovery DiscoverSources(const std::vector<fs::path>& paths, ImportFormat format) {
  Discovery discovery;
  // Keyed by the canonical paths' text: canonical paths have no "." or "..", and no doubled or trailing separator,
  // so equal text is the same path; hashing text is many times cheaper than comparing paths part by part.
  std::unordered_set<std::string> seen;
  // Groups keep the order in which they were first met; files inside a group are sorted naturally at the end.
  std::vector<std::string> group_order;
  std::unordered_map<std::string, std::vector<SourceFile>> groups;

  // `canonical` is known for files found below a canonical root (the walk follows no folder links): resolving
  // every path again would cost a system call per path component and file.
  fs::path last_group, last_base;
  std::string last_group_source;
  auto add = [&](const fs::path& file, ImportFormat fmt, const fs::path& base, const fs::path& canonical) {
    SourceFile source;
    source.file = file;
    source.canonical = canonical.empty() ? Canonical(file) : canonical;
    if (!seen.insert(source.canonical.native()).second) return;
    source.format = fmt;
    source.group = fmt == ImportFormat::kDawnbench ? source.canonical : source.canonical.parent_path();
    // The files of a folder come one after another: its relative name is made once per folder and argument.
    if (source.group.native() != last_group.native() || base.native() != last_base.native()) {
      last_group = source.group;
      last_base = base;
      last_group_source = source.group.lexically_relative(base).generic_string();
      if (last_group_source.empty()) last_group_source = source.group.filename().generic_string();
    }
    source.group_source = last_group_source;
    auto [it, inserted] = groups.try_emplace(source.group.native());
    if (inserted) group_order.push_back(source.group.native());
    it->second.push_back(std::move(source));
  };

  for (const fs::path& arg : paths) {
    std::error_code ec;
    const fs::file_status status = fs::status(arg, ec);
    if (ec || !fs::exists(status)) {
      discovery.errors.push_back(arg.string() + ": no such file or folder");
      continue;
    }
    const fs::path root = Canonical(arg);
    discovery.roots.push_back(root);
    const fs::path base = root.parent_path();
    if (!fs::is_directory(status)) {
      // A store named where a log was meant (`import runs.db`): said as what it is, not as an unreadable log.
      const std::string problem = InputFileProblem(arg, "a training log to import");
      if (!problem.empty()) {
        discovery.errors.push_back(arg.string() + ": " + problem);
        continue;
      }
      fs::path file = arg;
      if (auto fmt = FormatOfArgument(file, format)) add(file, *fmt, base, fs::path());
      continue;
    }
    std::vector<fs::path> found;
    std::vector<fs::path> others;
    Walk(arg, found, others, discovery.errors);
    for (const fs::path& other : others) {
      if (FormatInFolder(other, format)) {
        discovery.errors.push_back(other.string() + ": cannot read: not a regular file (a broken link?)");
      }
    }
    // Name order at every level, so output and store are the same on every file system. The keys are made once:
    // a comparison that split both paths each time made the sort a third of the discovery's time.
    struct SortKey {
      std::string folder;  // the parent's generic text
      std::string name;
      std::size_t index;
    };
    std::vector<SortKey> keys;
    keys.reserve(found.size());
    for (std::size_t i = 0; i < found.size(); ++i) {
      keys.push_back({found[i].parent_path().generic_string(), found[i].filename().string(), i});
    }
    std::sort(keys.begin(), keys.end(), [](const SortKey& a, const SortKey& b) {
      if (a.folder != b.folder) return NaturalLess(a.folder, b.folder);
      return NaturalLess(a.name, b.name);
    });
    for (const SortKey& key : keys) {
      const fs::path& file = found[key.index];
      if (auto fmt = FormatInFolder(file, format)) add(file, *fmt, base, root / file.lexically_relative(arg));
    }
  }
  for (const std::string& group : group_order) {
    std::vector<SourceFile>& files = groups[group];
    std::vector<std::pair<std::string, std::size_t>> names;  // sorted by name, then by discovery order
    names.reserve(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) names.emplace_back(files[i].file.filename().string(), i);
    std::stable_sort(names.begin(), names.end(),
                     [](const auto& a, const auto& b) { return NaturalLess(a.first, b.first); });
    for (const auto& name : names) discovery.files.push_back(std::move(files[name.second]));
  }
  return discovery;
}

}  // namespace evalsuite::importer
