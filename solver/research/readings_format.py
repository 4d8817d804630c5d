"""What ``dipsat readings`` prints: each order's outcome as conditions on the rule options, the
classes of the whole turn, the counts of the one model's resolutions, and the same as JSON.
"""

from __future__ import annotations

from typing import Any, Optional

from dipsat.errors import DipsatError
from dipsat.records import dataclass
from dipsat.research.option_conditions import conditions, cube_key, describe_condition
from dipsat.research.readings import SPACE_LIMIT, Reading, Readings, SpaceStats

# -- output ---------------------------------------------------------------------------------------


@dataclass
class OrderReading:
    order: str
    depends: list[str]
    outcomes: list[tuple[str, str]]  # (result, condition), the most frequent last


def order_readings(rd: Readings, order: Optional[str] = None) -> list[OrderReading]:
    out = []
    names = rd.orders()
    if order is not None:
        want = " ".join(order.lower().split())
        hits = [n for n in names if " ".join(n.lower().split()) == want
                or " ".join(n.split(": ", 1)[-1].lower().split()) == want]
        if not hits:
            raise DipsatError(f"order {order!r} is not one of the turn's orders: " + "; ".join(names))
        names = hits
    for name in names:
        absent = "(absent)" if rd.family else "(not ordered)"
        table = [(a, next((o.result for o in r.outcomes if o.order == name), absent)) for a, r in rd.table]
        deps, covers = conditions(rd.model, rd.options, table)
        counts = {v: sum(1 for _, x in table if x == v) for v in covers}
        ordered = sorted(covers, key=lambda v: (counts[v], str(v)))
        out.append(OrderReading(name, deps, [(v, describe_condition(rd.model, deps, covers[v])) for v in ordered]))
    return out


def turn_classes(rd: Readings) -> tuple[list[str], list[tuple[str, str, Reading]]]:
    """The distinct outcomes of the whole turn: (options the turn depends on, [(summary, condition, reading)])."""
    def sig(r: Reading) -> tuple[Any, ...]:
        return tuple((o.order, o.result) for o in r.outcomes) + r.after

    table = [(a, sig(r)) for a, r in rd.table]
    deps, covers = conditions(rd.model, rd.options, table)
    rows = []
    for s, cubes in sorted(covers.items(), key=lambda kv: cube_key(kv[1][0]) if kv[1] and kv[1][0] else ()):
        reading = next(r for a, r in rd.table if sig(r) == s)
        rows.append((s, describe_condition(rd.model, deps, cubes), reading))
    return deps, [(str(i + 1), cond, r) for i, (_, cond, r) in enumerate(rows)]


def format_readings(rd: Readings, order: Optional[str] = None) -> str:
    lines = []
    deps, classes = turn_classes(rd)
    for orr in order_readings(rd, order):
        if len(orr.outcomes) == 1:
            lines.append(f"{orr.order}: {orr.outcomes[0][0]} under every reading")
            continue
        head = "; ".join(f"{res} iff {cond}" for res, cond in orr.outcomes[:-1])
        lines.append(f"{orr.order}: {head}; else {orr.outcomes[-1][0]}")
    if order is None and rd.table and rd.table[0][1].before_backup is not None:
        table = [(a, r.before_backup) for a, r in rd.table]
        deps_b, covers = conditions(rd.model, rd.options, table)
        capped = "+" if rd.space_capped else ""
        parts = sorted(covers, key=lambda v: -1 if v is None else v)
        text = ("; ".join(f"{_count(v)}{capped} iff {describe_condition(rd.model, deps_b, covers[v])}" for v in parts[:-1])
                + ("; else " if len(parts) > 1 else "") + f"{_count(parts[-1])}{capped}" + (" under every reading" if len(parts) == 1 else ""))
        lines.append(f"Consistent resolutions before any backup rule: {text}")
    if order is None and rd.family:
        lines.append(f"Distinct outcomes: {len(classes)}" + (f" (depending on {', '.join(deps)})" if deps else ""))
        if len(classes) > 1:
            for i, cond, r in classes:
                lines.append(f"  #{i} when {cond}")
        never = [n for n in rd.candidates if n not in deps]
        lines.append(f"Options that never matter for this file ({len(never)} of {len(rd.candidates)}): " + ", ".join(never))
        lines.append(f"Enumerated: {len(rd.options)} options touch the file, {len(rd.table)} assignments; "
                     f"no one model ({rd.runs_note}): "
                     f"{len(rd.classes)} runs, one per class of the options each run read")
        return "\n".join(lines)
    if order is None:
        lines.append(f"Distinct outcomes of the whole turn: {len(classes)}"
                     + (f" (depending on {', '.join(deps)})" if deps else ""))
        if len(classes) > 1:
            for i, cond, r in classes:
                lines.append(f"  #{i} when {cond}")
        never = [n for n in rd.candidates if n not in deps]
        lines.append(f"Options that never matter for this turn ({len(never)} of {len(rd.candidates)}): " + ", ".join(never))
        lines.append(f"Enumerated: {len(rd.options)} options touch the turn, {len(rd.table)} assignments; "
                     f"in the model: {', '.join(rd.in_model) or 'none'} ({rd.space_calls} one-model enumeration{'s' if rd.space_calls != 1 else ''}); "
                     f"{rd.solves} distinct equation systems solved with their backup rules; "
                     f"cycles counted from the one model: {rd.stats.from_model}, re-solved: {rd.stats.resolved}"
                     + (f" ({_resolved(rd.stats)})" if rd.stats.resolved else ""))
    return "\n".join(lines)


def _resolved(st: SpaceStats) -> str:
    parts = [(st.changed, "where no resolution is consistent or a backup rule changed the equations"),
             (st.downstream, "with a cycle or integer decision downstream"),
             (st.unenumerated, "beyond the one model's enumeration limit")]
    return ", ".join(f"{n} {why}" for n, why in parts if n)


def _count(v: Optional[int]) -> str:
    return f"not counted (more than {SPACE_LIMIT} in the one model)" if v is None else str(v)


def readings_json(rd: Readings) -> dict[str, Any]:
    deps, classes = turn_classes(rd)
    return {
        "options": rd.options,
        "in_model": rd.in_model,
        "cycles_from_model": rd.stats.from_model,
        "cycles_resolved": {"after_backup_changed_equations": rd.stats.changed,
                            "downstream_cycle_or_integer": rd.stats.downstream,
                            "beyond_enumeration_limit": rd.stats.unenumerated},
        "never_matter": [n for n in rd.candidates if n not in deps],
        "distinct_outcomes": len(classes),
        "orders": [{"order": o.order, "depends_on": o.depends,
                    "outcomes": [{"result": r, "when": c} for r, c in o.outcomes]} for o in order_readings(rd)],
        "table": [{"options": a, "outcomes": {o.order: o.result for o in r.outcomes}, "after": list(r.after),
                   "resolutions_before_backup": r.before_backup} for a, r in rd.table],
    }
