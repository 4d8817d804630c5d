"""The differential run: many seeded turns, each compared with every installed peer.

:func:`run_differential` adjudicates turns of :func:`benchmarks.peers.rich.make_turn` with
dipsat and each peer, classifies every disagreement (:func:`benchmarks.peers.deviations.classify`)
and returns a JSON-ready summary; :func:`format_report` prints it, :func:`problems` counts
what makes a run fail (unclassified disagreements, engine failures, refused orders).
"""

from __future__ import annotations

import json
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from .. import workload
from .deviations import DEVIATIONS, Verdict, classify, agree
from .engines import Dipsat, load_peers
from .rich import make_turn
from .turn import Loc, Turn


@dataclass
class TurnReport:
    """One turn against every peer.  A turn on which an engine refused an order is not
    compared for that engine (all peers, when dipsat refused) and is reported instead."""

    turn: str
    verdicts: list[Verdict] = field(default_factory=list)
    agreed: list[str] = field(default_factory=list)  # peers that agreed
    failures: list[dict[str, str]] = field(default_factory=list)  # engine raised
    refused: list[dict[str, str]] = field(default_factory=list)  # engine refused an order


def compare_turn(req: dict[str, Any], dipsat: Dipsat, peers: list[Any]) -> TurnReport:
    rep = TurnReport(req["id"])
    turn = Turn(req)
    try:
        ds = dipsat.run(req)
    except Exception as exc:
        rep.failures.append({"engine": "dipsat", "error": f"{type(exc).__name__}: {exc}",
                             "traceback": traceback.format_exc(limit=8)})
        return rep
    for r in ds.refused:
        rep.refused.append({"engine": "dipsat", "order": r})
    if ds.refused:  # the workload makes legal orders only: not comparable, reported
        return rep
    for peer in peers:
        try:
            run = peer.run(req)
        except Exception as exc:
            rep.failures.append({"engine": peer.name, "error": f"{type(exc).__name__}: {exc}",
                                 "traceback": traceback.format_exc(limit=8)})
            continue
        for r in run.refused:
            rep.refused.append({"engine": peer.name, "order": r})
        if run.refused:
            continue
        if agree(ds, run):
            rep.agreed.append(peer.name)
            continue
        try:
            rep.verdicts.append(classify(turn, peer, ds, run))
        except Exception as exc:
            rep.failures.append({"engine": f"classify {peer.name}", "error": f"{type(exc).__name__}: {exc}",
                                 "traceback": traceback.format_exc(limit=8)})
    return rep


def _loc_text(x: Loc) -> str:
    return f"{x[0]} {x[1]} {workload.loc_text(x[2])}"


def verdict_json(v: Verdict, req: dict[str, Any]) -> dict[str, Any]:
    return {"turn": v.turn, "peer": v.peer, "class": v.label, "note": v.note,
            "evidence": v.evidence, "diff": {k: [_loc_text(x) for x in xs] for k, xs in v.diff.items()},
            "planted": req.get("planted"), "units": req["units"], "orders": req["orders"]}


