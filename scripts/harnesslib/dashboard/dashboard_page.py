"""The parts of the dashboard's page that are not data (dashboard.py): the latest pipeline x profile outcome
grid (a badge per case linking to its record page), the style sheet, and the script that draws the charts
(Chart.js, with a dashed marker where a driver changed) and tells the browser tests how many it drew."""

import html

from .dashboard_records import COLOURS, record_page


def grid_html(out_dir, run, tests, golden_dir):
    e = html.escape
    pipelines = sorted({r["pipeline"] for r in tests})
    profiles = []
    for r in tests:
        if r["profile"] not in profiles:
            profiles.append(r["profile"])
    rows = ["<table class='grid'><tr><th></th>%s</tr>" % "".join("<th>%s</th>" % e(p) for p in profiles)]
    for p in pipelines:
        cells = []
        for prof in profiles:
            badges = []
            for r in [t for t in tests if t["pipeline"] == p and t["profile"] == prof]:
                href = record_page(out_dir, run, r, golden_dir)
                label = r["case"] + ("" if r.get("mode", "host") == "host" else "/" + r["mode"])
                badges.append(
                    "<a class='badge' style='background:%s' href='%s' title='%s: %s'>%s<br><small>%s</small></a>"
                    % (
                        COLOURS.get(r["outcome"], "#000"),
                        e(href),
                        e(r["outcome"]),
                        e(r.get("message", "")),
                        e(label),
                        e(r["outcome"].replace("TEARDOWN_FAULT", "TEARDOWN")),
                    )
                )
            cells.append("<td>%s</td>" % "".join(badges))
        rows.append("<tr><th>%s</th>%s</tr>" % (e(p), "".join(cells)))
    rows.append(
        "</table><p class='legend'>%s</p>"
        % " ".join("<span class='badge' style='background:%s'>%s</span>" % (c, o) for o, c in COLOURS.items())
    )
    return "\n".join(rows)


CSS = """body{font:14px/1.45 system-ui,-apple-system,sans-serif;margin:0 auto;max-width:1400px;padding:1em 2em;color:#222}
h1{margin:.2em 0}h2{margin-top:1.4em;border-bottom:1px solid #ddd}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f5f5f5}.badge{display:inline-block;color:#fff;border-radius:4px;padding:3px 8px;margin:2px;
text-decoration:none;font-weight:600;text-align:center;min-width:4.5em}.badge small{font-weight:400;font-size:11px}
.grid td{background:#fafafa}.legend .badge{min-width:0;font-size:11px}
.alert{border-radius:6px;padding:.6em 1em;margin:.8em 0}.alert.bad{background:#fdecea;border:2px solid #d62728}
.alert.good{background:#e9f6ec;border:2px solid #2e9e44}.alert.env{background:#fff8e1;border:2px solid #e0a800}
.machine{font-size:12px}.charts{display:grid;grid-template-columns:1fr 1fr;gap:1.2em}
.chart{border:1px solid #ddd;border-radius:6px;padding:.6em}.chart h3{margin:0 0 .2em}.muted{color:#666}
.thumbs img{width:256px;image-rendering:pixelated;border:1px solid #ccc}figure{display:inline-block;margin:.5em}
pre{background:#f5f5f5;padding:.6em;overflow:auto}"""

JS = r"""
(function () {
  const specs = JSON.parse(document.getElementById('chart-data').textContent);
  const markerPlugin = {
    id: 'driverMarkers',
    afterDatasetsDraw(chart, _args, opts) {
      const ctx = chart.ctx, x = chart.scales.x, area = chart.chartArea;
      (opts.markers || []).forEach(function (m, k) {
        const px = x.getPixelForValue(m.index), y = area.top + 12 + 14 * (k % 3);
        ctx.save(); ctx.strokeStyle = '#555'; ctx.setLineDash([5, 4]); ctx.lineWidth = 1.5;
        ctx.beginPath(); ctx.moveTo(px, area.top); ctx.lineTo(px, area.bottom); ctx.stroke();
        ctx.setLineDash([]); ctx.font = '11px sans-serif';
        const w = ctx.measureText(m.text).width, right = px + 6 + w > area.right;
        const tx = right ? px - 4 - w : px + 4;
        ctx.fillStyle = 'rgba(255,255,255,0.85)'; ctx.fillRect(tx - 2, y - 10, w + 4, 13);
        ctx.fillStyle = '#333'; ctx.textAlign = 'left'; ctx.fillText(m.text, tx, y); ctx.restore();
      });
    }
  };
  let drawn = 0;
  specs.forEach(function (s) {
    const canvas = document.getElementById(s.id);
    new Chart(canvas, {
      type: 'line',
      data: {labels: s.labels, datasets: s.datasets.map(function (d) {
        return Object.assign({spanGaps: true, tension: 0, pointRadius: 3, borderWidth: 2, fill: false}, d); })},
      options: {animation: false, responsive: true, maintainAspectRatio: false,
        scales: {y: {beginAtZero: true, title: {display: true, text: 'Mpixel/s (median)'}},
                 x: {ticks: {maxRotation: 0, autoSkip: true}}},
        plugins: {legend: {position: 'bottom', labels: {filter: function (item, data) {
                   return !data.datasets[item.datasetIndex].band; }}},
                  driverMarkers: {markers: s.markers}}},
      plugins: [markerPlugin]
    });
    const ctx = canvas.getContext('2d');
    const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let ink = 0;
    for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) ink++;
    if (ink > 100) drawn++;
  });
  document.body.setAttribute('data-charts-total', String(specs.length));
  document.body.setAttribute('data-charts-drawn', String(drawn));
  document.body.setAttribute('data-ready', '1');
})();
"""
