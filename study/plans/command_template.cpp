#include "study/plans/command_template.h"

#include "common/error.h"

namespace evalsuite::study {
namespace {

bool IsNameChar(char c) { return (c >= 'a' && c <= 'z') || c == '_'; }

// Calls on_placeholder(name) for each "{name}" not preceded by '$', on_text(text) for everything else.
template <typename OnText, typename OnPlaceholder>
void Scan(const std::string& text, OnText on_text, OnPlaceholder on_placeholder) {
  std::size_t i = 0, plain_start = 0;
  while (i < text.size()) {
    if (text[i] == '{' && (i == 0 || text[i - 1] != '$')) {
      std::size_t j = i + 1;
      while (j < text.size() && IsNameChar(text[j])) ++j;
      if (j < text.size() && text[j] == '}' && j > i + 1) {
        on_text(text.substr(plain_start, i - plain_start));
        on_placeholder(text.substr(i + 1, j - i - 1));
        i = plain_start = j + 1;
        continue;
      }
    }
    ++i;
  }
  on_text(text.substr(plain_start));
}

}  // namespace

const std::map<std::string, std::string>& KnownPlaceholders() {
  static const std::map<std::string, std::string> known = {
      {"seed", "the run's seed"},
      {"init_seed", "the weight initialization's seed: the [variance] design's, else derived from the run's seed"},
      {"data_seed", "the data order's seed: the [variance] design's, else derived from the run's seed"},
      {"aug_seed", "the augmentation's seed: the [variance] design's, else derived from the run's seed"},
      {"run_dir", "the run's own folder (also the command's working directory)"},
      {"log", "the log file the entry must write: {run_dir}/log.jsonl"},
      {"threads", "threads the run may use"},
      {"epochs", "the epoch budget"},
      {"threshold", "the entry's target"},
      {"train_subset", "training images to use"},
      {"model_dir", "where to save the model ({run_dir}/model)"},
      {"run_index", "the rerun number, 0-based"},
      {"evals_per_epoch", "validation evaluations per epoch the study asks for (evals_per_epoch)"},
      {"study_dir", "the folder of the study file"},
  };
  return known;
}

std::vector<std::string> TemplatePlaceholders(const std::string& command_template) {
  std::vector<std::string> names;
  Scan(
      command_template, [](const std::string&) {}, [&](const std::string& name) { names.push_back(name); });
  return names;
}

std::string ShellQuote(const std::string& text) {
  if (!text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                              "_-.,/:=+@%") == std::string::npos) {
    return text;
  }
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

bool IsSimpleShellCommand(const std::string& command) {
  // "exec" must be followed by the program: not by an assignment (FOO=1 cmd) or a keyword (if, {, !...).
  std::size_t start = command.find_first_not_of(" \t");
  if (start == std::string::npos) return false;
  std::string first_word = command.substr(start, command.find_first_of(" \t", start) - start);
  static const char* kKeywords[] = {"if", "while", "until", "for", "case", "{", "!", "exec", "[[", "function"};
  for (const char* keyword : kKeywords) {
    if (first_word == keyword) return false;
  }
  std::size_t equals = first_word.find('=');
  if (equals != std::string::npos && first_word.find_first_of("'\"/") > equals) return false;
  bool in_single = false, in_double = false;
  for (std::size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (in_single) {
      if (c == '\'') in_single = false;
      continue;
    }
    if (c == '\\') {
      ++i;
      continue;
    }
    if (c == '`' || (c == '$' && i + 1 < command.size() && command[i + 1] == '(')) return false;
    if (in_double) {
      if (c == '"') in_double = false;
      continue;
    }
    if (c == '\'') {
      in_single = true;
    } else if (c == '"') {
      in_double = true;
    } else if (c == ';' || c == '|' || c == '(' || c == ')' || c == '\n') {
      return false;
    } else if (c == '&') {
      bool redirection = i > 0 && (command[i - 1] == '>' || command[i - 1] == '<');
      if (!redirection) return false;
    }
  }
  return !in_single && !in_double;
}

std::string ExpandCommandTemplate(const std::string& command_template,
                                  const std::map<std::string, std::string>& values) {
  std::string out;
  Scan(
      command_template, [&](const std::string& text) { out += text; },
      [&](const std::string& name) {
        auto it = values.find(name);
        if (it == values.end()) {
          throw Error(ErrorKind::kInternal, "command", "no value for placeholder {" + name + "}");
        }
        out += ShellQuote(it->second);
      });
  return out;
}

}  // namespace evalsuite::study
