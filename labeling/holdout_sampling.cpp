#include "labeling/holdout_sampling.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <numeric>
#include <random>
#include <tuple>

#include "common/error.h"
#include "common/sha256.h"

namespace evalsuite::labeling {
namespace {

double Sum(const BinCounts& counts) { return std::accumulate(counts.begin(), counts.end(), 0.0); }

// A class's own generator: the seed and the wnid, nothing else, so adding a class changes no other's draw.
std::mt19937_64 ClassRng(uint64_t seed, const std::string& wnid) {
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : wnid) hash = (hash ^ c) * 1099511628211ull;
  return std::mt19937_64(seed ^ hash);
}

// k of `pool` without replacement, as a partial Fisher-Yates; mt19937_64's output is fixed by the standard
// (std::shuffle and the distributions are not), so a seed draws the same images on every platform.
std::vector<std::size_t> Draw(std::vector<std::size_t> pool, std::size_t k, std::mt19937_64& rng) {
  k = std::min(k, pool.size());
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(rng() % (pool.size() - i));
    std::swap(pool[i], pool[j]);
  }
  pool.resize(k);
  return pool;
}

BinCounts ParseCounts(const nlohmann::json& value, const std::string& where) {
  if (!value.is_array() || value.size() != kFrequencyBins) {
    throw InputError(where, "must be an array of 5 numbers (bins [0,.2), [.2,.4), [.4,.6), [.6,.8), [.8,1])");
  }
  BinCounts counts{};
  for (std::size_t b = 0; b < kFrequencyBins; ++b) {
    if (!value[b].is_number() || !(value[b].get<double>() >= 0) || !std::isfinite(value[b].get<double>())) {
      throw InputError(where + "[" + std::to_string(b) + "]", "must be a finite number >= 0");
    }
    counts[b] = value[b].get<double>();
  }
  if (Sum(counts) <= 0) throw InputError(where, "is empty (all bins 0)");
  return counts;
}

const char* VariantName(SamplingPlan::Variant variant) {
  switch (variant) {
    case SamplingPlan::Variant::kMatchedFrequency:
      return "matched-frequency";
    case SamplingPlan::Variant::kThreshold:
      return "threshold";
    case SamplingPlan::Variant::kTopImages:
      return "top-images";
  }
  return "";
}

}  // namespace

ReferenceHistogram HistogramFromAgreement(const datasets::CandidateManifest& reference,
                                          const AgreementReport& agreement, std::size_t min_votes) {
  ReferenceHistogram histogram;
  std::size_t images = 0;
  for (std::size_t i = 0; i < reference.items.size(); ++i) {
    const ItemAgreement& item = agreement.items[i];
    if (!reference.items[i].control.empty() || item.labelers() == 0 || item.labelers() < min_votes) continue;
    const int bin = FrequencyBin(item.selection_frequency());
    if (bin < 0) continue;
    histogram.pooled[static_cast<std::size_t>(bin)] += 1;
    histogram.by_class[item.wnid][static_cast<std::size_t>(bin)] += 1;
    ++histogram.images_by_class[item.wnid];
    ++images;
  }
  histogram.description = {{"kind", "labeled-set"}, {"images", images}, {"min_votes", min_votes}};
  return histogram;
}

ReferenceHistogram ReadReferenceHistogram(const std::filesystem::path& file) {
  const std::string where = file.string();
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(where, "cannot read the reference histogram");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where, std::string("not valid JSON: ") + e.what());
  }
  ReferenceHistogram histogram = HistogramFromJson(j, where);
  histogram.description = {{"kind", "file"}, {"file", file.string()}, {"sha256", Sha256Hex(text)}};
  return histogram;
}

