// Typed reads of fields of user JSON (manifests, run logs, specs): a missing key, a wrong type or a number out of
// the target's range becomes InputError naming "where.key", never a library exception or a float converted to an
// int outside its range (undefined behaviour). `where` names the file (and item) the object came from.
#pragma once

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
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

}  // namespace evalsuite
