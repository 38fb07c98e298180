// A Perl-compatible regular expression with named groups, (?<name>...), matched against one line at a time: the
// only file that sees PCRE2 (std::regex has no named groups). Matching is bounded for hostile patterns and input:
// a match that would backtrack past kMatchLimit steps from one start position, kStepBudget steps in all, or
// kHeapLimitKib of memory gives up (kLimit) instead of running for hours, and invalid UTF-8 in the subject (binary
// junk in a log) never fails or crashes a match.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace evalsuite::runlog {

class NamedRegex {
 public:
  // Backtracking steps and heap one match may use before it gives up; a plain log pattern needs a few hundred.
  static constexpr uint32_t kMatchLimit = 500'000;
  static constexpr uint32_t kHeapLimitKib = 16 * 1024;
  // Steps of one Find over all start positions (PCRE2's own limit restarts at each): about 0.1 s here. Measured:
  // a PyTorch or Keras log line takes 10 to 70, a two-`.*` pattern failing on a 1,000-byte line about 57,000.
  static constexpr uint64_t kStepBudget = 2'000'000;

  // Compiles `pattern` (UTF-8; a subject's invalid bytes only never match). On a syntax error returns nullopt and
  // sets `error` to PCRE2's reason with the offset, e.g. "at offset 7: missing closing parenthesis".
  static std::optional<NamedRegex> Compile(const std::string& pattern, std::string& error);

  NamedRegex(NamedRegex&&) noexcept;
  NamedRegex& operator=(NamedRegex&&) noexcept;
  ~NamedRegex();

  const std::string& pattern() const { return pattern_; }
  // The named groups, in the order of their group numbers.
  const std::vector<std::string>& group_names() const { return names_; }

  enum class Outcome { kMatch, kNoMatch, kLimit };
  struct Match {
    Outcome outcome = Outcome::kNoMatch;
    // Parallel to group_names(): the text each named group captured, nullopt for a group that did not take part.
    std::vector<std::optional<std::string_view>> groups;
    std::string limit;  // kLimit: which limit ("match limit", "depth limit", "heap limit", "step budget")
  };
  // The first match anywhere in `subject`; the views point into `subject`. Not thread-safe (one match buffer).
  Match Find(std::string_view subject);

 private:
  struct Impl;
  explicit NamedRegex(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  std::string pattern_;
  std::vector<std::string> names_;
  std::vector<uint32_t> numbers_;  // group number of names_[i]
};

}  // namespace evalsuite::runlog
