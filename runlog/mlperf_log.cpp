#include "runlog/mlperf_log.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/error.h"
#include "common/json_guard.h"
#include "runlog/mlperf_scan.h"
#include "runlog/run_log_checks.h"

namespace evalsuite::runlog {
namespace {

// A value nested deeper than any MLPerf log's (they nest 3 levels) is refused before nlohmann builds the tree
// (copying a 200,000-level tree overflowed the stack).
constexpr const char* kTooDeep = "value nested deeper than 64 levels; line skipped";
bool TooDeep(const char* begin, const char* end) {
  return JsonNestingDepth(std::string_view(begin, static_cast<std::size_t>(end - begin)), kMaxJsonDepth + 1) >
         kMaxJsonDepth;
}

using nlohmann::json;

// The byte scanner (marker lines, the fast field reader) is mlperf_scan.h's.
using namespace mlperf_scan;  // NOLINT(google-build-using-namespace): the scanner's helpers, one parser

enum class Key {
  kOther,
  kRunStart,
  kRunStop,
  kRunFinal,  // v0.5's end of run, used only when there is no run_stop
  kEvalAccuracy,
  kSeed,
  kGlobalBatchSize,
  kTrainSamples,
  kMaxSequenceLength,
  kSubmissionBenchmark,
  kSubmissionOther,
  kInitStart,
  kInitStop,
  kAggregatedEval,  // aggregated_eval_accuracy: the compliance target of stable diffusion
  kWeightsInit,     // weights_initialization: its metadata.tensor
  kProgress,        // block_stop, epoch_stop: how far training got (MlperfProgressMark)
};

// The keys the parser reads, as one table. `v05_only`: a name only v0.5's logs give that meaning.
struct MlperfKeyName {
  std::string_view name;
  Key key;
  bool v05_only = false;
};
constexpr MlperfKeyName kMlperfKeyNames[] = {
    {"seed", Key::kSeed},
    {"run_stop", Key::kRunStop},
    {"run_start", Key::kRunStart},
    {"run_final", Key::kRunFinal},
    {"init_stop", Key::kInitStop},
    {"eval_error", Key::kEvalAccuracy},  // the RCP checker reads it as an evaluation too
    {"init_start", Key::kInitStart},
    {"eval_accuracy", Key::kEvalAccuracy},
    {"train_samples", Key::kTrainSamples},
    {"input_batch_size", Key::kGlobalBatchSize, /*v05_only=*/true},
    {"global_batch_size", Key::kGlobalBatchSize},
    {"run_set_random_seed", Key::kSeed, /*v05_only=*/true},
    {"max_sequence_length", Key::kMaxSequenceLength},
    {"submission_benchmark", Key::kSubmissionBenchmark},
    {"weights_initialization", Key::kWeightsInit},
    {"aggregated_eval_accuracy", Key::kAggregatedEval},
    {"block_stop", Key::kProgress},
    {"epoch_stop", Key::kProgress},
};

Key Classify(std::string_view key, MlperfLogFormat format) {
  // Lengths first: most lines' keys match no name's length, and a length compare is one instruction.
  for (const MlperfKeyName& known : kMlperfKeyNames) {
    if (known.name.size() == key.size() && known.name == key && (!known.v05_only || format == MlperfLogFormat::kV05)) {
      return known.key;
    }
  }
  if (key.size() > 11 && key.compare(0, 11, "submission_") == 0) return Key::kSubmissionOther;
  return Key::kOther;
}

// Line numbers are counted only when a warning needs one; the counter only moves forward.
class LineCounter {
 public:
  explicit LineCounter(const char* base) : counted_to_(base) {}
  long LineOf(const char* p) {
    while (counted_to_ < p) {
      const void* nl = std::memchr(counted_to_, '\n', static_cast<std::size_t>(p - counted_to_));
      if (nl == nullptr) {
        counted_to_ = p;
        break;
      }
      ++line_;
      counted_to_ = static_cast<const char*>(nl) + 1;
    }
    return line_;
  }

 private:
  const char* counted_to_;
  long line_ = 1;
};

class Parser {
 public:
  Parser(std::string_view text, const std::string& source) : text_(text), lines_(text.data()) {
    run_.source = source;
    run_.bytes = text.size();
  }

