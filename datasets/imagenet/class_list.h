// Class lists: which classes a holdout covers, as (class index, wnid) pairs. The ImageNet-1k list ships in the
// binary (imagenet1k_classes.tsv, embedded at build time); a user's own list uses the same text format:
//   # comment
//   <index>\t<wnid>[\t<name>]      index = the class index a model predicts, wnid = "n" + 8 digits
// Parsing errors name the file and line. Selecting a subset never renumbers: indices stay the model's.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::datasets {

struct ClassListEntry {
  int index = -1;
  std::string wnid;
  std::string name;  // informational only; may be empty
};

struct ClassList {
  std::string source;                   // "imagenet-1k (built in)" or the file it came from
  std::vector<ClassListEntry> classes;  // in file order, indices and wnids unique

  const ClassListEntry* FindByWnid(const std::string& wnid) const;
  const ClassListEntry* FindByIndex(int index) const;
};

// "n" followed by exactly 8 digits.
bool IsWnid(const std::string& text);

// Parses the text format above. Throws InputError naming `source_name:line` for a malformed line, a
// duplicate index or a duplicate wnid.
ClassList ParseClassList(const std::string& text, const std::string& source_name);
ClassList ReadClassList(const std::filesystem::path& file);

// The 1000 ILSVRC-2012 classes, index 0-999 in the standard (sorted-wnid) order.
const ClassList& ImageNet1kClasses();
// The embedded text of imagenet1k_classes.tsv, byte for byte.
const char* ImageNet1kClassesText();

// A subset of `list`, in list order. `wnid_file` holds one wnid per line (blank lines and '#' comments
// allowed; a class-list line works too: the first wnid on the line counts). `index_range` is "A-B" (inclusive)
// or a single index "A". Both given: the intersection. Neither: the whole list.
// Throws UsageError for a malformed range, InputError (file:line) for an unknown wnid.
ClassList SelectClasses(const ClassList& list, const std::optional<std::filesystem::path>& wnid_file,
                        const std::optional<std::string>& index_range);

}  // namespace evalsuite::datasets
