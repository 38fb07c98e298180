// Command templates of external entries: "{name}" placeholders replaced by shell-quoted values, then run by
// /bin/sh -c. "${VAR}" is left to the shell. Unknown placeholders are found when the plan is validated.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace evalsuite::study {

// Every placeholder a template may use, with what it stands for.
const std::map<std::string, std::string>& KnownPlaceholders();

// The placeholder names in a template, in order of appearance (duplicates kept).
std::vector<std::string> TemplatePlaceholders(const std::string& command_template);

// Replaces each placeholder with its value quoted for sh; a name missing from `values` is an InternalError.
std::string ExpandCommandTemplate(const std::string& command_template,
                                  const std::map<std::string, std::string>& values);

// True when the command is one simple command (no unquoted ; & | ( ) ` or newline, redirections allowed), so
// that "exec " can be put in front of it: the entry's process then replaces the shell and is the study's
// direct child, which gets the death signal when the study dies.
bool IsSimpleShellCommand(const std::string& command);

// 'text' quoted for /bin/sh (single quotes, with embedded quotes escaped); plain words stay as they are.
std::string ShellQuote(const std::string& text);

}  // namespace evalsuite::study
