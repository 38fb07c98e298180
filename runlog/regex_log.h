// log_format = "regex": an external entry's evaluations read from what its script prints (its standard output),
// with Perl-compatible patterns whose named groups say what a number is:
//   (?<accuracy>...) or (?<metric>...)  the evaluation's value (accuracy: a fraction in [0, 1] once scaled)
//   (?<time>...)                        training time so far (or since the last one, time_kind = "increment");
//                                       a number in time_unit, or a clock "1:02:03.5" / "2 days, 1:02:03"
//   (?<epoch>...)                       optional: the epoch (else evaluations are counted 1, 2, ...)
//   (?<loss>...)                        optional: the training loss
// Every line (a '\r' also ends one, as a terminal shows progress bars) is matched against every pattern; the
// latest epoch, loss and time seen are kept, and an evaluation is recorded once a metric and a time have both been
// seen since the previous one, whichever came last (so they may sit on different lines, in either order). Lines
// that match nothing are ignored; a matching line with a value that is not a number is a warning "file:line: ..."
// and is skipped. After the end pattern's line (if any) the run is complete and later lines are not read.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runlog/run_log.h"

namespace evalsuite::runlog {

struct RegexLogOptions {
  std::vector<std::string> patterns;     // log_regex
  std::string end_pattern;               // log_end_regex: the line that says training ended ("" = none); may hold
                                         // (?<time>...), the total training time
  std::string time_unit = "seconds";     // log_time_unit: milliseconds, seconds, minutes, hours
  std::string time_kind = "elapsed";     // log_time_kind: elapsed (a running total), increment (summed)
  std::string metric_unit = "fraction";  // log_metric_unit: fraction, percent
};

// What is wrong with options, for the plan's error: field is "log_regex" (index set for one pattern),
// "log_end_regex", "log_time_unit", "log_time_kind" or "log_metric_unit".
struct RegexLogProblem {
  std::string field;
  std::optional<std::size_t> index;
  std::string message;
};
// Compiles every pattern and checks the groups: a metric group (accuracy or metric, one kind across patterns) and a
// time group are required, unknown group names are refused (a typo would otherwise read nothing).
std::optional<RegexLogProblem> CheckRegexLogOptions(const RegexLogOptions& options);

// Lines longer than this are skipped with a warning (no evaluation line is; a binary dump or a progress bar is).
constexpr std::size_t kMaxRegexLogLineBytes = 64 * 1024;
// At most this many warnings are listed; the rest are counted in a last one.
constexpr std::size_t kMaxRegexLogWarnings = 100;
// A pattern that hits PCRE2's limits on this many lines is not tried any more (it backtracks catastrophically).
constexpr int kMaxRegexLimitHits = 10;

class RegexLogReader {
 public:
  // Throws InputError("log_regex...", why) when CheckRegexLogOptions finds a problem (plans check it first).
  explicit RegexLogReader(const RegexLogOptions& options);
  ~RegexLogReader();
  RegexLogReader(RegexLogReader&&) noexcept;

  // Streams the file (a 10 GB chatty stdout is read in blocks, never held whole). Throws IoError when it can't be
  // opened. Status: incomplete, or not_reached once the end pattern matched (the caller judges reached).
  RunLog Read(const std::filesystem::path& file);
  RunLog Parse(std::string_view text, const std::string& source_name);

 private:
  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
  RegexLogOptions options_;
};

}  // namespace evalsuite::runlog
