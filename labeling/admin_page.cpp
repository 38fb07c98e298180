#include "labeling/admin_page.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace evalsuite::labeling {
namespace {

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Number(double value, const char* format) {
  if (std::isnan(value)) return "n/a";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

}  // namespace

std::vector<LabelerProgress> ComputeProgress(const datasets::CandidateManifest& manifest, const AssignmentPlan& plan,
                                             const std::vector<LabelEvent>& events) {
  const auto decisions = CurrentDecisions(events);
  const AgreementReport agreement = ComputeAgreement(manifest, decisions);
  std::set<std::string> names(plan.roster.begin(), plan.roster.end());
  names.insert(agreement.labelers.begin(), agreement.labelers.end());
  std::map<std::string, std::vector<double>> seconds;
  std::set<int64_t> standing;
  for (const auto& [key, decision] : decisions) standing.insert(decision.seq);
  for (const LabelEvent& event : events) {
    if (!event.is_undo && standing.count(event.seq)) seconds[event.labeler].push_back(event.seconds);
  }
  std::vector<LabelerProgress> out;
  for (const std::string& name : names) {
    LabelerProgress p;
    p.labeler = name;
    for (std::size_t index : AssignedItems(manifest, plan, name)) {
      ++p.assigned;
      if (decisions.count({manifest.items[index].id, name})) ++p.decided;
    }
    std::vector<double>& mine = seconds[name];
    if (mine.empty()) {
      p.median_seconds = std::nan("");
    } else {
      std::sort(mine.begin(), mine.end());
      const std::size_t n = mine.size();
      p.median_seconds = n % 2 ? mine[n / 2] : (mine[n / 2 - 1] + mine[n / 2]) / 2;
    }
    for (const PairKappa& pair : agreement.cohen) {
      if (pair.labeler_a == name) p.kappa_with.emplace_back(pair.labeler_b, pair.kappa);
      if (pair.labeler_b == name) p.kappa_with.emplace_back(pair.labeler_a, pair.kappa);
    }
    for (const LabelerAccuracy& accuracy : agreement.accuracy) {
      if (accuracy.labeler != name) continue;
      p.controls_judged = accuracy.controls_judged;
      p.controls_right = accuracy.controls_right;
      p.controls_interval = accuracy.interval;
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::string RenderAdminPage(const std::vector<LabelerProgress>& progress, std::size_t items) {
  std::string html =
      "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>evalsuite labeling: progress</title>"
      "</head><body><h1>Labeling progress</h1><p>" +
      std::to_string(items) +
      " candidates. Speed: median seconds from display to decision. Agreement: Cohen's kappa with each other "
      "labeler over the items both judged.</p><table border=\"1\" cellpadding=\"4\"><tr><th>Labeler</th>"
      "<th>Done</th><th>Assigned</th><th>Median s</th><th>Agreement</th><th>Controls right (accuracy, 95% "
      "Clopper-Pearson)</th></tr>";
  for (const LabelerProgress& p : progress) {
    std::string kappas;
    for (const auto& [other, kappa] : p.kappa_with) {
      kappas += (kappas.empty() ? "" : "; ") + Escape(other) + " " + Number(kappa.kappa, "%.2f") + " (" +
                std::to_string(kappa.items) + " items)";
    }
    html += "<tr><td>" + Escape(p.labeler) + "</td><td>" + std::to_string(p.decided) + "</td><td>" +
            std::to_string(p.assigned) + "</td><td>" + Number(p.median_seconds, "%.1f") + "</td><td>" +
            (kappas.empty() ? "n/a" : kappas) + "</td><td>" + std::to_string(p.controls_right) + " of " +
            std::to_string(p.controls_judged) +
            (p.controls_judged == 0
                 ? std::string(" (no controls judged)")
                 : " (" +
                       Number(100.0 * static_cast<double>(p.controls_right) / static_cast<double>(p.controls_judged),
                              "%.0f") +
                       "% [" + Number(100 * p.controls_interval.lower, "%.0f") + ", " +
                       Number(100 * p.controls_interval.upper, "%.0f") + "])") +
            "</td></tr>";
  }
  return html + "</table></body></html>\n";
}

}  // namespace evalsuite::labeling
