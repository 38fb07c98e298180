#include "runlog/named_regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>

namespace evalsuite::runlog {
namespace {

std::string ErrorMessage(int code) {
  PCRE2_UCHAR buffer[256];
  if (pcre2_get_error_message(code, buffer, sizeof(buffer)) < 0) return "PCRE2 error " + std::to_string(code);
  return reinterpret_cast<const char*>(buffer);
}

// Counts the steps of one Find across all its start positions (PCRE2's match limit restarts at each one, so
// `(?<a>\d+) .*x` on a long line of digits costs the line's length times the limit) and stops it past the budget.
// `data` is the Impl's step count.
int CountStep(pcre2_callout_block*, void* data) {
  uint64_t* steps = static_cast<uint64_t*>(data);
  return ++*steps > NamedRegex::kStepBudget ? PCRE2_ERROR_CALLOUT : 0;
}

}  // namespace

struct NamedRegex::Impl {
  uint64_t steps = 0;  // of the Find in progress (CountStep)
  pcre2_code* code = nullptr;
  pcre2_match_data* match_data = nullptr;
  pcre2_match_context* context = nullptr;
  ~Impl() {
    pcre2_match_context_free(context);
    pcre2_match_data_free(match_data);
    pcre2_code_free(code);
  }
};

NamedRegex::NamedRegex(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
NamedRegex::NamedRegex(NamedRegex&&) noexcept = default;
NamedRegex& NamedRegex::operator=(NamedRegex&&) noexcept = default;
NamedRegex::~NamedRegex() = default;

std::optional<NamedRegex> NamedRegex::Compile(const std::string& pattern, std::string& error) {
  auto impl = std::make_unique<Impl>();
  int code = 0;
  PCRE2_SIZE offset = 0;
  // UTF-8 patterns; MATCH_INVALID_UTF lets a subject hold any bytes (they just never match), instead of every match
  // of a line with binary junk failing with a UTF error. \C could split a character: refused. AUTO_CALLOUT calls
  // CountStep before each item the matcher tries (measured: about 1.5 times slower on real log lines).
  impl->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                             PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_NEVER_BACKSLASH_C | PCRE2_AUTO_CALLOUT, &code,
                             &offset, nullptr);
  if (impl->code == nullptr) {
    error = "at offset " + std::to_string(offset) + ": " + ErrorMessage(code);
    return std::nullopt;
  }
  // No JIT: with MATCH_INVALID_UTF, Debian 12's PCRE2 10.42 JIT stops \S at a non-ASCII character that the
  // interpreter matches ("acc=0.\xc3\xa9" =~ acc=(\S+) captures "0." instead of "0.\xc3\xa9"); log lines are short,
  // and the interpreter also honours the depth and heap limits.
  impl->match_data = pcre2_match_data_create_from_pattern(impl->code, nullptr);
  impl->context = pcre2_match_context_create(nullptr);
  if (impl->match_data == nullptr || impl->context == nullptr) {
    error = "out of memory";
    return std::nullopt;
  }
  // A pattern's own (*LIMIT_MATCH=n) may lower these, never raise them.
  pcre2_set_match_limit(impl->context, kMatchLimit);
  pcre2_set_depth_limit(impl->context, kMatchLimit);
  pcre2_set_heap_limit(impl->context, kHeapLimitKib);
  pcre2_set_callout(impl->context, CountStep, &impl->steps);

  NamedRegex regex(std::move(impl));
  regex.pattern_ = pattern;
  uint32_t count = 0, entry_size = 0;
  PCRE2_SPTR table = nullptr;
  pcre2_pattern_info(regex.impl_->code, PCRE2_INFO_NAMECOUNT, &count);
  pcre2_pattern_info(regex.impl_->code, PCRE2_INFO_NAMEENTRYSIZE, &entry_size);
  pcre2_pattern_info(regex.impl_->code, PCRE2_INFO_NAMETABLE, &table);
  // The name table: per name, its group number in two bytes (most significant first), then the name, NUL-ended;
  // sorted by name, so re-sorted by group number here.
  std::vector<std::pair<uint32_t, std::string>> entries;
  for (uint32_t i = 0; i < count; ++i) {
    PCRE2_SPTR entry = table + static_cast<std::size_t>(i) * entry_size;
    entries.emplace_back((static_cast<uint32_t>(entry[0]) << 8) | entry[1], reinterpret_cast<const char*>(entry + 2));
  }
  std::sort(entries.begin(), entries.end());
  for (auto& [number, name] : entries) {
    regex.numbers_.push_back(number);
    regex.names_.push_back(std::move(name));
  }
  return regex;
}

NamedRegex::Match NamedRegex::Find(std::string_view subject) {
  Match match;
  impl_->steps = 0;
  const int rc = pcre2_match(impl_->code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), 0, 0,
                             impl_->match_data, impl_->context);
  if (rc == PCRE2_ERROR_NOMATCH) return match;
  if (rc < 0) {
    match.outcome = Outcome::kLimit;
    switch (rc) {
      case PCRE2_ERROR_MATCHLIMIT:
        match.limit = "match limit";
        break;
      case PCRE2_ERROR_DEPTHLIMIT:
        match.limit = "depth limit";
        break;
      case PCRE2_ERROR_HEAPLIMIT:
        match.limit = "heap limit";
        break;
      case PCRE2_ERROR_CALLOUT:
        match.limit = "step budget";
        break;
      default:
        match.limit = ErrorMessage(rc);
    }
    return match;
  }
  match.outcome = Outcome::kMatch;
  const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(impl_->match_data);
  const uint32_t pairs = pcre2_get_ovector_count(impl_->match_data);
  match.groups.reserve(numbers_.size());
  for (uint32_t number : numbers_) {
    if (number >= pairs || ovector[2 * number] == PCRE2_UNSET) {
      match.groups.emplace_back(std::nullopt);
    } else if (ovector[2 * number + 1] < ovector[2 * number]) {  // \K in a lookaround can end a group before its start
      match.groups.emplace_back(std::string_view());
    } else {
      match.groups.emplace_back(subject.substr(ovector[2 * number], ovector[2 * number + 1] - ovector[2 * number]));
    }
  }
  return match;
}

}  // namespace evalsuite::runlog
