#include "study/hardware/builtin_hardware.h"

#include <fmt/format.h>

#include <algorithm>

#include "entries/builtin_entries.h"
#include "reports/hardware_ceilings.h"
#include "runlog/hardware_json.h"

namespace evalsuite::study {

std::optional<nlohmann::json> BuiltinHardwareEntry(const std::string& entry,
                                                   const std::vector<store::RunRecord>& runs) {
  std::vector<const store::RunRecord*> measured;
  for (const store::RunRecord& run : runs) {
    if (store::IsDoneRun(run) && runlog::HardwareFiguresFromJson(run.log.hardware).achieved_flops > 0) {
      measured.push_back(&run);
    }
  }
  if (measured.empty()) return std::nullopt;
  std::stable_sort(measured.begin(), measured.end(), [](const store::RunRecord* a, const store::RunRecord* b) {
    return runlog::HardwareFiguresFromJson(a->log.hardware).achieved_flops <
           runlog::HardwareFiguresFromJson(b->log.hardware).achieved_flops;
  });
  const store::RunRecord& median = *measured[(measured.size() - 1) / 2];  // the lower median: a run that happened
  // The recipe as the run's header recorded it, else the catalog's.
  const entries::BuiltinEntry* builtin = entries::FindBuiltinEntry(median.entry);
  const nlohmann::json& recipe =
      median.log.header.contains("hyperparameters") ? median.log.header["hyperparameters"] : nlohmann::json::object();
  auto integer = [&recipe](const char* key, int fallback) {
    return recipe.is_object() && recipe.contains(key) && recipe[key].is_number_integer() ? recipe[key].get<int>()
                                                                                         : fallback;
  };
  const int batch_size = integer("batch_size", builtin ? builtin->recipe.batch_size : 0);
  const int epochs = integer("epochs", builtin ? builtin->epoch_budget : 0);
  nlohmann::json out = reports::EntryFromHardwareRecord(entry, batch_size, epochs, median.log.hardware);
  nlohmann::json per_run = nlohmann::json::array();
  for (const store::RunRecord* run : measured) {
    const nlohmann::json row = reports::EntryFromHardwareRecord(entry, batch_size, epochs, run->log.hardware);
    per_run.push_back({{"index", run->run_index},
                       {"samples_per_second", row["samples_per_second"]},
                       {"achieved_flops", row["achieved_flops"]}});
  }
  out["runs"] = per_run;
  out["figures_source"] =
      measured.size() == 1
          ? fmt::format("run {} of this study", median.run_index)
          : fmt::format("run {} of this study, the median of {} by achieved FLOP/s", median.run_index, measured.size());
  return out;
}

}  // namespace evalsuite::study