  MlperfRun Run() {
    ForEachMarkerLine(text_.data(), text_.data() + text_.size(),
                      [this](const char* marker, const char* eol) { Record(marker, TrimRight(marker, eol)); });
    Finish();
    return std::move(run_);
  }

 private:
  void Warn(const char* at, const std::string& why) {
    run_.warnings.push_back(FileLine(run_.source, lines_.LineOf(at)) + ": " + why);
  }

  void Record(const char* marker, const char* eol) {
    const char* p = marker + kMarkerPrefixLength;
    if (StartsWith(p, eol, "LOG")) {
      RecordV07(marker, p + 3, eol);
    } else if (StartsWith(p, eol, "L ")) {
      RecordV06(marker, p + 2, eol);
    } else if (StartsWith(p, eol, "Pv0.5.0")) {
      RecordV05(marker, p + 7, eol);
    }
    // Any other ":::ML..." is not a marker (e.g. ":::MLPv0.6"): not ours to judge.
  }

  void NoteFormat(MlperfLogFormat format) {
    ++run_.records;
    if (run_.format == MlperfLogFormat::kUnknown) run_.format = format;
  }

  // :::MLLOG {"namespace": "", "time_ms": 1652207554577, "event_type": "INTERVAL_START", "key": "run_start", ...}
  void RecordV07(const char* marker, const char* p, const char* eol) {
    NoteFormat(MlperfLogFormat::kV07);
    p = SkipSpaces(p, eol);
    const char* key_field = FindKeyField(p, eol);
    if (key_field == nullptr) {
      Warn(marker, "MLLOG record without a \"key\"; line skipped");
      return;
    }
    const char* k = SkipSpaces(key_field + 5, eol);
    if (k < eol && *k == ':') k = SkipSpaces(k + 1, eol);
    if (k >= eol || *k != '"') {
      Warn(marker, "MLLOG record with a malformed \"key\"; line skipped");
      return;
    }
    const char* key_begin = k + 1;
    const char* key_end =
        static_cast<const char*>(std::memchr(key_begin, '"', static_cast<std::size_t>(eol - key_begin)));
    if (key_end == nullptr) {
      Warn(marker, "MLLOG record with an unterminated \"key\"; line skipped");
      return;
    }
    const std::string_view key_view(key_begin, static_cast<std::size_t>(key_end - key_begin));
    const Key key = Classify(key_view, MlperfLogFormat::kV07);
    if (key == Key::kOther) {
      // The official parser reads every record as JSON and drops the run for one it cannot read.
      if (!PlausibleJsonObject(p, eol)) {
        ParseError(marker, "malformed MLLOG JSON for key \"" + std::string(key_view) + "\"");
        return;
      }
      CountKey(marker, key_view, p, eol, nullptr);
      return;
    }
    const std::string key_name(key_begin, key_end);
    if (!BalancedObject(p, eol)) {
      ParseError(marker, "malformed MLLOG JSON (cut or unbalanced) for key \"" + key_name + "\"");
      return;
    }
    double time_ms = 0;
    json value;
    json metadata = json::object();
    switch (ScanMllogFields(p, key_end, eol, time_ms, value, metadata)) {
      case Scan::kOk:
        break;
      case Scan::kMalformed:
        ParseError(marker, "malformed MLLOG JSON for key \"" + key_name + "\"");
        return;
      case Scan::kComplex: {  // an object value (maskrcnn), escapes, another key order: the full parser decides
        if (TooDeep(p, eol)) {
          Warn(marker, kTooDeep);
          return;
        }
        json record = json::parse(p, eol, nullptr, /*allow_exceptions=*/false);
        if (record.is_discarded() || !record.is_object()) {
          ParseError(marker, "malformed MLLOG JSON for key \"" + key_name + "\"");
          return;
        }
        auto time = record.find("time_ms");
        if (time == record.end() || !time->is_number()) {
          ParseError(marker, "MLLOG record without a numeric \"time_ms\"");
          return;
        }
        time_ms = time->get<double>();
        auto v = record.find("value");
        value = v == record.end() ? json() : *v;
        auto m = record.find("metadata");
        if (m != record.end() && m->is_object()) metadata = *m;
        break;
      }
    }
    CountKey(marker, key_view, nullptr, nullptr, &value);
    Event(marker, key, key_name, time_ms, value, metadata);
  }

