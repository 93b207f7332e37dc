"""What the machine was doing during a benchmark block, and whether a change of the numbers can be judged.

Every benchmark run records, per profile block (bench context "machine.<profile>"; pipeline-benchmarks one
block "machine.run" for all its profiles): the machine before, after and sampled during the block (clocks,
temperatures, throttling, CPU pressure, harness/src/devices/machine_state.h) and a calibration at the block's
start and end (a fixed CPU workload, the host copy, the profile runtime's device copy:
harness/bench/calibration.h).

A comparison of runs sets each benchmark's change beside how much the machine moved between the two blocks:
  * the calibration of the candidate's block against the base's (the same work, so a build cannot move it),
  * the calibration's drift within either block (start -> end),
  * the CPU and GPU clocks (mean while sampled),
  * the share of their runnable time the benchmark's own threads waited for a CPU (schedstat; as the factor
    (1 - base) / (1 - candidate) by which the same work takes longer), and the share
    of the time any task waited (PSI, /proc/pressure/cpu): a neighbour's load that came and went between the
    calibrations still shows here (PSI alone cannot tell on a machine whose niced background work always
    waits: it reads ~100 % in every run of the shared dev VM),
  * throttling seen (NVML throttle reasons, a thermal zone past its passive trip point, a CPU cooling device
    engaged, Intel's thermal throttle counters).
A move smaller than FLOOR is the machine's own noise and ignored. When throttling was seen, or a move is at
least RATIO times the effect being judged (the benchmark's change, at least the minimum effect; for "unchanged"
the minimum effect, which the move could hide), the verdict is "environment changed: not judged", with the
numbers, never a regression or an improvement (nor "unchanged").
FLOOR and RATIO come from measurements (README, "Noise-aware verdicts", says how).
"""

import json

from ..jsonio import InputError

# A move below FLOOR (relative; for the benchmark threads' wait, the factor of wall time it predicts) is the
# machine's own noise: the one-thread calibration moved at most 3 % between runs of the shared 2-core dev VM
# even under a load of 20, and an idle machine's threads wait a few per cent of their time.
FLOOR = 0.10
# A move of at least RATIO x the effect makes the effect unjudgeable. Measured on the dev VM (the same build,
# a load of two spinners coming and going): the benchmarks' change was up to 7.8x the change the threads' wait
# predicted (a 2-thread parallel loop waits for its slower thread), so a move of an eighth of the effect can
# explain it. With FLOOR, a change under 80 % is judged only when nothing moved past the noise.
RATIO = 0.125

CALIBRATIONS = (  # (key, label, higher_is_faster, judged)
    # on all the profile's threads: shown, not judged (on a loaded machine its best is one chunk's time or two,
    # whether two cores were ever free at once, which the threads' wait already measures)
    ("cpu_work_ms", "cpu work", False, False),
    ("cpu_work_1t_ms", "cpu work (1 thread)", False, True),
    ("host_copy_GBps", "host copy", True, True),
)


def blocks_of(context):
    """{block name: block} from a bench context's "machine.<name>" entries (JSON text, or already parsed)."""
    out = {}
    for k, v in (context or {}).items():
        if not k.startswith("machine.") or k.count(".") != 1:
            continue
        try:
            block = json.loads(v) if isinstance(v, str) else v
        except ValueError:
            raise InputError("bench context %s: not JSON; pass a bench file `aot-harness bench --json` wrote" % k)
        if isinstance(block, dict):
            out[k[len("machine.") :]] = block
    return out


def block_for(blocks, profile):
    """The block that covered `profile`: its own, else one listing it (pipeline-benchmarks' "run")."""
    if profile in blocks:
        return blocks[profile]
    for b in blocks.values():
        if profile in (b.get("profiles") or []):
            return b
    return None


def _num(x):
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def calibration_values(block, judged_only=False):
    """{label: (start, end, higher is faster)} of a block's calibration (device copies per runtime)."""
    cal = (block or {}).get("calibration") or {}
    start, end = cal.get("start") or {}, cal.get("end") or {}
    out = {}
    for key, label, faster, judged in CALIBRATIONS:
        if _num(start.get(key)) is not None and (judged or not judged_only):
            out[label] = (start[key], _num(end.get(key)), faster)
    for rt, v in (start.get("device_copy_GBps") or {}).items():
        if _num(v) is not None:
            out["%s copy" % rt] = (v, _num((end.get("device_copy_GBps") or {}).get(rt)), True)
    return out


