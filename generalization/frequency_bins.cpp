#include "generalization/frequency_bins.h"

#include <fmt/format.h>

#include <cmath>

#include "generalization/group_verdict.h"
#include "stats/frequency_bins.h"

namespace evalsuite::generalization {
namespace {

using nlohmann::json;

json GroupMean(const json& groups, const std::string& group, const std::string& metric) {
  for (const json& g : groups) {
    if (g["group"] == group) return g["mean_" + metric];
  }
  return nullptr;
}

}  // namespace

json FrequencyBinsJson(const std::vector<ModelOutcomes>& outcomes, const std::vector<double>& frequency,
                       const std::string& candidate_group, const std::string& reference) {
  std::string reference_group;
  for (const ModelOutcomes& model : outcomes) {
    if (model.name == reference) reference_group = model.group;
  }
  std::size_t without = 0;
  for (double f : frequency) without += stats::FrequencyBin(f) < 0 ? 1 : 0;
  json by_bin = json::array();
  for (std::size_t b = 0; b < stats::kFrequencyBins; ++b) {
    std::size_t images = 0;
    for (double f : frequency) images += stats::FrequencyBin(f) == static_cast<int>(b) ? 1 : 0;
    // Each model restricted to the bin: the other images count as not evaluated.
    std::vector<ModelOutcomes> in_bin = outcomes;
    json models = json::array();
    for (ModelOutcomes& model : in_bin) {
      for (std::size_t i = 0; i < frequency.size() && i < model.top1.size(); ++i) {
        if (stats::FrequencyBin(frequency[i]) != static_cast<int>(b)) model.top1[i] = model.top5[i] = kNotEvaluated;
      }
      models.push_back({{"name", model.name},
                        {"group", model.group},
                        {"top1", AccuracyJson(CountAccuracy(model.top1))},
                        {"top5", AccuracyJson(CountAccuracy(model.top5))}});
    }
    const json groups = GroupsJson(in_bin);
    auto gap = [&](const char* metric) -> json {
      const json a = GroupMean(groups, candidate_group, metric);
      json r = nullptr;
      for (const json& model : models) {
        if (!reference.empty() && model["name"] == reference) r = model[metric]["accuracy"];
      }
      if (!a.is_number() || !r.is_number()) return nullptr;
      return a.get<double>() - r.get<double>();
    };
    by_bin.push_back({{"bin", stats::FrequencyBinLabel(b)},
                      {"lower", stats::kFrequencyBinEdges[b]},
                      {"upper", stats::kFrequencyBinEdges[b + 1]},
                      {"images", images},
                      {"models", models},
                      {"groups", groups},
                      {"gap_top1", gap("top1")},
                      {"gap_top5", gap("top5")},
                      {"reference", reference.empty() ? json(nullptr) : json(reference)},
                      {"gap_of", reference.empty() ? json(nullptr)
                                                   : json("mean of the " + candidate_group + " models minus \"" +
                                                          reference + "\", the verdict's reference")},
                      {"candidate_group", candidate_group},
                      {"reference_group", reference_group}});
  }
  return {{"bins", stats::kFrequencyBinEdges}, {"images_without_frequency", without}, {"by_bin", by_bin}};
}

std::string SummarizeFrequencyBins(const json& frequency_bins) {
  std::string gap_of;
  for (const json& bin : frequency_bins["by_bin"]) {
    if (bin.contains("gap_of") && bin["gap_of"].is_string()) gap_of = bin["gap_of"].get<std::string>();
  }
  std::string text = "  top-1 by selection-frequency bin (images; each model's top-1; gap: " +
                     (gap_of.empty() ? std::string("none, no reference model") : gap_of) + "):\n";
  for (const json& bin : frequency_bins["by_bin"]) {
    text += fmt::format("    {:<11} {:>5} images", bin["bin"].get<std::string>(), bin["images"].get<std::size_t>());
    for (const json& model : bin["models"]) {
      const json& a = model["top1"]["accuracy"];
      text += fmt::format("  {} {}", model["name"].get<std::string>(),
                          a.is_number() ? fmt::format("{:.1f}%", a.get<double>() * 100) : std::string("-"));
    }
    if (bin["gap_top1"].is_number()) {
      text += fmt::format("  gap {:+.1f} pts", bin["gap_top1"].get<double>() * 100);
    }
    text += "\n";
  }
  return text;
}

}  // namespace evalsuite::generalization
