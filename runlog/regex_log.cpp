#include "runlog/regex_log.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "common/error.h"
#include "common/json_guard.h"
#include "runlog/named_regex.h"
#include "runlog/run_log_checks.h"

namespace evalsuite::runlog {
namespace {

constexpr const char* kEpoch = "epoch";
constexpr const char* kTime = "time";
constexpr const char* kAccuracy = "accuracy";
constexpr const char* kMetric = "metric";
constexpr const char* kLoss = "loss";

const std::map<std::string, double> kSecondsPerUnit = {
    {"milliseconds", 0.001}, {"seconds", 1}, {"minutes", 60}, {"hours", 3600}};
const std::map<std::string, double> kMetricScale = {{"fraction", 1}, {"percent", 0.01}};

std::string Names(const std::map<std::string, double>& table) {
  std::string out;
  for (const auto& [name, value] : table) out += (out.empty() ? "" : ", ") + name;
  return out;
}

bool Has(const NamedRegex& regex, const char* name) {
  const auto& names = regex.group_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

// A captured value as a warning shows it: valid UTF-8, at most 40 bytes.
std::string Quote(std::string_view value) {
  const bool cut = value.size() > 40;
  return "\"" + ToValidUtf8(value.substr(0, 40)) + (cut ? "...\"" : "\"");
}

// Spaces and tabs off both ends (a captured group keeps the line's other bytes).
std::string_view TrimBlanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A plain decimal number ("75.200", "+3", "1.2e+00"); nullopt for anything else, infinities and NaN included.
std::optional<double> ParseFiniteNumber(std::string_view s) {
  s = TrimBlanks(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

// A clock duration in seconds: "M:SS", "H:MM:SS(.fff)", with an optional "N day(s), " in front, as Python's
// str(datetime.timedelta) prints it (torchvision's reference scripts print "Training time 1 day, 2:03:04").
std::optional<double> ParseClock(std::string_view s) {
  s = TrimBlanks(s);
  double days = 0;
  const std::size_t comma = s.find(',');
  if (comma != std::string_view::npos) {
    std::string_view head = TrimBlanks(s.substr(0, comma));
    const std::size_t space = head.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    const std::string_view word = TrimBlanks(head.substr(space + 1));
    if (word != "day" && word != "days") return std::nullopt;
    std::optional<double> n = ParseFiniteNumber(head.substr(0, space));
    if (!n || *n < 0 || std::floor(*n) != *n) return std::nullopt;
    days = *n;
    s = TrimBlanks(s.substr(comma + 1));
  }
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t colon = s.find(':', start);
    parts.push_back(s.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (parts.size() < 2 || parts.size() > 3) return std::nullopt;
  double seconds = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const bool last = i + 1 == parts.size();
    if (parts[i].empty() || (!last && parts[i].find_first_not_of("0123456789") != std::string_view::npos)) {
      return std::nullopt;
    }
    std::optional<double> v = ParseFiniteNumber(parts[i]);
    if (!v || *v < 0 || (i > 0 && *v >= 60)) return std::nullopt;
    seconds = seconds * 60 + *v;
  }
  return days * 86400 + seconds;
}

// Splits a byte stream into lines, '\n' and '\r' both ending one (line numbers count '\n' only), with a cap on a
// line's length; bytes after the last line end are the unterminated tail.
class LineSplitter {
 public:
  template <typename OnLine, typename OnOverlong>
  void Feed(std::string_view chunk, OnLine on_line, OnOverlong on_overlong) {
    for (char c : chunk) {
      if (c == '\n' || c == '\r') {
        if (overlong_ > 0) {
          on_overlong(line_, overlong_);
        } else if (!current_.empty()) {
          on_line(std::string_view(current_), line_);
        }
        current_.clear();
        overlong_ = 0;
        if (c == '\n') ++line_;
        continue;
      }
      if (overlong_ > 0) {
        ++overlong_;
      } else if (current_.size() == kMaxRegexLogLineBytes) {
        overlong_ = current_.size() + 1;
        current_.clear();
        current_.shrink_to_fit();
      } else {
        current_.push_back(c);
      }
    }
  }
  // The bytes after the last line end: their count (0 when the text ended with a line end) and line number.
  std::size_t tail_bytes() const { return overlong_ > 0 ? overlong_ : current_.size(); }
  long line() const { return line_; }

 private:
  std::string current_;
  std::size_t overlong_ = 0;  // > 0: the current line passed the cap; its length so far
  long line_ = 1;
};

struct Values {
  std::optional<std::string_view> epoch, time, metric, loss;
  bool metric_is_accuracy = false;
};

}  // namespace

std::optional<RegexLogProblem> CheckRegexLogOptions(const RegexLogOptions& options) {
  if (!kSecondsPerUnit.count(options.time_unit)) {
    return RegexLogProblem{"log_time_unit", std::nullopt,
                           "unknown unit '" + options.time_unit + "' (known: " + Names(kSecondsPerUnit) + ")"};
  }
  if (options.time_kind != "elapsed" && options.time_kind != "increment") {
    return RegexLogProblem{"log_time_kind", std::nullopt,
                           "must be \"elapsed\" (training time so far) or \"increment\" (time since the previous "
                           "time, summed), got '" +
                               options.time_kind + "'"};
  }
  if (!kMetricScale.count(options.metric_unit)) {
    return RegexLogProblem{"log_metric_unit", std::nullopt,
                           "must be \"fraction\" or \"percent\", got '" + options.metric_unit + "'"};
  }
  if (options.patterns.empty()) return RegexLogProblem{"log_regex", std::nullopt, "needs at least one pattern"};
  const std::set<std::string> known = {kEpoch, kTime, kAccuracy, kMetric, kLoss};
  bool any_time = false;
  std::optional<std::string> metric_kind;
  for (std::size_t i = 0; i < options.patterns.size(); ++i) {
    std::string error;
    std::optional<NamedRegex> regex = NamedRegex::Compile(options.patterns[i], error);
    if (!regex) return RegexLogProblem{"log_regex", i, "does not compile " + error};
    for (const std::string& name : regex->group_names()) {
      if (!known.count(name)) {
        return RegexLogProblem{
            "log_regex", i,
            "named group (?<" + name + ">...) is not one evalsuite reads (known: accuracy, epoch, loss, metric, time)"};
      }
    }
    const bool accuracy = Has(*regex, kAccuracy), metric = Has(*regex, kMetric);
    if (accuracy && metric) {
      return RegexLogProblem{"log_regex", i, "has both (?<accuracy>...) and (?<metric>...); use one"};
    }
    if (accuracy || metric) {
      const std::string kind = accuracy ? kAccuracy : kMetric;
      if (metric_kind && *metric_kind != kind) {
        return RegexLogProblem{"log_regex", i,
                               "uses (?<" + kind + ">...) where an earlier pattern uses (?<" + *metric_kind +
                                   ">...); use one name in all"};
      }
      metric_kind = kind;
    }
    any_time = any_time || Has(*regex, kTime);
  }
  if (!metric_kind) {
    return RegexLogProblem{
        "log_regex", std::nullopt,
        "no pattern has a named group (?<accuracy>...) or (?<metric>...) for the evaluation's value"};
  }
  if (!any_time) {
    return RegexLogProblem{"log_regex", std::nullopt,
                           "no pattern has a named group (?<time>...): time-to-accuracy needs each evaluation's "
                           "training time (evalsuite does not guess it from when lines were printed)"};
  }
  if (!options.end_pattern.empty()) {
    std::string error;
    std::optional<NamedRegex> end = NamedRegex::Compile(options.end_pattern, error);
    if (!end) return RegexLogProblem{"log_end_regex", std::nullopt, "does not compile " + error};
    for (const std::string& name : end->group_names()) {
      if (name != kTime) {
        return RegexLogProblem{"log_end_regex", std::nullopt,
                               "named group (?<" + name + ">...): the end line may only give (?<time>...), the total"};
      }
    }
  }
  return std::nullopt;
}

struct RegexLogReader::Compiled {
  std::vector<NamedRegex> patterns;
  std::optional<NamedRegex> end;
};

namespace {

// One read of one log: the state between lines.
class Session {
 public:
  Session(std::vector<NamedRegex>& patterns, std::optional<NamedRegex>& end, const RegexLogOptions& options,
          std::string source)
      : patterns_(patterns),
        end_(end),
        options_(options),
        source_(std::move(source)),
        time_scale_(kSecondsPerUnit.at(options.time_unit)),
        metric_scale_(kMetricScale.at(options.metric_unit)),
        limit_hits_(patterns.size(), 0) {}

  void OnLine(std::string_view line, long number) {
    if (ended_) return;
    Values values;
    for (std::size_t i = 0; i < patterns_.size(); ++i) {
      if (limit_hits_[i] >= kMaxRegexLimitHits) continue;
      NamedRegex::Match match = patterns_[i].Find(line);
      if (match.outcome == NamedRegex::Outcome::kLimit) {
        OnLimit(PatternKey(i), match.limit, number, limit_hits_[i]);
        continue;
      }
      if (match.outcome != NamedRegex::Outcome::kMatch) continue;
      const auto& names = patterns_[i].group_names();
      for (std::size_t g = 0; g < names.size(); ++g) {
        if (!match.groups[g]) continue;
        // The first pattern that captures a name on a line gives its value.
        std::optional<std::string_view>* slot = names[g] == kEpoch  ? &values.epoch
                                                : names[g] == kTime ? &values.time
                                                : names[g] == kLoss ? &values.loss
                                                                    : &values.metric;
        if (!*slot) {
          *slot = match.groups[g];
          if (slot == &values.metric) values.metric_is_accuracy = names[g] == kAccuracy;
        }
      }
    }
    Apply(values, number);
    if (end_ && end_limit_hits_ < kMaxRegexLimitHits) {
      NamedRegex::Match match = end_->Find(line);
      if (match.outcome == NamedRegex::Outcome::kLimit) OnLimit("log_end_regex", match.limit, number, end_limit_hits_);
      if (match.outcome == NamedRegex::Outcome::kMatch) OnEnd(match, number);
    }
  }

  void OnOverlong(long number, std::size_t bytes) {
    if (ended_) return;
    Warn(number, "a line of " + std::to_string(bytes) + " bytes (more than " + std::to_string(kMaxRegexLogLineBytes) +
                     ") was skipped");
  }

  RunLog Finish(const LineSplitter& splitter) {
    if (splitter.tail_bytes() > 0 && !ended_) {
      Warn(splitter.line(), "the last line has no line end (cut short?) and was not read");
    }
    if (pending_metric_) {
      Warn(pending_line_, "the value " + FormatNumber(*pending_metric_) +
                              " has no time after it (no (?<time>...) matched later); not recorded");
    }
    if (suppressed_ > 0) {
      log_.warnings.push_back(source_ + ": " + std::to_string(suppressed_) + " more warnings not listed");
    }
    log_.header = {{"format", "regex"},
                   {"file", source_},
                   {"patterns", options_.patterns},
                   {"end_pattern", options_.end_pattern},
                   {"time_unit", options_.time_unit},
                   {"time_kind", options_.time_kind},
                   {"metric_unit", options_.metric_unit}};
    log_.status = ended_ ? analysis::EndedAs::kNotReached : analysis::EndedAs::kNoEnd;
    log_.train_seconds = end_seconds_ ? *end_seconds_ : time_seen_.value_or(0);
    log_.wall_seconds = log_.train_seconds;
    // The rules every format shares: an accuracy is a fraction once scaled; a (?<metric>) value only finite.
    CheckRunLog(log_, source_, saw_accuracy_ ? std::optional<MetricScale>(FractionScale()) : std::nullopt);
    return std::move(log_);
  }

 private:
  static std::string FormatNumber(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%g", value);
    return buffer;
  }

  std::string PatternKey(std::size_t i) const {
    return patterns_.size() == 1 ? "log_regex" : "log_regex[" + std::to_string(i) + "]";
  }

  void Warn(long line, const std::string& what) {
    if (log_.warnings.size() >= kMaxRegexLogWarnings) {
      ++suppressed_;
      return;
    }
    log_.warnings.push_back(FileLine(source_, line) + ": " + what);
  }

  void OnLimit(const std::string& key, const std::string& limit, long number, int& hits) {
    ++hits;
    Warn(number, key + " gave up on this line (PCRE2 " + limit + ": the pattern backtracks too much)" +
                     (hits == kMaxRegexLimitHits ? "; not tried on later lines" : ""));
  }

  // A time value in seconds, or nullopt after a warning.
  std::optional<double> Seconds(std::string_view text, long number) {
    std::optional<double> value = ParseFiniteNumber(text);
    if (value) {
      *value *= time_scale_;
    } else {
      value = ParseClock(text);
    }
    if (!value) {
      Warn(number, "time " + Quote(text) + " is not a number or a clock (H:MM:SS); line skipped");
    } else if (*value < 0) {
      Warn(number, "time " + Quote(text) + " is negative; line skipped");
      value.reset();
    }
    return value;
  }

  void Apply(const Values& values, long number) {
    std::optional<double> epoch, loss, metric, seconds;
    if (values.epoch) {
      epoch = ParseFiniteNumber(*values.epoch);
      if (!epoch || *epoch < 0) {
        return Warn(number, "epoch " + Quote(*values.epoch) + " is not a number >= 0; line skipped");
      }
    }
    if (values.loss) {
      loss = ParseFiniteNumber(*values.loss);
      if (!loss) return Warn(number, "loss " + Quote(*values.loss) + " is not a number; line skipped");
    }
    if (values.metric) {
      const char* name = values.metric_is_accuracy ? kAccuracy : kMetric;
      metric = ParseFiniteNumber(*values.metric);
      if (!metric)
        return Warn(number, std::string(name) + " " + Quote(*values.metric) + " is not a number; line skipped");
      *metric *= metric_scale_;
      saw_accuracy_ = saw_accuracy_ || values.metric_is_accuracy;
      if (values.metric_is_accuracy && (*metric < 0 || *metric > 1)) {
        std::string why = std::string(name) + " " + Quote(*values.metric) + " is not a fraction in [0, 1]";
        if (options_.metric_unit == "fraction" && *metric <= 100)
          why += " (a percentage? log_metric_unit = \"percent\")";
        return Warn(number, why + "; line skipped");
      }
    }
    if (values.time) {
      seconds = Seconds(*values.time, number);
      if (!seconds) return;
      if (options_.time_kind == "increment") {
        seconds = time_seen_.value_or(0) + *seconds;
      } else if (time_seen_ && *seconds < *time_seen_) {
        return Warn(number, "time " + Quote(*values.time) + " is below the previous one (" + FormatNumber(*time_seen_) +
                                " s); log_time_kind = \"increment\" reads per-epoch durations; line skipped");
      }
    }
    if (epoch) epoch_ = epoch;
    if (loss) loss_ = loss;
    if (seconds) {
      time_seen_ = seconds;
      time_fresh_ = true;
    }
    if (metric) {
      pending_metric_ = metric;
      pending_line_ = number;
    }
    if (pending_metric_ && time_fresh_) {
      EvalPoint point;
      point.epoch = epoch_.value_or(static_cast<double>(log_.points.size() + 1));
      point.train_seconds = *time_seen_;
      point.wall_seconds = *time_seen_;
      point.metric = *pending_metric_;
      point.train_loss = loss_;
      point.line = pending_line_;
      log_.points.push_back(point);
      pending_metric_.reset();
      loss_.reset();
      time_fresh_ = false;
    }
  }

  void OnEnd(const NamedRegex::Match& match, long number) {
    for (std::size_t g = 0; g < match.groups.size(); ++g) {
      if (!match.groups[g]) continue;  // the only group an end pattern may have is time
      std::optional<double> seconds = Seconds(*match.groups[g], number);
      if (!seconds) return;     // warned; not the end either, so that nothing after a bad end line is lost
      end_seconds_ = *seconds;  // the total, whatever log_time_kind says of the other lines
    }
    ended_ = true;
  }

  std::vector<NamedRegex>& patterns_;
  std::optional<NamedRegex>& end_;
  const RegexLogOptions& options_;
  std::string source_;
  double time_scale_;
  double metric_scale_;
  std::vector<int> limit_hits_;
  int end_limit_hits_ = 0;
  RunLog log_;
  std::size_t suppressed_ = 0;
  std::optional<double> epoch_, loss_, time_seen_, pending_metric_, end_seconds_;
  bool time_fresh_ = false;
  long pending_line_ = 0;
  bool ended_ = false;
  bool saw_accuracy_ = false;
};

}  // namespace

RegexLogReader::RegexLogReader(const RegexLogOptions& options)
    : compiled_(std::make_unique<Compiled>()), options_(options) {
  if (std::optional<RegexLogProblem> problem = CheckRegexLogOptions(options)) {
    std::string key = problem->field;
    if (problem->index) key += "[" + std::to_string(*problem->index) + "]";
    throw InputError(key, problem->message);
  }
  std::string error;
  for (const std::string& pattern : options.patterns)
    compiled_->patterns.push_back(*NamedRegex::Compile(pattern, error));
  if (!options.end_pattern.empty()) compiled_->end = NamedRegex::Compile(options.end_pattern, error);
}

RegexLogReader::~RegexLogReader() = default;
RegexLogReader::RegexLogReader(RegexLogReader&&) noexcept = default;

RunLog RegexLogReader::Parse(std::string_view text, const std::string& source_name) {
  Session session(compiled_->patterns, compiled_->end, options_, source_name);
  LineSplitter splitter;
  splitter.Feed(
      text, [&](std::string_view line, long n) { session.OnLine(line, n); },
      [&](long n, std::size_t bytes) { session.OnOverlong(n, bytes); });
  return session.Finish(splitter);
}

RunLog RegexLogReader::Read(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot read the script's output");
  Session session(compiled_->patterns, compiled_->end, options_, file.string());
  LineSplitter splitter;
  std::vector<char> block(64 * 1024);
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    const std::streamsize got = in.gcount();
    if (got <= 0) break;
    splitter.Feed(
        std::string_view(block.data(), static_cast<std::size_t>(got)),
        [&](std::string_view line, long n) { session.OnLine(line, n); },
        [&](long n, std::size_t bytes) { session.OnOverlong(n, bytes); });
  }
  if (in.bad()) throw IoError(file.string(), "read error");
  return session.Finish(splitter);
}

}  // namespace evalsuite::runlog