  // A v0.7+ marker line the official parser cannot read: a warning, and the compliance check drops the run.
  void ParseError(const char* marker, const std::string& why) {
    const long line = lines_.LineOf(marker);
    run_.parse_errors.push_back({line, why});
    run_.warnings.push_back(FileLine(run_.source, line) + ": " + why + "; line skipped");
  }

  // Counts a key; compares the values of its first few records (from `value`, or parsed from [p, eol)).
  void CountKey(const char* marker, std::string_view key, const char* p, const char* eol, const json* value) {
    constexpr std::size_t kValuesCompared = 8;
    auto it = run_.keys.find(key);
    if (it == run_.keys.end()) it = run_.keys.emplace(std::string(key), MlperfKeyStat{}).first;
    MlperfKeyStat& stat = it->second;
    ++stat.count;
    if (stat.count > kValuesCompared || stat.values_differ) return;
    json v;
    if (value != nullptr) {
      v = *value;
    } else if (p != nullptr) {
      // The value's text as logged (from "value": to "metadata"): the same logger writes equal values alike, and
      // no parse is needed.
      if (const char* at = FieldValue(p, eol, "\"value\"")) {
        const std::string_view rest(at, static_cast<std::size_t>(eol - at));
        const std::size_t meta = rest.find("\"metadata\"");
        std::string_view text = rest.substr(0, meta);  // up to the key "metadata", or the end of the record
        while (!text.empty() && (text.back() == ' ' || text.back() == ',' || text.back() == '}')) {
          text.remove_suffix(1);
        }
        v = std::string(text);
      }
    }
    if (stat.count == 1) {
      stat.first_line = lines_.LineOf(marker);
      stat.first_value = std::move(v);
    } else if (v != stat.first_value) {
      stat.values_differ = true;
    }
  }

  // :::MLL 1558516333.790 eval_accuracy: {"value": 0.7613, "metadata": {"epoch_num": 64}}
  void RecordV06(const char* marker, const char* p, const char* eol) {
    NoteFormat(MlperfLogFormat::kV06);
    p = SkipSpaces(p, eol);
    const char* ts_end = p;
    while (ts_end < eol && *ts_end != ' ' && *ts_end != '\t') ++ts_end;
    std::optional<double> seconds = ParseDouble(p, ts_end);
    if (!seconds) {
      Warn(marker, "MLL record without a timestamp in seconds; line skipped");
      return;
    }
    const std::string_view key_view = OldRecordKey(ts_end, eol);
    if (key_view.empty()) {
      Warn(marker, "MLL record without a key; line skipped");
      return;
    }
    CountKey(marker, key_view, nullptr, nullptr, nullptr);
    const Key key = Classify(key_view, MlperfLogFormat::kV06);
    if (key == Key::kOther) return;
    std::optional<json> record = OldRecordValue(marker, key_view, eol, "MLL");
    if (!record) return;
    json value;
    json metadata = json::object();
    if (record->is_object() && (record->contains("value") || record->contains("metadata"))) {
      value = record->value("value", json());
      if (record->contains("metadata") && (*record)["metadata"].is_object()) metadata = (*record)["metadata"];
    } else {
      value = std::move(*record);
    }
    Event(marker, key, std::string(key_view), *seconds * 1000.0, value, metadata);
  }

