// Training throughput of the `baseline` entry: evalsuite's LibTorch trainer against the same model and recipe
// in PyTorch's Python front end (bench/training_throughput_peer.py, Debian's python3-torch: the same 1.13
// library), same images, epochs and thread count, measured alternately in one run. Prints images/second of
// each and the ratio evalsuite / Python (> 1: evalsuite is faster). Training time only: data loading and
// evaluation are excluded on both sides.
//
// evalsuite tunes glibc malloc for tensors (common/allocator_tuning.h). The Python peer runs twice per
// repeat: as users run it, which is the comparison that counts, and with the same malloc settings through
// GLIBC_TUNABLES, which shows how much of the difference is the allocator and how much is the front end.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "datasets/fashion_mnist/fashion_mnist.h"
#include "entries/builtin_entries.h"
#include "training/trainer.h"

namespace {

std::string RunAndCapture(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run: " + command);
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) out.append(buffer, n);
  const int status = pclose(pipe);
  if (status != 0) throw std::runtime_error("failed (status " + std::to_string(status) + "): " + command);
  return out;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Training throughput: evalsuite's baseline entry vs the same recipe in PyTorch's Python front end"};
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  size_t images = 10000;
  int epochs = 2;
  int repeats = 3;
  std::string data_dir = evalsuite::datasets::kDefaultFashionMnistDir;
  std::string python = "/usr/bin/python3";
  bool nchw_peer = false;
  app.add_option("--threads", threads, "Threads for both sides")->capture_default_str();
  app.add_option("--images", images, "Training images (the first N)")->capture_default_str();
  app.add_option("--epochs", epochs, "Epochs per measurement")->capture_default_str();
  app.add_option("--repeats", repeats, "Alternating measurements of each side")->capture_default_str();
  app.add_option("--data", data_dir, "Fashion-MNIST folder")->capture_default_str();
  app.add_option("--python", python, "Python with torch 1.13")->capture_default_str();
  app.add_flag("--nchw-peer", nchw_peer, "Also time the Python peer with PyTorch's default NCHW memory format");
  CLI11_PARSE(app, argc, argv);

  try {
    const auto data = evalsuite::datasets::LoadFashionMnist(data_dir);
    const evalsuite::entries::BuiltinEntry& baseline = *evalsuite::entries::FindBuiltinEntry("baseline");
    const std::string script = std::string(EVALSUITE_SOURCE_DIR) + "/bench/training_throughput_peer.py";
    auto peer_command = [&](int seed, bool channels_last, bool tuned_malloc = false) {
      // The same settings TuneAllocatorForTensors makes: no per-allocation mmap, 1 GiB trim threshold.
      const std::string env =
          tuned_malloc ? "GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=1073741824 " : "";
      return fmt::format("{}{} {} --data {} --images {} --epochs {} --threads {} --seed {} --channels-last {}", env,
                         python, script, data_dir, images, epochs, threads, seed, channels_last ? 1 : 0);
    };
    std::cout << fmt::format("training throughput, baseline entry: {} images x {} epochs, {} threads, {} repeats\n",
                             images, epochs, threads, repeats);
    std::vector<double> ours, theirs, theirs_tuned, theirs_nchw;
    for (int r = 0; r < repeats; ++r) {
      evalsuite::training::TrainOptions options;
      options.seed = static_cast<uint64_t>(r + 1);
      options.threads = threads;
      options.epochs = epochs;
      options.train_subset = images;
      const auto result = evalsuite::training::Train(baseline, data, options);
      const double trained = static_cast<double>(std::min(images, data.train.size())) * epochs;
      ours.push_back(trained / result.run.train_seconds);

      const auto peer = nlohmann::json::parse(RunAndCapture(peer_command(r + 1, true)));
      theirs.push_back(peer["images_per_second"].get<double>());
      const auto tuned = nlohmann::json::parse(RunAndCapture(peer_command(r + 1, true, true)));
      theirs_tuned.push_back(tuned["images_per_second"].get<double>());
      std::cout << fmt::format(
          "  repeat {}: evalsuite {:8.0f} img/s   python {:8.0f} img/s   python (same malloc) {:8.0f} img/s", r + 1,
          ours.back(), theirs.back(), theirs_tuned.back());
      if (nchw_peer) {
        const auto nchw = nlohmann::json::parse(RunAndCapture(peer_command(r + 1, false)));
        theirs_nchw.push_back(nchw["images_per_second"].get<double>());
        std::cout << fmt::format("   python (NCHW) {:8.0f} img/s", theirs_nchw.back());
      }
      std::cout << "\n" << std::flush;
    }
    const double ratio = Median(ours) / Median(theirs);
    std::cout << fmt::format(
        "median: evalsuite {:.0f} img/s, python {:.0f} img/s, python with evalsuite's malloc settings {:.0f} img/s\n",
        Median(ours), Median(theirs), Median(theirs_tuned));
    std::cout << fmt::format("ratio evalsuite/python = {:.3f} ({})\n", ratio,
                             ratio >= 1 ? "evalsuite is no slower" : "evalsuite is SLOWER");
    std::cout << fmt::format("ratio evalsuite/python-same-malloc = {:.3f} (front end against front end)\n",
                             Median(ours) / Median(theirs_tuned));
    if (nchw_peer) {
      std::cout << fmt::format("ratio evalsuite/python-NCHW = {:.3f}\n", Median(ours) / Median(theirs_nchw));
    }
  } catch (const std::exception& e) {
    std::cerr << "training_throughput_bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
