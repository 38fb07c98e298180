// RenderHtml: the report model as ONE self-contained HTML5 file: inline CSS (html_style.h) and inline SVG charts
// (stability_charts.h, generalization_chart.h); no scripts, fonts, images or links to anything outside it. The
// outline (report_outline.h) is the Markdown's; this file is its HTML markup. All user text is escaped.
#include <fmt/format.h>

#include "reports/html_escape.h"
#include "reports/html_style.h"
#include "reports/report.h"
#include "reports/report_markup.h"
#include "reports/report_outline.h"

namespace evalsuite::reports {
namespace {

// Columns whose text runs long (errors, seeds, paths) wrap instead of widening the table.
bool IsWrappingColumn(const std::string& header) {
  return header == "Error" || header == "Seeds" || header == "Reason" || header == "Image" || header == "Value" ||
         header == "Entry" || header == "Model" || header == "Model A" || header == "Model B";
}

void AppendHtmlTable(const ReportTable& table, std::string& out) {
  if (table.rows.empty()) {
    out += "<p class=\"muted\">(none)</p>\n";
    return;
  }
  auto column_class = [&](std::size_t i) -> std::string {
    if (i < table.numeric.size() && table.numeric[i]) return " class=\"num\"";
    if (i < table.header.size() && IsWrappingColumn(table.header[i])) return " class=\"wrap\"";
    return "";
  };
  out += "<div class=\"table-wrap\"><table><thead><tr>";
  for (std::size_t i = 0; i < table.header.size(); ++i) {
    out += "<th" + column_class(i) + ">" + EscapeHtml(table.header[i]) + "</th>";
  }
  out += "</tr></thead><tbody>\n";
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    bool emphasized = r < table.emphasized.size() && table.emphasized[r];
    out += emphasized ? "<tr class=\"target\">" : "<tr>";
    for (std::size_t i = 0; i < table.rows[r].size(); ++i) {
      out += "<td" + column_class(i) + ">" + EscapeHtml(table.rows[r][i]) + "</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody></table></div>\n";
}

class HtmlMarkup final : public ReportMarkup {
 public:
  std::string& Text() { return out_; }

  void Open(const ReportOpening& opening) override {
    out_ +=
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
    out_ += "<title>" + EscapeHtml(opening.title) + "</title><style>" + std::string(kReportCss) +
            "</style></head>\n<body><main>\n";
    out_ += "<header class=\"report-header\"><h1>" + EscapeHtml(opening.title) + "</h1>";
    out_ += "<p class=\"meta\">" +
            EscapeHtml(fmt::format("Generated {} · report schema {}{}", opening.generated_at, opening.schema_version,
                                   opening.host.empty() ? "" : " · host " + opening.host)) +
            "</p>";
    out_ += "<nav class=\"toc\">";
    for (const OutlineSection& section : opening.sections) {
      if (!section.nav_label.empty()) out_ += "<a href=\"#" + section.id + "\">" + section.nav_label + "</a>";
    }
    out_ += "</nav></header>\n";
  }
  void Close() override { out_ += "</main></body></html>\n"; }
  void BeginSection(const OutlineSection& section) override {
    out_ += "<section id=\"" + section.id + "\"><h2>" + section.heading + "</h2>\n";
  }
  void EndSection() override { out_ += "</section>\n"; }
  void Part(const std::string& own_heading) override { Heading(3, own_heading); }
  void Heading(int level, const std::string& own_text) override {
    out_ += fmt::format("<h{0}>{1}</h{0}>\n", level, own_text);
  }
  void UserHeading(int level, const std::string& text) override { Heading(level, EscapeHtml(text)); }
  void BeginEntry(std::size_t index, const std::string& name) override {
    out_ += fmt::format("<article class=\"entry\" id=\"entry-{}\"><h3>{}</h3>\n", index, EscapeHtml(name));
  }
  void EndEntry() override { out_ += "</article>\n"; }
  void Facts(const EntryFacts& facts) override {
    std::string meta = fmt::format("Source: {} · target: {} ≥ {} · time unit: {}", facts.source, facts.metric,
                                   facts.threshold, facts.unit);
    if (!facts.kaplan_meier_median.empty()) {
      meta += fmt::format(" · Kaplan-Meier median time to target ({}): {}", facts.unit, facts.kaplan_meier_median);
    }
    out_ += "<p class=\"meta\">" + EscapeHtml(meta) + "</p>\n";
  }
  void Paragraph(const std::string& text) override { out_ += "<p>" + EscapeHtml(text) + "</p>\n"; }
  void RuleStatement(const std::string& text) override { out_ += "<p class=\"rule\">" + EscapeHtml(text) + "</p>\n"; }
  void Note(const std::string& own_text) override { out_ += "<p class=\"muted\">" + EscapeHtml(own_text) + "</p>\n"; }
  void Placeholder(const std::string& own_text) override {
    out_ += "<p class=\"muted\">" + EscapeHtml(own_text) + "</p>\n";
  }
  void Bullets(const std::vector<std::string>& items) override {
    out_ += "<ul>";
    for (const std::string& item : items) out_ += "<li>" + EscapeHtml(item) + "</li>";
    out_ += "</ul>\n";
  }
  void Table(const ReportTable& table) override { AppendHtmlTable(table, out_); }
  void Figure(const std::function<std::string()>& svg, const std::string& caption) override {
    out_ += "<figure>" + svg() + "<figcaption>" + EscapeHtml(caption) + "</figcaption></figure>\n";
  }
  bool ShowsFigures() const override { return true; }
  void VerdictCards(const std::vector<VerdictCard>& cards) override {
    out_ += "<div class=\"verdicts\">\n";
    for (const VerdictCard& card : cards) {
      const char* css = card.result == "STABLE"                                         ? "stable"
                        : card.result == "INCONCLUSIVE" || card.result == "DID NOT RUN" ? "inconclusive"
                                                                                        : "unstable";
      // When the machine, not the training, may explain the result, the card says so first.
      out_ += fmt::format(
          "<article class=\"verdict {}\"><span class=\"badge\">Result: {}</span><h3>{}</h3>{}<p>{}/{} runs "
          "reached the target {}; CoV of {} {}</p><ul>",
          css, EscapeHtml(card.result), EscapeHtml(card.entry),
          card.first_line.empty()
              ? std::string()
              : "<p class=\"machine-note\"><strong>" + EscapeHtml(card.first_line) + "</strong></p>",
          EscapeHtml(card.reached), EscapeHtml(card.runs), EscapeHtml(card.threshold),
          card.judged_on_epochs ? "epochs to target (the rule's basis)" : "TTA", EscapeHtml(card.cov));
      for (const std::string& reason : card.reasons) out_ += "<li>" + EscapeHtml(reason) + "</li>";
      out_ += "</ul></article>\n";
    }
    out_ += "</div>";
  }
  void VerdictLine(const std::string& text, bool passed) override {
    out_ += fmt::format("<p class=\"verdict-line {}\"><strong>Verdict:</strong> {}</p>\n", passed ? "ok" : "bad",
                        EscapeHtml(text));
  }
  void CodeBlock(const std::string& own_title, const std::string& code) override {
    out_ += "<details><summary>" + own_title + "</summary><pre>" + EscapeHtml(code) + "</pre></details>\n";
  }

 private:
  std::string out_;
};

}  // namespace

std::string RenderHtml(const ReportModel& model) {
  HtmlMarkup markup;
  RenderReport(model, markup);
  return std::move(markup.Text());
}

}  // namespace evalsuite::reports