  // :::MLPv0.5.0 resnet 1543785258.927179813 (benchmark_cnn.py:1271) eval_accuracy: {"epoch": 1, "value": 0.2}
  void RecordV05(const char* marker, const char* p, const char* eol) {
    NoteFormat(MlperfLogFormat::kV05);
    auto token = [&](const char*& at) {
      at = SkipSpaces(at, eol);
      const char* b = at;
      while (at < eol && *at != ' ' && *at != '\t') ++at;
      return std::string_view(b, static_cast<std::size_t>(at - b));
    };
    const std::string_view benchmark = token(p);
    const std::string_view stamp = token(p);
    std::optional<double> seconds = ParseDouble(stamp.data(), stamp.data() + stamp.size());
    if (benchmark.empty() || !seconds) {
      Warn(marker, "MLPv0.5.0 record without benchmark and timestamp; line skipped");
      return;
    }
    p = SkipSpaces(p, eol);
    if (p < eol && *p == '(') {  // (file.py:123)
      const char* close = static_cast<const char*>(std::memchr(p, ')', static_cast<std::size_t>(eol - p)));
      p = close == nullptr ? eol : close + 1;
    }
    const std::string_view key_view = OldRecordKey(p, eol);
    if (key_view.empty()) {
      Warn(marker, "MLPv0.5.0 record without a key; line skipped");
      return;
    }
    if (run_.benchmark.empty()) run_.benchmark = std::string(benchmark);
    const Key key = Classify(key_view, MlperfLogFormat::kV05);
    if (key == Key::kOther) return;
    std::optional<json> read = OldRecordValue(marker, key_view, eol, "MLPv0.5.0");
    if (!read) return;
    json value = std::move(*read);
    json metadata = json::object();
    if (key == Key::kEvalAccuracy && value.is_object()) {  // {"epoch": N, "value": x}
      if (value.contains("epoch")) metadata["epoch_num"] = value["epoch"];
      value = value.value("value", json());
    }
    if ((key == Key::kRunStop || key == Key::kRunFinal) && value.is_object() && value.contains("success")) {
      // Google's v0.5 logs write the flag as a string ("true"), the reference code as a boolean.
      const json& flag = value["success"];
      const bool success =
          (flag.is_boolean() && flag.get<bool>()) || (flag.is_string() && flag.get<std::string>() == "true");
      metadata["status"] = success ? "success" : "aborted";
    }
    Event(marker, key, std::string(key_view), *seconds * 1000.0, value, metadata);
  }

  // The key of a v0.5 or v0.6 record: from `p`, spaces skipped, to the first ':', space or tab; empty when none.
  static std::string_view OldRecordKey(const char* p, const char* eol) {
    const char* key_begin = SkipSpaces(p, eol);
    const char* key_end = key_begin;
    while (key_end < eol && *key_end != ':' && *key_end != ' ' && *key_end != '\t') ++key_end;
    return std::string_view(key_begin, static_cast<std::size_t>(key_end - key_begin));
  }

  // The JSON after the key's ':' in a v0.5 or v0.6 record (null when there is none); nullopt, after a warning naming
  // the `format`, when it is nested too deep or malformed (the line is skipped).
  std::optional<json> OldRecordValue(const char* marker, std::string_view key, const char* eol, const char* format) {
    const char* rest = SkipSpaces(key.data() + key.size(), eol);
    if (rest >= eol || *rest != ':') return json();
    rest = SkipSpaces(rest + 1, eol);
    if (rest >= eol) return json();
    if (TooDeep(rest, eol)) {
      Warn(marker, kTooDeep);
      return std::nullopt;
    }
    json value = json::parse(rest, eol, nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded()) {
      Warn(marker, std::string("malformed ") + format + " value JSON; line skipped");
      return std::nullopt;
    }
    return value;
  }

