// MLPerf Training result logs (one run per result_*.txt) in all three line formats, the marker anywhere in a
// line: v0.5 ":::MLPv0.5.0 <bench> <secs> (<file>:<line>) <key>[: <json>]", v0.6 ":::MLL <secs> <key>: <json>",
// v0.7+ ":::MLLOG {json}". Streams the bytes and only builds JSON for the few keys a score needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runlog/run_log.h"

namespace evalsuite::runlog {

enum class MlperfLogFormat { kUnknown, kV05, kV06, kV07 };
const char* MlperfLogFormatName(MlperfLogFormat format);  // "unknown", "v0.5", "v0.6", "v0.7+"

struct MlperfEval {
  double time_ms = 0;                   // absolute log time in milliseconds
  nlohmann::json value;                 // a number for most benchmarks, an object for maskrcnn ({"BBOX":..,"SEGM":..})
  std::optional<double> epoch;          // metadata.epoch_num (v0.6+), value.epoch (v0.5)
  std::optional<double> samples_count;  // metadata.samples_count (LLMs, flux1, stable diffusion)
  std::optional<double> step_num;       // metadata.step_num (stable diffusion in 3.1)
  std::string metric;                   // metadata.metric ("FID", "CLIP"); "" when not logged
  long line = 0;                        // 1-based line in the file
};

// How often a key is logged, as the compliance checker counts it (every record that parses), and whether its
// values differ (compared for the first few records only: only keys required EXACTLY_ONE need it).
struct MlperfKeyStat {
  std::size_t count = 0;
  long first_line = 0;
  bool values_differ = false;
  nlohmann::json first_value;
};

// A marker line the official parser cannot read (it drops the run for it): the line and why.
struct MlperfParseError {
  long line = 0;
  std::string why;
};

// A record that says how far training got when it was logged (block_stop, epoch_stop with samples_count or
// step_num): it dates a checkpoint that is evaluated later, offline (stable diffusion's FID and CLIP).
struct MlperfProgressMark {
  double time_ms = 0;
  std::optional<double> samples_count;
  std::optional<double> step_num;
};

// Everything a score, a TTA curve and an RCP check need from one result file.
struct MlperfRun {
  std::string source;  // file name as given
  MlperfLogFormat format = MlperfLogFormat::kUnknown;
  std::string benchmark;                                 // submission_benchmark (v0.5: the benchmark token of the line)
  nlohmann::json submission = nlohmann::json::object();  // other submission_* values (org, division, platform...)
  // As the official summarizer reads them: the last run_start before the first run_stop, the first run_stop.
  std::optional<double> run_start_ms;
  std::optional<double> run_stop_ms;
  std::string stop_status;  // run_stop's metadata.status ("success", "aborted"); "" when there is no run_stop
  // v0.5 only: the run_stop carried no status (NVIDIA's bare run_stop), so stop_status "success" is assumed and
  // the importer checks that an evaluation reached the target.
  bool stop_status_assumed = false;
  long run_start_line = 0;  // lines of the records above (0 = not logged)
  long run_stop_line = 0;
  long seed_line = 0;
  std::optional<nlohmann::json> seed;
  std::optional<double> global_batch_size;
  // For training throughput: train_samples as logged (the training set's size in most references; BERT logs the
  // samples it trained, NVIDIA's RetinaNet its batches per epoch), and run_stop's metadata.samples_count and
  // step_num where it has them (LLMs, flux1, stable diffusion).
  std::optional<double> train_samples;
  std::optional<double> train_samples_ms;  // when it was logged: BERT logs it at run_stop, the others before run_start
  std::optional<double> max_sequence_length;  // GPT-3 counts tokens in epoch_num: sequences = tokens / this
  std::optional<double> stop_samples_count;
  std::optional<double> stop_step_num;
  std::vector<MlperfEval> evals;  // every eval_accuracy, in log order
  std::vector<MlperfEval> aggregated_evals;
  std::vector<MlperfProgressMark>
      progress_marks;  // block_stop / epoch_stop with a count, in log order  // aggregated_eval_accuracy (stable
                       // diffusion's FID and CLIP together)
  std::map<std::string, MlperfKeyStat, std::less<>> keys;  // every key of the v0.6 / v0.7+ formats
  std::vector<MlperfParseError> parse_errors;              // v0.7+ marker lines that are not valid records
  // metadata.tensor of every weights_initialization record, in log order; the line of the first without one.
  std::vector<std::string> initialized_tensors;
  long untensored_init_line = 0;
  // The largest init_stop - (first init_start before it), and the init_stop's line: the init time limit's check.
  std::optional<double> init_ms;
  long init_line = 0;
  std::size_t evals_before_stop = 0;  // how many of `evals` came before run_stop (all of them without one)
  std::size_t bytes = 0;
  std::size_t records = 0;            // marker lines seen
  std::vector<std::string> warnings;  // "file:line: why", one per skipped line or missing fact

  bool Succeeded() const;  // run_start, run_stop and status "success"
  // (run_stop - run_start) / 60 / 1000, exactly as the summarizer; nullopt unless the run succeeded.
  std::optional<double> MinutesToTrain() const;
  // The RCP checker's epochs to converge: epoch_num of the last eval before run_stop, rounded to 3 decimals;
  // nullopt unless the run succeeded.
  std::optional<double> EpochsToConverge() const;
};

// Parses the bytes of one result file. Never throws on content: malformed lines become warnings.
MlperfRun ParseMlperfLog(std::string_view text, const std::string& source_name);
// Maps the file and parses it. Throws IoError naming the file when it cannot be opened or read.
MlperfRun ReadMlperfLog(const std::filesystem::path& file);

// True when the bytes hold at least one MLPerf marker (":::MLLOG", ":::MLL ", ":::MLPv0.5.0").
bool LooksLikeMlperfLog(std::string_view text);

// What a point's progress (EvalPoint::epoch) reads: `progress(eval)`, in `unit` (run_log.h's kProgressUnitKey);
// without a function, metadata.epoch_num in epochs. An eval without a value takes its index (1, 2, ...).
struct MlperfAxis {
  std::string unit = "epochs";
  std::function<std::optional<double>(const MlperfEval&)> progress;
};

// The run as the shared run type: points with train_seconds = wall_seconds = seconds since run_start and
// metric = `metric_of(eval)` (NaN skips the point); status reached when run_stop says success, else failed
// (aborted, or no run_stop at all: MLPerf counts both as runs that did not succeed).
// train_seconds of the run = (run_stop - run_start) in seconds: the official time to train. An evaluation logged
// after run_stop (a checkpoint evaluated offline) is dated when training reached its checkpoint (the first progress
// mark at or past its samples_count / step_num), and never after run_stop: every point lies within the run, and
// TTA at the rules' target is the official time to train (header "evaluations_after_run_stop" counts them).
RunLog ToRunLog(const MlperfRun& run, const std::function<double(const MlperfEval&)>& metric_of,
                const MlperfAxis& axis = {});

}  // namespace evalsuite::runlog
