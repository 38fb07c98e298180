// `fast` against `baseline` on this machine, in one run: time to target and time per epoch of each, measured
// alternately (baseline, fast, baseline, fast, ...) with the same seeds, threads and data, so that drift of the
// machine falls on both alike. `fast` trains in the precision chosen from a few timed steps of each of its forms
// (entries/precision_choice.h); with --also-forced-bf16 it runs a third time in forced bf16 and with
// --also-forced-fp32 in forced fp32, so that both forms' TTA stand beside the choice: the choice is right on this
// machine when the form it took is the sooner one. Prints medians and the ratios fast / baseline (< 1: fast is
// faster). The figures depend on the code as much as on the CPU: the fused fp32 layers (bfd7a92) made fp32 steps
// about 1.8x faster and left bf16 steps (autocast's composed path) as they were.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/cpu_features.h"
#include "datasets/fashion_mnist/fashion_mnist.h"
#include "entries/builtin_entries.h"
#include "entries/precision_choice.h"
#include "stats/curve.h"
#include "training/machine_ceilings.h"
#include "training/trainer.h"

namespace {

using namespace evalsuite;

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

struct Measured {
  std::vector<double> tta;               // runs that reached
  std::vector<double> epochs_to_target;  // runs that reached: the epoch of the first evaluation at the target
  std::vector<double> seconds_per_epoch;
  int missed = 0;
  std::string precision;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"fast vs baseline: time to target and time per epoch, side by side"};
  int threads = 1;
  size_t images = 20000;
  int epochs = 3;  // with 20k images, 0.87 and 4 evaluations per epoch: studies/quick.toml, the main job's study
  double target = 0.87;
  int repeats = 3;
  int evals_per_epoch = 4;
  bool also_bf16 = false;
  bool also_fp32 = false;
  std::string data_dir = datasets::kDefaultFashionMnistDir;
  app.add_option("--threads", threads, "Threads per run (a study's default on two cores is 1)")->capture_default_str();
  app.add_option("--images", images, "Training images (the first N)")->capture_default_str();
  app.add_option("--epochs", epochs, "Epoch budget of both")->capture_default_str();
  app.add_option("--target", target, "Validation top-1 target")->capture_default_str();
  app.add_option("--repeats", repeats, "Alternating runs of each (seeds 1..N)")->capture_default_str();
  app.add_option("--evals-per-epoch", evals_per_epoch,
                 "Evaluations per epoch: TTA's grid (the quick study's is 4; one per epoch hides differences under an "
                 "epoch)")
      ->capture_default_str();
  app.add_flag("--also-forced-bf16", also_bf16, "Also run fast in forced bf16");
  app.add_flag("--also-forced-fp32", also_fp32, "Also run fast in forced fp32 (its precision without native bf16)");
  app.add_option("--data", data_dir, "Fashion-MNIST folder")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const datasets::FashionMnist data = datasets::LoadFashionMnist(data_dir);
  const entries::BuiltinEntry& baseline = entries::BuiltinEntryOrThrow("baseline");
  const entries::BuiltinEntry& fast = entries::BuiltinEntryOrThrow("fast");
  // fast's forms timed a few steps each, as `evalsuite train fast` does before its run.
  const nlohmann::json ceilings = training::MeasurePrecisionProbes(fast, threads);
  const entries::RunGoal goal{target, std::min(images, data.train.size())};
  std::cout << fmt::format(
      "CPU: {} ({} threads per run); {} training images, {} epochs, target {}, {} evaluations per "
      "epoch\n",
      ThisCpu().model, threads, images, epochs, target, evals_per_epoch);
  std::vector<std::pair<std::string, entries::PrecisionChoice>> variants;
  variants.push_back({"baseline", entries::ChoosePrecision(baseline, "auto", nullptr, goal)});
  variants.push_back({"fast", entries::ChoosePrecision(fast, "auto", ceilings, goal)});
  if (also_bf16) variants.push_back({"fast (forced bf16)", entries::ChoosePrecision(fast, "bf16", ceilings, goal)});
  if (also_fp32) variants.push_back({"fast (forced fp32)", entries::ChoosePrecision(fast, "fp32", ceilings, goal)});
  std::cout << "fast's precision: " << variants[1].second.reason << "\n";

