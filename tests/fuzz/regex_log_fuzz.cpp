// Fuzz target: log_format = "regex". The input's first line is a user's pattern (compiled, checked, and matched
// against every later line under the match limits); the whole input is also a script's output read with the
// patterns of PyTorch's ImageNet example and of Keras's fit(), in both time kinds and both metric units.
#include <string>
#include <string_view>

#include "common/error.h"
#include "runlog/named_regex.h"
#include "runlog/regex_log.h"
#include "tests/fuzz/fuzz_support.h"

using evalsuite::runlog::NamedRegex;
using evalsuite::runlog::RegexLogOptions;
using evalsuite::runlog::RegexLogReader;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = evalsuite::fuzz::Text(data, size);
  const std::size_t newline = text.find('\n');
  const std::string pattern = text.substr(0, newline);
  const std::string_view rest =
      newline == std::string::npos ? std::string_view() : std::string_view(text).substr(newline + 1);

  std::string error;
  if (std::optional<NamedRegex> regex = NamedRegex::Compile(pattern, error)) {
    std::size_t start = 0;
    for (int lines = 0; start < rest.size() && lines < 64; ++lines) {
      const std::size_t end = std::min(rest.find('\n', start), rest.size());
      NamedRegex::Match match = regex->Find(rest.substr(start, end - start));
      if (match.groups.size() > regex->group_names().size()) __builtin_trap();
      start = end + 1;
    }
    RegexLogOptions user;
    user.patterns = {pattern};
    if (!evalsuite::runlog::CheckRegexLogOptions(user)) (void)RegexLogReader(user).Parse(rest, "user.txt");
  }

  RegexLogOptions pytorch;
  pytorch.patterns = {R"(^Epoch: \[(?<epoch>\d+)\])", R"(train time (?<time>\S+))", R"(^ \* Acc@1 (?<accuracy>\S+))"};
  pytorch.metric_unit = "percent";
  pytorch.end_pattern = R"(^Training time (?<time>.+)$)";
  RegexLogOptions keras;
  keras.patterns = {R"(^Epoch (?<epoch>\S+)/\d+)",
                    R"(- (?<time>\S+)s .*loss: (?<loss>\S+) .*val_accuracy: (?<accuracy>\S+))"};
  keras.time_kind = "increment";
  for (const RegexLogOptions* options : {&pytorch, &keras}) {
    try {
      const evalsuite::runlog::RunLog log = RegexLogReader(*options).Parse(text, "stdout.txt");
      for (const auto& point : log.points) {
        if (!(point.train_seconds >= 0) || !(point.metric >= 0 && point.metric <= 1)) __builtin_trap();
      }
    } catch (const evalsuite::Error&) {
      __builtin_trap();  // the options are valid: reading never throws
    }
  }
  return 0;
}
