// The small interface a report's markup implements (as hyperfine's exporters share one markup table): the outline
// (report_outline.h) says what the report holds and in which order, once; HtmlMarkup and MarkdownMarkup say how
// each block is written. Text the outline passes as "own" (headings, notes) is the report's; everything else
// (names, descriptions, reasons, cells) is user data that each markup escapes for its format.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "reports/report_table.h"

namespace evalsuite::reports {

// A top-level section of the outline: its anchor, heading, and its label in the HTML table of contents (empty: not
// listed there).
struct OutlineSection {
  std::string id;
  std::string heading;
  std::string nav_label;
};

// What opens the report.
struct ReportOpening {
  std::string title;
  std::string generated_at;
  std::string schema_version;
  std::string host;                      // empty when unknown
  std::vector<OutlineSection> sections;  // those present, in order
};

// One entry's verdict card.
struct VerdictCard {
  std::string entry;
  std::string result;      // "STABLE", "NOT STABLE", "INCONCLUSIVE", "DID NOT RUN"
  std::string first_line;  // the machine's part, said first (reports/machine_noise.h); empty when none
  std::string reached, runs, threshold;
  bool judged_on_epochs = false;
  std::string cov;  // "3.1% [2.0%, 5.6%]"
  std::vector<std::string> reasons;
};

// An entry's facts line: source, target, time unit, and the Kaplan-Meier median where there is one.
struct EntryFacts {
  std::string source, metric, threshold, unit;
  std::string kaplan_meier_median;  // empty when none
};

class ReportMarkup {
 public:
  virtual ~ReportMarkup() = default;

  virtual void Open(const ReportOpening& opening) = 0;
  virtual void Close() = 0;
  virtual void BeginSection(const OutlineSection& section) = 0;
  virtual void EndSection() = 0;
  // A part of a section with a heading of its own (the overview's comparisons, cost): HTML nests it in the
  // section; Markdown, which has no sections, gives it a level-2 heading like the sections'.
  virtual void Part(const std::string& own_heading) = 0;
  // A heading at `level` (3 or 4) inside a section: own text, or a user-data one (an image set's summary).
  virtual void Heading(int level, const std::string& own_text) = 0;
  virtual void UserHeading(int level, const std::string& text) = 0;
  virtual void BeginEntry(std::size_t index, const std::string& name) = 0;
  virtual void EndEntry() = 0;
  virtual void Facts(const EntryFacts& facts) = 0;

  virtual void Paragraph(const std::string& text) = 0;  // user data
  virtual void RuleStatement(const std::string& text) = 0;
  virtual void Note(const std::string& own_text) = 0;         // the report's own explanation, quieter than text
  virtual void Placeholder(const std::string& own_text) = 0;  // where there is nothing to show
  virtual void Bullets(const std::vector<std::string>& items) = 0;
  virtual void Table(const ReportTable& table) = 0;
  // A chart; `svg` is called only by a markup that shows charts.
  virtual void Figure(const std::function<std::string()>& svg, const std::string& caption) = 0;
  virtual bool ShowsFigures() const = 0;
  virtual void VerdictCards(const std::vector<VerdictCard>& cards) = 0;
  virtual void VerdictLine(const std::string& text, bool passed) = 0;  // an image set's generalization verdict
  virtual void CodeBlock(const std::string& own_title, const std::string& code) = 0;
};

}  // namespace evalsuite::reports
