#include "generalization/feature_duplicates.h"

#include <algorithm>
#include <map>
#include <opencv2/imgproc.hpp>

#include "common/error.h"
#include "datasets/images/image_decode.h"
#include "datasets/images/preprocess.h"

namespace evalsuite::generalization {
namespace fs = std::filesystem;

namespace {

// Embeds `files` in batches; rows of unembeddable files stay out, `rows[i]` is file i's row or -1.
std::vector<float> EmbedAll(const std::vector<fs::path>& files, const std::vector<std::string>& names,
                            FeatureExtractor& extractor, const datasets::PreprocessSpec& spec, int batch_size,
                            std::vector<int>* rows, std::vector<datasets::HashFailure>* failures) {
  const int d = extractor.dimensions();
  const int64_t floats = spec.OutputSize();
  std::vector<float> features;
  std::vector<float> batch(static_cast<size_t>(floats) * std::max(1, batch_size));
  std::vector<size_t> in_batch;
  rows->assign(files.size(), -1);
  int next_row = 0;
  auto flush = [&] {
    if (in_batch.empty()) return;
    std::vector<float> out(in_batch.size() * static_cast<size_t>(d));
    extractor.Embed(batch.data(), static_cast<int>(in_batch.size()), out.data());
    features.insert(features.end(), out.begin(), out.end());
    for (size_t file : in_batch) (*rows)[file] = next_row++;
    in_batch.clear();
  };
  for (size_t i = 0; i < files.size(); ++i) {
    const datasets::DecodedImage decoded = datasets::DecodeImageFile(files[i]);
    if (!decoded.ok()) {
      failures->push_back({names[i], decoded.reason});
      continue;
    }
    const int channels = spec.channels;
    cv::Mat image = decoded.image;
    if (channels == 1) cv::cvtColor(image, image, cv::COLOR_RGB2GRAY);
    datasets::PreprocessInto(image, false, spec, batch.data() + in_batch.size() * static_cast<size_t>(floats));
    in_batch.push_back(i);
    if (static_cast<int>(in_batch.size()) >= batch_size) flush();
  }
  flush();
  return features;
}

}  // namespace

FeatureDedupeSummary AnnotateFeatureNeighbours(datasets::CandidateManifest& manifest, const fs::path& manifest_dir,
                                               FeatureExtractor& extractor, const std::string& model_name,
                                               const FeatureDedupeOptions& options) {
  if (!(options.min_similarity > -1.0f && options.min_similarity <= 1.0f)) {
    throw UsageError("--feature-similarity", "must be a cosine similarity in (-1, 1]");
  }
  const datasets::PreprocessSpec spec = datasets::ResolvePreprocessSpec(options.preprocess);
  const int d = extractor.dimensions();
  FeatureDedupeSummary summary;

  std::vector<fs::path> candidate_files;
  std::vector<std::string> candidate_names;
  for (const datasets::Candidate& item : manifest.items) {
    candidate_files.push_back(manifest_dir / item.path);
    candidate_names.push_back(item.path);
  }
  std::vector<int> candidate_rows;
  const std::vector<float> candidates =
      EmbedAll(candidate_files, candidate_names, extractor, spec, options.batch, &candidate_rows, &summary.failures);
  summary.candidates_embedded = static_cast<int>(candidates.size() / static_cast<size_t>(d));

  std::vector<fs::path> reference_files;
  for (const fs::path& folder : options.references) {
    const std::vector<fs::path> found = datasets::ListImageFiles(folder);
    reference_files.insert(reference_files.end(), found.begin(), found.end());
  }
  std::vector<std::string> reference_names;
  for (const fs::path& f : reference_files) reference_names.push_back(f.string());
  std::vector<int> reference_rows;
  const std::vector<float> references =
      EmbedAll(reference_files, reference_names, extractor, spec, options.batch, &reference_rows, &summary.failures);
  summary.references_embedded = static_cast<int>(references.size() / static_cast<size_t>(d));
  std::vector<size_t> file_of_reference_row(static_cast<size_t>(summary.references_embedded));
  for (size_t f = 0; f < reference_rows.size(); ++f) {
    if (reference_rows[f] >= 0) file_of_reference_row[static_cast<size_t>(reference_rows[f])] = f;
  }
  std::vector<size_t> item_of_candidate_row(static_cast<size_t>(summary.candidates_embedded));
  for (size_t i = 0; i < candidate_rows.size(); ++i) {
    if (candidate_rows[i] >= 0) item_of_candidate_row[static_cast<size_t>(candidate_rows[i])] = i;
  }

  const int k = std::max(1, options.max_matches_per_kind);
  // Within: each candidate's neighbours among the candidates; itself (similarity 1) is dropped.
  const auto within = NearestByCosine(candidates, candidates, d, k + 1, options.min_similarity);
  const auto against = NearestByCosine(candidates, references, d, k, options.min_similarity);
  for (size_t row = 0; row < within.size(); ++row) {
    const size_t item = item_of_candidate_row[row];
    nlohmann::json& flags = manifest.items[item].near_duplicates;
    if (!flags.is_array()) flags = nlohmann::json::array();
    int added_within = 0, added_reference = 0;
    for (const Neighbour& n : within[row]) {
      const size_t other = item_of_candidate_row[static_cast<size_t>(n.index)];
      if (other == item || added_within >= k) continue;
      flags.push_back({{"kind", "within"},
                       {"signal", "features"},
                       {"match", manifest.items[other].id},
                       {"path", manifest.items[other].path},
                       {"similarity", n.similarity}});
      ++added_within;
    }
    for (const Neighbour& n : against[row]) {
      flags.push_back({{"kind", "reference"},
                       {"signal", "features"},
                       {"match", reference_names[file_of_reference_row[static_cast<size_t>(n.index)]]},
                       {"similarity", n.similarity}});
      ++added_reference;
    }
    if (added_within > 0) ++summary.flagged_within;
    if (added_reference > 0) ++summary.flagged_reference;
  }
  if (!manifest.source.is_object()) manifest.source = nlohmann::json::object();
  manifest.source["dedupe"]["features"] = {{"method", "cosine similarity of L2-normalized TorchScript features"},
                                           {"model", model_name},
                                           {"preprocess", spec.ToJson()},
                                           {"dimensions", d},
                                           {"min_similarity", options.min_similarity},
                                           {"candidates_embedded", summary.candidates_embedded},
                                           {"references_embedded", summary.references_embedded},
                                           {"flagged_within", summary.flagged_within},
                                           {"flagged_reference", summary.flagged_reference}};
  return summary;
}

}  // namespace evalsuite::generalization
