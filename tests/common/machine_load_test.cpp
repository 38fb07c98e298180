// How busy the machine is as a ceilings probe starts: /proc/stat read by hand-written samples, and when other work
// probably shared the probe's cores.
#include "common/machine_load.h"

#include <gtest/gtest.h>

namespace evalsuite {
namespace {

TEST(MachineLoad, ProcStatTotalsAndBusyCores) {
  // A 2-CPU /proc/stat (Linux 6.x, abridged): user nice system idle iowait irq softirq steal guest guest_nice.
  const std::optional<CpuTimes> before = ParseProcStat(
      "cpu  1000 10 300 5000 40 0 50 100 0 0\ncpu0 500 5 150 2500 20 0 25 50 0 0\n"
      "cpu1 500 5 150 2500 20 0 25 50 0 0\nintr 12345 0 0\nctxt 999\n");
  ASSERT_TRUE(before);
  EXPECT_EQ(before->busy, 1000u + 10 + 300 + 0 + 50 + 100);
  EXPECT_EQ(before->idle, 5040u);
  EXPECT_EQ(before->cpus, 2);
  // 100 ticks later on 2 CPUs: 150 busy, 50 idle -> 1.5 cores busy.
  CpuTimes after = *before;
  after.busy += 150;
  after.idle += 50;
  EXPECT_DOUBLE_EQ(*BusyCoresBetween(*before, after), 1.5);
  EXPECT_FALSE(BusyCoresBetween(*before, *before)) << "no time passed";
  EXPECT_FALSE(BusyCoresBetween(after, *before)) << "counters went back";
  EXPECT_FALSE(ParseProcStat("intr 1 2 3\n"));
  EXPECT_FALSE(ParseProcStat("cpu  1 2\ncpu0 1 2 3 4\n")) << "too few fields";
}

TEST(MachineLoad, ThisMachineIsReadable) {
  const std::optional<double> busy = BusyCoresOver(0.05);
  ASSERT_TRUE(busy);
  EXPECT_GE(*busy, 0.0);
  ASSERT_TRUE(LoadAverage1m());
}

TEST(MachineLoad, ANoteOnlyWhenOtherWorkProbablySharedTheProbesCores) {
  // Two threads on two cores: any half core of other work shares them.
  EXPECT_EQ(ProbeUnderLoadNote(0.3, 1.9, 2, 2), "") << "the load average's past does not count";
  EXPECT_EQ(ProbeUnderLoadNote(0.5, -1, 2, 2), "");
  const std::string busy = ProbeUnderLoadNote(0.9, 1.25, 2, 2);
  EXPECT_EQ(busy.rfind("other processes kept 0.90 of 2 cores busy just before the probe (1-minute load average "
                       "1.25) and it used 2 threads",
                       0),
            0u)
      << busy;
  EXPECT_NE(busy.find("MFU against it high"), std::string::npos);
  // One thread on two cores: one core of other work still leaves the probe a core.
  EXPECT_EQ(ProbeUnderLoadNote(1.4, -1, 2, 1), "");
  EXPECT_NE(ProbeUnderLoadNote(1.6, -1, 2, 1).find("of 2 cores busy just before the probe and it used 1 thread:"),
            std::string::npos);
  // Threads beyond the cores count as the cores; nonsense counts do not divide by zero.
  EXPECT_NE(ProbeUnderLoadNote(0.6, -1, 2, 8), "");
  EXPECT_NE(ProbeUnderLoadNote(0.6, -1, 0, 0), "");
}

}  // namespace
}  // namespace evalsuite
