// `evalsuite holdout fashion-mnist --out DIR`: the embedded default's image sets for `holdout eval`: the
// 5,000-image Fashion-MNIST holdout split as PNG files with a frozen manifest, plus one frozen holdout per
// shifted variant in DIR/<variant>/.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <sstream>

#include "common/error.h"
#include "datasets/fashion_mnist/fashion_mnist.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/option_checks.h"
#include "generalization/fashion_mnist_holdout.h"

namespace evalsuite::cli {
namespace {

struct FashionMnistHoldoutArgs {
  std::string out;
  std::string data = datasets::kDefaultFashionMnistDir;
  std::string variants = "noise,blur,rotate,contrast";
  size_t limit = 0;
};

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (!item.empty() && item != "none") items.push_back(item);
  }
  return items;
}

void ExportHoldout(const FashionMnistHoldoutArgs& args) {
  generalization::FashionMnistExportOptions options;
  options.data_dir = args.data;
  options.variants = SplitList(args.variants);
  options.limit = args.limit;
  const auto sets = generalization::ExportFashionMnistHoldout(args.out, options);
  for (const auto& set : sets) {
    std::cout << fmt::format("{:<36} {:>5} images  {}  version {}\n", set.name, set.images, set.dir.string(),
                             set.version_hash.substr(0, 12));
  }
}

}  // namespace

void RegisterHoldoutFashionMnistCommand(CLI::App& holdout) {
  auto args = std::make_shared<FashionMnistHoldoutArgs>();
  CLI::App* command = holdout.add_subcommand(
      "fashion-mnist",
      "Write Fashion-MNIST's holdout split (never used in training) and shifted variants as frozen holdouts");
  command->add_option("--out", args->out, "Folder for the holdout (variants go to OUT/<variant>/)")->required();
  command->add_option("--data", args->data, "Fashion-MNIST IDX files (gzipped or plain)")->capture_default_str();
  command
      ->add_option("--variants", args->variants,
                   "Comma-separated shifts: noise, blur, rotate, contrast (\"none\" for none)")
      ->capture_default_str();
  command->add_option("--limit", args->limit, "Only the first N holdout images (quick tests; 0 = all 5,000)")
      ->check(WholeNumber(0, 1LL << 30));
  command->callback([args] { ExportHoldout(*args); });
}

}  // namespace evalsuite::cli
