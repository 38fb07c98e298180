// A run's energy from its power logs (importer/mlperf_power.h): records as mllog writes them are read by
// the scanner, every other form by the full JSON parser, and both count exactly as a full parse of every line did.
#include "importer/mlperf_power.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/support/test_support.h"

namespace evalsuite::importer {
namespace {

using testing::TempDir;
using testing::WriteFile;

std::string Line(const std::string& record) { return ":::MLLOG " + record + "\n"; }

TEST(MlperfPowerTest, EveryFormOfARecordCountsAsAFullParseReadsIt) {
  TempDir dir;
  const std::string meta = R"("metadata": {"file": "power_measurement.py", "lineno": 88, "host": "2"})";
  std::string log;
  log += Line(R"({"namespace": "", "time_ms": 1000, "event_type": "INTERVAL_START", "key": "power_measurement_start", )"
              R"("value": null, )" +
              meta + "}");
  // Another key order: the full parser reads it.
  log += Line(R"({"key": "conversion_eff", "time_ms": 1000, "value": 0.5, "metadata": {}})");
  log += "some other output of the meter\n";
  log += Line(R"({"namespace": "", "time_ms": 2000, "event_type": "POINT_IN_TIME", "key": "power_reading", )"
              R"("value": 100.0, )" +
              meta + "}\r");
  // An escaped quote in the metadata, and a record glued after other output on its line (the last marker counts).
  log += "noise :::MLLOG {\"broken\n";
  log += "x " + Line(R"({"namespace": "", "time_ms": 3000, "event_type": "POINT_IN_TIME", "key": "power_reading", )"
                     R"("value": 200, "metadata": {"file": "a\"b.py", "lineno": 1}})");
  // NaN is not JSON to the full parser: the record is skipped, as before.
  log += Line(R"({"namespace": "", "time_ms": 3500, "event_type": "POINT_IN_TIME", "key": "power_reading", )"
              R"("value": NaN, )" +
              meta + "}");
  // An escaped key goes to the full parser too; a value that is an object counts as 0 from there.
  log += Line(R"({"namespace": "", "time_ms": 3600, "event_type": "POINT_IN_TIME", "key": "power\u005freading", )"
              R"("value": {"w": 5}, )" +
              meta + "}");
  log += Line(R"({"namespace": "", "time_ms": 4000, "event_type": "INTERVAL_END", "key": "power_measurement_stop", )"
              R"("value": null, )" +
              meta + "}");
  WriteFile(dir / "power" / "result_0" / "node_0.txt", log);

  std::string error;
  const std::optional<double> energy = RunEnergy(dir.path(), "result_0", /*time_to_train_ms=*/3000, error);
  ASSERT_TRUE(energy.has_value()) << error;
  // 100 W over 1000 ms, 200 W over 1000 ms, 0 W over 600 ms; efficiency 0.5; the 3000 ms measured scaled to the
  // 3000 ms time to train; joules from W x ms / 1000.
  EXPECT_DOUBLE_EQ(*energy, 0.5 * (100.0 * 1000 + 200.0 * 1000 + 0.0 * 600) * 3000 / 3000 / 1000);
}

}  // namespace
}  // namespace evalsuite::importer
