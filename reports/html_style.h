// The stylesheet inlined into report.html: system fonts only (no downloads), readable tables, verdict cards,
// and the look of the SVG charts (svg_chart.h emits the classes used here). Prints cleanly too.
#pragma once

namespace evalsuite::reports {

inline constexpr const char* kReportCss = R"css(
:root { --fg:#1f2328; --muted:#59636e; --line:#d8dee4; --bg:#ffffff; --panel:#f6f8fa;
        --ok:#1a7f37; --ok-bg:#dafbe1; --bad:#cf222e; --bad-bg:#ffebe9; --accent:#4e79a7; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--fg);
       font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1200px; margin: 0 auto; padding: 28px 32px 64px; }
header.report-header { border-bottom: 1px solid var(--line); padding-bottom: 12px; margin-bottom: 8px; }
h1 { font-size: 28px; margin: 0 0 4px; letter-spacing: -0.01em; }
h2 { font-size: 21px; margin: 36px 0 12px; padding-bottom: 6px; border-bottom: 1px solid var(--line); }
h3 { font-size: 17px; margin: 24px 0 8px; }
h4 { font-size: 14px; margin: 18px 0 6px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
p.meta, p.rule, .muted { color: var(--muted); }
p.meta { margin: 0; font-size: 13px; }
nav.toc { font-size: 13px; margin-top: 6px; }
nav.toc a { color: var(--accent); text-decoration: none; margin-right: 14px; }
.verdicts { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 12px; }
.verdict { border: 1px solid var(--line); border-left-width: 6px; border-radius: 8px; padding: 12px 16px;
           background: var(--bg); }
.verdict.stable { border-left-color: var(--ok); }
.verdict.unstable { border-left-color: var(--bad); }
.verdict.inconclusive { border-left-color: var(--muted); }
.verdict h3 { margin: 0 0 6px; font-size: 16px; word-break: break-word; }
.badge { display: inline-block; font-size: 12px; font-weight: 700; letter-spacing: .05em; border-radius: 999px;
         padding: 2px 10px; margin-bottom: 6px; }
.stable .badge, .badge.ok { color: var(--ok); background: var(--ok-bg); }
.unstable .badge, .badge.bad { color: var(--bad); background: var(--bad-bg); }
.inconclusive .badge { color: var(--fg); background: var(--panel); border: 1px solid var(--line); }
.verdict p { margin: 4px 0; font-size: 14px; }
.verdict ul { margin: 6px 0 0; padding-left: 18px; font-size: 13px; color: var(--muted); }
.table-wrap { overflow-x: auto; margin: 8px 0 16px; border: 1px solid var(--line); border-radius: 8px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { padding: 6px 9px; text-align: left; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); font-weight: 600; vertical-align: bottom; }
td { white-space: nowrap; }
tbody tr:last-child td { border-bottom: none; }
tbody tr:nth-child(even) td { background: #fbfcfd; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.wrap { white-space: normal; min-width: 140px; max-width: 360px; word-break: break-word; }
tr.target td { font-weight: 600; background: #fff8e6 !important; }
figure { margin: 12px 0 20px; padding: 12px 12px 6px; border: 1px solid var(--line); border-radius: 8px; }
figcaption { font-size: 13px; color: var(--muted); margin: 2px 4px 6px; }
svg.chart { display: block; width: 100%; height: auto; max-width: 100%; }
svg.chart text { fill: #3d444d; font-family: inherit; }
svg.chart text.tick { fill: #6e7781; font-size: 11px; }
svg.chart text.axis-label { fill: #3d444d; font-size: 12px; }
svg.chart text.panel-title { font-weight: 600; font-size: 13px; }
svg.chart text.category { font-size: 12px; }
svg.chart text.group-label { font-weight: 700; font-size: 12px; }
svg.chart text.rule-label { font-size: 11px; }
svg.chart text.empty { fill: #8c959f; font-size: 14px; }
svg.chart .grid line { stroke: #eaeef2; stroke-width: 1; }
svg.chart .axis { stroke: #8c959f; stroke-width: 1; }
svg.chart .failure-band { fill: #fff1f0; stroke: #f3c6c3; }
.entry { border-top: 1px dashed var(--line); margin-top: 28px; }
.entry:first-of-type { border-top: none; margin-top: 0; }
.verdict-line { border-radius: 8px; padding: 10px 14px; margin: 8px 0 12px; font-size: 14px; }
.verdict-line.ok { background: var(--ok-bg); }
.verdict-line.bad { background: var(--bad-bg); }
details { margin: 8px 0; }
summary { cursor: pointer; color: var(--accent); font-size: 14px; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px; overflow-x: auto;
      font-size: 12.5px; }
@media print { main { max-width: none; padding: 0; } figure, .verdict { break-inside: avoid; } }
)css";

}  // namespace evalsuite::reports
