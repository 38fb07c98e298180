#include "evalsuite/cli/light/help_footers.h"

#include <map>
#include <vector>

namespace evalsuite::cli {
namespace {

struct Footer {
  std::vector<std::string> examples;
  std::string guide;  // relative to the project folder
};

// Examples are commands a reader can paste after the README's tour (its study file and store), or that name the
// files they need; the guides run the same command lines as tested examples (tests/cli/guide_examples_cli_test.cpp).
const std::map<std::string, Footer>& Footers() {
  static const std::map<std::string, Footer> footers = {
      {"",
       {{"evalsuite entries", "evalsuite study run studies/quick.toml --store evalsuite.db",
         "evalsuite compare evalsuite.db fast baseline"},
        "README.md (a guide per task under docs/)"}},
      {"entries", {{"evalsuite entries", "evalsuite entries --json"}, "docs/stability-and-hardware.md"}},
      {"train",
       {{"evalsuite train fast --seed 3 --log fast.jsonl",
         "evalsuite train baseline --train-subset 2000 --epochs 1 --log b.jsonl --model-dir b-model"},
        "docs/stability-and-hardware.md"}},
      {"study", {{"evalsuite study run studies/quick.toml", "evalsuite study show quick"}, "docs/compare-and-plan.md"}},
      {"study run",
       {{"evalsuite study run studies/quick.toml --store evalsuite.db",
         "evalsuite study run my-study.toml --runs 3 --jobs 2 --report report"},
        "docs/own-script.md, docs/compare-and-plan.md"}},
      {"study resume", {{"evalsuite study resume quick --store evalsuite.db"}, "docs/compare-and-plan.md"}},
      {"study cancel", {{"evalsuite study cancel quick --store evalsuite.db"}, "docs/slurm.md"}},
      {"study list", {{"evalsuite study list --store evalsuite.db"}, "docs/reading-the-report.md"}},
      {"study show",
       {{"evalsuite study show quick --store evalsuite.db", "evalsuite study show  # the latest study in evalsuite.db"},
        "docs/reading-the-report.md"}},
      {"study plan",
       {{"evalsuite study plan studies/quick.toml --pilot evalsuite.db",
         "evalsuite study plan studies/quick.toml --pilot evalsuite.db --ratio 0.9 --power 0.8"},
        "docs/compare-and-plan.md"}},
      {"compare",
       {{"evalsuite compare evalsuite.db fast baseline",
         "evalsuite compare evalsuite.db fast baseline --json cmp.json"},
        "docs/compare-and-plan.md"}},
      {"report",
       {{"evalsuite report evalsuite.db --out report",
         "evalsuite report evalsuite.db --out report --section generalization=gen.json"},
        "docs/reading-the-report.md"}},
      {"export",
       {{"evalsuite export evalsuite.db --out tidy", "evalsuite export evalsuite.db --out tidy --study quick"},
        "docs/reading-the-report.md"}},
      {"audit",
       {{"evalsuite audit mlperf.db", "evalsuite audit mlperf.db --benchmark resnet --seed 2 --json audit.json"},
        "docs/audit.md"}},
      {"import",
       {{"evalsuite import training_results_v4.0/NVIDIA/results --json scores.json",
         "evalsuite import logs/ --threshold 0.9 --store evalsuite.db",
         "evalsuite import lightning_logs/ --threshold 0.95 --no-store"},
        "docs/importing.md"}},
      {"holdout",
       {{"evalsuite holdout fashion-mnist --out holdout", "evalsuite holdout eval --holdout holdout --model m=m.pt"},
        "docs/holdout.md"}},
      {"holdout crawl",
       {{"FLICKR_API_KEY=... evalsuite holdout crawl --since 2014-01-01 --per-class 5 --out candidates"},
        "docs/holdout.md"}},
      {"holdout candidates",
       {{"evalsuite holdout candidates --from-folder photos/ --out candidates"}, "docs/holdout.md"}},
      {"holdout dedupe", {{"evalsuite holdout dedupe candidates --reference imagenet-val/"}, "docs/holdout.md"}},
      {"holdout freeze",
       {{"evalsuite holdout freeze --candidates candidates --rule majority --min-labelers 2 --out holdout"},
        "docs/holdout.md"}},
      {"holdout fashion-mnist",
       {{"evalsuite holdout fashion-mnist --out holdout",
         "evalsuite holdout fashion-mnist --out holdout --variants noise,blur"},
        "docs/holdout.md"}},
      {"holdout eval",
       {{"evalsuite holdout eval --holdout holdout --model r18=resnet18.pt:pretrained "
         "--model mine=mine.pt:tta-optimized --json gen.json"},
        "docs/holdout.md"}},
      {"label", {{"evalsuite label serve --candidates candidates --labeler ana"}, "docs/holdout.md"}},
      {"label serve",
       {{"evalsuite label serve --candidates candidates --labeler ana",
         "evalsuite label serve --candidates candidates --labelers ana,ben,cat --overlap 2"},
        "docs/holdout.md"}},
      {"label agreement", {{"evalsuite label agreement --candidates candidates"}, "docs/holdout.md"}},
      {"label export", {{"evalsuite label export --candidates candidates --format csv"}, "docs/holdout.md"}},
      {"label controls",
       {{"evalsuite label controls --candidates candidates --answers known.csv",
         "evalsuite label controls --candidates candidates --from-labels --count 20"},
        "docs/holdout.md"}},
      {"label debias",
       {{"evalsuite label debias --candidates candidates --holdout holdout --eval gen.json"}, "docs/holdout.md"}},
      {"machine",
       {{"evalsuite machine --quick", "evalsuite machine --entries all --json hardware.json"},
        "docs/stability-and-hardware.md"}},
      {"latency",
       {{"evalsuite latency model/final.pt --holdout holdout --price-per-hour 0.10"},
        "docs/stability-and-hardware.md"}},
  };
  return footers;
}

std::string Render(const Footer& footer) {
  std::string text = "Examples:\n";
  for (const std::string& example : footer.examples) text += "  " + example + "\n";
  return text + "Guide: " + footer.guide;
}

void Apply(CLI::App& app, const std::string& path) {
  if (std::string footer = HelpFooter(path); !footer.empty()) app.footer(footer);
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    Apply(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name());
  }
}

}  // namespace

std::string HelpFooter(const std::string& command_path) {
  const auto it = Footers().find(command_path);
  return it == Footers().end() ? std::string() : Render(it->second);
}

void ApplyHelpFooters(CLI::App& app) { Apply(app, ""); }

}  // namespace evalsuite::cli
