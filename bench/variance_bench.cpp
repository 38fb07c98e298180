// How long the sources-of-variance analysis of a design takes (issue 55: "the analysis of any design takes under a
// second"), at the sizes users run (3 x 3 x 3 x 2 = 54 runs up to 5 x 5 x 5 x 3 = 375), beside statsmodels' MixedLM
// fitting ln TTA's components once (REML, variance components as random effects) on the same data: evalsuite's
// figure is the whole analysis (four responses, each with 400 bootstrap refits), the peer's one point fit.
//
//   build/bench/variance_bench
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "analysis/variance_sources.h"

namespace {

using evalsuite::analysis::DesignRun;
using evalsuite::analysis::DesignRuns;

DesignRuns Simulate(int levels, int repeats, std::mt19937_64& generator) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> init(levels), data(levels), aug(levels);
  for (int l = 0; l < levels; ++l) {
    init[l] = 0.05 * normal(generator);
    data[l] = 0.12 * normal(generator);
    aug[l] = 0.03 * normal(generator);
  }
  DesignRuns out;
  for (int i = 0; i < levels; ++i) {
    for (int d = 0; d < levels; ++d) {
      for (int a = 0; a < levels; ++a) {
        for (int r = 0; r < repeats; ++r) {
          DesignRun run;
          run.seeds = {static_cast<uint64_t>(i), static_cast<uint64_t>(100 + d), static_cast<uint64_t>(200 + a)};
          const double ln_tta = std::log(100.0) + init[i] + data[d] + aug[a] + 0.02 * normal(generator);
          run.time_to_target = std::exp(ln_tta);
          run.epochs_to_target = std::exp(ln_tta - std::log(10.0) + 0.01 * normal(generator));
          run.seconds_per_epoch = 10 + 0.3 * normal(generator);
          run.final_metric = 0.9 + 0.002 * normal(generator);
          out.runs.push_back(run);
        }
      }
    }
  }
  return out;
}

double PeerSeconds(const DesignRuns& design) {
  const std::string csv = "/tmp/variance_bench.csv";
  {
    std::ofstream out(csv);
    out << "init,data,aug,y\n";
    for (const DesignRun& run : design.runs) {
      out << run.seeds[0] << "," << run.seeds[1] << "," << run.seeds[2] << "," << std::log(*run.time_to_target) << "\n";
    }
  }
  const std::string script =
      "import time, warnings, numpy as np, pandas as pd, statsmodels.formula.api as smf\n"
      "warnings.simplefilter('ignore')\n"
      "d = pd.read_csv('" +
      csv +
      "'); d['g'] = 1\n"
      "t = time.perf_counter()\n"
      "smf.mixedlm('y ~ 1', d, groups='g', re_formula='0', vc_formula={'init': '0 + C(init)', 'data': '0 + C(data)', "
      "'aug': '0 + C(aug)'}).fit(reml=True)\n"
      "print(time.perf_counter() - t)\n";
  {
    std::ofstream out("/tmp/variance_bench.py");
    out << script;
  }
  FILE* pipe = popen("/usr/bin/python3 /tmp/variance_bench.py 2>/dev/null", "r");
  if (!pipe) return NAN;
  double seconds = NAN;
  if (std::fscanf(pipe, "%lf", &seconds) != 1) seconds = NAN;
  pclose(pipe);
  return seconds;
}

}  // namespace

int main() {
  std::mt19937_64 generator(55);
  std::printf("%-14s %6s %14s %18s %8s\n", "design", "runs", "evalsuite (s)", "statsmodels fit (s)", "ratio");
  for (const auto& [levels, repeats] : std::vector<std::pair<int, int>>{{2, 2}, {3, 2}, {4, 2}, {5, 3}}) {
    const DesignRuns design = Simulate(levels, repeats, generator);
    const auto start = std::chrono::steady_clock::now();
    const evalsuite::analysis::VarianceSources v =
        evalsuite::analysis::AnalyzeVarianceSources(design, {"init", "data_order", "augmentation"});
    const double ours = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double peer = PeerSeconds(design);
    const std::string name = std::to_string(levels) + "x" + std::to_string(levels) + "x" + std::to_string(levels) +
                             "x" + std::to_string(repeats);
    std::printf("%-14s %6zu %14.3f %18.3f %8.2f%s\n", name.c_str(), design.runs.size(), ours, peer, ours / peer,
                v.withheld ? "  (withheld)" : "");
  }
  std::printf(
      "evalsuite: REML point fits and 400 parametric-bootstrap refits for each of 4 responses; statsmodels: "
      "one REML fit of ln TTA.\n");
  return 0;
}
