// MLPerf power: the energy a run used, from the power logs beside its result file (power/result_N/node_*.txt and
// sw_*.txt), and the folder's energy score, as the official result summarizer computes them: per node the readings
// integrated from power_measurement_start to power_measurement_stop, scaled to the time to train and by the
// logged conversion efficiency; plus each switch's interconnect_power_est over the time to train. The energy score
// is the olympic mean over the runs that count, ordered by their time to train (the same runs the time score
// drops), times the folder's scaling factor.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::importer {

// True when the benchmark folder has a "power" sub-folder (the summarizer's test).
bool HasPowerLogs(const std::filesystem::path& benchmark_folder);

// The energy of one run (joules), or nullopt with `error` naming the file and what is missing. Never throws but for
// memory, and shares nothing between calls: runs are read on threads of their own.
std::optional<double> RunEnergy(const std::filesystem::path& benchmark_folder, const std::string& result_stem,
                                double time_to_train_ms, std::string& error);

// The energy score: `energies` and `minutes` are the counted runs' (same order); `failed` runs did not count.
// nullopt when more than `drop_each_side` runs failed or nothing remains.
std::optional<double> EnergyScore(const std::vector<double>& energies, const std::vector<double>& minutes,
                                  std::size_t failed, std::size_t drop_each_side, double scaling_factor);

}  // namespace evalsuite::importer
