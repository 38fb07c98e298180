// Agreement over the current decisions of a label store: per item selection frequency (ImageNetV2's share of
// labelers who said "correct"), Cohen's kappa for each pair of labelers, Fleiss' kappa over all of them, and
// each labeler's accuracy on the hidden controls with a Clopper-Pearson interval, and the Dawid-Skene estimate
// (stats/dawid_skene.h) of each labeler's sensitivity and specificity and of each item's probability of
// being correct. "unsure" is no vote for Dawid-Skene; controls take part as ordinary items (their answers
// are not given to it), so its rates can be read against the control accuracy. Pure: no I/O.
#pragma once

#include <cstddef>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "datasets/images/candidate_manifest.h"
#include "labeling/label_store.h"
#include "stats/agreement.h"
#include "stats/interval.h"

namespace evalsuite::labeling {

struct ItemAgreement {
  std::string item_id;
  int class_index = -1;
  std::string wnid;
  std::string control;  // "", "correct" or "incorrect"
  std::size_t correct = 0;
  std::size_t incorrect = 0;
  std::size_t unsure = 0;
  std::size_t labelers() const { return correct + incorrect + unsure; }
  // correct / labelers() (an "unsure" counts as not selecting the image); NaN when nobody judged it.
  double selection_frequency() const;
  // Dawid-Skene: P(the image shows its class | every labeler's vote and reliability); NaN without votes.
  double dawid_skene = std::numeric_limits<double>::quiet_NaN();
};

struct PairKappa {
  std::string labeler_a;
  std::string labeler_b;
  stats::KappaResult kappa;  // over the items both judged; categories correct, incorrect, unsure
};

struct LabelerAccuracy {
  std::string labeler;
  std::size_t decisions = 0;        // items judged (controls included)
  std::size_t controls_judged = 0;  // controls answered correct or incorrect (unsure is left out)
  std::size_t controls_right = 0;
  std::size_t controls_unsure = 0;
  double accuracy = 0;       // controls_right / controls_judged; NaN without controls
  stats::Interval interval;  // Clopper-Pearson 95%, [0, 1] without controls
  // Dawid-Skene's estimates over all items the labeler judged correct or incorrect.
  double sensitivity = std::numeric_limits<double>::quiet_NaN();  // P(says correct | the image is correct)
  double specificity = std::numeric_limits<double>::quiet_NaN();  // P(says incorrect | it is not)
  bool likely_spammer = false;  // |sensitivity + specificity - 1| below stats::kSpammerScoreThreshold
};

struct AgreementReport {
  std::vector<std::string> labelers;  // sorted
  std::vector<ItemAgreement> items;   // every manifest item, manifest order
  std::size_t items_judged = 0;       // by at least one labeler
  std::vector<PairKappa> cohen;       // one per pair of labelers
  stats::KappaResult fleiss;          // items with at least two labelers
  std::vector<LabelerAccuracy> accuracy;
  std::size_t decisions_on_unknown_items = 0;  // events for ids no longer in the manifest (left out)
  double dawid_skene_prior = std::numeric_limits<double>::quiet_NaN();  // estimated share of correct items
  std::size_t dawid_skene_items = 0;  // items with a correct/incorrect vote (below stats::kDawidSkeneFewItems: warned)
  int dawid_skene_iterations = 0;
  bool dawid_skene_converged = false;
};

AgreementReport ComputeAgreement(const datasets::CandidateManifest& manifest,
                                 const std::map<std::pair<std::string, std::string>, Decision>& decisions);

nlohmann::json ToJson(const AgreementReport& report);
// The verdict first (labelers, kappas with the items they rest on, control accuracy), then one line per item.
std::string RenderAgreementText(const AgreementReport& report);

}  // namespace evalsuite::labeling
