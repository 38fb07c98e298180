#include "labeling/gold_controls.h"

#include <algorithm>
#include <fstream>
#include <random>
#include <set>
#include <unordered_map>

#include "common/error.h"

namespace evalsuite::labeling {
namespace {

std::string Trim(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

std::vector<ControlAnswer> ReadControlAnswers(const std::filesystem::path& file,
                                              const datasets::CandidateManifest& manifest) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot read the file of known answers");
  std::unordered_map<std::string, std::string> id_of;  // id or path -> id
  for (const datasets::Candidate& item : manifest.items) {
    id_of.emplace(item.id, item.id);
    id_of.emplace(item.path, item.id);
  }
  std::vector<ControlAnswer> answers;
  std::set<std::string> seen;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::string where = file.string() + ":" + std::to_string(number);
    if (Trim(line).empty()) continue;
    const std::size_t comma = line.rfind(',');
    if (comma == std::string::npos) {
      throw InputError(where, "expected ITEM,ANSWER (an item id or image path, then correct or incorrect)");
    }
    const std::string item = Trim(line.substr(0, comma)), answer = Trim(line.substr(comma + 1));
    if (number == 1 && item == "item" && answer == "answer") continue;  // the header
    const auto found = id_of.find(item);
    if (found == id_of.end()) {
      throw InputError(where, "'" + item.substr(0, 200) + "' is neither an item id nor an image path of the manifest");
    }
    if (answer != "correct" && answer != "incorrect") {
      throw InputError(where, "answer '" + answer.substr(0, 100) + "' is not correct or incorrect");
    }
    if (!seen.insert(found->second).second) throw InputError(where, "item '" + found->second + "' is given twice");
    answers.push_back({found->second, answer});
  }
  if (answers.empty()) throw InputError(file.string(), "no known answer in the file (ITEM,ANSWER lines)");
  return answers;
}

std::vector<ControlAnswer> ControlsFromLabels(const datasets::CandidateManifest& manifest,
                                              const std::map<std::pair<std::string, std::string>, Decision>& decisions,
                                              std::size_t min_votes, std::size_t count, uint64_t seed) {
  struct Votes {
    std::size_t correct = 0, incorrect = 0, unsure = 0;
  };
  std::unordered_map<std::string, Votes> votes;
  for (const auto& [key, decision] : decisions) {
    Votes& v = votes[decision.item_id];
    (decision.label == Label::kCorrect ? v.correct : decision.label == Label::kIncorrect ? v.incorrect : v.unsure)++;
  }
  std::vector<ControlAnswer> correct, incorrect;
  for (const datasets::Candidate& item : manifest.items) {  // manifest order, then a seeded shuffle
    if (!item.control.empty()) continue;
    const auto found = votes.find(item.id);
    if (found == votes.end()) continue;
    const Votes& v = found->second;
    if (v.unsure > 0 || v.correct + v.incorrect < std::max<std::size_t>(min_votes, 1)) continue;
    if (v.incorrect == 0) correct.push_back({item.id, "correct"});
    if (v.correct == 0) incorrect.push_back({item.id, "incorrect"});
  }
  std::mt19937_64 rng(seed);
  std::shuffle(correct.begin(), correct.end(), rng);
  std::shuffle(incorrect.begin(), incorrect.end(), rng);
  // Half of each answer where there are enough: a labeler who says "correct" to everything must not score well.
  std::size_t take_incorrect = std::min(incorrect.size(), count / 2);
  const std::size_t take_correct = std::min(correct.size(), count - take_incorrect);
  take_incorrect = std::min(incorrect.size(), count - take_correct);
  std::vector<ControlAnswer> chosen(correct.begin(), correct.begin() + static_cast<std::ptrdiff_t>(take_correct));
  chosen.insert(chosen.end(), incorrect.begin(), incorrect.begin() + static_cast<std::ptrdiff_t>(take_incorrect));
  return chosen;
}

ControlsChange ApplyControls(datasets::CandidateManifest& manifest, const std::vector<ControlAnswer>& answers,
                             bool clear_first) {
  ControlsChange change;
  std::unordered_map<std::string, datasets::Candidate*> by_id;
  for (datasets::Candidate& item : manifest.items) {
    by_id.emplace(item.id, &item);
    if (clear_first && !item.control.empty()) {
      item.control.clear();
      ++change.cleared;
    }
  }
  for (const ControlAnswer& answer : answers) {
    datasets::Candidate* item = by_id.at(answer.item_id);
    if (item->control.empty()) {
      ++change.added;
    } else if (item->control != answer.answer) {
      ++change.changed;
    }
    item->control = answer.answer;
  }
  for (const datasets::Candidate& item : manifest.items) {
    change.correct += item.control == "correct";
    change.incorrect += item.control == "incorrect";
  }
  return change;
}

}  // namespace evalsuite::labeling
