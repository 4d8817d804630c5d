"""A corpus case of any game family, run and checked through the game protocol
(:mod:`dipsat.game.protocol`): the case is read as its family's request, adjudicated under the
expectation's rules and options into a :class:`~dipsat.game.protocol.PhaseResult`, and each
expectation compared with the result's typed values:

* ``orders``: each order's outcome (succeeds, fails, partial, illegal) from its outcome kind;
* ``reasons``: texts the words rendered for an order must contain (or its outcome kind);
* ``units_after``: the position after, read in the request's own terms (``GameProtocol.units``);
* ``winners``: the result's winners; ``readings``, ``backup``: the family's own fields (its ``details``);
* ``facts``: dotted paths into the result's ``details`` (a family's own results), or ``error``:
  a text the error must contain.

The Diplomacy boards' cases are checked by :func:`dipsat.io.corpus.compare` (dislodged units,
retreat options, phases of a game), over the pipeline's own results.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from dipsat.errors import DipsatError
from dipsat.limits import DEFAULT_LIMITS
from dipsat.game.protocol import GameProtocol, PhaseResult

if TYPE_CHECKING:
    from dipsat.io.cases import CaseRun, CorpusCase, Expectation
    from dipsat.limits import Limits

REJECTED = ("rejected",)
ILLEGAL = ("illegal", "invalid", "ambiguous")


def case_data(case: "CorpusCase") -> dict[str, Any]:
    """A case as the data of a request file (what ``GameProtocol.read`` reads)."""
    return {"variant": case.variant, "phase": case.phase, "units": case.units, "orders": case.orders,
            "owners": case.owners, "retreat_orders": case.retreat_orders, "data": dict(case.data), "expect": []}


def run_case(game: GameProtocol, case: "CorpusCase", rules: str, exp: "Expectation", path: str,
             limits: Optional["Limits"] = None) -> "CaseRun":
    """One expectation of a case of ``game``'s family, read within ``limits``."""
    from dipsat.io.cases import CaseRun, check_facts

    label = rules + ("+" + ",".join(f"{k}={v}" for k, v in sorted(exp.options.items())) if exp.options else "")
    run = CaseRun(case.id, label, path, passed=False, case=case, expectation=exp)
    bad = [f for f in ("dislodged", "retreats", "retreat_options", "phases", "next_phase") if getattr(exp, f)]
    if bad or case.phase not in ("movement",) or case.owners or case.retreat_orders:
        run.problems.append(f"a {game.name} case gives units, orders and data, and states orders, reasons, units_after, "
                            f"readings, winners, backup or facts" + (f" (not {', '.join(bad)})" if bad else ""))
        return run
    got: list[tuple[Any, PhaseResult]] = []

    def play() -> Any:
        req = game.read(case_data(case), path, limits or DEFAULT_LIMITS)
        res = game.adjudicate(req, game.options(req, rules, dict(exp.options)))
        got.append((req, res))
        return res.details or {}

    run.problems = check_facts(play, dict(exp.facts))
    if got and "error" not in exp.facts:
        req, res = got[0]
        run.problems += check_result(game, req, exp, res)
    run.passed = not run.problems
    return run


def check_result(game: GameProtocol, req: Any, exp: "Expectation", res: PhaseResult) -> list[str]:
    """The differences between a result and an expectation (see the module's docstring)."""
    problems: list[str] = []
    for key, expected in exp.orders.items():
        try:
            o = res.outcome(key)
        except DipsatError as exc:
            problems.append(f"order {key!r}: {exc}")
            continue
        ok = {"succeeds": o.succeeded, "fails": not o.succeeded, "partial": o.result == "partial",
              "illegal": o.kind in REJECTED or o.result in ILLEGAL}[expected]
        if not ok:
            problems.append(f"order {key!r}: expected {expected}, got {o.result} ({o.reason})")
    for key, texts in exp.reasons.items():
        try:
            o = res.outcome(key)
        except DipsatError as exc:
            problems.append(f"reasons: {exc}")
            continue
        for t in [texts] if isinstance(texts, str) else texts:
            if t not in (o.reason or "") and t != o.result:
                problems.append(f"reason of {key!r}: expected it to contain {t!r}, got {o.result}: {o.reason!r}")
    if exp.units_after is not None:
        try:
            want = game.units(req, exp.units_after)
        except DipsatError as exc:
            problems.append(f"units_after: {exc}")
        else:
            if want != res.units_after:
                diff = sorted(set(want) | set(res.units_after))
                problems.append("units_after: " + "; ".join(f"{p}: expected {want.get(p, [])}, got {res.units_after.get(p, [])}"
                                                           for p in diff if want.get(p, []) != res.units_after.get(p, [])))
    details = res.details or {}
    if exp.readings is not None and exp.readings != details.get("readings"):
        problems.append(f"readings: expected {exp.readings} consistent resolutions, got {details.get('readings')}")
    if exp.winners is not None and sorted(exp.winners) != sorted(res.winners):
        problems.append(f"winners: expected {sorted(exp.winners)}, got {sorted(res.winners)}")
    if exp.backup is not None and (details.get("backup") is not None) != (exp.backup != "none"):
        problems.append(f"backup: expected {exp.backup}, got {details.get('backup') or 'none'}")
    return problems
