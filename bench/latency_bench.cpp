// `evalsuite latency`'s figures against a Python peer timing the same TorchScript model the way a user would
// (bench/latency_peer.py: LibTorch 1.13 from Python, one thread, freeze + optimize_for_inference, warm-up per shape,
// time.perf_counter), on the same images, and against `latency` as it measured before issue 56 (glibc's default
// allocator, one warm-up call per batch size, one timed block). Each side runs in a process of its own (the
// allocator is set per process), the sides alternate round by round (the machine is shared: alternation spreads
// its load over all of them), and the summary gives each side's median over the rounds, its range, and the ratio
// of medians to the peer. Model: the built-in entries' Fashion-MNIST convnet with random weights.
// Figures and what they showed: bench/RESULTS.md ("Inference latency").
// Usage: latency_bench [--images 1000] [--rounds 5] [--seconds 0.5] [--batch-sizes 1,8,32,128]
//        latency_bench --child now|before MODEL IMAGES SECONDS BATCHES   (one side, one JSON line; used by itself)
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/allocator_tuning.h"
#include "generalization/classifier.h"
#include "generalization/latency.h"
#include "stats/quantile.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string Capture(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::string out;
  char buffer[4096];
  while (pipe && fgets(buffer, sizeof(buffer), pipe.get())) out += buffer;
  return out;
}

// One side in this process: "now" measures as `evalsuite latency` does since issue 56 (allocator kept in the heap,
// warm-up calls per shape, blocks), "before" as it did (none of them).
int RunChild(const std::string& mode, const std::string& model, const std::string& images_file, double seconds,
             const std::vector<int>& batches) {
  using namespace evalsuite;
  if (mode == "now") TuneAllocatorForTensors();
  generalization::SetInferenceThreads(1);
  std::ifstream in(images_file, std::ios::binary);
  std::vector<float> images;
  float value = 0;
  while (in.read(reinterpret_cast<char*>(&value), sizeof(value))) images.push_back(value);
  auto loaded = generalization::LoadTorchScriptClassifier(model, {1, 28, 28});
  generalization::LatencyOptions options;
  options.batch_sizes = batches;
  options.min_throughput_seconds = seconds;
  if (mode == "before") options.warmup_per_shape = 1, options.repeats = 1;
  const generalization::LatencyResult r = generalization::MeasureLatency(*loaded.classifier, images, 28 * 28, options);
  std::cout << generalization::LatencyResultToJson(r).dump() << std::endl;
  return 0;
}

struct Figures {
  std::vector<double> p50_ms;
  std::map<int, std::vector<double>> rate;                       // batch -> images/s per round
  std::map<int, std::vector<std::pair<double, double>>> stated;  // batch -> the run's own range
};

void Add(Figures& f, const json& result) {
  f.p50_ms.push_back(result["latency_ms"]["p50"].get<double>());
  for (const json& row : result["throughput"]) {
    const int batch = row["batch"].get<int>();
    f.rate[batch].push_back(row["images_per_second"].get<double>());
    if (row.contains("images_per_second_low")) {
      f.stated[batch].push_back(
          {row["images_per_second_low"].get<double>(), row["images_per_second_high"].get<double>()});
    }
  }
}

