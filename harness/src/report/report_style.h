// The report's look: outcome colours and the page's inline CSS (report.cpp and report_runs.cpp; header-only).
#pragma once
#include <algorithm>
#include <iterator>
#include <string>

#include "base/outcome.h"

namespace harness {
namespace report_style {

// Whether `name` is an outcome of the table (harness/outcome.h), which gives each its colours.
inline bool known_style(const std::string &name) {
    return find_outcome(name) != nullptr;
}

// CSS class of an outcome name: "o-<NAME>" for the table's names, "o-OTHER" for any other.
inline std::string css_class(const std::string &outcome) {
    return known_style(outcome) ? "o-" + outcome : "o-OTHER";
}

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
.grid td{min-width:140px;max-width:420px;border-left-width:4px}.grid td.pc{min-width:0}
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
figure img{width:192px;height:auto;max-height:256px;object-fit:contain;border:1px solid #ccc;image-rendering:pixelated;background:#fff}
.card{background:#fff;border:1px solid #e0e0e0;border-left:6px solid #555;border-radius:4px;padding:8px 12px;margin:10px 0;max-width:1100px}
.card h3{margin:0 0 2px;font-size:15px}.card .msg{white-space:pre-wrap;word-break:break-word;margin:6px 0}
.card .small,.fold .small{color:#777;font-size:12px}.out{margin:8px 0}.out h4{margin:4px 0;font-size:13px}
p.worst{font-family:ui-monospace,Menlo,monospace;font-size:12px;margin:4px 0}.timing{font-size:12px;color:#444}
figure.crop .cw{position:relative;width:136px;height:136px;overflow:hidden;border:1px solid #888;background:#fff}
figure.crop .cw img{position:absolute;transform:scale(8);transform-origin:0 0;width:auto;height:auto;max-width:none;max-height:none;border:0}
figure.crop .mark{position:absolute;left:63px;top:63px;width:8px;height:8px;border:1px solid #00e5ff;outline:1px solid #000}
details.fold{background:#fff;border:1px solid #e6e6e6;border-radius:4px;margin:3px 0;padding:3px 8px;max-width:1100px}
details.fold>summary{font-size:13px;color:#222}details.fold[open]{padding-bottom:8px}
details.fold table.runs td.msg{max-width:520px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
td.tmc{white-space:nowrap;font-size:12px}svg.tm{vertical-align:middle}.tm-bar{fill:#90caf9}
.tm-w{stroke:#1565c0;stroke-width:1.5}.tm-m{stroke:#0d47a1;stroke-width:2}
a.art{font-size:12px}
table.kv{font-size:13px;margin:2px 0}table.kv th{text-align:left;vertical-align:top;color:#444;padding:3px 10px 3px 6px;
 background:#f5f5f5;border:1px solid #e6e6e6;white-space:nowrap}table.kv td{padding:3px 6px;border:1px solid #e6e6e6}
ol.arr{margin:0;padding-left:22px}ol.arr>li{margin:3px 0}
.tag{display:inline-block;background:#eceff1;border-radius:3px;padding:0 5px;margin:1px;font-size:12px}
.o-OTHER{background:#555;color:#fff}
)";

// Opens the folded group holding the run a link points at (#run-N), on load and on every link followed;
// marks the page ready for the browser test.
constexpr const char *kScript = R"(
(function () {
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1)), el = id && document.getElementById(id);
    if (!el) return;
    for (var d = el.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) d.open = true;
    el.scrollIntoView();
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
  document.body.setAttribute('data-ready', '1');
})();
)";

// Per-outcome colours: .o-<NAME> for chips and badges, .w-<NAME> for a grid cell's or card's left border.
inline std::string outcome_css() {
    std::string css;
    for (const auto &s : outcome_table()) {
        css += std::string(".o-") + s.name + "{background:" + s.colour + ";color:" + s.text_colour + "}";
        css += std::string(".w-") + s.name + "{border-left-color:" + s.colour + "}";
    }
    return css + ".o-CRASH{box-shadow:inset 0 0 0 1px #ff5252}\n";
}

}  // namespace report_style
}  // namespace harness
