"""What ``dipsat fingerprint`` prints: the readings the observations admit, the nearest preset,
the observations no reading explains; and the same as JSON (schema: ``dipsat schema
fingerprint``, :class:`dipsat.io.schemas.FingerprintJSON`)."""

from __future__ import annotations

from typing import Any

from dipsat.research.fingerprint import Fingerprint
from dipsat.research.fingerprint_inputs import observation_json
from dipsat.research.option_conditions import _w

SHOWN = 20  # unexplained observations printed in full (all of them in --json)


def _values(xs: list[Any]) -> str:
    return ", ".join(_w(x) for x in xs)


def _changes(d: dict[str, Any]) -> str:
    return ", ".join(f"{n} = {_w(v)}" for n, v in d.items()) or "no change"


def format_fingerprint(fp: Fingerprint, shown: int = SHOWN) -> str:
    n = fp.observations
    un = len(fp.unexplained)
    lines = [f"Fingerprint of {n} observation{'s' if n != 1 else ''} of the {fp.variant} variant: "
             + (f"every one explained by the readings below" if not un and not fp.contested
                else f"{fp.best} explained by the readings below, {un} unexplained"
                + (f", {len(fp.contested)} explained by some of them only" if fp.contested else ""))]
    if fp.names:
        lines.append("Options the observations decide (the values consistent with them):")
        width = max(len(x) for x in fp.names)
        for name in fp.names:
            lines.append(f"  {name:<{width}}  {_values(fp.values[name])}")
    free = [x for x in fp.values if x not in fp.names]
    if free:
        lines.append(f"Options no observation decides (every value consistent): {', '.join(free)}")
    cond = fp.condition()
    count = f"{len(fp.solutions)}{'' if fp.complete else '+'}"
    if fp.names:
        lines.append(f"Consistent assignments of those options ({count}): "
                     + (cond if cond is not None else "too many to state as conditions (see --json)"))
    if fp.presets:
        near = fp.nearest
        head = near[0]
        lines.append(f"Nearest preset: {' = '.join(p.name for p in near)} "
                     f"({head.distance} option{'s' if head.distance != 1 else ''} differ{'s' if head.distance == 1 else ''})")
        for p in near:
            if p.distance:
                for ch in p.changes:
                    lines.append(f"  {p.name} with {_changes(ch)}")
        others = [p for p in fp.presets if p.distance != head.distance]
        if others:
            lines.append("Other presets: " + "; ".join(f"{p.name} ({p.distance} differ: {_changes(p.changes[0])})"
                                                      if p.changes else p.name for p in others))
    if fp.unexplained:
        lines.append(f"Unexplained observations ({un}; what differs under the nearest preset"
                     f"{' with its changes' if fp.presets and fp.presets[0].distance else ''}):")
        for e, diff in fp.unexplained[:shown]:
            o = e.obs
            orders = "; ".join(f"{p}: {', '.join(ts)}" for p, ts in o.orders().items())
            lines.append(f"  {o.id} ({o.where}, {o.phase})")
            lines.append(f"    orders: {orders or 'none'}")
            for d in diff or ["no reading of the options explains it alone; under this one it is explained"]:
                lines.append(f"    differs: {d}")
        if un > shown:
            lines.append(f"  ... and {un - shown} more (--json lists every one)")
    if fp.contested:
        lines.append(f"Explained by some consistent assignments only ({len(fp.contested)}): "
                     + ", ".join(fp.contested[:shown]) + (" ..." if len(fp.contested) > shown else ""))
    if fp.problems:
        lines.append(f"Not read ({len(fp.problems)}):")
        for pr in fp.problems[:shown]:
            lines.append(f"  {pr.where}: {pr.message}")
        if len(fp.problems) > shown:
            lines.append(f"  ... and {len(fp.problems) - shown} more")
    return "\n".join(lines)


def fingerprint_json(fp: Fingerprint) -> dict[str, Any]:
    near = fp.nearest
    return {
        "variant": fp.variant,
        "observations": fp.observations,
        "explained": fp.best,
        "options": fp.values,
        "decided": fp.names,
        "assignments": {"count": len(fp.solutions), "complete": fp.complete, "when": fp.condition(),
                        "all": fp.solutions},
        "nearest_preset": near[0].name if near else None,
        "nearest_presets": [p.name for p in near],
        "changes": near[0].changes[0] if near and near[0].changes else {},
        "smallest_changes": near[0].changes if near else [],
        "presets": [{"name": p.name, "distance": p.distance, "changes": p.changes} for p in fp.presets],
        "unexplained": [{**observation_json(e.obs), "diff": diff} for e, diff in fp.unexplained],
        "unexplained_count": len(fp.unexplained),
        "contested": list(fp.contested),
        "errors": [{"where": p.where, "message": p.message} for p in fp.problems],
    }
