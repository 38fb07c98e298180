// Hugging Face Trainer's trainer_state.json (TrainerState.save_to_json: json.dumps of the dataclass, sort_keys, indent
// 2; Python's NaN and Infinity literals included): every `log_history` entry with `eval_*` keys is an evaluation at
// its `epoch` (fractional, as the Trainer counts it) and `step`. The Trainer records no clock per evaluation
// (`eval_runtime` is one evaluation's own duration, `train_runtime` the whole train() call's), so the basis is
// epochs; both runtimes are kept in the run's facts. A state saved in a checkpoint before max_steps is an
// incomplete run. The seed is not in this file (it is in training_args.bin), so none is read.
#pragma once

#include <filesystem>
#include <string>

#include "runlog/framework_log.h"

namespace evalsuite::runlog {

// Throws IoError (unreadable) or InputError naming the file and line (not JSON, no log_history array, an entry
// that is not an object, an epoch or step that is not a number).
FrameworkRun ReadHfTrainerState(const std::filesystem::path& file);

// True when the text looks like a trainer_state.json: a JSON object with a "log_history" key in its first bytes.
bool LooksLikeHfTrainerState(const std::string& head);

}  // namespace evalsuite::runlog