def _slowdown(base, cand, faster):
    """Relative change as a slowdown (positive = the candidate's machine is slower) of a time or a speed."""
    if not base or not cand:
        return None
    return base / cand - 1.0 if faster else cand / base - 1.0


def _mean(pair):
    a, b = pair
    return a if b is None else (a + b) / 2.0


def clocks(block):
    """{"cpu MHz": mean over the samples, "gpu<i> SM MHz": mean} where exposed."""
    during = (block or {}).get("during") or {}
    out = {}
    cpu = during.get("cpu_mhz") or {}
    if _num(cpu.get("mean")):
        out["cpu MHz"] = cpu["mean"]
    for g in during.get("gpus") or []:
        sm = g.get("sm_mhz") or {}
        if _num(sm.get("mean")):
            out["gpu%s SM MHz" % g.get("index", 0)] = sm["mean"]
    return out


def pressure(block):
    return _num(((block or {}).get("during") or {}).get("psi_cpu_some"))


def waited(block):
    """The share of their runnable time the benchmark's own threads waited for a CPU (schedstat), or None."""
    return _num(((block or {}).get("during") or {}).get("wait_share"))


def throttling(block):
    return list(((block or {}).get("during") or {}).get("throttle") or [])


def device_only(block):
    """True for a GPU profile's own block (one device copy in its calibration): its benchmarks keep inputs and
    outputs on the device, so the host copy's speed is shown but does not decide whether they can be judged
    (on a quiet H200 it moved 16-19 % between identical runs while the device copy moved 4 %)."""
    copies = (((block or {}).get("calibration") or {}).get("start") or {}).get("device_copy_GBps") or {}
    return len(copies) == 1 and len((block or {}).get("profiles") or []) <= 1


def moves(base_block, cand_block):
    """How the machine moved between two blocks: a list of {what, base, cand, move} (move: positive = the
    candidate's machine slower), and the throttling either saw."""
    out = []
    bc, cc = calibration_values(base_block, True), calibration_values(cand_block, True)
    if device_only(base_block) and device_only(cand_block):
        for cal in (bc, cc):
            cal.pop("host copy", None)
    for label in sorted(set(bc) & set(cc)):
        b, c = _mean(bc[label][:2]), _mean(cc[label][:2])
        m = _slowdown(b, c, bc[label][2])
        if m is not None:
            out.append({"what": "%s between the runs" % label, "base": b, "cand": c, "move": m})
    for side, cal in (("base", bc), ("candidate", cc)):
        for label, (start, end, faster) in sorted(cal.items()):
            m = _slowdown(start, end, faster) if end is not None else None
            if m is not None:
                out.append({"what": "%s within the %s's block" % (label, side), "base": start, "cand": end, "move": m})
    bk, ck = clocks(base_block), clocks(cand_block)
    for label in sorted(set(bk) & set(ck)):
        out.append({"what": label, "base": bk[label], "cand": ck[label], "move": _slowdown(bk[label], ck[label], True)})
    pb, pc = pressure(base_block), pressure(cand_block)
    if pb is not None and pc is not None:
        out.append({"what": "share of the time a task waited for a CPU", "base": pb, "cand": pc, "move": pc - pb})
    wb, wc = waited(base_block), waited(cand_block)
    if wb is not None and wc is not None:
        # A thread that waits a share w of its runnable time gets (1 - w) of a CPU: the same work takes
        # (1 - wb) / (1 - wc) times as long (waiting 85 % -> 90 % is 1.5x, not +5 %).
        out.append(
            {
                "what": "share of the time the benchmark's threads waited for a CPU",
                "base": wb,
                "cand": wc,
                "move": (1.0 - wb) / max(1.0 - wc, 0.01) - 1.0,
            }
        )
    thr = ["base: " + t for t in throttling(base_block)] + ["candidate: " + t for t in throttling(cand_block)]
    return out, thr


def environment(base_blocks, cand_blocks, profile):
    """The environment check of one profile: {"known": both sides have a block, "moves", "throttle",
    "largest": the largest |move| at or above FLOOR (0 when none)}."""
    b, c = block_for(base_blocks or {}, profile), block_for(cand_blocks or {}, profile)
    if b is None or c is None:
        return {"known": False, "moves": [], "throttle": [], "largest": 0.0}
    mv, thr = moves(b, c)
    big = [abs(m["move"]) for m in mv if abs(m["move"]) >= FLOOR]
    return {"known": True, "moves": mv, "throttle": thr, "largest": max(big) if big else 0.0}


