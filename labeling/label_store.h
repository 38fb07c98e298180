// The label store: an append-only log of labeling events in SQLite (WAL mode). A decision or an undo is a new
// row, committed durably before the call returns, so a caller that acknowledges after Append* loses nothing
// when the process is killed. Rows are never updated or deleted (triggers refuse it); the current labels are a
// replay of the log (CurrentDecisions). Safe to share between threads and between processes on one file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct sqlite3;

namespace evalsuite::labeling {

// What a labeler can say about "this image shows its class".
enum class Label { kCorrect, kIncorrect, kUnsure };

constexpr const char* kDefaultStoreFile = "labels.sqlite";  // beside candidates.json unless --store says

std::string_view LabelName(Label label);  // "correct", "incorrect", "unsure"
// nullopt for anything outside the allowed set (case-sensitive).
std::optional<Label> ParseLabel(std::string_view text);

struct LabelEvent {
  int64_t seq = 0;  // position in the log (SQLite rowid, strictly increasing)
  std::string item_id;
  std::string labeler;
  bool is_undo = false;  // an undo retracts the event `undoes`; `label` repeats the retracted label
  Label label = Label::kUnsure;
  int64_t undoes = 0;        // seq of the retracted decision (undo events only)
  std::string time;          // UTC ISO 8601 when it was recorded
  double seconds = 0;        // time the labeler spent on the item before deciding (0 for undo events)
  std::string image_sha256;  // SHA-256 of the image file the server served for the item ("" when unknown)
  std::string displayed_at;  // UTC ISO 8601 when the page displayed the image ("" when not reported)
};

// What the labeler saw when deciding: the image's hash and when the page displayed it.
struct ShownImage {
  std::string image_sha256;
  std::string displayed_at;
};

// The labeler's standing label on an item: the latest decision not retracted by an undo.
struct Decision {
  std::string item_id;
  std::string labeler;
  Label label = Label::kUnsure;
  int64_t seq = 0;
};

// Replays the log. Keyed by (item id, labeler), the labeler under the first spelling the log holds of its
// LabelerKey (labeler_name.h): a store written before names compared without case, with votes of both "ana" and
// "Ana", counts one labeler, whose latest decision stands.
std::map<std::pair<std::string, std::string>, Decision> CurrentDecisions(const std::vector<LabelEvent>& events);

class LabelStore {
 public:
  // Opens or creates the store (WAL, synchronous=FULL, busy timeout); throws IoError naming the file.
  explicit LabelStore(const std::filesystem::path& file);
  ~LabelStore();
  LabelStore(const LabelStore&) = delete;
  LabelStore& operator=(const LabelStore&) = delete;

  // Appends a decision and commits it; returns the event as stored.
  LabelEvent AppendLabel(const std::string& item_id, const std::string& labeler, Label label, double seconds,
                         const ShownImage& shown = {});
  // Retracts the labeler's latest standing decision (on `item_id` only, when given) with a new undo event.
  // nullopt when there is nothing to undo. Atomic across processes (BEGIN IMMEDIATE).
  std::optional<LabelEvent> AppendUndo(const std::string& labeler, const std::optional<std::string>& item_id);

  std::vector<LabelEvent> Events() const;                              // the whole log, in order
  std::vector<LabelEvent> EventsOf(const std::string& labeler) const;  // one labeler's events, in order
  // The labeler spellings the log holds, in the order of their first event.
  std::vector<std::string> Labelers() const;

  const std::filesystem::path& file() const { return file_; }

 private:
  std::vector<LabelEvent> Query(const std::string& sql, const std::optional<std::string>& labeler) const;
  void Exec(const std::string& sql) const;

  std::filesystem::path file_;
  sqlite3* db_ = nullptr;
  mutable std::mutex mutex_;  // one connection, many server threads
};

}  // namespace evalsuite::labeling
