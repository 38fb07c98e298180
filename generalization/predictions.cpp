#include "generalization/predictions.h"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <tuple>
#include <vector>

#include "common/error.h"
#include "common/json_guard.h"

namespace evalsuite::generalization {
namespace {
using nlohmann::json;

struct Prediction {
  std::string kind;
  std::vector<int64_t> top5;
};

using Key = std::tuple<std::string, std::string, std::string>;  // (model, image set, image)

// `first_set` receives the image set of the first line that names one.
std::map<Key, Prediction> ReadPredictions(const std::filesystem::path& file, std::string* first_set) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot read the predictions file");
  std::map<Key, Prediction> predictions;
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = FileLine(file.string(), number);
    const json row = ParseUserJson(line, where);
    if (!row.is_object()) throw InputError(where, "expected a JSON object per line");
    if (row.contains("error")) continue;  // an image that could not be read: nothing to compare
    for (const char* key : {"image", "model"}) {
      if (!row.contains(key) || !row[key].is_string())
        throw InputError(where, fmt::format("\"{}\" must be a string", key));
    }
    if (!row.contains("top5") || !row["top5"].is_array() || row["top5"].empty()) {
      throw InputError(where, "\"top5\" must be a non-empty array of output indices, best first");
    }
    Prediction p;
    for (const json& v : row["top5"]) {
      if (!v.is_number_integer()) throw InputError(where, "\"top5\" must hold integer output indices");
      p.top5.push_back(v.get<int64_t>());
    }
    if (row.contains("kind") && row["kind"].is_string()) p.kind = row["kind"].get<std::string>();
    std::string set;
    if (row.contains("image_set")) {
      if (!row["image_set"].is_string()) throw InputError(where, "\"image_set\" must be a string");
      set = row["image_set"].get<std::string>();
      if (first_set->empty()) *first_set = set;
    }
    const Key key{row["model"].get<std::string>(), set, row["image"].get<std::string>()};
    if (!predictions.emplace(key, std::move(p)).second) {
      throw InputError(where, "a second line for model \"" + std::get<0>(key) + "\" and image \"" + std::get<2>(key) +
                                  "\"" + (set.empty() ? "" : " of image set \"" + set + "\""));
    }
  }
  return predictions;
}

struct Tally {
  size_t images = 0;
  size_t top1_agree = 0;
  double top5_overlap = 0;  // sum of |ours ∩ theirs| / |ours|
  json Json() const {
    return {{"images", images},
            {"top1_agree", top1_agree},
            {"top1_agreement", images ? static_cast<double>(top1_agree) / images : 0.0},
            {"top5_overlap", images ? top5_overlap / images : 0.0}};
  }
};

}  // namespace

json ComparePredictions(const std::filesystem::path& ours_file, const std::filesystem::path& theirs_file) {
  std::string our_first_set, their_first_set;
  const auto ours = ReadPredictions(ours_file, &our_first_set);
  auto theirs_as_written = ReadPredictions(theirs_file, &their_first_set);
  // A user's line without "image_set" stands for the first image set (the holdout given first).
  std::map<Key, Prediction> theirs;
  for (auto& [key, p] : theirs_as_written) {
    Key k = key;
    if (std::get<1>(k).empty()) std::get<1>(k) = our_first_set;
    theirs.emplace(std::move(k), std::move(p));
  }
  Tally all;
  std::map<std::string, Tally> by_kind, by_model;
  size_t only_ours = 0;
  for (const auto& [key, mine] : ours) {
    const auto it = theirs.find(key);
    if (it == theirs.end()) {
      ++only_ours;
      continue;
    }
    const Prediction& other = it->second;
    const bool agree = mine.top5.front() == other.top5.front();
    size_t common = 0;
    for (int64_t c : mine.top5) common += std::count(other.top5.begin(), other.top5.end(), c) > 0;
    const double overlap = static_cast<double>(common) / mine.top5.size();
    for (Tally* t : {&all, &by_kind[mine.kind.empty() ? "unknown" : mine.kind], &by_model[std::get<0>(key)]}) {
      ++t->images;
      t->top1_agree += agree;
      t->top5_overlap += overlap;
    }
  }
  size_t only_theirs = 0;
  for (const auto& [key, other] : theirs) only_theirs += ours.count(key) == 0;
  json kinds = json::object(), models = json::object();
  for (const auto& [kind, t] : by_kind) kinds[kind] = t.Json();
  for (const auto& [model, t] : by_model) models[model] = t.Json();
  return {
      {"ours", ours_file.string()}, {"theirs", theirs_file.string()}, {"all", all.Json()},         {"by_kind", kinds},
      {"by_model", models},         {"only_ours", only_ours},         {"only_theirs", only_theirs}};
}

std::string SummarizeComparison(const json& c) {
  std::string text =
      fmt::format("agreement with {} ({} image-model pairs matched; {} only in ours, {} only in theirs)\n",
                  c["theirs"].get<std::string>(), c["all"]["images"].get<size_t>(), c["only_ours"].get<size_t>(),
                  c["only_theirs"].get<size_t>());
  auto row = [&](const std::string& name, const json& t) {
    text += fmt::format("  {:<32} {:>6} images  top-1 agree {:6.2f}%  top-5 overlap {:6.2f}%\n", name,
                        t["images"].get<size_t>(), t["top1_agreement"].get<double>() * 100,
                        t["top5_overlap"].get<double>() * 100);
  };
  row("all", c["all"]);
  for (const auto& [model, t] : c["by_model"].items()) row("model " + model, t);
  for (const auto& [kind, t] : c["by_kind"].items()) row(kind, t);
  return text;
}

}  // namespace evalsuite::generalization
