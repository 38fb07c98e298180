// What the readers of the frameworks' own training logs (Hugging Face Trainer, Lightning and Keras CSV loggers,
// MLflow file-store runs, TensorBoard event files) turn a file or run folder into: every metric the log holds as a
// series of points with the progress the log itself records (step, epoch, wall-clock seconds), plus the facts it
// names (seed, run name, how the run ended). Which metric, which time basis and which entry is decided later, in one
// place (importer/framework_import.h); a reader never invents a time the log does not hold.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "runlog/run_log.h"

namespace evalsuite::runlog {

// The basis a format's TTA is measured in: wall-clock seconds when the log holds them, else the progress it counts.
enum class TimeBasis { kSeconds, kEpochs, kSteps };
const char* TimeBasisName(TimeBasis basis);  // "seconds", "epochs", "steps": the store's entry time_unit

struct SeriesPoint {
  double progress = 0;  // in the run's basis: seconds since the run started, epochs trained, or steps
  double epoch = 0;     // what the run's points call epoch (the basis value when the log counts no epochs)
  double value = 0;
  long line = 0;  // the line (text formats) or record (TensorBoard) the value was read from; 0 = unknown
};

struct FrameworkRun {
  std::string format;            // "hf-trainer", "lightning", "keras", "mlflow", "tensorboard"
  std::filesystem::path source;  // the file, or the MLflow run folder
  std::string label;             // how warnings and the store name the run: the file, plus "(run 2 of 4)" etc.
  TimeBasis basis = TimeBasis::kEpochs;
  std::string basis_rule;  // how the basis values were read, for the report ("epoch column + 1")
  std::map<std::string, std::vector<SeriesPoint>> series;  // metric name as logged -> points in log order
  double progress_spent = 0;  // the whole run's progress in the basis (its budget, for runs that miss)
  analysis::EndedAs status =
      analysis::EndedAs::kNotReached;  // kNotReached = ended; the importer decides reached from the target
  std::string status_note;             // why the run counts as incomplete or failed ("checkpoint at step 500 of 1170")
  nlohmann::json seed;                 // as the log records it; null when it records none
  std::string seed_source;             // "hparams.yaml", "params/seed", ...
  std::string run_name;                // MLflow run name; empty elsewhere
  std::string experiment;              // MLflow experiment name (or id); empty elsewhere
  bool marked_deleted = false;         // MLflow: lifecycle_stage "deleted" (the importer skips the run)
  // The run's recorded configuration, as written (Lightning's hparams.yaml, MLflow's params/), seed included; the
  // importer's run_identity.h decides entries from it. Empty when the log records none.
  std::map<std::string, std::string> hyperparameters;
  std::string hyperparameter_source;                // "hparams.yaml", "params/"; empty when none is recorded
  nlohmann::json facts = nlohmann::json::object();  // format facts kept in the run's header (train_runtime...)
  std::vector<std::string> warnings;                // "file:line: why"
};

// Text helpers shared by the CSV readers (Lightning, Keras): a header and rows split on `separator`, fields
// trimmed of blanks and CR, double quotes as Python's csv writes them. `line` is the 1-based line of each row.
struct CsvTable {
  std::vector<std::string> header;
  struct Row {
    std::vector<std::string> fields;
    long line = 0;
  };
  std::vector<Row> rows;
};
// Reads the file (throws IoError when it can't); a quote left open at the end is an InputError naming the line.
// The separator is ',' unless the header line holds none and a tab or ';' (Keras CSVLogger's `separator`).
CsvTable ReadCsvTable(const std::filesystem::path& file);
// Splits one line (no newline) on `separator`.
std::vector<std::string> SplitCsvLine(const std::string& line, char separator);
// A number cell: nullopt for an empty cell, "NA" (Keras' missing value) or text; "nan", "inf" are numbers.
std::optional<double> CsvNumber(const std::string& cell);
// The first line of a text file (at most `limit` bytes), BOM and CR removed; empty when unreadable.
std::string FirstLineOf(const std::filesystem::path& file, std::size_t limit = 65536);

}  // namespace evalsuite::runlog