def judge(change, min_effect, env, verdict="regression"):
    """'' when the change can be judged on this environment, else why not (one line with the numbers). The effect
    judged is the change for a regression or an improvement, the minimum effect for "unchanged" (a move of the
    machine can hide a change of that size)."""
    if not env or not env["known"]:
        return ""
    effect = max(abs(change), min_effect) if verdict in ("regression", "improvement") else min_effect
    if env["throttle"]:
        return "throttling seen (%s)" % "; ".join(env["throttle"][:3])
    if env["largest"] and env["largest"] >= RATIO * effect:
        worst = [m for m in env["moves"] if abs(m["move"]) >= FLOOR and abs(m["move"]) >= RATIO * effect]
        return "; ".join(describe_move(m) for m in sorted(worst, key=lambda m: -abs(m["move"]))[:3])
    return ""


def _val(what, v):
    if "share" in what:
        return "%.0f %%" % (100 * v)
    if "MHz" in what:
        return "%.0f MHz" % v
    if "copy" in what:
        return "%.3g GB/s" % v
    return "%.3g ms" % v


def describe_move(m):
    if "threads waited" in m["what"]:
        return "%s %s -> %s (%.1fx the wall time for the same work)" % (
            m["what"],
            _val(m["what"], m["base"]),
            _val(m["what"], m["cand"]),
            1.0 + m["move"],
        )
    if "share" in m["what"]:
        return "%s %s -> %s" % (m["what"], _val(m["what"], m["base"]), _val(m["what"], m["cand"]))
    return (
        "%s %s -> %s (%.0f %% slower)"
        % (m["what"], _val(m["what"], m["base"]), _val(m["what"], m["cand"]), 100 * m["move"])
        if m["move"] >= 0
        else "%s %s -> %s (%.0f %% faster)"
        % (m["what"], _val(m["what"], m["base"]), _val(m["what"], m["cand"]), -100 * m["move"])
    )


def block_summary(block):
    """One line of a block for reports and the dashboard: clocks, hottest temperature, throttling, CPU
    pressure, calibration (start -> end)."""
    if not block:
        return "no machine record"
    parts = []
    for label, v in clocks(block).items():
        parts.append("%s %.0f" % (label, v))
    if not clocks(block):
        parts.append("clocks not exposed")
    t = (block.get("during") or {}).get("temp_c_max")
    parts.append("max %.0f C" % t if _num(t) is not None else "temperatures not exposed")
    p = pressure(block)
    if p is not None:
        parts.append("some task waited for a CPU %.0f %%" % (100 * p))
    w = waited(block)
    if w is not None:
        parts.append("the benchmark's threads waited %.0f %%" % (100 * w))
    for label, (start, end, _f) in calibration_values(block).items():
        unit = "GB/s" if "copy" in label else "ms"
        parts.append("%s %.3g%s %s" % (label, start, "" if end is None else " -> %.3g" % end, unit))
    thr = throttling(block)
    parts.append("throttling: " + ("; ".join(thr) if thr else "none"))
    return ", ".join(parts)


def state_line(state):
    """One reading (machine_state.h) in a line: CPU clocks, the hottest zone, GPUs, throttling."""
    if not isinstance(state, dict):
        return "not recorded"
    cpu = state.get("cpu") or {}
    mhz = [m for m in cpu.get("mhz") or [] if _num(m)]
    parts = ["cpu %.0f-%.0f MHz" % (min(mhz), max(mhz)) if mhz else "cpu clocks not exposed"]
    zones = [z for z in ((state.get("thermal") or {}).get("zones") or []) if _num(z.get("temp_c"))]
    if zones:
        hot = max(zones, key=lambda z: z["temp_c"])
        parts.append("hottest %.1f C (%s)" % (hot["temp_c"], hot.get("type") or hot.get("zone")))
    else:
        parts.append("temperatures not exposed")
    for d in (state.get("devfreq") or {}).get("devices") or []:
        parts.append("%s %.0f MHz" % (d.get("name"), d.get("mhz") or 0))
    gpu = state.get("gpu") or {}
    for g in gpu.get("gpus") or []:
        parts.append("gpu%s %s MHz %s C" % (g.get("index"), g.get("sm_mhz", "?"), g.get("temp_c", "?")))
    if not gpu.get("gpus"):
        parts.append("gpu: " + str(gpu.get("source") or "not exposed"))
    return ", ".join(parts)
