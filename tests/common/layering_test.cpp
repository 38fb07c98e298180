// The layers read top to bottom (README "Layout"): a folder includes only folders below it, so no include climbs
// back and no two folders include each other. Issue 37 found datasets/, labeling/ and reports/ including
// evalsuite/common/ (evalsuite/ was both the top and the bottom) and study/ split into jobs that included each other;
// this test keeps the order once drawn.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace evalsuite {
namespace {

namespace fs = std::filesystem;

// Bottom to top. A file's layer is the longest listed prefix of its path.
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
  for (const char* top : {"common", "stats", "analysis", "runlog", "entries", "reports", "store", "datasets",
                          "labeling", "generalization", "training", "importer", "study", "evalsuite"}) {
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

}  // namespace
}  // namespace evalsuite
