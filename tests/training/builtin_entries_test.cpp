// The catalog of built-in entries and the learning-rate / resolution schedules its recipes describe.
#include "entries/builtin_entries.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "common/error.h"

namespace evalsuite::entries {
namespace {

using ::testing::HasSubstr;

TEST(BuiltinEntries, HasTheSixNamedEntriesWithTheirFacts) {
  std::set<std::string> names;
  for (const BuiltinEntry& entry : BuiltinEntries()) {
    names.insert(entry.name);
    EXPECT_FALSE(entry.description.empty()) << entry.name;
    EXPECT_EQ(entry.description.find('\n'), std::string::npos) << entry.name;
    EXPECT_EQ(entry.metric, "val_top1");
    EXPECT_GT(entry.threshold, 0.5);
    EXPECT_LE(entry.threshold, 1.0);
    EXPECT_GE(entry.epoch_budget, 1);
    EXPECT_GT(entry.recipe.learning_rate, 0) << entry.name;
  }
  EXPECT_EQ(names.size(), BuiltinEntries().size()) << "names must be unique";
  for (const char* name : {"baseline", "cyclic-lr", "large-batch", "progressive-resize", "bf16", "fast"}) {
    EXPECT_EQ(names.count(name), 1u) << name;
  }
  EXPECT_EQ(BuiltinEntries().front().name, "baseline");
}

TEST(BuiltinEntries, RecipesStandForTheirOptimization) {
  const Recipe& baseline = FindBuiltinEntry("baseline")->recipe;
  EXPECT_EQ(baseline.batch_size, 128);
  EXPECT_GT(baseline.momentum, 0);
  EXPECT_TRUE(baseline.schedule == "cosine" || baseline.schedule == "step");

  EXPECT_EQ(FindBuiltinEntry("cyclic-lr")->recipe.schedule, "one-cycle");

  const Recipe& large = FindBuiltinEntry("large-batch")->recipe;
  EXPECT_GE(large.batch_size, 1024);
  EXPECT_GT(large.warmup_fraction, 0);
  EXPECT_DOUBLE_EQ(large.learning_rate, large.reference_learning_rate * large.batch_size / large.reference_batch_size);

  const Recipe& resize = FindBuiltinEntry("progressive-resize")->recipe;
  ASSERT_FALSE(resize.resize_stages.empty());
  EXPECT_LT(resize.resize_stages.front().side, kInputSide);

  EXPECT_EQ(FindBuiltinEntry("bf16")->recipe.precision, "bf16");
}

TEST(BuiltinEntries, UnknownNameListsTheValidOnes) {
  EXPECT_EQ(FindBuiltinEntry("resnet"), nullptr);
  try {
    BuiltinEntryOrThrow("resnet");
    FAIL() << "expected a UsageError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_THAT(e.message(), HasSubstr("resnet"));
    for (const BuiltinEntry& entry : BuiltinEntries()) EXPECT_THAT(e.message(), HasSubstr(entry.name));
  }
}

TEST(BuiltinEntries, JsonCarriesEveryHyperparameter) {
  const nlohmann::json j = EntryToJson(*FindBuiltinEntry("large-batch"));
  EXPECT_EQ(j["name"], "large-batch");
  EXPECT_EQ(j["epoch_budget"], FindBuiltinEntry("large-batch")->epoch_budget);
  const nlohmann::json& h = j["hyperparameters"];
  for (const char* key : {"model", "batch_size", "learning_rate", "reference_learning_rate", "reference_batch_size",
                          "momentum", "nesterov", "weight_decay", "label_smoothing", "schedule", "warmup_fraction",
                          "resize_stages", "precision", "flip_probability", "max_shift_pixels", "input_mean"}) {
    EXPECT_TRUE(h.contains(key)) << key;
  }
  EXPECT_EQ(h["batch_size"], 1024);
  EXPECT_FALSE(j.contains("fp32_form_hyperparameters"));
  const nlohmann::json fast = EntryToJson(*FindBuiltinEntry("fast"));
  EXPECT_EQ(fast["hyperparameters"]["batch_size"], 256);
  EXPECT_EQ(fast["fp32_form_hyperparameters"]["batch_size"], 64);
}

// The one decision of which recipe runs: a bf16 recipe's fp32 form in fp32, the recipe itself otherwise, always in
// the precision chosen.
TEST(BuiltinEntries, RecipeForPrecisionPicksTheFp32FormOnlyForABf16RecipeRunInFp32) {
  const BuiltinEntry& fast = *FindBuiltinEntry("fast");
  ASSERT_TRUE(fast.fp32_form);
  const RecipeAsRun fp32 = RecipeForPrecision(fast, "fp32");
  EXPECT_EQ(fp32.form, "fp32 form");
  EXPECT_EQ(fp32.recipe.batch_size, fast.fp32_form->batch_size);
  EXPECT_EQ(fp32.recipe.precision, "fp32");
  EXPECT_THAT(fp32.note, HasSubstr("fast trains its fp32 form (batch 64"));
  const RecipeAsRun bf16 = RecipeForPrecision(fast, "bf16");
  EXPECT_EQ(bf16.form, "as written");
  EXPECT_EQ(bf16.recipe.batch_size, fast.recipe.batch_size);
  EXPECT_EQ(bf16.recipe.precision, "bf16");
  EXPECT_TRUE(bf16.note.empty());
  // Entries without an fp32 form run as written in either precision.
  for (const BuiltinEntry& entry : BuiltinEntries()) {
    if (entry.fp32_form) continue;
    for (const char* precision : {"fp32", "bf16"}) {
      const RecipeAsRun as_run = RecipeForPrecision(entry, precision);
      EXPECT_EQ(as_run.form, "as written") << entry.name;
      EXPECT_EQ(as_run.recipe.batch_size, entry.recipe.batch_size) << entry.name;
      EXPECT_EQ(as_run.recipe.precision, precision) << entry.name;
    }
  }
  // An fp32 form is the form of a bf16 recipe, and is itself fp32.
  for (const BuiltinEntry& entry : BuiltinEntries()) {
    if (!entry.fp32_form) continue;
    EXPECT_EQ(entry.recipe.precision, "bf16") << entry.name;
    EXPECT_EQ(entry.fp32_form->precision, "fp32") << entry.name;
  }
}

TEST(BuiltinEntries, EpochsToTargetInterpolateBetweenRowsAndHoldOutsideThem) {
  const std::vector<EpochsAtTarget> table = {{0.87, 1.0}, {0.89, 2.0}, {0.91, 3.5}};
  EXPECT_DOUBLE_EQ(*EpochsToTargetAt(table, 0.87), 1.0);
  EXPECT_NEAR(*EpochsToTargetAt(table, 0.88), 1.5, 1e-12);
  EXPECT_NEAR(*EpochsToTargetAt(table, 0.90), 2.75, 1e-12);
  EXPECT_DOUBLE_EQ(*EpochsToTargetAt(table, 0.80), 1.0);
  EXPECT_DOUBLE_EQ(*EpochsToTargetAt(table, 0.95), 3.5);
  EXPECT_FALSE(EpochsToTargetAt({}, 0.9));
}

// Every entry with an fp32 form has the epochs of both forms, so that the precision choice can weigh its steps; the
// tables ascend by target and their epochs are within the entry's budget.
TEST(BuiltinEntries, EntriesWithAnFp32FormKnowBothFormsEpochsToTarget) {
  for (const BuiltinEntry& entry : BuiltinEntries()) {
    if (!entry.fp32_form) continue;
    for (const auto* table : {&entry.epochs_to_target, &entry.fp32_form_epochs_to_target}) {
      ASSERT_FALSE(table->empty()) << entry.name;
      for (size_t i = 0; i < table->size(); ++i) {
        EXPECT_GT((*table)[i].epochs, 0) << entry.name;
        EXPECT_LE((*table)[i].epochs, entry.epoch_budget) << entry.name;
        if (i > 0) EXPECT_GT((*table)[i].target, (*table)[i - 1].target) << entry.name;
      }
    }
  }
}

TEST(LearningRateSchedule, CosineStartsAtThePeakAndEndsAtZero) {
  Recipe r;
  r.schedule = "cosine";
  r.learning_rate = 0.1;
  EXPECT_DOUBLE_EQ(LearningRateAt(r, 0, 10), 0.1);
  EXPECT_NEAR(LearningRateAt(r, 5, 10), 0.05, 1e-12);
  EXPECT_NEAR(LearningRateAt(r, 10, 10), 0.0, 1e-12);
  // The schedule spans the run: 1 of 2 epochs is the same point as 5 of 10.
  EXPECT_NEAR(LearningRateAt(r, 1, 2), LearningRateAt(r, 5, 10), 1e-12);
}

TEST(LearningRateSchedule, WarmUpRisesLinearlyThenCosineDecays) {
  Recipe r;
  r.schedule = "cosine";
  r.learning_rate = 0.4;
  r.warmup_fraction = 0.2;
  EXPECT_DOUBLE_EQ(LearningRateAt(r, 0, 10), 0.0);
  EXPECT_NEAR(LearningRateAt(r, 1, 10), 0.2, 1e-12);
  EXPECT_NEAR(LearningRateAt(r, 2, 10), 0.4, 1e-12);
  EXPECT_NEAR(LearningRateAt(r, 6, 10), 0.2, 1e-12);  // halfway through the decay
  EXPECT_NEAR(LearningRateAt(r, 10, 10), 0.0, 1e-12);
}

TEST(LearningRateSchedule, OneCycleRampsToThePeakThenAnneals) {
  Recipe r;
  r.schedule = "one-cycle";
  r.learning_rate = 0.4;
  r.one_cycle_peak_fraction = 0.25;
  r.one_cycle_start_divisor = 25;
  r.one_cycle_end_divisor = 1e4;
  EXPECT_NEAR(LearningRateAt(r, 0, 8), 0.016, 1e-12);
  EXPECT_NEAR(LearningRateAt(r, 1, 8), (0.016 + 0.4) / 2, 1e-12);
  EXPECT_NEAR(LearningRateAt(r, 2, 8), 0.4, 1e-12);
  EXPECT_LT(LearningRateAt(r, 5, 8), 0.4);
  EXPECT_NEAR(LearningRateAt(r, 8, 8), 0.016 / 1e4, 1e-12);
}

TEST(LearningRateSchedule, StepMultipliesByGammaAtEachStep) {
  Recipe r;
  r.schedule = "step";
  r.learning_rate = 0.1;
  r.step_fraction = 0.5;
  r.step_gamma = 0.1;
  EXPECT_DOUBLE_EQ(LearningRateAt(r, 4.9, 10), 0.1);
  EXPECT_NEAR(LearningRateAt(r, 5, 10), 0.01, 1e-12);
}

TEST(ResolutionSchedule, StagesAreFractionsOfTheRun) {
  Recipe r;
  r.resize_stages = {{0.25, 14}, {0.5, 20}};
  EXPECT_EQ(ResolutionAt(r, 0, 8), 14);
  EXPECT_EQ(ResolutionAt(r, 1, 8), 14);
  EXPECT_EQ(ResolutionAt(r, 2, 8), 20);
  EXPECT_EQ(ResolutionAt(r, 3, 8), 20);
  EXPECT_EQ(ResolutionAt(r, 4, 8), 28);
  EXPECT_EQ(ResolutionAt(r, 0, 1), 14);  // a one-epoch run starts at the first stage
  EXPECT_EQ(ResolutionAt(Recipe{}, 0, 8), 28);
}

}  // namespace
}  // namespace evalsuite::entries
