// Machine ceilings and MFU, side by side in one run: evalsuite's measured peak (training/machine_ceilings.h)
// against a plain LibTorch matmul loop and numpy's matmul (Debian's python3-numpy) at the same size and threads;
// the `baseline` and `fast` entries' achieved FLOP/s and MFU from a short profiling run; and their FLOP counts
// (training/model_cost.h) against the independent Python count (tests/training/model_cost_oracle.py); and
// the quick probe a study records, on this machine as it is and beside one process busy-looping on a core: how far
// other work moves the peak (and so every MFU), and whether the probe's load caution (common/machine_load.h) fires.
// Prints ratios, asserts nothing: figures on a shared machine move with its load.
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <torch/torch.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "datasets/fashion_mnist/fashion_mnist.h"
#include "entries/builtin_entries.h"
#include "training/hardware_profile.h"
#include "training/machine_ceilings.h"
#include "training/model_cost.h"

namespace {

// stdout of a shell command through a temporary file; "" when it fails.
std::string CommandOutput(const std::string& command) {
  const std::string file = "/tmp/evalsuite-hardware-bench-" + std::to_string(::getpid()) + ".out";
  if (std::system((command + " > " + file).c_str()) != 0) return "";
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(file.c_str());
  return text.str();
}

double PlainMatmulFlops(at::ScalarType dtype, int64_t side, double seconds) {
  const torch::Tensor a = torch::randn({side, side}).to(dtype), b = torch::randn({side, side}).to(dtype);
  (void)torch::mm(a, b);
  int64_t calls = 0;
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  while (elapsed < seconds) {
    (void)torch::mm(a, b);
    ++calls;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return 2.0 * side * side * side * calls / elapsed;
}

double OracleValue(const std::string& oracle, const std::string& entry, const std::string& key) {
  std::istringstream lines(oracle);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(entry + " side=28 ", 0) != 0) continue;
    const size_t at = line.find(key + "=");
    if (at != std::string::npos) return std::atof(line.c_str() + at + key.size() + 1);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Machine ceilings and MFU against plain LibTorch and numpy peers"};
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  size_t subset = 4096;
  app.add_option("--threads", threads)->capture_default_str();
  app.add_option("--train-subset", subset, "training images per epoch of the profiling runs")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  namespace t = evalsuite::training;

  t::CeilingOptions options;
  options.threads = threads;
  options.repetitions = 3;
  const t::MachineCeilings m = t::MeasureMachineCeilings(options);
  for (const t::ProbeResult& p : m.probes) {
    std::cout << fmt::format("evalsuite {:<12} {:>8.2f} G{}/s\n", p.name, p.Best() / 1e9,
                             p.kind == "triad" ? "B" : "FLOP");
  }
  const double plain32 = PlainMatmulFlops(torch::kFloat32, options.matmul_side, 2.0);
  const double plain16 = PlainMatmulFlops(torch::kBFloat16, options.matmul_side, 1.0);
  const std::string numpy = CommandOutput(
      fmt::format("OMP_NUM_THREADS={0} OPENBLAS_NUM_THREADS={0} /usr/bin/python3 -c \"import numpy as np, time; n={1}; "
                  "a=np.random.rand(n,n).astype(np.float32); b=a.copy(); a@b; t=time.time(); c=0\n"
                  "while time.time()-t < 2: a@b; c+=1\nprint(2*n**3*c/(time.time()-t))\"",
                  threads, options.matmul_side));
  const double numpy32 = numpy.empty() ? 0 : std::atof(numpy.c_str());
  const double evalsuite_mm32 = m.probes[0].Best();
  std::cout << fmt::format(
      "fp32 matmul {}^3: evalsuite {:.2f}, plain LibTorch loop {:.2f}, numpy {:.2f} GFLOP/s; "
      "ratios evalsuite/plain {:.2f}, evalsuite/numpy {:.2f}\n",
      options.matmul_side, evalsuite_mm32 / 1e9, plain32 / 1e9, numpy32 / 1e9, evalsuite_mm32 / plain32,
      numpy32 > 0 ? evalsuite_mm32 / numpy32 : 0.0);
  for (const t::ProbeResult& p : m.probes) {
    if (p.name == "matmul_bf16") {
      std::cout << fmt::format("bf16 matmul: evalsuite {:.2f}, plain LibTorch loop {:.2f} GFLOP/s; ratio {:.2f}\n",
                               p.Best() / 1e9, plain16 / 1e9, p.Best() / plain16);
    }
  }
  std::cout << fmt::format("peak fp32 {:.2f} GFLOP/s (best probe), bf16 {:.2f}, triad {:.2f} GB/s; theoretical: {}\n",
                           m.peak_fp32_flops / 1e9, m.peak_bf16_flops / 1e9, m.bandwidth_bytes / 1e9,
                           m.theoretical.derivation);

  // The quick probe with the machine as it is, then beside a process spinning on one core.
  const t::MachineCeilings quiet = t::MeasureMachineCeilings(t::QuickCeilingOptions(threads));
  const pid_t spinner = fork();
  if (spinner == 0) {
    for (volatile unsigned long spin = 0;; ++spin) {
    }
  }
  const t::MachineCeilings loaded = t::MeasureMachineCeilings(t::QuickCeilingOptions(threads));
  if (spinner > 0) {
    kill(spinner, SIGKILL);
    waitpid(spinner, nullptr, 0);
  }
  for (const t::MachineCeilings* c : {&quiet, &loaded}) {
    std::cout << fmt::format("quick probe {}: {:.2f} cores busy before it, peak fp32 {:.2f} GFLOP/s, caution: {}\n",
                             c == &quiet ? "as the machine is" : "beside one spinning core",
                             c->busy_cores_before.value_or(-1), c->peak_fp32_flops / 1e9,
                             c->load_note.empty() ? "none" : "yes");
  }
  std::cout << fmt::format("peak with one core busy / peak as the machine is: {:.2f} (an MFU against it: x{:.2f})\n",
                           loaded.peak_fp32_flops / quiet.peak_fp32_flops,
                           quiet.peak_fp32_flops / loaded.peak_fp32_flops);

  const std::string oracle =
      CommandOutput("/usr/bin/python3 " + std::string(EVALSUITE_SOURCE_DIR) + "/tests/training/model_cost_oracle.py");
  const evalsuite::datasets::FashionMnist data = evalsuite::datasets::LoadFashionMnist();
  t::ProfileOptions profile;
  profile.threads = threads;
  profile.train_subset = subset;
  for (const char* name : {"baseline", "fast"}) {
    const evalsuite::entries::BuiltinEntry& entry = evalsuite::entries::BuiltinEntryOrThrow(name);
    const t::ModelCost cost =
        t::CountConvNetCost(entry.recipe.model, 28, entry.recipe.batch_size, entry.recipe.precision);
    const double python = OracleValue(oracle, name, "training_flops");
    const nlohmann::json e = t::ProfileEntryHardware(entry, data, m, profile);
    std::cout << fmt::format(
        "{:<8} FLOPs/sample evalsuite {:.0f}, Python {:.0f} (ratio {:.5f}); {:.0f} img/s, {:.2f} GFLOP/s, MFU {:.1f}% "
        "of {:.2f} GFLOP/s ({}), {}\n",
        name, cost.TrainingFlops(), python, python > 0 ? cost.TrainingFlops() / python : 0.0,
        e["samples_per_second"].get<double>(), e["achieved_flops"].get<double>() / 1e9, 100 * e["mfu"].get<double>(),
        e["peak_flops"].get<double>() / 1e9, entry.recipe.precision, e["bound"].get<std::string>());
  }
  return 0;
}