ReferenceHistogram HistogramFromJson(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw InputError(where, "must be a JSON object with \"pooled\" and/or \"classes\"");
  if (j.contains("bins")) {
    const nlohmann::json expected = kFrequencyBinEdges;
    if (j["bins"] != expected) throw InputError(where + ": bins", "must be [0, 0.2, 0.4, 0.6, 0.8, 1] (ImageNetV2's)");
  }
  ReferenceHistogram histogram;
  bool any = false;
  if (j.contains("classes")) {
    if (!j["classes"].is_object()) throw InputError(where + ": classes", "must be an object {wnid: [5 counts]}");
    for (const auto& [wnid, counts] : j["classes"].items()) {
      histogram.by_class[wnid] = ParseCounts(counts, where + ": classes." + wnid);
      double images = 0;
      bool whole = true;
      for (std::size_t b = 0; b < kFrequencyBins; ++b) {
        histogram.pooled[b] += histogram.by_class[wnid][b];
        images += histogram.by_class[wnid][b];
        whole = whole && histogram.by_class[wnid][b] == std::floor(histogram.by_class[wnid][b]);
      }
      if (whole) histogram.images_by_class[wnid] = static_cast<std::size_t>(images);  // counts, not shares
      any = true;
    }
  }
  if (j.contains("pooled")) {
    histogram.pooled = ParseCounts(j["pooled"], where + ": pooled");
    any = true;
  }
  if (!any) throw InputError(where, "holds no histogram: give \"pooled\" and/or \"classes\"");
  return histogram;
}

nlohmann::json HistogramToJson(const ReferenceHistogram& histogram) {
  nlohmann::json classes = nlohmann::json::object();
  for (const auto& [wnid, counts] : histogram.by_class) classes[wnid] = counts;
  return {{"bins", kFrequencyBinEdges}, {"pooled", histogram.pooled}, {"classes", classes}};
}

std::array<std::size_t, kFrequencyBins> BinTargets(const BinCounts& histogram, std::size_t per_class) {
  std::array<std::size_t, kFrequencyBins> targets{};
  const double total = Sum(histogram);
  if (!(total > 0)) return targets;
  std::array<double, kFrequencyBins> remainder{};
  std::size_t given = 0;
  for (std::size_t b = 0; b < kFrequencyBins; ++b) {
    const double exact = histogram[b] / total * static_cast<double>(per_class);
    targets[b] = static_cast<std::size_t>(std::floor(exact + 1e-9));
    remainder[b] = exact - static_cast<double>(targets[b]);
    given += targets[b];
  }
  std::array<std::size_t, kFrequencyBins> order{};
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b] + 1e-12; });
  for (std::size_t k = 0; given < per_class && k < kFrequencyBins; ++k, ++given) ++targets[order[k]];
  return targets;
}

std::array<std::size_t, kFrequencyBins> ClassBinTargets(const ReferenceHistogram& reference, const std::string& wnid,
                                                        std::size_t per_class, bool* pooled) {
  const auto own = reference.by_class.find(wnid);
  const bool use_pooled = own == reference.by_class.end() || Sum(own->second) <= 0;
  if (pooled != nullptr) *pooled = use_pooled;
  return BinTargets(use_pooled ? reference.pooled : own->second, per_class);
}

std::array<std::size_t, kFrequencyBins> SamplingAim(const ReferenceHistogram& reference,
                                                    const std::vector<std::string>& wnids, std::size_t per_class) {
  std::array<std::size_t, kFrequencyBins> aim{};
  for (const std::string& wnid : wnids) {
    const auto targets = ClassBinTargets(reference, wnid, per_class);
    for (std::size_t b = 0; b < kFrequencyBins; ++b) aim[b] += targets[b];
  }
  return aim;
}