  std::map<std::string, Measured> measured;
  for (int repeat = 0; repeat < repeats; ++repeat) {
    for (const auto& [name, precision] : variants) {
      const entries::BuiltinEntry& entry = name == "baseline" ? baseline : fast;
      training::TrainOptions options;
      options.seed = static_cast<uint64_t>(repeat + 1);
      options.threads = threads;
      options.epochs = epochs;
      options.target = target;
      options.train_subset = images;
      options.evals_per_epoch = evals_per_epoch;
      options.precision = precision;
      const training::TrainResult r = training::Train(entry, data, options);
      Measured& m = measured[name];
      m.precision = r.precision.precision;
      // Epochs to target as the report counts them: TTA's crossing rule on the curve against epochs.
      std::vector<stats::CurvePoint> by_epoch;
      for (const runlog::EvalPoint& p : r.run.points) by_epoch.push_back({p.epoch, p.metric});
      const std::optional<double> epoch_at_target = stats::TimeToTarget(by_epoch, target);
      if (r.tta_seconds) {
        m.tta.push_back(*r.tta_seconds);
        if (epoch_at_target) m.epochs_to_target.push_back(*epoch_at_target);
      } else {
        ++m.missed;
      }
      m.seconds_per_epoch.push_back(r.run.train_seconds / std::max(1, r.epochs_run));
      std::cout << fmt::format("  {:<20} seed {}: {} TTA {} at epoch {}  {:.2f} s/epoch\n", name, repeat + 1,
                               m.precision,
                               r.tta_seconds ? fmt::format("{:.1f} s", *r.tta_seconds) : std::string("not reached"),
                               epoch_at_target ? fmt::format("{:.2f}", *epoch_at_target) : std::string("-"),
                               m.seconds_per_epoch.back())
                << std::flush;
    }
  }
  std::cout << "\nmedians (runs that reached the target):\n";
  for (const auto& [name, precision] : variants) {
    const Measured& m = measured[name];
    std::cout << fmt::format(
        "  {:<20} {:<4}  TTA {:7.1f} s ({} of {} reached)   epochs to target {:5.2f}   {:6.2f} s/epoch\n", name,
        m.precision, Median(m.tta), m.tta.size(), m.tta.size() + m.missed, Median(m.epochs_to_target),
        Median(m.seconds_per_epoch));
  }
  const Measured &b = measured["baseline"], &f = measured["fast"];
  if (!b.tta.empty() && !f.tta.empty()) {
    std::cout << fmt::format("ratio fast / baseline: TTA {:.2f}   time per epoch {:.2f}   (< 1: fast is faster)\n",
                             Median(f.tta) / Median(b.tta), Median(f.seconds_per_epoch) / Median(b.seconds_per_epoch));
  }
  if (also_bf16) {
    const Measured& forced = measured["fast (forced bf16)"];
    std::cout << fmt::format("ratio fast forced-bf16 / fast as chosen: time per epoch {:.2f}\n",
                             Median(forced.seconds_per_epoch) / Median(f.seconds_per_epoch));
  }
  if (also_fp32) {
    const Measured& forced = measured["fast (forced fp32)"];
    if (!b.tta.empty() && !forced.tta.empty()) {
      std::cout << fmt::format("ratio fast forced-fp32 / baseline: TTA {:.2f}   time per epoch {:.2f}\n",
                               Median(forced.tta) / Median(b.tta),
                               Median(forced.seconds_per_epoch) / Median(b.seconds_per_epoch));
    }
  }
  return 0;
}
