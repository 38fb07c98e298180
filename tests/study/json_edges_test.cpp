// The decoders at the store's and the run folder's edge that study/ reads through: an imported entry's threshold
// notes, the study a run record names, a ceilings record. Each keeps the defaults the outputs rely on and names a
// field of another shape.
#include <gtest/gtest.h>

#include "common/error.h"
#include "store/entry_extra_json.h"
#include "study/execution/run_record_json.h"
#include "study/plans/ceilings_json.h"
#include "study/plans/ceilings_record.h"

namespace evalsuite::study {
namespace {

using nlohmann::json;

TEST(EntryExtraJsonTest, ReadsEachNote) {
  const store::ThresholdAsLogged n = store::ThresholdAsLoggedFromJson(
      json{{"threshold_as_logged", 0.925}, {"direction", "lower is better"}, {"metric_as_logged", "eval_loss"}});
  ASSERT_TRUE(n.as_logged);
  EXPECT_DOUBLE_EQ(*n.as_logged, 0.925);
  EXPECT_TRUE(n.lower_is_better);
  EXPECT_EQ(n.metric_as_logged, "eval_loss");
  EXPECT_FALSE(n.shown);
  EXPECT_EQ(store::ThresholdAsLoggedFromJson(json{{"threshold_shown", "FID <= 90"}}).shown, "FID <= 90");
  EXPECT_EQ(store::ThresholdAsLoggedFromJson(json{{"threshold_in_column_units", 93}}).in_column_units, 93.0);
}

TEST(EntryExtraJsonTest, AbsentOrNullNotesAreEmpty) {
  const store::ThresholdAsLogged n = store::ThresholdAsLoggedFromJson(
      json{{"threshold_shown", nullptr}, {"threshold_as_logged", nullptr}, {"study", "s"}});
  EXPECT_FALSE(n.shown);
  EXPECT_FALSE(n.in_column_units);
  EXPECT_FALSE(n.as_logged);
  EXPECT_FALSE(n.lower_is_better);
  EXPECT_FALSE(n.metric_as_logged);
  EXPECT_FALSE(store::ThresholdAsLoggedFromJson(json(nullptr)).shown);
}

TEST(EntryExtraJsonTest, ADirectionOfAnotherShapeIsNamed) {
  try {
    store::ThresholdAsLoggedFromJson(json{{"threshold_as_logged", 1.0}, {"direction", 1}});
    FAIL() << "a numeric direction was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "extra.direction");
  }
}

TEST(RunRecordJsonTest, NamesTheStudyWhenTheRecordDoes) {
  const RecordedStudyName s = RecordedStudyNameFromJson(json{{"name", "pilot"}, {"store", "/tmp/s.db"}, {"id", 1}});
  EXPECT_EQ(s.name, "pilot");
  EXPECT_EQ(s.store, "/tmp/s.db");
  const RecordedStudyName none = RecordedStudyNameFromJson(json{{"id", 1}});
  EXPECT_FALSE(none.name);
  EXPECT_FALSE(none.store);
  EXPECT_THROW(RecordedStudyNameFromJson(json{{"name", 7}}), Error);
}

TEST(CeilingsJsonTest, DefaultsKeptForOlderRecords) {
  const CeilingsRecordFacts none = DecodeCeilingsRecord(json::object());
  EXPECT_EQ(none.source, "");
  EXPECT_EQ(none.where, "?");
  EXPECT_FALSE(none.has_machine);
  EXPECT_EQ(CeilingsMeasuredAtFromJson(json::object()), "at an unknown time");
  EXPECT_EQ(CeilingsMeasuredAtFromJson(json{{"measured_at", "2026-01-02T03:04:05Z"}}), "2026-01-02T03:04:05Z");
  // What study/ decides from it: measured (or read from a file) figures, not the theoretical peak alone.
  EXPECT_TRUE(HasMeasuredCeilings(json{{kCeilingsKey, {{"source", "file"}, {"machine", json::object()}}}}));
  EXPECT_FALSE(HasMeasuredCeilings(json{{kCeilingsKey, {{"source", "theoretical"}, {"machine", json::object()}}}}));
  EXPECT_FALSE(HasMeasuredCeilings(json{{kCeilingsKey, {{"machine", json::object()}}}}));
}

TEST(CeilingsJsonTest, ASourceOfAnotherShapeIsNamed) {
  try {
    DecodeCeilingsRecord(json{{"source", 1}});
    FAIL() << "a numeric source was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "machine_ceilings.source");
  }
}

}  // namespace
}  // namespace evalsuite::study
