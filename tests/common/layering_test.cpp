// The layers read top to bottom (docs/architecture.md "Layers"; the root CMakeLists.txt adds them in order): a folder
// includes only folders below it, so no include climbs back and no two folders include each other. Issue 37 found
// datasets/, labeling/ and reports/ including evalsuite/common/ (evalsuite/ was both the top and the bottom) and study/
// split into jobs that included each other; this test keeps the order once drawn. Inside a folder the modules (x.h +
// x.cpp) form layers too: issue 53 found reports/ with the model's types and its builders in one module, so sections
// and model included each other; the second test keeps every folder's module graph free of cycles.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace evalsuite {
namespace {

namespace fs = std::filesystem;

// Bottom to top. A file's layer is the longest listed prefix of its path.
// The top-level folders the walk covers (tests/ and bench/ sit outside the layers).
const std::vector<std::string>& SourceFolders() {
  static const std::vector<std::string> kFolders = {"common",   "stats",    "analysis", "runlog",   "entries",
                                                    "reports",  "store",    "datasets", "labeling", "generalization",
                                                    "training", "importer", "study",    "evalsuite"};
  return kFolders;
}

const std::vector<std::pair<std::string, int>>& Layers() {
  static const std::vector<std::pair<std::string, int>> kLayers = {
      {"common/", 0},         {"stats/", 1},           {"analysis/", 2},
      {"runlog/", 3},         {"entries/", 4},         {"reports/", 5},
      {"store/", 6},          {"datasets/", 7},        {"labeling/", 8},
      {"generalization/", 9}, {"training/", 10},       {"importer/", 11},
      {"study/plans/", 12},   {"study/hardware/", 12}, {"study/execution/", 13},
      {"study/", 14},         {"evalsuite/cli/", 15},  {"evalsuite/main", 16},
  };
  return kLayers;
}

std::optional<std::pair<std::string, int>> LayerOf(const std::string& path) {
  std::optional<std::pair<std::string, int>> best;
  for (const auto& [prefix, layer] : Layers()) {
    if (path.rfind(prefix, 0) == 0 && (!best || prefix.size() > best->first.size())) best = {prefix, layer};
  }
  return best;
}

TEST(LayeringTest, NoIncludeClimbsBackAndNoTwoFoldersIncludeEachOther) {
  const fs::path root = EVALSUITE_SOURCE_DIR;
  const std::regex include(R"re(^\s*#include\s+"([^"]+)")re");
  std::map<std::pair<std::string, std::string>, std::string> between;  // (from, to) folder -> one example
  std::vector<std::string> upward;
  int files = 0;
  for (const std::string& top : SourceFolders()) {
    for (const auto& item : fs::recursive_directory_iterator(root / top)) {
      const std::string ext = item.path().extension().string();
      if (!item.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
      ++files;
      const std::string from = fs::relative(item.path(), root).string();
      const auto from_layer = LayerOf(from);
      ASSERT_TRUE(from_layer) << from;
      std::ifstream in(item.path());
      for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_search(line, m, include) || !fs::exists(root / m[1].str())) continue;
        const std::string to = m[1].str();
        const auto to_layer = LayerOf(to);
        if (!to_layer || to_layer->first == from_layer->first) continue;
        between.emplace(std::make_pair(from_layer->first, to_layer->first), from + " -> " + to);
        if (to_layer->second > from_layer->second) upward.push_back(from + " includes " + to);
      }
    }
  }
  EXPECT_GT(files, 300);  // the walk found the tree
  for (const std::string& climb : upward) ADD_FAILURE() << "an include climbs back up: " << climb;
  for (const auto& [pair, example] : between) {
    if (pair.first < pair.second && between.count({pair.second, pair.first})) {
      ADD_FAILURE() << pair.first << " and " << pair.second << " include each other: " << example << "; "
                    << between.at({pair.second, pair.first});
    }
  }
}

// A module is a file pair x.h + x.cpp, named by its path without the extension. An arrow runs from a module to
// another module of the same folder whose header one of its files includes; each arrow keeps one such include.
using ModuleArrows = std::map<std::string, std::map<std::string, std::string>>;

ModuleArrows ModuleArrowsInsideFolders(const fs::path& root, int* files) {
  const std::regex include(R"re(^\s*#include\s+"([^"]+)")re");
  ModuleArrows arrows;
  for (const std::string& top : SourceFolders()) {
    for (const auto& item : fs::recursive_directory_iterator(root / top)) {
      const std::string ext = item.path().extension().string();
      if (!item.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
      ++*files;
      const fs::path from = fs::relative(item.path(), root);
      const std::string from_module = (from.parent_path() / from.stem()).string();
      arrows[from_module];  // a module with no arrows is still a node
      std::ifstream in(item.path());
      for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_search(line, m, include) || !fs::exists(root / m[1].str())) continue;
        const fs::path to = m[1].str();
        const std::string to_module = (to.parent_path() / to.stem()).string();
        if (to_module == from_module || to.parent_path() != from.parent_path()) continue;
        arrows[from_module].emplace(to_module, from.string() + " includes " + to.string());
      }
    }
  }
  return arrows;
}

// Tarjan's strongly connected components; every component of more than one module holds a cycle.
std::vector<std::set<std::string>> ModuleCycleGroups(const ModuleArrows& arrows) {
  std::map<std::string, int> index;
  std::map<std::string, int> low;
  std::vector<std::string> stack;
  std::set<std::string> on_stack;
  std::vector<std::set<std::string>> groups;
  std::function<void(const std::string&)> visit = [&](const std::string& v) {
    index[v] = low[v] = static_cast<int>(index.size());
    stack.push_back(v);
    on_stack.insert(v);
    for (const auto& [w, why] : arrows.at(v)) {
      if (!arrows.count(w)) continue;
      if (!index.count(w)) {
        visit(w);
        low[v] = std::min(low[v], low[w]);
      } else if (on_stack.count(w)) {
        low[v] = std::min(low[v], index[w]);
      }
    }
    if (low[v] != index[v]) return;
    std::set<std::string> group;
    std::string w;
    do {
      w = stack.back();
      stack.pop_back();
      on_stack.erase(w);
      group.insert(w);
    } while (w != v);
    if (group.size() > 1) groups.push_back(group);
  };
  for (const auto& [module, unused] : arrows) {
    if (!index.count(module)) visit(module);
  }
  return groups;
}

// The shortest cycle through the group's first module, written one arrow per line with the include behind it.
std::string DescribeModuleCycle(const ModuleArrows& arrows, const std::set<std::string>& group) {
  const std::string& start = *group.begin();
  std::map<std::string, std::string> came_from;
  std::deque<std::string> queue = {start};
  std::string last;
  while (!queue.empty() && last.empty()) {
    const std::string v = queue.front();
    queue.pop_front();
    for (const auto& [w, why] : arrows.at(v)) {
      if (!group.count(w)) continue;
      if (w == start) {
        last = v;
        break;
      }
      if (came_from.emplace(w, v).second) queue.push_back(w);
    }
  }
  std::vector<std::string> path = {start};
  for (std::string v = last; v != start; v = came_from.at(v)) path.insert(path.begin() + 1, v);
  path.push_back(start);
  std::ostringstream out;
  out << "modules in the cycle group:";
  for (const std::string& module : group) out << " " << module;
  out << "\none cycle:";
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    out << "\n  " << path[i] << " -> " << path[i + 1] << " (" << arrows.at(path[i]).at(path[i + 1]) << ")";
  }
  return out.str();
}

TEST(LayeringTest, NoModuleCycleInsideAnyFolder) {
  int files = 0;
  const ModuleArrows arrows = ModuleArrowsInsideFolders(EVALSUITE_SOURCE_DIR, &files);
  EXPECT_GT(files, 300);  // the walk found the tree
  for (const std::set<std::string>& group : ModuleCycleGroups(arrows)) {
    ADD_FAILURE() << "modules of one folder include each other in a cycle; move the declarations to the module "
                     "they belong to\n"
                  << DescribeModuleCycle(arrows, group);
  }
}

}  // namespace
}  // namespace evalsuite