  // Over clang-tidy's complexity limit since train_samples joined the keys it reads; one handler per key is its own
  // change, checked against the official summarizer on every shared round.
  // NOLINTNEXTLINE(readability-function-cognitive-complexity)
  void Event(const char* marker, Key key, const std::string& key_name, double time_ms, const json& value,
             const json& metadata) {
    switch (key) {
      case Key::kSubmissionBenchmark:
        if (value.is_string()) {
          const std::string name = value.get<std::string>();
          if (!benchmark_logged_) {
            run_.benchmark = name;
            benchmark_logged_ = true;
          } else if (name != run_.benchmark) {
            Warn(marker, "submission_benchmark \"" + name + "\" differs from the earlier \"" + run_.benchmark +
                             "\"; the first one is kept");
          }
        }
        break;
      case Key::kSubmissionOther:
        if (!run_.submission.contains(key_name)) run_.submission[key_name] = value;
        break;
      case Key::kSeed:
        if (!run_.seed) {
          run_.seed = value;
          run_.seed_line = lines_.LineOf(marker);
        }
        break;
      case Key::kGlobalBatchSize:
        if (value.is_number()) run_.global_batch_size = value.get<double>();
        break;
      case Key::kTrainSamples:
        if (value.is_number() && !run_.train_samples) {
          run_.train_samples = value.get<double>();
          run_.train_samples_ms = time_ms;
        }
        break;
      case Key::kMaxSequenceLength:
        if (value.is_number() && !run_.max_sequence_length) run_.max_sequence_length = value.get<double>();
        break;
      case Key::kRunStart:
        // The summarizer keeps the last run_start until it has seen both; one after run_stop counts only when
        // none came before.
        if (run_.run_stop_ms && run_.run_start_ms) {
          Warn(marker, "run_start after run_stop ignored");
        } else {
          if (run_.run_start_ms) Warn(marker, "repeated run_start; the last one before run_stop counts");
          run_.run_start_ms = time_ms;
          run_.run_start_line = lines_.LineOf(marker);
        }
        break;
      case Key::kRunStop:
        if (run_.run_stop_ms) {
          Warn(marker, "repeated run_stop ignored; the first one counts");
          break;
        }
        run_.run_stop_ms = time_ms;
        run_.run_stop_line = lines_.LineOf(marker);
        run_.stop_status = StatusOf(metadata);
        if (metadata.contains("samples_count") && metadata["samples_count"].is_number()) {
          run_.stop_samples_count = metadata["samples_count"].get<double>();
        }
        if (metadata.contains("step_num") && metadata["step_num"].is_number()) {
          run_.stop_step_num = metadata["step_num"].get<double>();
        }
        if (run_.stop_status.empty() && run_.format == MlperfLogFormat::kV05) {
          // NVIDIA's v0.5 logs end with a bare run_stop: the rules of the day made it a success when the target
          // was reached, which the importer checks.
          run_.stop_status = "success";
          run_.stop_status_assumed = true;
        } else if (run_.stop_status.empty()) {
          Warn(marker, "run_stop without a status; the run counts as not successful");
        }
        evals_before_stop_ = run_.evals.size();
        break;
      case Key::kRunFinal:  // v0.5: the end of the run when no run_stop is logged
        if (!final_ms_) {
          final_ms_ = time_ms;
          final_status_ = StatusOf(metadata);
          evals_before_final_ = run_.evals.size();
        }
        break;
      case Key::kEvalAccuracy: {
        MlperfEval eval;
        eval.time_ms = time_ms;
        eval.value = value;
        if (metadata.contains("epoch_num") && metadata["epoch_num"].is_number()) {
          eval.epoch = metadata["epoch_num"].get<double>();
        }
        if (metadata.contains("samples_count") && metadata["samples_count"].is_number()) {
          eval.samples_count = metadata["samples_count"].get<double>();
        }
        if (metadata.contains("step_num") && metadata["step_num"].is_number()) {
          eval.step_num = metadata["step_num"].get<double>();
        }
        if (metadata.contains("metric") && metadata["metric"].is_string()) {
          eval.metric = metadata["metric"].get<std::string>();
        }
        eval.line = lines_.LineOf(marker);
        run_.evals.push_back(std::move(eval));
        break;
      }
      case Key::kInitStart:
        if (!first_init_start_ms_ || time_ms < *first_init_start_ms_) first_init_start_ms_ = time_ms;
        break;
      case Key::kInitStop:
        if (first_init_start_ms_ && (!run_.init_ms || time_ms - *first_init_start_ms_ > *run_.init_ms)) {
          run_.init_ms = time_ms - *first_init_start_ms_;
          run_.init_line = lines_.LineOf(marker);
        }
        break;
      case Key::kWeightsInit:
        if (metadata.contains("tensor") && metadata["tensor"].is_string()) {
          run_.initialized_tensors.push_back(metadata["tensor"].get<std::string>());
        } else if (metadata.contains("tensor")) {
          run_.initialized_tensors.push_back(metadata["tensor"].dump());
        } else if (run_.untensored_init_line == 0) {
          run_.untensored_init_line = lines_.LineOf(marker);
        }
        break;
      case Key::kAggregatedEval: {
        MlperfEval eval;
        eval.time_ms = time_ms;
        eval.value = value;
        eval.line = lines_.LineOf(marker);
        run_.aggregated_evals.push_back(std::move(eval));
        break;
      }
      case Key::kProgress: {
        MlperfProgressMark mark;
        mark.time_ms = time_ms;
        if (metadata.contains("samples_count") && metadata["samples_count"].is_number()) {
          mark.samples_count = metadata["samples_count"].get<double>();
        }
        if (metadata.contains("step_num") && metadata["step_num"].is_number()) {
          mark.step_num = metadata["step_num"].get<double>();
        }
        if (mark.samples_count || mark.step_num) run_.progress_marks.push_back(mark);
        break;
      }
      case Key::kOther:
        break;
    }
  }

