#include "importer/framework_metric.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <set>
#include <tuple>

#include "importer/run_identity.h"

namespace evalsuite::importer {

const char* const kMetricChoiceRule =
    "the first validation metric (a name with val, valid, validation, eval or dev; then test; then any) by kind: "
    "accuracy, then "
    "F1/precision/recall/AUC/mAP/IoU/BLEU/ROUGE, then error rates (WER, CER), then loss, then any other; per-epoch "
    "before per-step values, a plain or top-1 name before a qualified one, then by name; --metric names another";

namespace framework_metric_detail {

std::vector<std::string> Tokens(const std::string& name) {
  std::vector<std::string> tokens;
  std::string token;
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      token += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!token.empty()) {
      tokens.push_back(token);
      token.clear();
    }
  }
  if (!token.empty()) tokens.push_back(token);
  return tokens;
}

bool HasToken(const std::vector<std::string>& tokens, const std::set<std::string>& set) {
  return std::any_of(tokens.begin(), tokens.end(), [&](const std::string& t) { return set.count(t) > 0; });
}

bool IsAccuracyToken(const std::string& t) {
  // acc, accuracy, bacc, top1, acc1, acc5, categorical_accuracy's "accuracy"...
  return t == "acc" || t == "accuracy" || t == "bacc" || t == "top1" || t == "top5" ||
         (t.size() > 3 && t.compare(t.size() - 3, 3, "acc") == 0) || t.rfind("acc", 0) == 0 ||
         t.rfind("accuracy", 0) == 0;
}

const std::set<std::string>& LowerTokens() {
  static const std::set<std::string> s = {"loss", "wer", "cer", "error", "err", "perplexity",
                                          "ppl",  "mse", "mae", "rmse",  "nll", "fid"};
  return s;
}

const std::set<std::string>& QualityTokens() {
  static const std::set<std::string> s = {"f1",     "precision", "recall", "auc",  "auroc", "map",
                                          "map50",  "iou",       "miou",   "bleu", "rouge", "rouge1",
                                          "rouge2", "rougel",    "dice",   "mcc",  "kappa"};
  return s;
}

const std::set<std::string>& AccuracyLikeTokens() {
  static const std::set<std::string> s = {"f1",  "precision", "recall", "auc",  "auroc",
                                          "map", "map50",     "iou",    "miou", "dice"};
  return s;
}

// Never a quality: time, throughput, optimizer state, counters ("epoch", "step", "global_step", "eval_gen_len").
bool IsBookkeeping(const std::vector<std::string>& tokens) {
  static const std::set<std::string> s = {"runtime", "time",   "second",   "seconds",    "samples",
                                          "steps",   "lr",     "learning", "momentum",   "grad",
                                          "norm",    "memory", "flos",     "throughput", "global"};
  if (tokens.size() == 1 && (tokens[0] == "epoch" || tokens[0] == "step")) return true;
  if (HasToken(tokens, s)) return true;
  return tokens.size() >= 2 && tokens[tokens.size() - 2] == "gen" && tokens.back() == "len";
}

// 0: a validation set's, 1: a test set's (often logged once, after training), 2: neither.
int SetRank(const std::vector<std::string>& tokens) {
  // YOLO's results.csv names its validation metrics "metrics/mAP50(B)", "metrics/precision(B)"...
  if (HasToken(tokens, {"val", "valid", "validation", "eval", "dev", "vali", "metrics"})) return 0;
  if (HasToken(tokens, {"test"})) return 1;
  return 2;
}

int KindRank(const std::vector<std::string>& tokens) {
  if (HasToken(tokens, LowerTokens())) {
    return HasToken(tokens, {"loss", "nll", "perplexity", "ppl", "mse", "mae", "rmse"}) ? 3 : 2;
  }
  if (std::any_of(tokens.begin(), tokens.end(), IsAccuracyToken)) return 0;
  if (HasToken(tokens, QualityTokens())) return 1;
  return 4;
}

// Within a kind, the plain metric ("val_acc", "val_accuracy_epoch") or a top-1 before a qualified one ("val_acc_top5",
// "val_acc_mean_pos": a mean rank, not an accuracy).
int QualifiedRank(const std::vector<std::string>& tokens) {
  static const std::set<std::string> plain = {"val", "valid",    "validation", "eval", "dev", "test", "vali", "epoch",
                                              "acc", "accuracy", "f1",         "loss", "wer", "cer",  "top1"};
  return std::all_of(tokens.begin(), tokens.end(), [](const std::string& t) { return plain.count(t) > 0; }) ? 0 : 1;
}

}  // namespace framework_metric_detail

MetricNature NatureOfMetric(const std::string& name, const std::vector<double>& values) {
  using namespace framework_metric_detail;
  const std::vector<std::string> tokens = Tokens(name);
  MetricNature nature;
  if (HasToken(tokens, LowerTokens())) {
    nature.direction = MetricDirection::kLowerIsBetter;
    nature.scale = runlog::MetricScale{0, std::numeric_limits<double>::infinity(), "a number >= 0"};
    // An error rate (not a loss) is a fraction or a percentage, as an accuracy is (Whisper's recipe logs WER in
    // percent); it may exceed 1 (or 100), so its scale stays open above.
    const bool error_rate = HasToken(tokens, {"wer", "cer", "error", "err"}) &&
                            !HasToken(tokens, {"loss", "nll", "perplexity", "ppl", "mse", "mae", "rmse"});
    const MetricScaleDecision decided = DecideMetricScale(error_rate, values);
    nature.rate = decided.rate;
    nature.percent = decided.percent;
    return nature;
  }
  nature.accuracy_like =
      std::any_of(tokens.begin(), tokens.end(), IsAccuracyToken) || HasToken(tokens, AccuracyLikeTokens());
  if (!nature.accuracy_like) return nature;  // BLEU, ROUGE, unknown: any finite value
  const MetricScaleDecision decided = DecideMetricScale(true, values);
  nature.rate = true;
  nature.percent = decided.percent;
  nature.scale = nature.percent ? runlog::MetricScale{0, 100, "a percentage in [0, 100]"} : runlog::FractionScale();
  return nature;
}

std::optional<std::string> ChooseMetric(const std::vector<std::string>& names, bool validation_folder,
                                        bool* only_training) {
  using namespace framework_metric_detail;
  // (set, kind, per-step, qualified, name): the smallest wins.
  std::optional<std::tuple<int, int, bool, int, std::string>> best;
  for (const std::string& name : names) {
    const std::vector<std::string> tokens = Tokens(name);
    if (IsBookkeeping(tokens)) continue;
    const int set = validation_folder ? 0 : SetRank(tokens);
    const bool per_step = !tokens.empty() && tokens.back() == "step";
    const auto key = std::make_tuple(set, KindRank(tokens), per_step, QualifiedRank(tokens), name);
    if (!best || key < *best) best = key;
  }
  if (!best) return std::nullopt;
  if (only_training != nullptr) *only_training = std::get<0>(*best) == 2;
  return std::get<4>(*best);
}

}  // namespace evalsuite::importer
