#include "datasets/imagenet/wordnet.h"

#include <cstdlib>
#include <sstream>

#include "common/error.h"
#include "datasets/imagenet/class_list.h"

namespace evalsuite::datasets {

std::filesystem::path DefaultWordNetNounFile() {
  if (const char* dir = std::getenv("WNSEARCHDIR"); dir != nullptr && *dir != '\0') {
    return std::filesystem::path(dir) / "data.noun";
  }
  return "/usr/share/wordnet/data.noun";
}

WordNetNouns::WordNetNouns(const std::filesystem::path& data_noun) : file_(data_noun) {
  in_.open(data_noun, std::ios::binary);
  std::error_code ec;
  size_ = std::filesystem::file_size(data_noun, ec);
  if (!in_ || ec) {
    throw IoError(data_noun.string(),
                  "cannot open WordNet 3.0 data.noun (install Debian's wordnet-base, or pass its path)");
  }
}

Synset WordNetNouns::Lookup(const std::string& wnid) {
  const std::string where = file_.string() + " (" + wnid + ")";
  if (!IsWnid(wnid)) throw InputError(where, "'" + wnid + "' is not a wnid (n + 8 digits)");
  const std::uintmax_t offset = std::stoull(wnid.substr(1));
  if (offset >= size_) throw InputError(where, "offset beyond the end of the file: not a WordNet 3.0 noun synset");
  in_.clear();
  in_.seekg(static_cast<std::streamoff>(offset));
  std::string line;
  if (!std::getline(in_, line)) throw IoError(where, "cannot read");
  if (line.compare(0, 9, wnid.substr(1) + " ") != 0) {
    throw InputError(where,
                     "no synset starts at this offset: not a WordNet 3.0 noun synset (WordNet 3.1 "
                     "renumbered offsets; ImageNet wnids need 3.0)");
  }
  return ParseSynsetLine(line, where);
}

Synset ParseSynsetLine(const std::string& line, const std::string& where) {
  // synset_offset lex_filenum ss_type w_cnt word lex_id [word lex_id...] p_cnt [ptr...] [frames...] | gloss
  const size_t bar = line.find(" | ");
  std::stringstream fields(line.substr(0, bar));
  std::string offset, lex_filenum, ss_type, w_cnt_hex;
  if (!(fields >> offset >> lex_filenum >> ss_type >> w_cnt_hex) || offset.size() != 8 || ss_type != "n") {
    throw InputError(where, "not a noun synset line");
  }
  Synset synset;
  synset.wnid = "n" + offset;
  const unsigned long w_cnt = std::strtoul(w_cnt_hex.c_str(), nullptr, 16);
  for (unsigned long i = 0; i < w_cnt; ++i) {
    std::string word, lex_id;
    if (!(fields >> word >> lex_id)) throw InputError(where, "the synset line ends inside its word list");
    for (char& c : word) {
      if (c == '_') c = ' ';
    }
    synset.lemmas.push_back(word);
  }
  if (synset.lemmas.empty()) throw InputError(where, "the synset has no words");
  if (bar != std::string::npos) {
    std::string gloss = line.substr(bar + 3);
    const size_t end = gloss.find_last_not_of(" \r\n");
    synset.gloss = end == std::string::npos ? "" : gloss.substr(0, end + 1);
  }
  return synset;
}

}  // namespace evalsuite::datasets