double Median(const std::vector<double>& v) { return evalsuite::stats::SampleQuantile(v, 0.5); }

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--child") {
    if (argc != 7) return 2;
    std::vector<int> batches;
    for (std::string list = argv[6]; !list.empty();) {
      const size_t comma = list.find(',');
      batches.push_back(std::stoi(list.substr(0, comma)));
      list = comma == std::string::npos ? "" : list.substr(comma + 1);
    }
    return RunChild(argv[2], argv[3], argv[4], std::stod(argv[5]), batches);
  }
  CLI::App app{"evalsuite latency against a Python peer on the same model and images"};
  int images = 1000, rounds = 5;
  double seconds = 0.5;
  std::string batches = "1,8,32,128";
  std::string python = "/usr/bin/python3";
  app.add_option("--images", images, "Images timed at batch 1 and passed over at each batch size")
      ->capture_default_str();
  app.add_option("--rounds", rounds, "Alternating rounds of every side")->capture_default_str();
  app.add_option("--seconds", seconds, "Seconds per batch size")->capture_default_str();
  app.add_option("--batch-sizes", batches, "Batch sizes")->capture_default_str();
  app.add_option("--python", python, "Python with torch 1.13")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const fs::path dir = fs::temp_directory_path() / fmt::format("latency_bench_{}", getpid());
  fs::create_directories(dir);
  const std::string peer = std::string(EVALSUITE_SOURCE_DIR) + "/bench/latency_peer.py";
  const std::string model = (dir / "convnet.pt").string(), data = (dir / "images.f32").string();
  Capture(fmt::format("{} {} make-model --out {}", python, peer, model));
  Capture(fmt::format("{} {} images --out {} --n {}", python, peer, data, images));
  const std::map<std::string, std::string> commands = {
      {"evalsuite now", fmt::format("{} --child now {} {} {} {}", argv[0], model, data, seconds, batches)},
      {"evalsuite before", fmt::format("{} --child before {} {} {} {}", argv[0], model, data, seconds, batches)},
      {"python peer", fmt::format("{} {} bench --model {} --images {} --seconds {} --batch-sizes {}", python, peer,
                                  model, data, seconds, batches)}};
  std::map<std::string, Figures> figures;
  std::cout << fmt::format(
      "latency, Fashion-MNIST convnet (random weights), {} images, 1 thread, {} rounds; sides "
      "alternate within each round\n",
      images, rounds);
  for (int round = 0; round < rounds; ++round) {
    for (const auto& [side, command] : commands) {
      const std::string out = Capture(command);
      try {
        // The last line is the side's JSON (LibTorch may warn on the lines before it).
        std::string last = out;
        while (!last.empty() && last.back() == '\n') last.pop_back();
        const json result = json::parse(last.substr(last.rfind('\n') == std::string::npos ? 0 : last.rfind('\n') + 1));
        Add(figures[side], result);
        std::cout << fmt::format("  round {} {:<17} p50 {:.3f} ms", round + 1, side,
                                 result["latency_ms"]["p50"].get<double>());
        for (const json& row : result["throughput"]) {
          std::cout << fmt::format("  b{} {:.0f}/s", row["batch"].get<int>(), row["images_per_second"].get<double>());
        }
        std::cout << std::endl;
      } catch (const std::exception& e) {
        std::cerr << side << " failed: " << e.what() << "\n" << out << "\n";
        return 1;
      }
    }
  }
  const Figures& peer_figures = figures["python peer"];
  std::cout << "\nmedian over rounds [range over rounds]; ratio of medians to the Python peer:\n";
  for (const auto& [side, f] : figures) {
    std::cout << fmt::format("  {:<17} batch-1 p50 {:.3f} ms [{:.3f}, {:.3f}] ({:.2f}x the peer's time)\n", side,
                             Median(f.p50_ms), *std::min_element(f.p50_ms.begin(), f.p50_ms.end()),
                             *std::max_element(f.p50_ms.begin(), f.p50_ms.end()),
                             Median(f.p50_ms) / Median(peer_figures.p50_ms));
    for (const auto& [batch, rates] : f.rate) {
      const double low = *std::min_element(rates.begin(), rates.end());
      const double high = *std::max_element(rates.begin(), rates.end());
      std::string stated;
      if (f.stated.count(batch)) {
        // How often another round's median falls inside a round's own stated range: repeated runs agree within
        // their stated spread when this is high.
        int inside = 0, pairs = 0;
        for (size_t a = 0; a < f.stated.at(batch).size(); ++a) {
          for (size_t b = 0; b < rates.size(); ++b) {
            if (a == b) continue;
            ++pairs;
            inside += rates[b] >= f.stated.at(batch)[a].first && rates[b] <= f.stated.at(batch)[a].second;
          }
        }
        stated = fmt::format("; another round's median inside a round's stated range: {}/{}", inside, pairs);
      }
      std::cout << fmt::format(
          "    batch {:>4}: {:>8.0f} images/s [{:.0f}, {:.0f}], max/min over rounds {:.2f} ({:.2f}x "
          "the peer){}\n",
          batch, Median(rates), low, high, high / low, Median(rates) / Median(peer_figures.rate.at(batch)), stated);
    }
  }
  fs::remove_all(dir);
  return 0;
}
