// evalsuite holdout candidates --from-folder DIR: a candidate folder from the user's own images (one subfolder
// per class, named by wnid or class name), ready for `label serve` like a Flickr crawl's.
#include <iostream>
#include <memory>
#include <optional>

#include "common/error.h"
#include "datasets/imagenet/class_list.h"
#include "datasets/imagenet/wordnet.h"
#include "datasets/images/folder_candidates.h"
#include "evalsuite/cli/commands.h"

namespace evalsuite::cli {
namespace {

struct CandidatesArgs {
  std::string from_folder;
  std::string out;
  std::string class_list;
  std::string classes_file;
  std::string wordnet;
};

void RunCandidates(const CandidatesArgs& args) {
  const datasets::ClassList all =
      args.class_list.empty() ? datasets::ImageNet1kClasses() : datasets::ReadClassList(args.class_list);
  const datasets::ClassList selected = datasets::SelectClasses(
      all, args.classes_file.empty() ? std::nullopt : std::optional<std::filesystem::path>(args.classes_file),
      std::nullopt);
  // WordNet gives the synonyms and definition the page shows; without it, the class list's name.
  const std::filesystem::path wordnet_file =
      args.wordnet.empty() ? datasets::DefaultWordNetNounFile() : std::filesystem::path(args.wordnet);
  std::unique_ptr<datasets::WordNetNouns> wordnet;
  if (!args.wordnet.empty() || std::filesystem::exists(wordnet_file)) {
    wordnet = std::make_unique<datasets::WordNetNouns>(wordnet_file);
  }
  std::vector<datasets::CandidateClass> classes;
  for (const datasets::ClassListEntry& entry : selected.classes) {
    datasets::CandidateClass c;
    c.index = entry.index;
    c.wnid = entry.wnid;
    if (wordnet) {
      try {
        const datasets::Synset synset = wordnet->Lookup(entry.wnid);
        c.synonyms = synset.lemmas;
        c.gloss = synset.gloss;
      } catch (const Error&) {
        // not a WordNet noun (a user's own class list): the list's name below
      }
    }
    if (c.synonyms.empty()) c.synonyms = {entry.name.empty() ? entry.wnid : entry.name};
    classes.push_back(std::move(c));
  }
  const datasets::FolderCandidates result = datasets::CandidatesFromFolder(args.from_folder, classes, args.out);
  std::cout << result.copied << " candidates of " << result.manifest.classes.size() << " classes copied, "
            << result.rejected << " rejected (listed with reasons in the manifest)\n"
            << "manifest: " << (std::filesystem::path(args.out) / datasets::kCandidateManifestFile).string() << "\n";
}

}  // namespace

void RegisterHoldoutCandidatesCommand(CLI::App& holdout) {
  auto args = std::make_shared<CandidatesArgs>();
  CLI::App* c = holdout.add_subcommand(
      "candidates",
      "A candidate folder from your own images (DIR/<wnid or class name>/*.jpg), to label like a crawl's");
  c->add_option("--from-folder", args->from_folder, "Folder of class subfolders named by wnid or class name")
      ->required()
      ->check(CLI::ExistingDirectory);
  c->add_option("--out", args->out, "The new candidate folder: candidates.json and images/")->required();
  c->add_option("--classes", args->classes_file, "Only the wnids listed in FILE (one per line)");
  c->add_option("--class-list", args->class_list,
                "Your own class list (index<TAB>wnid[<TAB>name]); default: the built-in ImageNet-1k list");
  c->add_option("--wordnet", args->wordnet, "WordNet 3.0 data.noun for synonyms and definitions (optional)");
  c->callback([args] { RunCandidates(*args); });
}

}  // namespace evalsuite::cli