SamplingPlan ParseSamplingPlan(const std::string& text, std::optional<std::size_t> per_class, std::size_t min_votes,
                               uint64_t seed) {
  SamplingPlan plan;
  plan.text = text;
  plan.min_votes = min_votes;
  plan.seed = seed;
  if (min_votes < 1) throw UsageError("--min-votes", "must be at least 1");
  auto number = [&](const std::string& part, bool integer) {
    std::size_t used = 0;
    double value = NAN;
    try {
      value = std::stod(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != part.size() || (integer && (value < 1 || value != std::floor(value) || value > 1e6))) {
      throw UsageError("--sampling",
                       "'" + text + "': " + (integer ? "N must be a whole number >= 1" : "X must be a number"));
    }
    return value;
  };
  if (text == "matched-frequency") {
    plan.variant = SamplingPlan::Variant::kMatchedFrequency;
  } else if (text.rfind("threshold:", 0) == 0) {
    plan.variant = SamplingPlan::Variant::kThreshold;
    plan.threshold = number(text.substr(10), false);
    if (!(plan.threshold >= 0 && plan.threshold <= 1)) {
      throw UsageError("--sampling", "'" + text + "': the threshold must be between 0 and 1");
    }
  } else if (text == "top" || text.rfind("top:", 0) == 0) {
    plan.variant = SamplingPlan::Variant::kTopImages;
    if (text != "top") {
      const auto n = static_cast<std::size_t>(number(text.substr(4), true));
      if (per_class && *per_class != n) {
        throw UsageError("--sampling", "'" + text + "' asks for " + std::to_string(n) +
                                           " images per class but --per-class says " + std::to_string(*per_class));
      }
      per_class = n;
    }
  } else {
    throw UsageError("--sampling", "'" + text + "' is not a sampling: use matched-frequency, threshold:X or top[:N]");
  }
  plan.per_class = per_class.value_or(10);  // ImageNetV2: ten images per class
  if (plan.per_class < 1) throw UsageError("--per-class", "must be at least 1");
  return plan;
}

SamplingOutcome SampleHoldout(const datasets::CandidateManifest& manifest, const AgreementReport& agreement,
                              const std::vector<bool>& eligible, const SamplingPlan& plan) {
  if (plan.variant == SamplingPlan::Variant::kMatchedFrequency && !plan.reference) {
    throw UsageError("--reference", "matched-frequency needs a reference histogram");
  }
  // Eligible items per class, in rank order (then id, for a fixed order whatever the manifest's).
  std::map<std::string, std::vector<std::size_t>> by_class;
  for (const auto& [wnid, c] : manifest.classes) by_class[wnid];
  for (std::size_t i = 0; i < manifest.items.size(); ++i) {
    if (eligible[i]) by_class[manifest.items[i].wnid].push_back(i);
  }
  std::vector<std::pair<int, std::string>> classes;
  for (auto& [wnid, items] : by_class) {
    std::sort(items.begin(), items.end(), [&](std::size_t a, std::size_t b) {
      return std::tie(manifest.items[a].rank, manifest.items[a].id) <
             std::tie(manifest.items[b].rank, manifest.items[b].id);
    });
    const auto c = manifest.classes.find(wnid);
    const int index = c != manifest.classes.end() ? c->second.index
                      : items.empty()             ? -1
                                                  : manifest.items[items.front()].class_index;
    classes.emplace_back(index, wnid);
  }
  std::sort(classes.begin(), classes.end());

  SamplingOutcome outcome;
  for (const auto& [class_index, wnid] : classes) {
    const std::vector<std::size_t>& pool = by_class[wnid];
    std::mt19937_64 rng = ClassRng(plan.seed, wnid);
    std::vector<std::size_t> chosen;
    ClassShortfall shortfall;
    shortfall.wnid = wnid;
    shortfall.class_index = class_index;
    auto frequency = [&](std::size_t i) { return agreement.items[i].selection_frequency(); };
    switch (plan.variant) {
      case SamplingPlan::Variant::kMatchedFrequency: {
        bool pooled = false;
        const auto targets = ClassBinTargets(*plan.reference, wnid, plan.per_class, &pooled);
        if (pooled) outcome.pooled_reference_classes.push_back(wnid);
        shortfall.pooled_reference = pooled;
        const auto images = plan.reference->images_by_class.find(wnid);
        if (!pooled && images != plan.reference->images_by_class.end() &&
            images->second < kMinReferenceImagesPerClass) {
          outcome.thin_reference_classes.push_back({wnid, images->second});
        }
        for (std::size_t b = 0; b < kFrequencyBins; ++b) outcome.aim_by_bin[b] += targets[b];
        for (std::size_t b = 0; b < kFrequencyBins; ++b) {
          std::vector<std::size_t> in_bin;
          for (std::size_t i : pool) {
            if (FrequencyBin(frequency(i)) == static_cast<int>(b)) in_bin.push_back(i);
          }
          const std::vector<std::size_t> drawn = Draw(in_bin, targets[b], rng);
          chosen.insert(chosen.end(), drawn.begin(), drawn.end());
          shortfall.lacking_by_bin[b] = targets[b] - drawn.size();
        }
        break;
      }
      case SamplingPlan::Variant::kThreshold: {
        std::vector<std::size_t> above;
        for (std::size_t i : pool) {
          if (frequency(i) >= plan.threshold) above.push_back(i);
        }
        chosen = Draw(above, plan.per_class, rng);
        break;
      }
      case SamplingPlan::Variant::kTopImages: {
        std::vector<std::size_t> ordered = pool;  // rank order breaks ties in frequency
        std::stable_sort(ordered.begin(), ordered.end(),
                         [&](std::size_t a, std::size_t b) { return frequency(a) > frequency(b); });
        ordered.resize(std::min(ordered.size(), plan.per_class));
        chosen = ordered;
        break;
      }
    }
    for (std::size_t i : chosen)
      ++outcome.chosen_by_bin[static_cast<std::size_t>(std::max(0, FrequencyBin(frequency(i))))];
    if (chosen.size() < plan.per_class) {
      shortfall.chosen = chosen.size();
      shortfall.lacking = plan.per_class - chosen.size();
      outcome.short_classes.push_back(shortfall);
    }
    outcome.chosen.insert(outcome.chosen.end(), chosen.begin(), chosen.end());
  }
  std::stable_sort(outcome.chosen.begin(), outcome.chosen.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(manifest.items[a].class_index, manifest.items[a].rank) <
           std::tie(manifest.items[b].class_index, manifest.items[b].rank);
  });
  return outcome;
}

