#include "labeling/agreement.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <set>
#include <unordered_map>

#include "labeling/undefined_value.h"
#include "stats/dawid_skene.h"
#include "stats/proportion.h"

namespace evalsuite::labeling {
namespace {

int Category(Label label) { return static_cast<int>(label); }  // correct 0, incorrect 1, unsure 2

nlohmann::json KappaJson(const stats::KappaResult& kappa) {
  return {{"kappa", NumberOrNull(kappa.kappa)},
          {"items", kappa.items},
          {"observed_agreement", NumberOrNull(kappa.observed_agreement)},
          {"expected_agreement", NumberOrNull(kappa.expected_agreement)}};
}

std::string FormatNumber(double value, int decimals = 3) {
  return std::isnan(value) ? std::string("n/a") : fmt::format("{:.{}f}", value, decimals);
}

// Dawid-Skene over every correct/incorrect decision on a manifest item.
void AddDawidSkene(const std::map<std::string, std::map<std::size_t, Label>>& by_labeler, AgreementReport& report) {
  std::vector<stats::BinaryVote> votes;
  for (std::size_t j = 0; j < report.labelers.size(); ++j) {
    const auto found = by_labeler.find(report.labelers[j]);
    if (found == by_labeler.end()) continue;
    for (const auto& [item, label] : found->second) {
      if (label != Label::kUnsure) votes.push_back({item, j, label == Label::kCorrect});
    }
  }
  if (votes.empty()) return;
  const stats::DawidSkeneResult ds = stats::DawidSkene(votes, report.items.size(), report.labelers.size());
  std::vector<bool> voted(report.items.size(), false);
  for (const stats::BinaryVote& v : votes) voted[v.item] = true;
  for (std::size_t i = 0; i < report.items.size(); ++i) {
    if (voted[i]) report.items[i].dawid_skene = ds.posterior[i];
    report.dawid_skene_items += voted[i] ? 1 : 0;
  }
  for (std::size_t j = 0; j < report.accuracy.size(); ++j) {
    if (ds.labelers[j].votes == 0) continue;
    report.accuracy[j].sensitivity = ds.labelers[j].sensitivity;
    report.accuracy[j].specificity = ds.labelers[j].specificity;
    report.accuracy[j].likely_spammer = ds.labelers[j].spammer_score() < stats::kSpammerScoreThreshold;
  }
  report.dawid_skene_prior = ds.prior;
  report.dawid_skene_iterations = ds.iterations;
  report.dawid_skene_converged = ds.converged;
}

}  // namespace

double ItemAgreement::selection_frequency() const {
  const std::size_t n = labelers();
  return n == 0 ? kNaN : static_cast<double>(correct) / static_cast<double>(n);
}

AgreementReport ComputeAgreement(const datasets::CandidateManifest& manifest,
                                 const std::map<std::pair<std::string, std::string>, Decision>& decisions) {
  AgreementReport report;
  std::unordered_map<std::string, std::size_t> index_of;
  for (const datasets::Candidate& candidate : manifest.items) {
    index_of.emplace(candidate.id, report.items.size());
    ItemAgreement item;
    item.item_id = candidate.id;
    item.class_index = candidate.class_index;
    item.wnid = candidate.wnid;
    item.control = candidate.control;
    report.items.push_back(std::move(item));
  }

  std::set<std::string> labelers;
  // labeler -> item index -> label, for the pairwise kappas.
  std::map<std::string, std::map<std::size_t, Label>> by_labeler;
  for (const auto& [key, decision] : decisions) {
    labelers.insert(decision.labeler);
    const auto found = index_of.find(decision.item_id);
    if (found == index_of.end()) {
      ++report.decisions_on_unknown_items;
      continue;
    }
    ItemAgreement& item = report.items[found->second];
    switch (decision.label) {
      case Label::kCorrect:
        ++item.correct;
        break;
      case Label::kIncorrect:
        ++item.incorrect;
        break;
      case Label::kUnsure:
        ++item.unsure;
        break;
    }
    by_labeler[decision.labeler][found->second] = decision.label;
  }
  report.labelers.assign(labelers.begin(), labelers.end());

  std::vector<std::vector<std::size_t>> counts;
  for (const ItemAgreement& item : report.items) {
    if (item.labelers() > 0) ++report.items_judged;
    counts.push_back({item.correct, item.incorrect, item.unsure});
  }
  report.fleiss = stats::FleissKappa(counts);

  for (std::size_t a = 0; a < report.labelers.size(); ++a) {
    for (std::size_t b = a + 1; b < report.labelers.size(); ++b) {
      const auto& labels_a = by_labeler[report.labelers[a]];
      const auto& labels_b = by_labeler[report.labelers[b]];
      std::vector<std::pair<int, int>> pairs;
      for (const auto& [item, label] : labels_a) {
        const auto other = labels_b.find(item);
        if (other != labels_b.end()) pairs.emplace_back(Category(label), Category(other->second));
      }
      report.cohen.push_back(PairKappa{report.labelers[a], report.labelers[b], stats::CohenKappa(pairs)});
    }
  }

  for (const std::string& labeler : report.labelers) {
    LabelerAccuracy accuracy;
    accuracy.labeler = labeler;
    for (const auto& [index, label] : by_labeler[labeler]) {
      ++accuracy.decisions;
      const std::string& control = report.items[index].control;
      if (control.empty()) continue;
      if (label == Label::kUnsure) {
        ++accuracy.controls_unsure;
        continue;
      }
      ++accuracy.controls_judged;
      if (LabelName(label) == control) ++accuracy.controls_right;
    }
    accuracy.accuracy = accuracy.controls_judged == 0 ? kNaN
                                                      : static_cast<double>(accuracy.controls_right) /
                                                            static_cast<double>(accuracy.controls_judged);
    accuracy.interval = stats::ClopperPearson(accuracy.controls_right, accuracy.controls_judged);
    report.accuracy.push_back(accuracy);
  }
  AddDawidSkene(by_labeler, report);
  return report;
}

nlohmann::json ToJson(const AgreementReport& report) {
  nlohmann::json cohen = nlohmann::json::array();
  for (const PairKappa& pair : report.cohen) {
    nlohmann::json entry = KappaJson(pair.kappa);
    entry["labelers"] = {pair.labeler_a, pair.labeler_b};
    cohen.push_back(entry);
  }
  nlohmann::json accuracy = nlohmann::json::array();
  for (const LabelerAccuracy& a : report.accuracy) {
    accuracy.push_back({{"labeler", a.labeler},
                        {"decisions", a.decisions},
                        {"controls_judged", a.controls_judged},
                        {"controls_right", a.controls_right},
                        {"controls_unsure", a.controls_unsure},
                        {"accuracy", NumberOrNull(a.accuracy)},
                        {"interval", {{"lower", a.interval.lower}, {"upper", a.interval.upper}, {"level", 0.95}}},
                        {"dawid_skene_sensitivity", NumberOrNull(a.sensitivity)},
                        {"dawid_skene_specificity", NumberOrNull(a.specificity)},
                        {"likely_spammer", a.likely_spammer}});
  }
  nlohmann::json items = nlohmann::json::array();
  for (const ItemAgreement& item : report.items) {
    items.push_back({{"id", item.item_id},
                     {"class_index", item.class_index},
                     {"wnid", item.wnid},
                     {"control", item.control},
                     {"labels", {{"correct", item.correct}, {"incorrect", item.incorrect}, {"unsure", item.unsure}}},
                     {"labelers", item.labelers()},
                     {"selection_frequency", NumberOrNull(item.selection_frequency())},
                     {"majority", 2 * item.correct > item.labelers()},
                     {"dawid_skene", NumberOrNull(item.dawid_skene)}});
  }
  return {{"labelers", report.labelers},
          {"items_total", report.items.size()},
          {"items_judged", report.items_judged},
          {"cohen_kappa", cohen},
          {"fleiss_kappa", KappaJson(report.fleiss)},
          {"labeler_accuracy_on_controls", accuracy},
          {"dawid_skene",
           {{"prior_correct", NumberOrNull(report.dawid_skene_prior)},
            {"iterations", report.dawid_skene_iterations},
            {"converged", report.dawid_skene_converged},
            {"spammer_score_threshold", stats::kSpammerScoreThreshold},
            {"items", report.dawid_skene_items},
            {"few_items", report.dawid_skene_items > 0 && report.dawid_skene_items < stats::kDawidSkeneFewItems},
            {"rate_prior", fmt::format("Beta({0}, {0}) on every sensitivity and specificity (MAP)",
                                       stats::DawidSkeneOptions{}.rate_prior)}}},
          {"decisions_on_unknown_items", report.decisions_on_unknown_items},
          {"items", items}};
}

std::string RenderAgreementText(const AgreementReport& report) {
  std::string out;
  out += fmt::format("Labelers: {} ({})\n", report.labelers.size(), fmt::join(report.labelers, ", "));
  out += fmt::format("Items judged: {} of {}\n", report.items_judged, report.items.size());
  if (report.labelers.size() == 2 && !report.cohen.empty()) {
    const PairKappa& pair = report.cohen.front();
    out += fmt::format("Cohen's kappa ({} vs {}): {} on {} items (observed agreement {})\n", pair.labeler_a,
                       pair.labeler_b, FormatNumber(pair.kappa.kappa), pair.kappa.items,
                       FormatNumber(pair.kappa.observed_agreement));
  } else if (report.labelers.size() > 2) {
    out += fmt::format("Fleiss' kappa: {} on {} items with two or more labelers (observed agreement {})\n",
                       FormatNumber(report.fleiss.kappa), report.fleiss.items,
                       FormatNumber(report.fleiss.observed_agreement));
    for (const PairKappa& pair : report.cohen) {
      out += fmt::format("  Cohen's kappa {} vs {}: {} on {} items\n", pair.labeler_a, pair.labeler_b,
                         FormatNumber(pair.kappa.kappa), pair.kappa.items);
    }
  } else {
    out += "Agreement: needs two or more labelers\n";
  }
  if (report.decisions_on_unknown_items > 0) {
    out +=
        fmt::format("Left out: {} decisions on items no longer in the manifest\n", report.decisions_on_unknown_items);
  }
  out += fmt::format(
      "Accuracy on hidden controls (95% Clopper-Pearson), beside Dawid-Skene's sensitivity and specificity (with a "
      "Beta({0}, {0}) prior, so that a small store cannot make a labeler perfect):\n",
      stats::DawidSkeneOptions{}.rate_prior);
  if (report.dawid_skene_items > 0 && report.dawid_skene_items < stats::kDawidSkeneFewItems) {
    out += fmt::format(
        "Caution: Dawid-Skene rests on {} items; below {} a few items with split votes still get a probability of "
        "0.000 or 1.000 (simulated with 5 labelers: 38 of 621 such items at 12 items, 11 of 931 at 20, none at 36)\n",
        report.dawid_skene_items, stats::kDawidSkeneFewItems);
  }
  for (const LabelerAccuracy& a : report.accuracy) {
    const std::string rates = fmt::format("; Dawid-Skene sensitivity {}, specificity {}{}", FormatNumber(a.sensitivity),
                                          FormatNumber(a.specificity),
                                          a.likely_spammer ? " (LIKELY SPAMMER: answers regardless of the image)" : "");
    if (a.controls_judged == 0) {
      out += fmt::format("  {}: no controls judged ({} decisions, {} unsure on controls){}\n", a.labeler, a.decisions,
                         a.controls_unsure, rates);
    } else {
      out += fmt::format("  {}: {}/{} = {} [{}, {}] ({} decisions, {} unsure on controls){}\n", a.labeler,
                         a.controls_right, a.controls_judged, FormatNumber(a.accuracy), FormatNumber(a.interval.lower),
                         FormatNumber(a.interval.upper), a.decisions, a.controls_unsure, rates);
    }
  }
  out += "\nitem\twnid\tcorrect\tincorrect\tunsure\tselection_frequency\tmajority\tdawid_skene\n";
  for (const ItemAgreement& item : report.items) {
    out += fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n", item.item_id, item.wnid, item.correct, item.incorrect,
                       item.unsure, FormatNumber(item.selection_frequency()),
                       item.labelers() == 0 ? "n/a" : (2 * item.correct > item.labelers() ? "yes" : "no"),
                       FormatNumber(item.dawid_skene));
  }
  return out;
}

}  // namespace evalsuite::labeling
