// The report's look: outcome colours and the page's inline CSS (private to report.cpp; header-only).
#pragma once
#include <algorithm>
#include <iterator>
#include <string>

#include "harness/outcome.h"

namespace harness {
namespace report_style {

// Whether `name` is an outcome of the table (harness/outcome.h), which gives each its colours.
inline bool known_style(const std::string &name) { return find_outcome(name) != nullptr; }

// CSS class of an outcome name: "o-<NAME>" for the table's names, "o-OTHER" for any other.
inline std::string css_class(const std::string &outcome) { return known_style(outcome) ? "o-" + outcome : "o-OTHER"; }

// The page's stylesheet, less the per-outcome colours.
constexpr const char *kCss = R"(
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px 32px;color:#222;background:#fafafa}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 10px;border-bottom:1px solid #ddd;padding-bottom:4px}
.sub{color:#666;font-size:13px}.dim{color:#999}
.chip{display:inline-block;padding:2px 9px;border-radius:11px;font-weight:600;font-size:12px;margin:2px 4px 2px 0;white-space:nowrap}
.bar{display:flex;height:14px;border-radius:7px;overflow:hidden;margin:12px 0 8px;max-width:900px;background:#eee}
.bar span{display:block;height:100%}
table{border-collapse:collapse;background:#fff}
.grid th,.grid td,.runs th,.runs td{border:1px solid #e0e0e0;padding:6px 8px;vertical-align:top;text-align:left}
.grid thead th,.runs thead th{background:#f0f0f0;font-size:13px}
.grid tbody th{font-weight:600;white-space:nowrap}
.grid td{min-width:140px;max-width:420px;border-left-width:4px}
a.b{display:inline-block;padding:1px 7px;margin:2px 2px;border-radius:4px;font-size:12px;text-decoration:none;white-space:nowrap}
a.b:hover{outline:2px solid #333}
.runs{width:100%;font-size:13px}.runs td.aux{min-width:240px}.runs td.msg{max-width:460px;white-space:pre-wrap;word-break:break-word}
.runs tr:target{outline:3px solid #1e88e5;background:#e3f2fd}
.runs .small{color:#777;font-size:11px;overflow-wrap:anywhere}
table.metrics{font-size:12px;background:transparent}table.metrics th{font-weight:normal;color:#555;padding:0 8px 0 0;border:0}
table.metrics td{padding:0;border:0;font-family:ui-monospace,Menlo,monospace;white-space:nowrap}
details summary{cursor:pointer;color:#1565c0;font-size:12px}
pre{background:#1e1e1e;color:#ddd;padding:8px;border-radius:4px;max-width:640px;max-height:320px;overflow:auto;font-size:12px;white-space:pre-wrap}
.thumbs{display:flex;gap:6px;flex-wrap:wrap}figure{margin:0;text-align:center;font-size:11px;color:#555}
figure img{max-width:120px;max-height:120px;border:1px solid #ccc;image-rendering:pixelated;background:#fff}
a.art{font-size:12px}
table.kv{font-size:13px;margin:2px 0}table.kv th{text-align:left;vertical-align:top;color:#444;padding:3px 10px 3px 6px;
 background:#f5f5f5;border:1px solid #e6e6e6;white-space:nowrap}table.kv td{padding:3px 6px;border:1px solid #e6e6e6}
ol.arr{margin:0;padding-left:22px}ol.arr>li{margin:3px 0}
.tag{display:inline-block;background:#eceff1;border-radius:3px;padding:0 5px;margin:1px;font-size:12px}
.o-OTHER{background:#555;color:#fff}
)";

// Per-outcome colours: .o-<NAME> for chips and badges, td.w-<NAME> for a grid cell's worst-outcome border.
inline std::string outcome_css() {
    std::string css;
    for (const auto &s : outcome_table()) {
        css += std::string(".o-") + s.name + "{background:" + s.colour + ";color:" + s.text_colour + "}";
        css += std::string("td.w-") + s.name + "{border-left-color:" + s.colour + "}";
    }
    return css + ".o-CRASH{box-shadow:inset 0 0 0 1px #ff5252}\n";
}

}  // namespace report_style
}  // namespace harness
