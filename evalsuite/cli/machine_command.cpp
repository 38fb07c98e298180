// `evalsuite machine [--threads N] [--entries all|A,B] [--json FILE]`: this machine's ceilings as LibTorch reaches
// them (peak FLOP/s per precision, triad bandwidth), the CPU's facts and its theoretical peak
// (training/machine_ceilings.h); with --entries, each built-in entry profiled against them (FLOPs per
// sample, achieved FLOP/s, MFU, roofline bound, time and memory breakdowns). --json writes the report's
// "hardware" section (reports/hardware_section.h): `evalsuite report STORE --section hardware=FILE`.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>

#include "common/error.h"
#include "datasets/fashion_mnist/fashion_mnist.h"
#include "entries/builtin_entries.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/option_checks.h"
#include "training/hardware_profile.h"
#include "training/machine_ceilings.h"

namespace evalsuite::cli {
namespace {

struct MachineArgs {
  int threads = 0;
  int repetitions = 3;
  bool quick = false;
  std::string json_file;
  std::string entries;  // "" = none, "all", or a comma-separated list
  std::string data = datasets::kDefaultFashionMnistDir;
  size_t train_subset = 4096;
  size_t validation_subset = 1000;
};

std::vector<const entries::BuiltinEntry*> SelectEntries(const std::string& list) {
  std::vector<const entries::BuiltinEntry*> selected;
  if (list.empty()) return selected;
  if (list == "all") {
    for (const entries::BuiltinEntry& e : entries::BuiltinEntries()) selected.push_back(&e);
    return selected;
  }
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    selected.push_back(&entries::BuiltinEntryOrThrow(list.substr(start, comma - start)));
    start = comma + 1;
  }
  return selected;
}

void PrintEntry(const nlohmann::json& e) {
  std::cout << fmt::format(
      "{:<19} {:>6.3f} MFLOP/sample  {:>6.2f} FLOP/B  {:>7.0f} img/s  {:>7.2f} GFLOP/s  MFU {:>5.1f}%  "
      "{}\n",
      e["entry"].get<std::string>(), e["flops_per_sample"].get<double>() / 1e6, e["intensity"].get<double>(),
      e["samples_per_second"].get<double>(), e["achieved_flops"].get<double>() / 1e9, 100 * e["mfu"].get<double>(),
      e["bound"].get<std::string>());
  if (e["phases"].size() > 1) {
    for (const nlohmann::json& p : e["phases"]) {
      std::cout << fmt::format("  side {:>2}: {:>6.3f} MFLOP/sample  {:>7.0f} img/s  {:>7.2f} GFLOP/s  MFU {:>5.1f}%\n",
                               p["side"].get<int>(), p["flops_per_sample"].get<double>() / 1e6,
                               p["samples_per_second"].get<double>(), p["achieved_flops"].get<double>() / 1e9,
                               100 * p["mfu"].get<double>());
    }
  }
}

void PrintCeilings(const training::MachineCeilings& m) {
  std::cout << fmt::format("cpu {} ({} cores), {} threads, measured {}\n", m.cpu_model.empty() ? "?" : m.cpu_model,
                           m.cores, m.threads, m.measured_at);
  for (const training::ProbeResult& p : m.probes) {
    const bool triad = p.kind == "triad";
    std::cout << fmt::format("  {:<12} best {:>8.2f} {}  median {:>8.2f}  ({})\n", p.name, p.Best() / 1e9,
                             triad ? "GB/s    " : "GFLOP/s", p.Median() / 1e9, p.shape);
  }
  std::cout << fmt::format(
      "peak fp32 {:.2f} GFLOP/s, bf16 {:.2f} GFLOP/s, bandwidth {:.2f} GB/s, ridge fp32 {:.1f} "
      "FLOP/byte\n",
      m.peak_fp32_flops / 1e9, m.peak_bf16_flops / 1e9, m.bandwidth_bytes / 1e9, m.RidgeIntensity("fp32"));
  for (const nlohmann::json& row : m.step_probes) {
    // What the precision choice compares: a whole training step of each form, not a bare convolution.
    std::cout << fmt::format(
        "  step {:<8} {:<10} {}  batch {:>4}  {:>7.2f} ms per step  {:>6.3f} ms per image  ({} "
        "steps)\n",
        row["entry"].get<std::string>(), row["form"].get<std::string>(), row["precision"].get<std::string>(),
        row["batch_size"].get<int>(), 1e3 * row["seconds_per_step"].get<double>(),
        1e3 * row["seconds_per_step"].get<double>() / row["batch_size"].get<double>(), row["steps_timed"].get<int>());
  }
  std::cout << "theoretical: " << m.theoretical.derivation << "\n";
  const std::string note = MeasuredAboveTheoreticalNote(m.theoretical, m.peak_fp32_flops, m.peak_bf16_flops);
  if (!note.empty()) std::cout << "  note: " << note << "\n";
  if (!m.load_note.empty()) std::cerr << "evalsuite: caution: " << m.load_note << "\n";
}

}  // namespace