  static std::string StatusOf(const json& metadata) {
    auto it = metadata.find("status");
    return it != metadata.end() && it->is_string() ? it->get<std::string>() : std::string();
  }

  void Finish() {
    const std::string where = run_.source;
    if (!run_.run_stop_ms && final_ms_) {
      run_.run_stop_ms = final_ms_;
      run_.stop_status = final_status_.empty() ? std::string("success") : final_status_;
      evals_before_stop_ = evals_before_final_;
    }
    if (run_.records == 0) {
      run_.warnings.push_back(where + ": no MLPerf log lines (:::MLLOG, :::MLL or :::MLPv0.5.0)");
      return;
    }
    if (!run_.run_start_ms) run_.warnings.push_back(where + ": no run_start; the run has no time to train");
    if (!run_.run_stop_ms) run_.warnings.push_back(where + ": no run_stop; the run is incomplete");
    run_.evals_before_stop = run_.run_stop_ms ? evals_before_stop_ : run_.evals.size();
  }

  std::string_view text_;
  LineCounter lines_;
  MlperfRun run_;
  bool benchmark_logged_ = false;
  std::size_t evals_before_stop_ = 0;
  std::optional<double> final_ms_;
  std::optional<double> first_init_start_ms_;
  std::string final_status_;
  std::size_t evals_before_final_ = 0;
};

}  // namespace

const char* MlperfLogFormatName(MlperfLogFormat format) {
  switch (format) {
    case MlperfLogFormat::kV05:
      return "v0.5";
    case MlperfLogFormat::kV06:
      return "v0.6";
    case MlperfLogFormat::kV07:
      return "v0.7+";
    case MlperfLogFormat::kUnknown:
      break;
  }
  return "unknown";
}

bool MlperfRun::Succeeded() const { return run_start_ms && run_stop_ms && stop_status == "success"; }

std::optional<double> MlperfRun::MinutesToTrain() const {
  if (!Succeeded()) return std::nullopt;
  return (*run_stop_ms - *run_start_ms) / 60 / 1000;
}

std::optional<double> MlperfRun::EpochsToConverge() const {
  if (!Succeeded()) return std::nullopt;
  for (std::size_t i = std::min(evals_before_stop, evals.size()); i > 0; --i) {
    if (evals[i - 1].epoch) return std::round(*evals[i - 1].epoch * 1000.0) / 1000.0;
  }
  return std::nullopt;
}

MlperfRun ParseMlperfLog(std::string_view text, const std::string& source_name) {
  // Invalid UTF-8 (a 0xff in a submission_* value or a v0.5 benchmark token) would reach the store and the JSON
  // output raw, where it cannot be written: read as U+FFFD, with a warning. Valid logs (all real ones) pay one
  // scan.
  if (!IsValidUtf8(text)) {
    const std::string repaired = ToValidUtf8(text);
    MlperfRun run = Parser(repaired, source_name).Run();
    run.warnings.insert(run.warnings.begin(),
                        source_name + ": invalid UTF-8 bytes read as U+FFFD (the log is not valid UTF-8)");
    return run;
  }
  return Parser(text, source_name).Run();
}

MlperfRun ReadMlperfLog(const std::filesystem::path& file) {
  const std::string name = file.string();
  const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(name, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw IoError(name, std::string("cannot stat: ") + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw IoError(name, "is a folder, not a result file");
  }
  // Mapped: measured against reading into a reused buffer, mapping was as fast or slightly faster.
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    const auto size = static_cast<std::size_t>(st.st_size);
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    ::close(fd);
    if (map == MAP_FAILED) throw IoError(name, std::string("cannot map: ") + std::strerror(errno));
    ::madvise(map, size, MADV_SEQUENTIAL);
    MlperfRun run;
    try {
      run = ParseMlperfLog(std::string_view(static_cast<const char*>(map), size), name);
    } catch (...) {
      ::munmap(map, size);
      throw;
    }
    ::munmap(map, size);
    return run;
  }
  // Empty, or not a regular file (a pipe, say): read it in chunks.
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      throw IoError(name, std::string("read error: ") + std::strerror(err));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return ParseMlperfLog(text, name);
}

bool LooksLikeMlperfLog(std::string_view text) {
  const char* end = text.data() + text.size();
  for (const char* m = FindMarker(text.data(), end); m != nullptr; m = FindMarker(m + kMarkerPrefixLength, end)) {
    const char* p = m + kMarkerPrefixLength;
    if (StartsWith(p, end, "LOG") || StartsWith(p, end, "L ") || StartsWith(p, end, "Pv0.5.0")) return true;
  }
  return false;
}

namespace {

// When training reached the checkpoint `eval` evaluates: the first progress mark at or past its count (nullopt when
// the log dates none).
std::optional<double> CheckpointTime(const MlperfRun& run, const MlperfEval& eval) {
  for (const MlperfProgressMark& mark : run.progress_marks) {
    if (eval.samples_count && mark.samples_count && *mark.samples_count >= *eval.samples_count) return mark.time_ms;
    if (!eval.samples_count && eval.step_num && mark.step_num && *mark.step_num >= *eval.step_num) {
      return mark.time_ms;
    }
  }
  return std::nullopt;
}

}  // namespace

RunLog ToRunLog(const MlperfRun& run, const std::function<double(const MlperfEval&)>& metric_of,
                const MlperfAxis& axis) {
  RunLog log;
  log.header = {{"format", "mlperf"},
                {"log_format", MlperfLogFormatName(run.format)},
                {"file", run.source},
                {"benchmark", run.benchmark},
                {"submission", run.submission}};
  if (run.seed) log.header["seed"] = *run.seed;
  if (run.global_batch_size) log.header["global_batch_size"] = *run.global_batch_size;
  if (run.run_start_ms) log.header["run_start_ms"] = *run.run_start_ms;
  if (run.run_stop_ms) log.header["run_stop_ms"] = *run.run_stop_ms;
  if (!run.stop_status.empty()) log.header["stop_status"] = run.stop_status;
  if (auto epochs = run.EpochsToConverge()) log.header["epochs_to_converge"] = *epochs;
  log.header[kProgressUnitKey] = axis.unit;
  const double start_ms = run.run_start_ms.value_or(run.evals.empty() ? 0.0 : run.evals.front().time_ms);
  std::size_t after_stop = 0;
  for (const MlperfEval& eval : run.evals) {
    const double metric = metric_of(eval);
    if (std::isnan(metric)) continue;
    EvalPoint point;
    const double index = static_cast<double>(log.points.size() + 1);
    point.epoch = axis.progress ? axis.progress(eval).value_or(index) : eval.epoch.value_or(index);
    double time_ms = eval.time_ms;
    if (run.run_start_ms && run.run_stop_ms && time_ms > *run.run_stop_ms) {
      ++after_stop;
      time_ms = std::min(CheckpointTime(run, eval).value_or(*run.run_stop_ms), *run.run_stop_ms);
    }
    point.train_seconds = (time_ms - start_ms) / 1000.0;
    point.wall_seconds = point.train_seconds;
    point.metric = metric;
    point.line = eval.line;
    log.points.push_back(point);
  }
  if (after_stop > 0) log.header["evaluations_after_run_stop"] = after_stop;
  if (run.Succeeded()) {
    log.status = analysis::EndedAs::kReached;
  } else if (run.run_stop_ms) {
    log.status = analysis::EndedAs::kFailed;
    log.error = "run_stop status \"" + run.stop_status + "\"";
  } else {
    // The log ends without run_stop: MLPerf scores it as a run that did not succeed. It is not an interrupted
    // attempt that a resume would redo (the store's meaning of "incomplete"), so it is a failure here.
    log.status = analysis::EndedAs::kFailed;
    log.error = "no run_stop in the log";
  }
  if (run.run_start_ms && run.run_stop_ms) {
    log.train_seconds = (*run.run_stop_ms - *run.run_start_ms) / 1000.0;
  } else {
    for (const EvalPoint& p : log.points) log.train_seconds = std::max(log.train_seconds, p.train_seconds);
  }
  log.wall_seconds = log.train_seconds;
  log.warnings = run.warnings;
  // The curve passes the rules every format shares, but for the order of evaluations (warnings; the official
  // score reads run_start/run_stop only).
  CheckRunLog(log, run.source, std::nullopt, /*check_order=*/false);
  return log;
}

}  // namespace evalsuite::runlog
