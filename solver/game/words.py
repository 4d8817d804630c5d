"""A Diplomacy board's phase result in words (what ``dipsat adjudicate`` prints for it)."""

from __future__ import annotations

from typing import Any

from dipsat.models import dislodged_units


def _outcomes(outcomes: Any) -> list[str]:
    width = max((len(o.text) for o in outcomes), default=10)
    by_power: dict[str, list[Any]] = {}
    for o in outcomes:
        by_power.setdefault(o.power, []).append(o)
    lines: list[str] = []
    for power in sorted(by_power):
        lines.append(f"\n{power}:")
        for o in by_power[power]:
            mark = "ok  " if o.succeeded else "FAIL"
            lines.append(f"  {mark} {o.text:<{width}}  {o.reason}")
    return lines


def describe_board_result(res: Any) -> str:
    """A phase result in words; its variant, date and rules are those the result records."""
    variant = res.variant
    date = " ".join(str(x) for x in (res.position.season, res.position.year) if x)
    lines = [f"{variant.map.title} — {date + ' — ' if date else ''}rules: {res.rules.name}"]
    movement = getattr(res, "movement", None)
    if movement is not None:
        lines.append("\n== Movement ==")
        lines += _outcomes(movement.outcomes)
        if movement.dislodged:
            lines.append("\nDislodged: " + ", ".join(x.label() for _, x in dislodged_units(movement.position, movement.dislodged)))
        lines.append("\n== Retreats ==")
    lines += _outcomes(res.outcomes)
    if movement is not None:
        lines.append("\nRetreat options:")
        whole = dict(dislodged_units(res.position, res.dislodged))
        for opt in res.options:
            u = whole.get(opt.unit, res.position.units[opt.unit])
            opens = ", ".join(variant.map.display(loc) for loc in opt.open) or "none (disbanded)"
            lines.append(f"  {u.label()}: {opens}")
            for prov, why in sorted(opt.closed.items()):
                lines.append(f"      not {variant.map.display(prov)}: {why}")
    if res.dislodged and movement is None:
        lines.append("\nDislodged:")
        for u, unit in dislodged_units(res.position, res.dislodged):
            by = res.dislodged_by.get(u)
            lines.append(f"  {unit.label()}" + (f"  (by {res.position.units[by].label()})" if by is not None else ""))
    if res.contested:
        lines.append("\nLeft empty by a standoff: " + ", ".join(variant.map.provinces[p].name for p in res.contested))
    for b in res.backups:
        kind = b.kind.replace("_", " ")
        n = ("no consistent resolution" if b.resolutions == 0 else f"{b.resolutions}+ consistent resolutions"
             if b.resolutions >= 2 else "1 resolution")
        lines.append(f"\nBackup rule — {kind} ({n}): {b.rule}")
        lines += [f"  {t}" for t in b.orders]
    lines.append("\nPosition after:")
    per: dict[str, list[str]] = {}
    for u in res.after.units:
        per.setdefault(u.power, []).append(u.short())
    for power in sorted(per):
        lines.append(f"  {power}: {', '.join(per[power])}")
    return "\n".join(lines)