nlohmann::json SamplingToJson(const SamplingPlan& plan, const SamplingOutcome& outcome) {
  nlohmann::json short_classes = nlohmann::json::array();
  for (const ClassShortfall& s : outcome.short_classes) {
    nlohmann::json entry = {
        {"wnid", s.wnid}, {"class_index", s.class_index}, {"chosen", s.chosen}, {"lacking", s.lacking}};
    if (plan.variant == SamplingPlan::Variant::kMatchedFrequency) entry["lacking_by_bin"] = s.lacking_by_bin;
    short_classes.push_back(entry);
  }
  nlohmann::json j = {{"variant", VariantName(plan.variant)},
                      {"text", plan.text},
                      {"per_class", plan.per_class},
                      {"min_votes", plan.min_votes},
                      {"seed", plan.seed},
                      {"bins", kFrequencyBinEdges},
                      {"chosen_by_bin", outcome.chosen_by_bin},
                      {"short_classes", short_classes}};
  if (plan.variant == SamplingPlan::Variant::kThreshold) j["threshold"] = plan.threshold;
  if (plan.variant == SamplingPlan::Variant::kMatchedFrequency) {
    j["reference"] = plan.reference->description;
    j["reference"]["histogram"] = HistogramToJson(*plan.reference);
    j["pooled_reference_classes"] = outcome.pooled_reference_classes;
    j["aim_by_bin"] = outcome.aim_by_bin;
    j["reference_min_images_per_class"] = kMinReferenceImagesPerClass;
    nlohmann::json thin = nlohmann::json::array();
    for (const ThinReferenceClass& t : outcome.thin_reference_classes) {
      thin.push_back({{"wnid", t.wnid}, {"images", t.images}});
    }
    j["thin_reference_classes"] = thin;
  }
  return j;
}

}  // namespace evalsuite::labeling
