// Tolerant JSON reads and the one way an absent value is written (JsonOrNull): a present value keeps its type and
// its value (false, 0 and "" are values, not absences), an absent one is null.
#include "common/json_access.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

namespace evalsuite {
namespace {

TEST(JsonOrNull, APresentValueKeepsItsTypeAndAnAbsentOneIsNull) {
  EXPECT_EQ(JsonOrNull(std::optional<double>(2.5)), nlohmann::json(2.5));
  EXPECT_TRUE(JsonOrNull(std::optional<double>(2.5)).is_number_float());
  EXPECT_TRUE(JsonOrNull(std::optional<double>()).is_null());

  // A falsy value is still a value: an RCP check that failed is false, not "no rule applies".
  EXPECT_TRUE(JsonOrNull(std::optional<bool>(false)).is_boolean());
  EXPECT_EQ(JsonOrNull(std::optional<bool>(false)), nlohmann::json(false));
  EXPECT_TRUE(JsonOrNull(std::optional<bool>()).is_null());

  EXPECT_TRUE(JsonOrNull(std::optional<int>(0)).is_number_integer());
  EXPECT_EQ(JsonOrNull(std::optional<int>(0)), nlohmann::json(0));
  EXPECT_EQ(JsonOrNull(std::optional<int64_t>(INT64_C(9007199254740993))).get<int64_t>(),
            INT64_C(9007199254740993));  // above 2^53: written as an integer, not rounded through a double
  EXPECT_TRUE(JsonOrNull(std::optional<long>()).is_null());

  EXPECT_EQ(JsonOrNull(std::optional<std::string>("")), nlohmann::json(""));
  EXPECT_EQ(JsonOrNull(std::optional<std::string>("avx2")).dump(), "\"avx2\"");
  EXPECT_TRUE(JsonOrNull(std::optional<std::string>()).is_null());
}

TEST(JsonAccess, MissingKeysAndWrongTypesReadAsNullOrEmpty) {
  const nlohmann::json obj = {{"n", 3}, {"s", "x"}, {"a", {1, 2}}, {"z", nullptr}};
  EXPECT_EQ(Field(obj, "n"), nlohmann::json(3));
  EXPECT_TRUE(Field(obj, "missing").is_null());
  EXPECT_TRUE(Field(nlohmann::json::array(), "n").is_null());  // not an object
  EXPECT_EQ(NumberOf(Field(obj, "n")), 3.0);
  EXPECT_FALSE(NumberOf(Field(obj, "s")));
  EXPECT_EQ(NumberOrZero(obj, "s"), 0.0);
  EXPECT_EQ(StringOf(Field(obj, "s")), "x");
  EXPECT_EQ(StringOf(Field(obj, "n")), "3");
  EXPECT_EQ(StringOf(Field(obj, "z"), "none"), "none");
  EXPECT_FALSE(OptionalTextOf(Field(obj, "missing")));
  EXPECT_EQ(ArrayOf(Field(obj, "a")).size(), 2u);
  EXPECT_TRUE(ArrayOf(Field(obj, "s")).empty());
}

}  // namespace
}  // namespace evalsuite
