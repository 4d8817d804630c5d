"""Rule research on a phase of any game family, through the game protocol (:mod:`dipsat.game.protocol`).

* :func:`explore_game` — the phase under every setting its family names (``GameProtocol.settings``:
  its rules, then each other value of each option that can change a phase): the distinct
  outcomes, and which settings give which; with the count of consistent readings of the rules
  as written where the family's result states it.
* :func:`why_game` — what one order's outcome hinges on: its culprits and typed details, the
  other orders (each left out in turn, ``GameProtocol.without``) and the settings that change it.

The Diplomacy boards have more to say (every resolution of a movement's equations, the decisions
that force an outcome): :mod:`dipsat.research.research`.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Optional

from pydantic import BaseModel

from dipsat.errors import DipsatError
from dipsat.game.protocol import GameProtocol, PhaseOutcome, PhaseResult
from dipsat.records import dataclass
from dipsat.research.research import WhyAnswer


@dataclass
class GameExploration:
    settings: int
    outcomes: list[tuple[list[str], dict[str, str]]] = field(default_factory=list)  # (labels, order -> result)
    readings: Optional[int] = None  # consistent readings as written (the result's own count)
    readings_complete: bool = True
    readings_by: dict[str, str] = field(default_factory=dict)  # setting -> its count, where it differs
    errors: list[tuple[str, str]] = field(default_factory=list)  # (label, error)


def _summary(res: PhaseResult) -> dict[str, str]:
    out = {f"{o.power}: {o.order}": o.result for o in res.outcomes}
    out["(position after)"] = "; ".join(f"{p} {', '.join(u)}" for p, u in sorted(res.units_after.items()))
    out["(next phase)"] = res.next_phase or "none (the game is over)"
    return out


def explore_game(game: GameProtocol, request: Any, options: BaseModel, limit: int = 64) -> GameExploration:
    settings = game.settings(options)[:max(limit, 1)]
    ex = GameExploration(len(settings))
    for label, opts in settings:
        try:
            res = game.adjudicate(request, opts)
        except DipsatError as exc:
            ex.errors.append((label, str(exc)))
            continue
        count = (res.details or {}).get("readings")
        if isinstance(count, int):
            shown = f"{count}{'' if (res.details or {}).get('readings_complete', True) else '+'}"
            if label == settings[0][0]:
                ex.readings, ex.readings_complete = count, bool((res.details or {}).get("readings_complete", True))
            elif ex.readings is not None and shown != f"{ex.readings}{'' if ex.readings_complete else '+'}":
                ex.readings_by[label] = shown
        s = _summary(res)
        for labels, seen in ex.outcomes:
            if seen == s:
                labels.append(label)
                break
        else:
            ex.outcomes.append(([label], s))
    return ex


def format_game_exploration(ex: GameExploration) -> str:
    lines: list[str] = []
    if ex.readings is not None:
        lines.append(f"Consistent readings of the rules as written: {ex.readings}{'' if ex.readings_complete else '+'}")
        if ex.readings_by:
            lines.append("Under the settings that change their number: "
                         + "; ".join(f"{label}: {n}" for label, n in ex.readings_by.items()))
    lines.append(f"Distinct outcomes under {ex.settings} settings of the rules: {len(ex.outcomes)}")
    base = ex.outcomes[0][1] if ex.outcomes else {}
    for i, (labels, s) in enumerate(ex.outcomes, 1):
        lines.append(f"  #{i}: {', '.join(labels)}")
        if i == 1:
            lines += [f"      {k}: {v}" for k, v in s.items()]
        else:
            lines += [f"      {k}: {v}" for k, v in s.items() if base.get(k) != v]
    for label, err in ex.errors:
        lines.append(f"  {label}: error: {err}")
    return "\n".join(lines)


def _details(o: PhaseOutcome) -> list[str]:
    return [f"{k.replace('_', ' ')}: {', '.join(map(str, v)) if isinstance(v, list) else v}"
            for k, v in sorted((o.details or {}).items())]


def why_game(game: GameProtocol, request: Any, options: BaseModel, order: str) -> WhyAnswer:
    res = game.adjudicate(request, options)
    target = res.outcome(order)
    ans = WhyAnswer(f"{target.power}: {target.order}", target.result, target.reason or "")
    ans.culprits = [f"{c.power}: {c.order}" for c in target.culprits]
    ans.details = _details(target)
    readings = (res.details or {}).get("readings")
    if isinstance(readings, int) and readings != 1:
        ans.backup = f"the rules as written give {readings} readings of this phase: {(res.details or {}).get('backup')}"
    key = f"{target.power}: {target.order}"
    for o in res.outcomes:
        if o is target:
            continue
        try:
            alt = game.adjudicate(game.without(request, o.power, o.order), options)
            other = alt.outcome(key)
        except DipsatError:
            continue
        if (other.result, other.details) != (target.result, target.details):
            ans.orders.append((f"{o.power}: {o.order}", f"without it: {other.result} — {other.reason}"))
    for label, opts in game.settings(options)[1:]:
        name, _, text = label.partition("=")
        value = getattr(opts, name, text)
        try:
            other = game.adjudicate(request, opts).outcome(key)
        except DipsatError as exc:
            ans.options.append((name, getattr(options, name, None), value, f"error: {exc}"))
            continue
        if (other.result, other.details) != (target.result, target.details):
            ans.options.append((name, getattr(options, name, None), value, f"{other.result} — {other.reason}"))
    return ans
