// WordNet 3.0 noun synsets by wnid, read from data.noun as Debian's wordnet-base installs it. In data.noun the
// synset offset IS the byte offset of its line, so a wnid ("n" + 8-digit offset) is one seek, no index.
// WordNet 3.1 renumbered the offsets: only 3.0 matches ImageNet's wnids, and a lookup whose line does not
// start with the offset fails loudly instead of returning a wrong synset.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace evalsuite::datasets {

struct Synset {
  std::string wnid;                 // "n01440764"
  std::vector<std::string> lemmas;  // "tench", "Tinca tinca" (underscores turned into spaces), in WordNet order
  std::string gloss;                // the definition, without example sentences' trailing spaces
};

// $WNSEARCHDIR/data.noun when that variable is set, else /usr/share/wordnet/data.noun.
std::filesystem::path DefaultWordNetNounFile();

class WordNetNouns {
 public:
  // Throws IoError naming the file (and the Debian package to install) when it cannot be opened.
  explicit WordNetNouns(const std::filesystem::path& data_noun);

  // Throws InputError naming the wnid and data.noun when the wnid is malformed or no synset starts there.
  Synset Lookup(const std::string& wnid);

  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  std::ifstream in_;
  std::uintmax_t size_ = 0;
};

// Parses one data.noun line ("01440764 05 n 02 tench 0 Tinca_tinca 0 002 @ ... | gloss"). Throws InputError
// naming `where` when the line is not a noun synset line.
Synset ParseSynsetLine(const std::string& line, const std::string& where);

}  // namespace evalsuite::datasets
