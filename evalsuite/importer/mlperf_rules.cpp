#include "evalsuite/importer/mlperf_rules.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace evalsuite::importer {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kMaskBbox = 0.377;
constexpr double kMaskSegm = 0.339;

bool IsMaskRcnn(const std::string& benchmark) { return benchmark == "maskrcnn" || benchmark == "mask"; }
bool IsRnnt(const std::string& benchmark) { return benchmark == "rnnt" || benchmark == "rnn_t"; }

}  // namespace

std::size_t OlympicDropEachSide(const std::string& benchmark) { return benchmark == "unet3d" ? 4 : 1; }

std::optional<std::size_t> RcpSubmissionRuns(const std::string& benchmark) {
  static const std::map<std::string, std::size_t> kRuns = {{"bert", 10},  {"dlrm", 5},      {"maskrcnn", 5},
                                                           {"resnet", 5}, {"ssd", 5},       {"unet3d", 40},
                                                           {"rnnt", 10},  {"dlrm_dcnv2", 5}};
  auto it = kRuns.find(benchmark);
  if (it == kRuns.end()) return std::nullopt;
  return it->second;
}

std::optional<MlperfTarget> TargetFor(const std::string& benchmark, runlog::MlperfLogFormat format) {
  if (benchmark == "resnet") {
    return MlperfTarget{"top1", format == runlog::MlperfLogFormat::kV05 ? 0.749 : 0.759};
  }
  if (IsMaskRcnn(benchmark)) return MlperfTarget{"min(bbox/0.377,segm/0.339)", 1.0};
  if (IsRnnt(benchmark)) return MlperfTarget{"1-WER", 1.0 - 0.058};
  static const std::map<std::string, MlperfTarget> kTargets = {
      {"bert", {"mlm_accuracy", 0.720}}, {"dlrm", {"auc", 0.8025}},      {"ssd", {"mAP", 0.34}},
      {"unet3d", {"mean_dice", 0.908}},  {"minigo", {"win_rate", 0.50}}, {"transformer", {"bleu", 25.0}},
      {"gnmt", {"bleu", 24.0}},          {"ncf", {"hr@10", 0.635}},      {"dlrm_dcnv2", {"auc", 0.80275}},
  };
  auto it = kTargets.find(benchmark);
  if (it == kTargets.end()) return std::nullopt;
  return it->second;
}

double MetricOf(const std::string& benchmark, const runlog::MlperfEval& eval) {
  const nlohmann::json& v = eval.value;
  if (IsMaskRcnn(benchmark) && v.is_object()) {
    auto bbox = v.find("BBOX");
    auto segm = v.find("SEGM");
    if (bbox == v.end() || segm == v.end() || !bbox->is_number() || !segm->is_number()) return kNaN;
    return std::min(bbox->get<double>() / kMaskBbox, segm->get<double>() / kMaskSegm);
  }
  if (!v.is_number()) return kNaN;
  const double x = v.get<double>();
  return IsRnnt(benchmark) ? 1.0 - x : x;
}

}  // namespace evalsuite::importer
