// The millisecond UTC timestamps of labeling decisions (common/environment.h).
#include <gtest/gtest.h>

#include "common/environment.h"

namespace evalsuite {
namespace {

TEST(UtcIso8601Millis, FormatsUnixMilliseconds) {
  EXPECT_EQ(UtcIso8601Millis(0), "1970-01-01T00:00:00.000Z");
  // python3: datetime.fromtimestamp(1700000000.123, timezone.utc).isoformat(timespec='milliseconds')
  EXPECT_EQ(UtcIso8601Millis(1700000000123.0), "2023-11-14T22:13:20.123Z");
}

TEST(UtcIso8601Millis, NowHasMilliseconds) {
  const std::string millis = UtcNowIso8601Millis();
  ASSERT_EQ(millis.size(), 24u) << millis;
  EXPECT_EQ(millis[19], '.');
  EXPECT_EQ(millis.back(), 'Z');
  EXPECT_EQ(millis.substr(0, 2), "20");
}

}  // namespace
}  // namespace evalsuite
