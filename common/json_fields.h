// Typed reads of fields of user JSON (manifests, run logs, specs): a missing key, a wrong type or a number out of
// the target's range becomes InputError naming "where.key", never a library exception or a float converted to an
// int outside its range (undefined behaviour). `where` names the file (and item) the object came from.
#pragma once

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace evalsuite {

// Throws InputError(where, ...) unless `value` is an object.
void RequireObject(const nlohmann::json& value, const std::string& where);

std::optional<std::string> OptionalString(const nlohmann::json& object, const char* key, const std::string& where);
std::string RequiredString(const nlohmann::json& object, const char* key, const std::string& where);

// An integer, or a float with an integral value, within [min, max].
std::optional<int64_t> OptionalInteger(const nlohmann::json& object, const char* key, const std::string& where,
                                       int64_t min = std::numeric_limits<int64_t>::min(),
                                       int64_t max = std::numeric_limits<int64_t>::max());
int64_t RequiredInteger(const nlohmann::json& object, const char* key, const std::string& where,
                        int64_t min = std::numeric_limits<int64_t>::min(),
                        int64_t max = std::numeric_limits<int64_t>::max());

// A finite number.
std::optional<double> OptionalNumber(const nlohmann::json& object, const char* key, const std::string& where);

std::optional<std::vector<std::string>> OptionalStringArray(const nlohmann::json& object, const char* key,
                                                            const std::string& where);
// The array or object at `key`, or nullptr when absent; InputError when it has another type.
const nlohmann::json* OptionalArray(const nlohmann::json& object, const char* key, const std::string& where);
const nlohmann::json* OptionalObject(const nlohmann::json& object, const char* key, const std::string& where);

// A JSON number as an int64 when it is integral and in range; nullopt otherwise (no exception, no UB).
std::optional<int64_t> IntegerValue(const nlohmann::json& value);

// A JSON number as the integer type T when it is integral and within T's range (an unsigned T takes the whole
// uint64 range); nullopt otherwise. Use it instead of nlohmann's get<int>(), which converts a float such as 1e100
// with a plain cast: undefined behaviour.
template <typename T>
std::optional<T> IntegerAs(const nlohmann::json& value) {
  static_assert(std::is_integral_v<T>, "IntegerAs reads integers");
  if constexpr (std::is_unsigned_v<T>) {
    if (value.is_number_unsigned()) {
      const uint64_t u = value.get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) return std::nullopt;
      return static_cast<T>(u);
    }
  }
  const std::optional<int64_t> v = IntegerValue(value);
  if (!v) return std::nullopt;
  if constexpr (std::is_unsigned_v<T>) {
    if (*v < 0 || static_cast<uint64_t>(*v) > static_cast<uint64_t>(std::numeric_limits<T>::max())) return std::nullopt;
  } else {
    if (*v < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
        *v > static_cast<int64_t>(std::numeric_limits<T>::max())) {
      return std::nullopt;
    }
  }
  return static_cast<T>(*v);
}

}  // namespace evalsuite