def run_differential(seed: int, turns: int, kind: str = "mixed", start: int = 0,
                     peer_names: tuple[str, ...] = ("mila", "pydip"), examples: int = 3,
                     progress: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    dipsat = Dipsat()
    peers, missing = load_peers(peer_names)
    per_peer: dict[str, dict[str, Any]] = {
        p.name: {"version": p.version, "compared": 0, "agree": 0, "disagree": 0, "classes": Counter(),
                 "other_peer_agrees": Counter(), "examples": {}, "unclassified": []} for p in peers}
    failures: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    planted: Counter = Counter()
    t0 = time.perf_counter()
    for i in range(start, start + turns):
        req = make_turn(seed, i, kind)
        planted.update(req.get("planted", []))
        rep = compare_turn(req, dipsat, peers)
        for f in rep.failures:
            failures.append({"turn": rep.turn, **f, "request": req})
        for r in rep.refused:
            refused.append({"turn": rep.turn, **r})
        for name in rep.agreed:
            per_peer[name]["compared"] += 1
            per_peer[name]["agree"] += 1
        for v in rep.verdicts:
            st = per_peer[v.peer]
            st["compared"] += 1
            st["disagree"] += 1
            st["classes"][v.label] += 1
            if any(p != v.peer for p in rep.agreed):  # another peer agrees with dipsat here
                st["other_peer_agrees"][v.label] += 1
            if v.classes:
                exs = st["examples"].setdefault(v.label, [])
                if len(exs) < examples:
                    exs.append(verdict_json(v, req))
            else:
                st["unclassified"].append(verdict_json(v, req))
        if (i - start + 1) % 500 == 0:
            progress(f"  {i - start + 1}/{turns} turns ({time.perf_counter() - t0:.0f} s)")
    for st in per_peer.values():
        st["classes"] = dict(sorted(st["classes"].items(), key=lambda kv: (-kv[1], kv[0])))
        st["other_peer_agrees"] = dict(st["other_peer_agrees"])
    return {
        "config": {"seed": seed, "turns": turns, "start": start, "workload": kind,
                   "turn_ids": "s<seed>-t<i> plain, s<seed>-r<i> rich"},
        "engines": {"dipsat": dipsat.version, **{p.name: p.version for p in peers},
                    **{k: v for k, v in missing.items()}},
        "peers": per_peer,
        "deviations": {d.name: {"peer": d.peer, "summary": d.summary, "datc": d.datc, "corpus": d.corpus}
                       for d in DEVIATIONS},
        "planted_situations": dict(sorted(planted.items())),
        "failures": failures,
        "refused_orders": refused,
        "seconds": round(time.perf_counter() - t0, 1),
    }


def format_report(res: dict[str, Any], show: int = 3) -> str:
    c = res["config"]
    out = [f"differential: seed {c['seed']}, {c['turns']} turns from {c['start']}, workload {c['workload']}, "
           f"{res['seconds']} s", "engines: " + ", ".join(f"{k} {v}" for k, v in res["engines"].items())]
    if res["planted_situations"]:
        out.append("planted situations (rich turns): "
                   + ", ".join(f"{k} {v}" for k, v in res["planted_situations"].items()))
    for name, st in res["peers"].items():
        n = st["compared"]
        pct = 100.0 * st["agree"] / n if n else float("nan")
        out.append("")
        out.append(f"== dipsat vs {name} {st['version']}: agree on {st['agree']}/{n} turns ({pct:.2f}%), "
                   f"disagree on {st['disagree']}")
        others = len(res["peers"]) > 1
        for label, k in st["classes"].items():
            corr = f"   (the other peer agrees with dipsat on {st['other_peer_agrees'].get(label, 0)})" if others else ""
            out.append(f"   {k:6d}  {label}{corr}")
        for label, exs in st["examples"].items():
            out.append(f"   -- {label}: first {min(show, len(exs))} example(s)")
            for ex in exs[:show]:
                out.append(f"      {ex['turn']}: " + " | ".join(e for evs in ex["evidence"].values() for e in evs[:1]))
                out.append("        differs: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in ex["diff"].items() if v))
                out.append("        orders: " + json.dumps(ex["orders"], separators=(",", ":")))
        for ex in st["unclassified"]:
            out.append(f"   !! UNCLASSIFIED {ex['turn']} ({ex['note']})")
            out.append("      differs: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in ex["diff"].items() if v))
            for dev, evs in ex["evidence"].items():
                out.append(f"      {dev}: " + " | ".join(evs))
            out.append("      units: " + json.dumps(ex["units"], separators=(",", ":")))
            out.append("      orders: " + json.dumps(ex["orders"], separators=(",", ":")))
    if res["deviations"]:
        out.append("")
        out.append("documented deviations:")
        for name, d in res["deviations"].items():
            out.append(f"  {name} [{d['peer']}]: {d['summary']} ({d['datc']}; {d['corpus']})")
    for key, what in (("failures", "engine failures"), ("refused_orders", "refused orders")):
        xs = res[key]
        if xs:
            out.append("")
            out.append(f"!! {len(xs)} {what}; first {min(len(xs), show)}:")
            for x in xs[:show]:
                out.append(f"   {x['turn']} {x['engine']}: {x.get('error') or x.get('order')}")
    return "\n".join(out)


def problems(res: dict[str, Any]) -> int:
    return (sum(len(st["unclassified"]) for st in res["peers"].values())
            + len(res["failures"]) + len(res["refused_orders"]))
