// The one rule for the frameworks' metrics (framework_import.h): which logged metric a run is judged on when the user
// names none, which way it improves, and on which scale its values lie. Names are read as lowercase tokens split at
// every character that is not a letter or digit ("val_acc_top1_epoch" -> val, acc, top1, epoch).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runlog/run_log_checks.h"

namespace evalsuite::importer {

enum class MetricDirection { kHigherIsBetter, kLowerIsBetter };

struct MetricNature {
  MetricDirection direction = MetricDirection::kHigherIsBetter;
  // The values the metric can take as logged: accuracy-like metrics are a fraction in [0, 1] or, when the median
  // logged value is above 1, a percentage in [0, 100]; losses and error rates are >= 0; anything else any finite value.
  std::optional<runlog::MetricScale> scale;
  bool percent = false;        // a rate logged in percent
  bool accuracy_like = false;  // accuracy, F1, precision, recall, AUC, mAP, IoU
  // A rate: accuracy-like, or an error rate (WER, CER, error); a --threshold on the other scale (fraction or
  // percent, run_identity.h's DecideMetricScale) is converted. `percent` says which scale the log uses.
  bool rate = false;
};

// Lower is better for a name with a token loss, wer, cer, error, err, perplexity, ppl, mse, mae, rmse, nll or fid.
MetricNature NatureOfMetric(const std::string& name, const std::vector<double>& values);

// The metric a run is judged on without --metric: the validation metrics first (a token val, valid, validation, eval
// or dev, or every metric when the run's folder says validation), then a test set's, then the others; within them
// first an accuracy, then F1 / precision /
// recall / AUC / mAP / IoU / BLEU / ROUGE, then an error rate (WER, CER, error), then a loss, then any other;
// within a kind a per-epoch aggregate ("_epoch") before a per-batch one ("_step"), a plain or top-1 name before a
// qualified one ("val_acc_top5", "val_acc_mean_pos"), then by name. Durations,
// throughput, learning rates, epochs and steps are never chosen. When only others are left `only_training` is set (the
// note says so). nullopt when nothing is left.
std::optional<std::string> ChooseMetric(const std::vector<std::string>& names, bool validation_folder,
                                        bool* only_training = nullptr);

// The rule above in one sentence, for the import's note.
extern const char* const kMetricChoiceRule;

}  // namespace evalsuite::importer
