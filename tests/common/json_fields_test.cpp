// Typed reads of user JSON: integers in range, never a float cast out of range.
#include "common/json_fields.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "common/error.h"

namespace evalsuite {
namespace {

TEST(IntegerAs, IntegralNumbersWithinTheTypesRange) {
  EXPECT_EQ(IntegerAs<int>(nlohmann::json(42)), 42);
  EXPECT_EQ(IntegerAs<int>(nlohmann::json(-7)), -7);
  EXPECT_EQ(IntegerAs<int>(nlohmann::json(3.0)), 3);
  EXPECT_EQ(IntegerAs<int>(nlohmann::json(2147483647)), 2147483647);
  EXPECT_FALSE(IntegerAs<int>(nlohmann::json(2147483648ll)));
  EXPECT_FALSE(IntegerAs<int>(nlohmann::json(1e100)));
  EXPECT_FALSE(IntegerAs<int>(nlohmann::json(-1e300)));
  EXPECT_FALSE(IntegerAs<int>(nlohmann::json(2.5)));
  EXPECT_FALSE(IntegerAs<int>(nlohmann::json("3")));
  EXPECT_FALSE(IntegerAs<int>(nlohmann::json(true)));
  EXPECT_FALSE(IntegerAs<int>(nlohmann::json(std::numeric_limits<double>::quiet_NaN())));
}

TEST(IntegerAs, UnsignedTypesTakeTheWholeRangeAndNoNegatives) {
  EXPECT_EQ(IntegerAs<uint64_t>(nlohmann::json(18446744073709551615ull)), 18446744073709551615ull);
  EXPECT_EQ(IntegerAs<uint64_t>(nlohmann::json(0)), 0u);
  EXPECT_FALSE(IntegerAs<uint64_t>(nlohmann::json(-1)));
  EXPECT_FALSE(IntegerAs<uint64_t>(nlohmann::json(1e30)));
  EXPECT_FALSE(IntegerAs<uint8_t>(nlohmann::json(256)));
  EXPECT_EQ(IntegerAs<std::size_t>(nlohmann::json(4.0)), 4u);
}

TEST(RequiredInteger, OutOfRangeNamesTheField) {
  const nlohmann::json object = {{"n", 1e100}};
  try {
    (void)RequiredInteger(object, "n", "file.json", 0, 10);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("file.json"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace evalsuite
