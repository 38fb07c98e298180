// The figures read back from a built-in run's "hardware" block (the end record's, training/step_accounting.h writes
// it): decoded once into named fields. An absent figure is 0; a figure of another shape an InputError naming it.
#pragma once

#include <nlohmann/json.hpp>

namespace evalsuite::runlog {

struct HardwareFigures {
  double achieved_flops = 0;      // "achieved_flops": FLOP/s over the whole run; 0 when nothing was measured
  double evaluation_seconds = 0;  // "time"."evaluation": seconds spent evaluating
};

HardwareFigures HardwareFiguresFromJson(const nlohmann::json& hardware);

}  // namespace evalsuite::runlog
