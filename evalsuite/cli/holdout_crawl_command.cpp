// `evalsuite holdout crawl --since 2014-01-01 --per-class 5 --out DIR`: candidate images from Flickr for each
// ImageNet class (or the user's class list), searched by the class's WordNet 3.0 synonyms. The API key comes
// from FLICKR_API_KEY only (never an option: options end up in shell history and process lists).
// Progress goes to stderr, the summary to stdout; exit 3 when queries or downloads failed (a rerun resumes).
#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "common/error.h"
#include "common/exit_codes.h"
#include "datasets/flickr/crawler.h"
#include "datasets/flickr/shared_call_ledger.h"
#include "datasets/flickr/upload_cutoff.h"
#include "datasets/imagenet/class_list.h"
#include "datasets/imagenet/wordnet.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/option_checks.h"

namespace evalsuite::cli {
namespace {

struct CrawlArgs {
  std::string since;
  int per_class = 5;
  std::string out;
  std::string endpoint = flickr::kFlickrRestEndpoint;
  std::string rate = "3600/h";
  std::string rate_ledger;
  std::string classes_file;
  std::string class_range;
  std::string class_list;
  std::string wordnet;
  std::string license;
  int per_page = 0;
  int max_pages = 5;
  int max_synonyms = 0;
  std::string sizes = "z,m,l";
  int downloads = 8;
  double timeout = 30;
  int retries = 5;
  double backoff = 1;
  double max_backoff = 60;
  bool quiet = false;
};

std::vector<std::string> SplitComma(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

void RunCrawlCommand(const CrawlArgs& args) {
  const char* key = std::getenv("FLICKR_API_KEY");
  if (key == nullptr || *key == '\0') {
    throw UsageError("FLICKR_API_KEY", "is not set: export your Flickr API key in FLICKR_API_KEY");
  }
  flickr::CrawlOptions options;
  options.api_key = key;
  options.out_dir = args.out;
  options.min_upload_date = flickr::ParseCutoff(args.since);
  options.per_class = args.per_class;
  options.per_page = args.per_page;
  options.max_pages = args.max_pages;
  options.max_synonyms = args.max_synonyms;
  options.license = args.license;
  options.sizes = SplitComma(args.sizes);
  options.endpoint = args.endpoint;
  options.rate = flickr::ParseRateLimit(args.rate);
  // One ledger per user by default, so that crawls into different folders with one key share the limit.
  options.rate_ledger =
      args.rate_ledger.empty() ? flickr::DefaultCallLedgerFile() : std::filesystem::path(args.rate_ledger);
  options.timeout_seconds = args.timeout;
  options.download_threads = args.downloads;
  options.retry.max_attempts = args.retries + 1;
  options.retry.initial_backoff_seconds = args.backoff;
  options.retry.max_backoff_seconds = args.max_backoff;
  if (!args.quiet) options.log = [](const std::string& line) { std::cerr << line << "\n"; };

  const datasets::ClassList all =
      args.class_list.empty() ? datasets::ImageNet1kClasses() : datasets::ReadClassList(args.class_list);
  const datasets::ClassList selected = datasets::SelectClasses(
      all, args.classes_file.empty() ? std::nullopt : std::optional<std::filesystem::path>(args.classes_file),
      args.class_range.empty() ? std::nullopt : std::optional<std::string>(args.class_range));
  const std::filesystem::path wordnet_file =
      args.wordnet.empty() ? datasets::DefaultWordNetNounFile() : std::filesystem::path(args.wordnet);
  datasets::WordNetNouns wordnet(wordnet_file);
  std::vector<flickr::CrawlClass> classes;
  for (const datasets::ClassListEntry& entry : selected.classes) {
    const datasets::Synset synset = wordnet.Lookup(entry.wnid);
    classes.push_back({entry.index, entry.wnid, synset.lemmas, synset.gloss});
  }
  options.source_extra = {{"class_list", selected.source},
                          {"class_selection", {{"classes", args.classes_file}, {"class_range", args.class_range}}},
                          {"wordnet", wordnet_file.string()}};

  const flickr::CrawlResult result = flickr::RunCrawl(classes, options);
  const flickr::CrawlStats& s = result.stats;
  std::cout << fmt::format(
      "{} candidates for {} classes ({} with fewer than {}), {} rejected; {} API calls ({} search pages reused from "
      "crawl.db), {} downloads; {:.1f} s\n",
      s.items, s.classes, s.classes_short, args.per_class, s.rejected, s.api_calls, s.searches_reused, s.downloads_run,
      s.wall_seconds);
  std::cout << "manifest: " << (std::filesystem::path(args.out) / datasets::kCandidateManifestFile).string() << "\n";
  if (result.warnings) {
    std::cout << fmt::format(
        "warnings: {} failed searches, {} failed downloads; rerun the same command to retry "
        "them\n",
        s.failed_queries, s.download_failures);
    SetExitCode(kExitWithWarnings);
  }
}

}  // namespace

void RegisterHoldoutCrawlCommand(CLI::App& holdout) {
  auto args = std::make_shared<CrawlArgs>();
  CLI::App* c = holdout.add_subcommand(
      "crawl", "Find candidate holdout images on Flickr (flickr.photos.search; API key from FLICKR_API_KEY)");
  c->add_option("--since", args->since, "Keep only photos uploaded at or after this date (2014-01-01, UTC)")
      ->required();
  c->add_option("--per-class", args->per_class, "Candidates per class: the top k by relevance across synonyms")
      ->capture_default_str()
      ->check(WholeNumber(1, 100000));
  c->add_option("--out", args->out, "Crawl folder: candidates.json, images/, crawl.db (resumes when rerun)")
      ->required();
  c->add_option("--endpoint", args->endpoint, "Flickr REST endpoint (a local server in tests)")->capture_default_str();
  c->add_option("--rate", args->rate, "API call limit: N/h, N/min, N/s, or off")->capture_default_str();
  c->add_option("--rate-ledger", args->rate_ledger,
                "SQLite file of this key's API calls, shared by every crawl with the key (default: "
                "$XDG_STATE_HOME or ~/.local/state, evalsuite/flickr-api-calls.db)");
  c->add_option("--classes", args->classes_file, "Crawl only the wnids listed in FILE (one per line)");
  c->add_option("--class-range", args->class_range, "Crawl only class indices A-B (inclusive)");
  c->add_option("--class-list", args->class_list,
                "Your own class list (index<TAB>wnid[<TAB>name]); default: the built-in ImageNet-1k list");
  c->add_option("--wordnet", args->wordnet,
                "WordNet 3.0 data.noun (default: $WNSEARCHDIR/data.noun or "
                "/usr/share/wordnet/data.noun from Debian's wordnet-base)");
  c->add_option("--license", args->license, "Only these Flickr license ids, comma-separated (e.g. 4,5,9,10)");
  c->add_option("--per-page", args->per_page, "Photos per search call, at most 500 (default max(20, 4 x k))")
      ->check(WholeNumber(0, 500));
  c->add_option("--max-pages", args->max_pages, "Further pages per query when a class is still short")
      ->capture_default_str()
      ->check(WholeNumber(0, 10000));
  c->add_option("--max-synonyms", args->max_synonyms, "Search at most N synonyms per class (0: all)")
      ->capture_default_str()
      ->check(WholeNumber(0, 10000));
  c->add_option("--size", args->sizes, "Image sizes in order of preference: z (640 px), m (500), l (1024)")
      ->capture_default_str();
  c->add_option("--downloads", args->downloads, "Concurrent downloads")
      ->capture_default_str()
      ->check(WholeNumber(1, 64));
  c->add_option("--timeout", args->timeout, "Seconds before a request counts as timed out")
      ->capture_default_str()
      ->check(PositiveNumber(86400));
  c->add_option("--retries", args->retries, "Retries after timeouts, connection errors, 5xx and 429")
      ->capture_default_str()
      ->check(WholeNumber(0, 1000));
  c->add_option("--backoff", args->backoff, "First backoff in seconds; doubles per retry")
      ->capture_default_str()
      ->check(FiniteNumber(0, 86400));
  c->add_option("--max-backoff", args->max_backoff, "Longest backoff in seconds")
      ->capture_default_str()
      ->check(FiniteNumber(0, 86400));
  c->add_flag("--quiet", args->quiet, "No progress lines on stderr");
  c->callback([args] { RunCrawlCommand(*args); });
}

}  // namespace evalsuite::cli
