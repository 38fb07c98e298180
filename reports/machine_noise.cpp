#include "reports/machine_noise.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/run_contention.h"
#include "common/json_number.h"
#include "stats/stability.h"

namespace evalsuite::reports {
namespace {

using nlohmann::json;

struct MeanMax {
  double sum = 0, max = 0;
  std::size_t n = 0;
  void Add(std::optional<double> v) {
    if (!v) return;
    sum += *v;
    max = n == 0 ? *v : std::max(max, *v);
    ++n;
  }
  std::optional<MeanMaxModel> Model() const {
    if (n == 0) return std::nullopt;
    return MeanMaxModel{sum / static_cast<double>(n), max};
  }
  double Mean() const { return n == 0 ? 0 : sum / static_cast<double>(n); }
};

std::string Percent(double fraction) { return fmt::format("{:.1f}%", fraction * 100); }

}  // namespace

std::optional<ContentionSummaryModel> ContentionSummary(const std::vector<const analysis::Run*>& runs) {
  MeanMax other, steal, load, pressure, cores;
  std::size_t measured = 0, busy = 0;
  for (const analysis::Run* run : runs) {
    if (!run->contention) continue;
    const analysis::RunContention& c = *run->contention;
    ++measured;
    busy += analysis::RunWasBusy(c);
    other.Add(c.other_busy_cores);
    steal.Add(c.steal_fraction);
    if (c.load_average_1m) load.Add(c.load_average_1m->mean);
    pressure.Add(c.cpu_pressure_some);
    if (c.cores) cores.Add(static_cast<double>(*c.cores));
  }
  if (measured == 0) return std::nullopt;
  ContentionSummaryModel summary;
  summary.runs_measured = measured;
  summary.busy_runs = busy;
  summary.other_busy_cores = other.Model();
  summary.steal_fraction = steal.Model();
  summary.load_average_1m = load.Model();
  summary.cpu_pressure_some = pressure.Model();
  if (cores.n > 0) summary.cores = cores.max;
  return summary;
}

std::string BusyRule() {
  return fmt::format(
      "a run was busy when other processes kept at least {:g} core(s) of its cores busy on average, "
      "or steal took at least {:g}% of their time",
      analysis::kBusyOtherCores, analysis::kBusyStealFraction * 100);
}

json VariationJson(const stats::VariationDecomposition& d) {
  return {{"runs", d.runs},
          {"cov_tta", JsonNumber(d.cov_tta)},
          {"cov_epochs", JsonNumber(d.cov_epochs)},
          {"cov_time_per_epoch", JsonNumber(d.cov_time_per_epoch)},
          {"var_log_tta", JsonNumber(d.var_log_tta)},
          {"var_log_epochs", JsonNumber(d.var_log_epochs)},
          {"var_log_time_per_epoch", JsonNumber(d.var_log_time_per_epoch)},
          {"covariance_term", JsonNumber(d.covariance_term)},
          {"share_epochs", JsonNumber(d.share_epochs)},
          {"share_time_per_epoch", JsonNumber(d.share_time_per_epoch)},
          {"share_covariance", JsonNumber(d.share_covariance)},
          {"max_time_per_epoch_cov", kMaxTimePerEpochCov},
          {"decomposition",
           "TTA = epochs to target x time per epoch (TTA / epochs to target), so var(ln TTA) = var(ln epochs) + "
           "var(ln time per epoch) + 2 cov(ln epochs, ln time per epoch), sample (n - 1) moments over the runs that "
           "reached"}};
}

std::string VariationSentence(const stats::VariationDecomposition& d) {
  if (!d.cov_tta || !d.var_log_tta) return "";
  std::string text = fmt::format(
      "variation: CoV of TTA {} from epochs to target {} (the seed's) and time per epoch {} (the machine's); "
      "var(ln TTA) {:.4g} = {:.4g} epochs + {:.4g} time per epoch + {:.4g} covariance",
      Percent(*d.cov_tta), Percent(*d.cov_epochs), Percent(*d.cov_time_per_epoch), *d.var_log_tta, *d.var_log_epochs,
      *d.var_log_time_per_epoch, *d.covariance_term);
  if (d.share_epochs) {
    text += fmt::format(" ({:.0f}% / {:.0f}% / {:.0f}%)", *d.share_epochs * 100, *d.share_time_per_epoch * 100,
                        *d.share_covariance * 100);
  }
  return text;
}

std::string MachineNoiseLine(const std::optional<ContentionSummaryModel>& summary,
                             const stats::VariationDecomposition& d, const std::string& epochs_result,
                             const std::string& basis) {
  std::vector<std::string> parts;
  if (summary && summary->busy_runs > 0) {
    std::vector<std::string> figures;
    if (const auto& steal = summary->steal_fraction; steal && steal->mean > 0.001) {
      figures.push_back("steal " + Percent(steal->mean));
    }
    if (const auto& load = summary->load_average_1m) {
      figures.push_back(summary->cores ? fmt::format("load {:.1f} on {:g} cores", load->mean, *summary->cores)
                                       : fmt::format("load {:.1f}", load->mean));
    }
    if (const auto& other = summary->other_busy_cores) {
      figures.push_back(fmt::format("other processes {:.2f} cores", other->mean));
    }
    if (const auto& pressure = summary->cpu_pressure_some) figures.push_back("CPU pressure " + Percent(pressure->mean));
    std::string joined;
    for (const std::string& f : figures) joined += (joined.empty() ? "" : ", ") + f;
    parts.push_back(fmt::format("the machine was busy during {} of {} runs ({})", summary->busy_runs,
                                summary->runs_measured, joined));
  }
  const bool varied = d.cov_time_per_epoch && *d.cov_time_per_epoch > kMaxTimePerEpochCov;
  if (varied) {
    parts.push_back(fmt::format("time per epoch varied {} (CoV; above the {} a quiet machine keeps)",
                                Percent(*d.cov_time_per_epoch), Percent(kMaxTimePerEpochCov)));
  }
  if (parts.empty()) return "";
  if (basis == stats::kBasisEpochs) {
    parts.push_back(
        "the verdict is judged on epochs to target ([stability] basis = \"epochs\"), which leaves the "
        "machine out");
  } else if (!epochs_result.empty()) {
    parts.push_back("judged on epochs to target the entry is " + epochs_result);
  }
  std::string line;
  for (const std::string& p : parts) line += (line.empty() ? "" : "; ") + p;
  return line;
}

}  // namespace evalsuite::reports