void RegisterMachineCommand(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "machine", "Measure this machine's ceilings: peak FLOP/s (fp32, bf16 matmul and convolution), triad bandwidth");
  auto args = std::make_shared<MachineArgs>();
  command->add_option("--threads", args->threads, "LibTorch threads, as the runs use (0 = every core)")
      ->capture_default_str()
      ->check(WholeNumber(0, 1024));
  command->add_option("--repetitions", args->repetitions, "timed repetitions per probe (the best counts)")
      ->capture_default_str()
      ->check(WholeNumber(1, 100));
  command->add_flag("--quick", args->quick,
                    "a probe of a few seconds (smaller matmul and convolution, shorter repetitions): what a study "
                    "records at its start");
  command->add_option("--json", args->json_file, "also write the report's hardware section as JSON to FILE");
  command->add_option("--entries", args->entries, "profile these built-in entries against the ceilings: all or A,B");
  command->add_option("--data", args->data, "Fashion-MNIST folder for --entries")->capture_default_str();
  command->add_option("--train-subset", args->train_subset, "training images per epoch of each profiling run")
      ->capture_default_str()
      ->check(WholeNumber(1, 1LL << 30));
  command->add_option("--validation-subset", args->validation_subset, "validation images per evaluation")
      ->capture_default_str()
      ->check(WholeNumber(1, 1LL << 30));
  command->callback([args] {
    if (args->threads < 0) throw UsageError("--threads", "must be at least 1 (0 = every core)");
    const std::vector<const entries::BuiltinEntry*> selected = SelectEntries(args->entries);
    std::ofstream json_out;
    if (!args->json_file.empty()) {
      json_out.open(args->json_file, std::ios::trunc);
      if (!json_out) throw IoError(args->json_file, "cannot write the JSON output");
    }
    training::CeilingOptions options;
    options.threads = args->threads;
    options.repetitions = args->repetitions;
    if (args->quick) options = training::QuickCeilingOptions(args->threads);
    const training::MachineCeilings ceilings = training::MeasureMachineCeilings(options);
    PrintCeilings(ceilings);
    std::vector<nlohmann::json> profiled;
    if (!selected.empty()) {
      const datasets::FashionMnist data = datasets::LoadFashionMnist(args->data);
      training::ProfileOptions profile;
      profile.threads = args->threads;
      profile.train_subset = args->train_subset;
      profile.validation_subset = args->validation_subset;
      for (const entries::BuiltinEntry* entry : selected) {
        profiled.push_back(training::ProfileEntryHardware(*entry, data, ceilings, profile));
        PrintEntry(profiled.back());
      }
    }
    if (json_out.is_open()) {
      json_out << training::BuildHardwareSection(ceilings, profiled).dump(2) << "\n";
      if (!json_out) throw IoError(args->json_file, "cannot write the JSON output");
    }
  });
}

}  // namespace evalsuite::cli
