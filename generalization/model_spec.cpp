#include "generalization/model_spec.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/json_guard.h"

namespace evalsuite::generalization {
namespace {
using nlohmann::json;

bool IsGroupTag(const std::string& text) {
  if (text.empty()) return false;
  for (unsigned char c : text) {
    if (!std::isalnum(c) && c != '-' && c != '_') return false;
  }
  return true;
}

std::optional<double> ReadAccuracy(const json& value, const std::string& where) {
  if (value.is_null()) return std::nullopt;
  if (!value.is_number() || value.get<double>() < 0 || value.get<double>() > 1) {
    throw InputError(where, "expected an accuracy in [0, 1]");
  }
  return value.get<double>();
}

}  // namespace

ModelSpec ParseModelArgument(const std::string& argument) {
  const size_t equals = argument.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == argument.size()) {
    throw UsageError("--model", "expected NAME=FILE[:group], got \"" + argument + "\"");
  }
  ModelSpec spec;
  spec.name = argument.substr(0, equals);
  std::string file = argument.substr(equals + 1);
  const size_t colon = file.rfind(':');
  if (colon != std::string::npos) {
    const std::string tag = file.substr(colon + 1);
    if (!IsGroupTag(tag)) {
      throw UsageError("--model", "group \"" + tag + "\" in \"" + argument +
                                      "\": use letters, digits, '-' or '_' (e.g. pretrained, tta-optimized)");
    }
    spec.group = tag;
    file = file.substr(0, colon);
  }
  if (file.empty()) throw UsageError("--model", "no file in \"" + argument + "\"");
  spec.file = file;
  return spec;
}

void ApplySidecarJson(ModelSpec* spec, const json& root, const std::string& where) {
  if (!root.is_object()) throw InputError(where, "expected a JSON object");
  const std::string stem = spec->file.stem().string();
  if (root.contains("validation_size")) {  // evalsuite train writes it; a sidecar may give it
    const json& value = root["validation_size"];
    if (!value.is_number_integer() || value.get<long long>() < 1) {
      throw InputError(where + ": validation_size", "expected a positive whole number of images");
    }
    spec->validation_size = value.get<std::size_t>();
  }
  if (root.contains("validation_accuracy")) {
    const json& value = root["validation_accuracy"];
    if (value.is_object()) {
      if (value.contains(stem))
        spec->validation_accuracy = ReadAccuracy(value[stem], where + ": validation_accuracy." + stem);
    } else {
      spec->validation_accuracy = ReadAccuracy(value, where + ": validation_accuracy");
    }
  }
  for (const json* per_file :
       {root.contains(stem) ? &root[stem] : nullptr,
        root.contains("models") && root["models"].is_object() && root["models"].contains(stem) ? &root["models"][stem]
                                                                                               : nullptr}) {
    if (per_file == nullptr || !per_file->is_object()) continue;
    for (const char* key : {"validation_accuracy", "val_top1"}) {  // val_top1: evalsuite train's model.json
      if (per_file->contains(key)) {
        spec->validation_accuracy = ReadAccuracy((*per_file)[key], where + ": " + stem + "." + key);
      }
    }
  }
  for (const char* key : {"preprocess", "preprocessing"}) {
    if (!root.contains(key)) continue;
    const json& value = root[key];
    if (value.is_string()) {
      try {
        spec->preprocess = datasets::PresetSpec(value.get<std::string>());
      } catch (const Error& e) {
        throw InputError(where + ": " + key, e.message());
      }
    } else {
      spec->preprocess = datasets::PreprocessSpecFromJson(value, where + ": " + key);
    }
  }
  for (const char* key : {"classes", "class_names"}) {
    if (!root.contains(key)) continue;
    try {
      spec->classes = root[key].get<std::vector<std::string>>();
    } catch (const json::exception&) {
      throw InputError(where + ": " + key, "expected an array of class names");
    }
  }
  if (root.contains("class_list")) {
    if (!root["class_list"].is_string()) throw InputError(where + ": class_list", "expected a string");
    spec->class_list = root["class_list"].get<std::string>();
  }
}

std::vector<std::filesystem::path> SidecarCandidates(const std::filesystem::path& file) {
  // FILE.json as the help says it (three.pt.json), then STEM.json (three.json, what evalsuite train writes beside
  // its models), then the folder's model.json.
  std::vector<std::filesystem::path> candidates = {std::filesystem::path(file.string() + ".json"),
                                                   std::filesystem::path(file).replace_extension(".json"),
                                                   file.parent_path() / "model.json"};
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  return candidates;
}

void ApplySidecar(ModelSpec* spec) {
  spec->sidecar_searched = SidecarCandidates(spec->file);
  for (const std::filesystem::path& candidate : spec->sidecar_searched) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(candidate, ec)) continue;
    std::ifstream in(candidate, std::ios::binary);
    if (!in) throw IoError(candidate.string(), "cannot read the model's JSON sidecar");
    std::stringstream text;
    text << in.rdbuf();
    const json root = ParseUserJson(text.str(), candidate.string());
    ApplySidecarJson(spec, root, candidate.string());
    spec->sidecar = candidate;
    return;
  }
}

std::string SidecarWhereabouts(const ModelSpec& spec) {
  if (!spec.sidecar.empty()) return "its sidecar " + spec.sidecar.string();
  if (spec.sidecar_searched.empty()) return "no sidecar read";
  std::string looked;
  for (const std::filesystem::path& path : spec.sidecar_searched)
    looked += (looked.empty() ? "" : ", ") + path.string();
  return "no sidecar found (looked for " + looked + ")";
}

}  // namespace evalsuite::generalization
