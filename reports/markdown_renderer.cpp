// RenderMarkdown: the report model as GitHub-flavoured Markdown, through the outline (report_outline.h) the HTML
// shares: verdict first (MLPerf loadgen style: the result, then one line per rule), then the same tables. Charts
// are in report.html only. User text is escaped, so an entry named "<script>" or "a|b" reads as itself and cannot
// break a table.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "reports/report.h"
#include "reports/report_markup.h"
#include "reports/report_outline.h"

namespace evalsuite::reports {
namespace {

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Escapes what could change meaning (emphasis, code, tables, headings, links, raw HTML, quotes) while keeping
// ordinary names readable: "val_top1" stays as it is (an underscore inside a word never emphasizes), and
// "[" is left alone because only "](", "][" or "]:" make a link.
std::string EscapeMarkdown(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    switch (c) {
      // Only what could start an entity, a tag, an autolink or a block quote: "80% < 90%" stays readable.
      case '&':
        out += std::isalnum(static_cast<unsigned char>(next)) || next == '#' ? "&amp;" : "&";
        break;
      case '<':
        out +=
            std::isalpha(static_cast<unsigned char>(next)) || next == '/' || next == '!' || next == '?' ? "&lt;" : "<";
        break;
      case '>':
        out += i == 0 ? "\\>" : ">";
        break;
      case '\n':
      case '\r':
      case '\t':
        out += ' ';
        break;
      case '_':
        if (i > 0 && IsWordChar(text[i - 1]) && IsWordChar(next)) {
          out += c;
          break;
        }
        out += "\\_";
        break;
      case ']':
        if (next == '(' || next == '[' || next == ':') out += '\\';
        out += c;
        break;
      case '\\':
      case '`':
      case '*':
      case '|':
      case '#':
      case '~':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return out;
}

void AppendMarkdownTable(const ReportTable& table, std::string& out) {
  if (table.rows.empty()) {
    out += "_(none)_\n\n";
    return;
  }
  out += "|";
  for (const auto& cell : table.header) out += " " + EscapeMarkdown(cell) + " |";
  out += "\n|";
  for (std::size_t i = 0; i < table.header.size(); ++i) {
    out += i < table.numeric.size() && table.numeric[i] ? "---:|" : "---|";
  }
  out += "\n";
  for (const auto& row : table.rows) {
    out += "|";
    for (const auto& cell : row) out += " " + EscapeMarkdown(cell) + " |";
    out += "\n";
  }
  out += "\n";
}

// A fence longer than any run of backticks inside, so a plan holding ``` cannot end the block early.
std::string CodeFence(const std::string& content) {
  std::size_t longest = 0, run = 0;
  for (char c : content) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

class MarkdownMarkup final : public ReportMarkup {
 public:
  std::string& Text() { return out_; }

  void Open(const ReportOpening& opening) override {
    out_ += "# " + EscapeMarkdown(opening.title) + "\n\n";
    out_ += fmt::format("Generated {} · report schema {}\n\n", EscapeMarkdown(opening.generated_at),
                        opening.schema_version);
  }
  void Close() override {}
  void BeginSection(const OutlineSection& section) override { out_ += "## " + section.heading + "\n\n"; }
  void EndSection() override {}
  // Markdown has no sections to nest a part in: it reads as a section of its own.
  void Part(const std::string& own_heading) override { out_ += "## " + own_heading + "\n\n"; }
  void Heading(int level, const std::string& own_text) override {
    out_ += std::string(static_cast<std::size_t>(level), '#') + " " + own_text + "\n\n";
  }
  void UserHeading(int level, const std::string& text) override { Heading(level, EscapeMarkdown(text)); }
  void BeginEntry(std::size_t, const std::string& name) override { Heading(3, EscapeMarkdown(name)); }
  void EndEntry() override {}
  void Facts(const EntryFacts& facts) override {
    out_ += fmt::format("Source: {} · target: {} ≥ {} · time unit: {}", EscapeMarkdown(facts.source),
                        EscapeMarkdown(facts.metric), EscapeMarkdown(facts.threshold), EscapeMarkdown(facts.unit));
    if (!facts.kaplan_meier_median.empty()) {
      out_ += fmt::format(" · Kaplan-Meier median time to target ({}): {}", EscapeMarkdown(facts.unit),
                          facts.kaplan_meier_median);
    }
    out_ += "\n\n";
  }
  void Paragraph(const std::string& text) override { out_ += EscapeMarkdown(text) + "\n\n"; }
  void RuleStatement(const std::string& text) override { Paragraph(text); }
  void Note(const std::string& own_text) override { out_ += own_text + "\n\n"; }
  void Placeholder(const std::string& own_text) override { out_ += "_" + own_text + "_\n\n"; }
  void Bullets(const std::vector<std::string>& items) override {
    for (const std::string& item : items) out_ += "- " + EscapeMarkdown(item) + "\n";
    out_ += "\n";
  }
  void Table(const ReportTable& table) override { AppendMarkdownTable(table, out_); }
  void Figure(const std::function<std::string()>&, const std::string&) override {}
  bool ShowsFigures() const override { return false; }
  void VerdictCards(const std::vector<VerdictCard>& cards) override {
    for (const VerdictCard& card : cards) {
      out_ += fmt::format("**{}** — Result: **{}**\n\n", EscapeMarkdown(card.entry), EscapeMarkdown(card.result));
      // When the machine, not the training, may explain the result, the card says so first.
      if (!card.first_line.empty()) out_ += "- **" + EscapeMarkdown(card.first_line) + "**\n";
      out_ += fmt::format(
          "- {}/{} runs reached the target {}; CoV of {} {}\n", card.reached, card.runs, EscapeMarkdown(card.threshold),
          card.judged_on_epochs ? "epochs to target (the rule's basis)" : "TTA", EscapeMarkdown(card.cov));
      for (const std::string& reason : card.reasons) out_ += "- " + EscapeMarkdown(reason) + "\n";
      out_ += "\n";
    }
  }
  void VerdictLine(const std::string& text, bool) override { out_ += "**Verdict:** " + EscapeMarkdown(text) + "\n\n"; }
  void CodeBlock(const std::string& own_title, const std::string& code) override {
    const std::string fence = CodeFence(code);
    out_ += "## " + own_title + "\n\n" + fence + "json\n" + code + "\n" + fence + "\n";
  }

 private:
  std::string out_;
};

}  // namespace

std::string RenderMarkdown(const ReportModel& model) {
  MarkdownMarkup markup;
  RenderReport(model, markup);
  return std::move(markup.Text());
}

}  // namespace evalsuite::reports
