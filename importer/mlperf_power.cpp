#include "importer/mlperf_power.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <sstream>
#include <string_view>

#include "runlog/mlperf_scan.h"

namespace evalsuite::importer {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct PowerRecord {
  double time_ms = 0;
  std::string key;
  json value;
};

// One record after its marker, if it parses: as mllog writes it (a power log's every line), read by the result log
// parser's field scanner without building a document (a full parse per line was a fifth of an import of the shared
// rounds, which hold 90 power logs); escapes, another key order, a value that is an object, or anything the scanner
// does not accept go through the full JSON parser, as every record did before.
std::optional<PowerRecord> ReadPowerRecord(const char* p, const char* eol) {
  namespace scan = runlog::mlperf_scan;
  p = scan::SkipSpaces(p, eol);
  const char* end = scan::TrimRight(p, eol);
  if (scan::PlausibleJsonObject(p, end)) {
    if (const char* key_field = scan::FindKeyField(p, end)) {
      const char* k = scan::SkipSpaces(key_field + 5, end);
      if (k < end && *k == ':') k = scan::SkipSpaces(k + 1, end);
      const char* key_end = k < end && *k == '"' ? scan::StringEnd(k + 1, end) : end;
      if (key_end < end && std::memchr(k + 1, '\\', static_cast<std::size_t>(key_end - k - 1)) == nullptr) {
        PowerRecord record;
        json metadata = json::object();
        if (scan::ScanMllogFields(p, key_end, end, record.time_ms, record.value, metadata) == scan::Scan::kOk) {
          record.key.assign(k + 1, key_end);
          return record;
        }
      }
    }
  }
  const json record = json::parse(p, eol, nullptr, /*allow_exceptions=*/false);
  if (!record.is_object() || !record.contains("time_ms") || !record["time_ms"].is_number() || !record.contains("key") ||
      !record["key"].is_string()) {
    return std::nullopt;
  }
  return PowerRecord{record["time_ms"].get<double>(), record["key"].get<std::string>(), record.value("value", json())};
}

// The MLLOG records of a power log that parse (the summarizer ignores the others here).
std::vector<PowerRecord> ReadPowerLog(const fs::path& file) {
  std::vector<PowerRecord> out;
  std::string text;
  {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = std::move(buffer).str();
  }
  constexpr std::string_view kMarker = ":::MLLOG ";
  const char* const text_end = text.data() + text.size();
  for (const char* line_begin = text.data(); line_begin < text_end;) {
    const char* newline =
        static_cast<const char*>(std::memchr(line_begin, '\n', static_cast<std::size_t>(text_end - line_begin)));
    const char* line_end = newline != nullptr ? newline : text_end;
    const std::string_view line(line_begin, static_cast<std::size_t>(line_end - line_begin));
    line_begin = line_end + 1;
    // The line's last marker, found forwards: std::string::rfind compares the marker at every position from the
    // end (one memcmp per byte), 8-10% of an import of the shared rounds; find skips ahead by memchr.
    std::size_t at = std::string_view::npos;
    for (std::size_t next = line.find(kMarker); next != std::string_view::npos; next = line.find(kMarker, next + 1)) {
      at = next;
    }
    if (at == std::string_view::npos) continue;
    if (std::optional<PowerRecord> record = ReadPowerRecord(line.data() + at + kMarker.size(), line_end)) {
      out.push_back(std::move(*record));
    }
  }
  return out;
}

std::vector<fs::path> Matching(const fs::path& folder, const std::string& prefix) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) == 0 && name.size() > 4 && name.compare(name.size() - 4, 4, ".txt") == 0) {
      out.push_back(it->path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

double NumberOrZero(const json& v) { return v.is_number() ? v.get<double>() : 0.0; }

}  // namespace

bool HasPowerLogs(const fs::path& benchmark_folder) {
  std::error_code ec;
  return fs::is_directory(benchmark_folder / "power", ec);
}

std::optional<double> RunEnergy(const fs::path& benchmark_folder, const std::string& result_stem,
                                double time_to_train_ms, std::string& error) {
  const fs::path folder = benchmark_folder / "power" / result_stem;
  const std::vector<fs::path> nodes = Matching(folder, "node_");
  if (nodes.empty()) {
    error = folder.string() + ": no node_*.txt power log for " + result_stem;
    return std::nullopt;
  }
  double total = 0;
  for (const fs::path& node : nodes) {
    std::vector<PowerRecord> records = ReadPowerLog(node);
    std::stable_sort(records.begin(), records.end(),
                     [](const PowerRecord& a, const PowerRecord& b) { return a.time_ms < b.time_ms; });
    double prev = 0, last = 0, start = 0, stop = 0, energy = 0, efficiency = 1.0;
    bool started = false, stopped = false;
    for (const PowerRecord& r : records) {
      if (r.key == "power_measurement_start") {
        start = prev = r.time_ms;
        started = true;
      } else if (r.key == "power_reading" && started && !stopped) {
        energy += NumberOrZero(r.value) * (r.time_ms - prev);
        prev = r.time_ms;
        last = std::max(last, r.time_ms);
      } else if (r.key == "power_measurement_stop") {
        stop = r.time_ms;
        stopped = true;
      } else if (r.key == "conversion_eff") {
        efficiency = NumberOrZero(r.value);
      }
    }
    if (!started) {
      error = node.string() + ": no power_measurement_start";
      return std::nullopt;
    }
    if (!stopped) stop = last;  // the summarizer takes the last reading as the stop
    if (stop == start) {
      error = node.string() + ": the measurement has no duration";
      return std::nullopt;
    }
    total += efficiency * energy * time_to_train_ms / (stop - start) / 1000;
  }
  for (const fs::path& sw : Matching(folder, "sw_")) {
    double efficiency = 1.0, power = 0;
    for (const PowerRecord& r : ReadPowerLog(sw)) {
      if (r.key == "conversion_eff") efficiency = NumberOrZero(r.value);
      if (r.key == "interconnect_power_est") {
        power = NumberOrZero(r.value);
        break;
      }
    }
    total += efficiency * power * time_to_train_ms / 1000;
  }
  return total;
}

std::optional<double> EnergyScore(const std::vector<double>& energies, const std::vector<double>& minutes,
                                  std::size_t failed, std::size_t drop_each_side, double scaling_factor) {
  if (failed > drop_each_side || energies.size() != minutes.size()) return std::nullopt;
  std::vector<std::size_t> order(minutes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return minutes[a] < minutes[b]; });
  // Drop the fastest `drop_each_side` and the slowest that are left after the failures took their places.
  const std::size_t end_drop = drop_each_side - failed;
  if (order.size() < drop_each_side + end_drop) return std::nullopt;
  const std::size_t begin = drop_each_side, end = order.size() - end_drop;
  if (end <= begin) return std::nullopt;
  double sum = 0;
  for (std::size_t i = begin; i < end; ++i) sum += energies[order[i]];
  return sum / static_cast<double>(end - begin) * scaling_factor;
}

}  // namespace evalsuite::importer
