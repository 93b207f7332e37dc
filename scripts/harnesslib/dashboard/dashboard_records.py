"""Record pages of the dashboard (records/<run>-<test>.html): message, metrics, stderr and one golden / output /
diff set per output: the harness's own PNGs, or rendered from the kept .npy output when the run has none."""

import html
import os
import re
import shutil

from . import imaging
from .. import data, jsonio
from ..history import ingest

COLOURS = {name: colour for name, (colour, _text) in data.COLOURS.items()}  # the outcome table's


def slug(s):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", s)


def artifact_output(name):
    """(output name, kind) of an artifact key: 'out.golden_png' -> ('out', 'golden'), 'out.output_npy' and the
    older 'out_output' -> ('out', 'npy'); (name, '') for anything else."""
    for suffix, kind in (("_png", None), (".output_npy", "npy"), ("_output", "npy")):
        if name.endswith(suffix):
            stem = name[: -len(suffix)]
            if kind:
                return stem, kind
            out, _, k = stem.rpartition(".")
            return (out, k) if out and k in IMAGE_KINDS else (name, "")
    return name, ""


IMAGE_KINDS = ("golden", "output", "diff")


def record_images(rdir, stem, rec, golden_dir):
    """One golden / output / diff set per output of a record, copied or rendered into rdir: the harness's own
    PNGs when the run kept them, else rendered from the kept .npy output and the golden. Returns
    ([(label, file name)], [artifact lines without an image])."""
    pngs, npys, links = {}, {}, []
    for aname, path in ingest.flatten(rec.get("artifacts") or {}, "", []):
        path = str(path)
        out, kind = artifact_output(aname)
        if kind in IMAGE_KINDS and os.path.exists(path):
            pngs.setdefault(out, {})[kind] = path
        elif kind == "npy" and os.path.exists(path):
            npys[out] = path
        else:
            links.append("%s: %s" % (aname, path))
    for out, path in sorted(npys.items()):
        if set(pngs.get(out, {})) >= set(IMAGE_KINDS):
            links.append("%s output: %s" % (out, path))
            continue
        golden = os.path.join(golden_dir, rec["pipeline"], "%s.npy" % rec["case"])
        if not os.path.exists(golden):
            golden = os.path.join(golden_dir, rec["pipeline"], "%s.%s.npy" % (rec["case"], out))
        try:
            rendered = imaging.write_triplet(golden, path, os.path.join(rdir, slug("%s-%s" % (stem, out))))
            pngs[out] = dict(zip(IMAGE_KINDS, rendered))
        except (OSError, ValueError) as err:
            links.append("%s output: %s (no image: %s)" % (out, path, err))
    images = []
    for out in sorted(pngs):
        for kind in IMAGE_KINDS:
            if kind in pngs[out]:
                dst = slug("%s-%s-%s" % (stem, out, kind)) + ".png"
                if os.path.abspath(pngs[out][kind]) != os.path.abspath(os.path.join(rdir, dst)):
                    shutil.copyfile(pngs[out][kind], os.path.join(rdir, dst))
                images.append(((out + ": " if len(pngs) > 1 else "") + kind, dst))
    return images, links


def record_page(out_dir, run, rec, golden_dir):
    """Writes records/<name>.html for one test record; returns its path relative to out_dir."""
    e = html.escape
    key = data.test_key(rec)
    name = slug("run%d-%s" % (run["id"], key)) + ".html"
    rdir = os.path.join(out_dir, "records")
    jsonio.make_dirs(rdir)
    images, links = record_images(rdir, "run%d-%s" % (run["id"], key), rec, golden_dir)
    metrics = ingest.flatten(rec.get("metrics") or {}, "", [])
    body = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>%s</title><link rel='stylesheet' "
        "href='../style.css'></head><body><p><a href='../index.html'>&larr; dashboard</a></p>" % e(key),
        "<h1>%s <span class='badge' style='background:%s'>%s</span></h1>"
        % (e(key), COLOURS.get(rec.get("outcome"), "#000"), e(rec.get("outcome", "?"))),
        "<p>%s</p><table>" % e(rec.get("message", "")),
    ]
    for k, v in (
        ("run", "#%d %s (%s)" % (run["id"], run["started"], (run["git_commit"] or "")[:12])),
        ("target", rec.get("target", "")),
        ("driver", data.test_driver(rec)),
        ("duration", "%.1f ms" % (rec.get("duration_ms") or 0)),
        ("recorded outcome", rec.get("result_outcome", "")),
    ):
        if v:
            body.append("<tr><th>%s</th><td>%s</td></tr>" % (e(k), e(str(v))))
    body.append("</table>")
    if images:
        body.append(
            "<h2>Images</h2><div class='thumbs'>"
            + "".join(
                "<figure><a href='%s'><img src='%s' alt='%s'></a><figcaption>%s</figcaption></figure>"
                % (e(f), e(f), e(n), e(n))
                for n, f in images
            )
            + "</div>"
        )
    if links:
        body.append("<h2>Artifacts</h2><ul>" + "".join("<li>%s</li>" % e(l) for l in links) + "</ul>")
    body.append(
        "<h2>Metrics</h2><table>"
        + "".join("<tr><th>%s</th><td>%s</td></tr>" % (e(k), e(str(v))) for k, v in metrics)
        + "</table>"
    )
    if rec.get("stderr_tail"):
        body.append("<h2>stderr</h2><pre>%s</pre>" % e(rec["stderr_tail"]))
    body.append("</body></html>\n")
    jsonio.write_atomic(os.path.join(rdir, name), "\n".join(body))
    return "records/" + name
