// Tolerant reads of JSON that another program (or an older evalsuite) wrote: a report model being rendered, a Slurm
// task's end record, a run's stored execution facts. A missing key or a wrong type reads as null / empty instead of
// throwing half-way. (Input that must have its fields is read with common/json_fields.h, which names what is wrong.)
// And the one way an absent figure is written back: null.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace evalsuite {

// obj[key] when obj is an object holding key, else a null value.
inline const nlohmann::json& Field(const nlohmann::json& obj, const char* key) {
  static const nlohmann::json kNull;
  if (!obj.is_object()) return kNull;
  auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

inline std::optional<double> NumberOf(const nlohmann::json& value) {
  if (value.is_number()) return value.get<double>();
  return std::nullopt;
}

// obj[key] as a number, 0 when absent or not a number (a hardware figure that was never measured).
inline double NumberOrZero(const nlohmann::json& obj, const char* key) {
  return NumberOf(Field(obj, key)).value_or(0.0);
}

// A value that may be absent as JSON: the value, or null when there is none (a figure never measured, a flag never
// decided). The one way an absent value is written.
template <typename T>
nlohmann::json JsonOrNull(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

inline std::string StringOf(const nlohmann::json& value, const std::string& fallback = "") {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return fallback;
  return value.dump();
}

// A value as a report shows it: a string as it is, another value as its JSON text; none for null or absent.
inline std::optional<std::string> OptionalTextOf(const nlohmann::json& value) {
  if (value.is_null()) return std::nullopt;
  return StringOf(value);
}

// An array to iterate over: the value itself when it is an array, else an empty one.
inline const nlohmann::json& ArrayOf(const nlohmann::json& value) {
  static const nlohmann::json kEmpty = nlohmann::json::array();
  return value.is_array() ? value : kEmpty;
}

}  // namespace evalsuite
