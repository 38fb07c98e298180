#include "analysis/mlperf_audit.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>
#include <tuple>

namespace evalsuite::analysis {
namespace {

AuditedSubmission AuditOne(AuditInput input, const AuditSettings& settings) {
  AuditedSubmission out;
  out.rerun = SimulateRerun(input.submission, settings.rerun);
  const RerunSubmission& s = input.submission;
  if (s.reference && !s.reference->pool.empty()) {
    std::vector<double> points;
    for (const std::optional<double>& c : s.convergence) {
      if (c) points.push_back(*c);
    }
    out.selection = CheckSelection(points, s.reference->pool, settings.selection, s.source);
    if (!out.selection->computed) {
      out.selection_why_not = out.selection->why_not;
      out.selection.reset();
    }
  } else {
    out.selection_why_not = s.no_reference.empty() ? "no reference runs at the batch size" : s.no_reference;
  }
  out.input = std::move(input);
  return out;
}

}  // namespace

AuditReport AuditSubmissions(std::vector<AuditInput> inputs, const AuditSettings& settings) {
  AuditReport report;
  report.settings = settings;
  // Submissions are simulated on as many threads as the machine has: each draws from its own seeded stream
  // (SubmissionSeed), so the figures do not depend on the threads or their order.
  std::vector<AuditedSubmission> audited(inputs.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < inputs.size(); i = next++) audited[i] = AuditOne(std::move(inputs[i]), settings);
  };
  const std::size_t threads = std::min<std::size_t>(std::max(1U, std::thread::hardware_concurrency()), inputs.size());
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  std::map<std::tuple<std::string, std::string, std::string>, AuditGroup> groups;
  for (AuditedSubmission& a : audited) {
    const AuditInput& input = a.input;
    AuditGroup& g = groups[{input.ruleset, input.benchmark, input.division}];
    g.ruleset = input.ruleset;
    g.benchmark = input.benchmark;
    g.division = input.division;
    const bool scored = input.submission.official_minutes.has_value();
    (scored ? g.ranked : g.unranked).push_back(std::move(a));
  }
  for (auto& [key, g] : groups) {
    std::stable_sort(g.ranked.begin(), g.ranked.end(), [](const AuditedSubmission& a, const AuditedSubmission& b) {
      return *a.input.submission.official_minutes < *b.input.submission.official_minutes;
    });
    if (g.ranked.size() < 2) {
      g.notes.push_back(fmt::format("{} submission(s) with an official score: no ranking to test", g.ranked.size()));
    }
    for (std::size_t i = 0; i + 1 < g.ranked.size(); ++i) {
      AdjacentPair pair;
      pair.faster = g.ranked[i].input.submission.source;
      pair.slower = g.ranked[i + 1].input.submission.source;
      const RerunRange& a = g.ranked[i].rerun;
      const RerunRange& b = g.ranked[i + 1].rerun;
      if (a.computed && b.computed) {
        pair.probability = ProbabilityFaster(a, b);
        pair.within_noise = *pair.probability < settings.within_noise;
      } else {
        pair.why_not = "no rerun range for " + (a.computed ? pair.slower : pair.faster);
      }
      g.pairs.push_back(std::move(pair));
    }
    report.groups.push_back(std::move(g));
  }
  return report;
}

}  // namespace evalsuite::analysis
