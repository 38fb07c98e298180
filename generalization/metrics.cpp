#include "generalization/metrics.h"

#include <map>

#include "common/json_access.h"
#include "common/json_number.h"
#include "generalization/classifier.h"
#include "stats/paired_tests.h"
#include "stats/proportion.h"

namespace evalsuite::generalization {
namespace {
using nlohmann::json;
}  // namespace

ModelOutcomes ScoreModel(const std::string& name, const std::string& group, std::optional<double> validation_accuracy,
                         const std::vector<int32_t>& top, const std::vector<int>& labels,
                         const std::vector<bool>& readable, const ClassMapping& mapping) {
  ModelOutcomes outcomes;
  outcomes.name = name;
  outcomes.group = group;
  outcomes.validation_accuracy = validation_accuracy;
  const size_t n = labels.size();
  outcomes.top1.assign(n, kNotEvaluated);
  outcomes.top5.assign(n, kNotEvaluated);
  for (size_t i = 0; i < n; ++i) {
    if (!readable[i]) continue;
    const int label = labels[i];
    if (label < 0 || label >= static_cast<int>(mapping.covered.size()) || !mapping.covered[label]) {
      ++outcomes.uncovered;
      continue;
    }
    const int32_t* row = top.data() + i * kTopK;
    bool in_top5 = false;
    for (int j = 0; j < kTopK && row[j] >= 0; ++j) {
      if (row[j] < static_cast<int32_t>(mapping.output_to_class.size()) && mapping.output_to_class[row[j]] == label) {
        in_top5 = true;
      }
    }
    const bool in_top1 = row[0] >= 0 && row[0] < static_cast<int32_t>(mapping.output_to_class.size()) &&
                         mapping.output_to_class[row[0]] == label;
    outcomes.top1[i] = in_top1 ? 1 : 0;
    outcomes.top5[i] = in_top5 ? 1 : 0;
  }
  return outcomes;
}

AccuracyCount CountAccuracy(const std::vector<int8_t>& outcomes) {
  AccuracyCount count;
  for (int8_t outcome : outcomes) {
    if (outcome == kNotEvaluated) continue;
    ++count.n;
    count.correct += outcome == 1;
  }
  return count;
}

json AccuracyJson(const AccuracyCount& count) {
  const stats::Interval interval = stats::ClopperPearson(count.correct, count.n);
  return {{"correct", count.correct},
          {"accuracy", count.n == 0 ? json(nullptr) : JsonNumber(count.accuracy())},
          {"lower", count.n == 0 ? json(nullptr) : JsonNumber(interval.lower)},
          {"upper", count.n == 0 ? json(nullptr) : JsonNumber(interval.upper)}};
}

json ModelJson(const ModelOutcomes& model, const std::vector<int>& labels,
               const std::vector<std::string>& class_names) {
  const AccuracyCount top1 = CountAccuracy(model.top1);
  const AccuracyCount top5 = CountAccuracy(model.top5);
  std::map<int, AccuracyCount> per_class;
  for (size_t i = 0; i < labels.size(); ++i) {
    if (model.top1[i] == kNotEvaluated) continue;
    AccuracyCount& count = per_class[labels[i]];
    ++count.n;
    count.correct += model.top1[i] == 1;
  }
  json classes = json::array();
  for (const auto& [label, count] : per_class) {
    const std::string name = label < static_cast<int>(class_names.size()) && !class_names[label].empty()
                                 ? class_names[label]
                                 : std::to_string(label);
    classes.push_back({{"class", name}, {"n", count.n}, {"correct", count.correct}});
  }
  json gap = nullptr;
  if (model.validation_accuracy && top1.n > 0) gap = JsonNumber(*model.validation_accuracy - top1.accuracy());
  return {{"name", model.name},
          {"group", model.group},
          {"evaluated", top1.n},
          {"uncovered", model.uncovered},
          {"top1", AccuracyJson(top1)},
          {"top5", AccuracyJson(top5)},
          {"validation_accuracy", JsonNumber(model.validation_accuracy)},
          {"validation_size", JsonOrNull(model.validation_size)},
          {"gap", gap},
          {"per_class", classes}};
}

PairComparison ComparePair(const ModelOutcomes& a, const ModelOutcomes& b, const std::string& metric) {
  PairComparison pair;
  pair.a = a.name;
  pair.b = b.name;
  pair.metric = metric;
  const std::vector<int8_t>& oa = a.Metric(metric);
  const std::vector<int8_t>& ob = b.Metric(metric);
  for (size_t i = 0; i < oa.size() && i < ob.size(); ++i) {
    if (oa[i] == kNotEvaluated || ob[i] == kNotEvaluated) continue;
    ++pair.n;
    if (oa[i] == 1 && ob[i] == 1) ++pair.both;
    if (oa[i] == 1 && ob[i] == 0) ++pair.only_a;
    if (oa[i] == 0 && ob[i] == 1) ++pair.only_b;
    if (oa[i] == 0 && ob[i] == 0) ++pair.neither;
  }
  pair.p_value = stats::ExactMcNemar(pair.only_a, pair.only_b).p_value;
  if (pair.n > 0) {
    pair.difference = (static_cast<double>(pair.only_a) - static_cast<double>(pair.only_b)) / pair.n;
    const stats::Interval interval =
        stats::PairedProportionDifference(stats::PairedCounts{pair.both, pair.only_a, pair.only_b, pair.neither});
    pair.lower = interval.lower;
    pair.upper = interval.upper;
  } else {
    pair.lower = -1;
    pair.upper = 1;
  }
  return pair;
}

json PairJson(const PairComparison& pair) {
  return {{"a", pair.a},
          {"b", pair.b},
          {"metric", pair.metric},
          {"n", pair.n},
          {"only_a", pair.only_a},
          {"only_b", pair.only_b},
          {"p_value", JsonNumber(pair.p_value)},
          {"difference", pair.n == 0 ? json(nullptr) : JsonNumber(pair.difference)},
          {"lower", JsonNumber(pair.lower)},
          {"upper", JsonNumber(pair.upper)}};
}

}  // namespace evalsuite::generalization
