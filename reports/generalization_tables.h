// The generalization section (reports/generalization_section.h) as markup tables: the paper's Table 4 per
// image set, the group summary, every pairwise exact McNemar test, and the images that could not be read.
#pragma once

#include <string>
#include <vector>

#include "reports/generalization_section.h"
#include "reports/report_table.h"

namespace evalsuite::reports {

// "93.02% [92.02%, 93.92%]": an accuracy with its interval.
std::string AccuracyText(const AccuracyModel& accuracy);

// Table 4: model, group, top-1 on unseen data with its interval, top-5 with its interval, gap to validation.
ReportTable GeneralizationModelsTable(const ImageSetModel& image_set);
ReportTable GeneralizationGroupsTable(const ImageSetModel& image_set);
ReportTable GeneralizationPairsTable(const ImageSetModel& image_set);
ReportTable GeneralizationFailuresTable(const ImageSetModel& image_set);
// Accuracy by selection-frequency bin (the image set's "frequency_bins", from a labeled holdout): per bin the
// images, each model's top-1 with its interval, and the candidate group's mean minus the reference group's.
// No rows when the set has no frequencies.
ReportTable GeneralizationFrequencyBinsTable(const ImageSetModel& image_set);
// The same per bin for every image set that has frequencies (e.g. MatchedFrequency, Threshold0.7 and
// TopImages holdouts), side by side: set and how it was selected, bin, images, each group's mean, gap.
ReportTable FrequencyBinsAcrossSetsTable(const std::vector<ImageSetModel>& image_sets);

// "fashion-mnist-holdout: 5000 images, 0 unreadable, holdout 3f2a…": one line heading an image set.
std::string ImageSetSummary(const ImageSetModel& image_set);
// The verdict statement with the test that supports it ("" when the set has no verdict).
std::string GeneralizationVerdictText(const ImageSetModel& image_set);

}  // namespace evalsuite::reports
