#include "common/json_fields.h"

#include <cmath>

#include "common/error.h"

namespace evalsuite {
namespace {

using nlohmann::json;

std::string At(const std::string& where, const char* key) { return where + "." + key; }

[[noreturn]] void WrongType(const std::string& where, const char* key, const char* wanted, const json& value) {
  throw InputError(At(where, key), std::string("must be ") + wanted + ", not " + value.type_name());
}

const json* Find(const json& object, const char* key, const std::string& where) {
  if (!object.is_object()) throw InputError(where, std::string("must be a JSON object, not ") + object.type_name());
  auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

}  // namespace

void RequireObject(const json& value, const std::string& where) {
  if (!value.is_object()) throw InputError(where, std::string("must be a JSON object, not ") + value.type_name());
}

std::optional<int64_t> IntegerValue(const json& value) {
  if (value.is_number_integer()) {
    if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return value.get<int64_t>();
  }
  if (value.is_number_float()) {
    const double d = value.get<double>();
    // 2^63 is exactly representable; anything at or above it does not fit.
    if (!std::isfinite(d) || d != std::floor(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0) {
      return std::nullopt;
    }
    return static_cast<int64_t>(d);
  }
  return std::nullopt;
}

std::optional<std::string> OptionalString(const json& object, const char* key, const std::string& where) {
  const json* value = Find(object, key, where);
  if (value == nullptr) return std::nullopt;
  if (!value->is_string()) WrongType(where, key, "a string", *value);
  return value->get<std::string>();
}

std::string RequiredString(const json& object, const char* key, const std::string& where) {
  std::optional<std::string> value = OptionalString(object, key, where);
  if (!value) throw InputError(At(where, key), "is missing");
  return *value;
}

std::optional<int64_t> OptionalInteger(const json& object, const char* key, const std::string& where, int64_t min,
                                       int64_t max) {
  const json* value = Find(object, key, where);
  if (value == nullptr) return std::nullopt;
  if (!value->is_number()) WrongType(where, key, "an integer", *value);
  const std::optional<int64_t> integer = IntegerValue(*value);
  if (!integer || *integer < min || *integer > max) {
    throw InputError(At(where, key), "must be an integer from " + std::to_string(min) + " to " + std::to_string(max) +
                                         ", not " + value->dump());
  }
  return integer;
}

int64_t RequiredInteger(const json& object, const char* key, const std::string& where, int64_t min, int64_t max) {
  std::optional<int64_t> value = OptionalInteger(object, key, where, min, max);
  if (!value) throw InputError(At(where, key), "is missing");
  return *value;
}

std::optional<double> OptionalNumber(const json& object, const char* key, const std::string& where) {
  const json* value = Find(object, key, where);
  if (value == nullptr) return std::nullopt;
  if (!value->is_number()) WrongType(where, key, "a number", *value);
  const double d = value->get<double>();
  if (!std::isfinite(d)) throw InputError(At(where, key), "must be finite");
  return d;
}

std::optional<std::vector<std::string>> OptionalStringArray(const json& object, const char* key,
                                                            const std::string& where) {
  const json* value = Find(object, key, where);
  if (value == nullptr) return std::nullopt;
  if (!value->is_array()) WrongType(where, key, "an array of strings", *value);
  std::vector<std::string> out;
  for (const json& item : *value) {
    if (!item.is_string()) WrongType(where, key, "an array of strings", item);
    out.push_back(item.get<std::string>());
  }
  return out;
}

const json* OptionalArray(const json& object, const char* key, const std::string& where) {
  const json* value = Find(object, key, where);
  if (value != nullptr && !value->is_array()) WrongType(where, key, "an array", *value);
  return value;
}

const json* OptionalObject(const json& object, const char* key, const std::string& where) {
  const json* value = Find(object, key, where);
  if (value != nullptr && !value->is_object()) WrongType(where, key, "an object", *value);
  return value;
}

}  // namespace evalsuite
