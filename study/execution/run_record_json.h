// The study a run folder's record names (its "study" block, StudyIdentity's shape, written by
// WriteRunFolderRecord), decoded into named fields for the messages that say where an adopted run came from.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace evalsuite::study {

struct RecordedStudyName {
  std::optional<std::string> name;   // the study's name; absent in a record that gives none
  std::optional<std::string> store;  // the store file, absolute
};

// Anything but an object names no study; "name" or "store" of another shape is an InputError naming it.
RecordedStudyName RecordedStudyNameFromJson(const nlohmann::json& study);

}  // namespace evalsuite::study
