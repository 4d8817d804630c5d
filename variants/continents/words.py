"""A continents round in words (``dipsat adjudicate``) and as the data of its result's details."""

from __future__ import annotations

from typing import Any

from .round import RoundResult


def format_round(res: RoundResult) -> str:
    lines = [f"{res.map_title} — " + (f"round {res.round} — " if res.round is not None else "") + f"rules: {res.rules}"]
    if res.created:
        lines.append("\nUnits created (free cities):")
        for c in res.created:
            lines.append(f"  {c.player}: {c.reason}")
    width = max((len(o.text) for o in res.outcomes), default=10)
    players = sorted({o.player for o in res.outcomes})
    for p in players:
        lines.append(f"\n{p} (allowance {res.allowance.get(p, 3)} orders):")
        for o in res.outcomes:
            if o.player == p:
                mark = "ok  " if o.succeeded else "FAIL"
                lines.append(f"  {mark} {o.text:<{width}}  {o.result} — {o.reason}")
    if res.battles:
        lines.append("\nBattles:")
        for b in res.battles:
            lines.append("  " + _battle_line(b))
    n = res.readings
    lines.append("")
    if n == 1 and res.readings_complete:
        lines.append("Readings of the rules as written: 1 (the resolution is unique)")
    else:
        lines.append(f"Readings of the rules as written: {n}{'' if res.readings_complete else '+'} — {res.backup}")
    lines.append("\nPosition after:")
    after: dict[str, list[str]] = {}
    for node, (p, n_units) in sorted(res.after.holdings.items()):
        after.setdefault(p, []).append(f"{n_units} {node.capitalize()}")
    for p in sorted(after):
        lines.append(f"  {p}: {', '.join(after[p])}")
    if res.majorities:
        lines.append("Continent majorities: " + "; ".join(
            f"{p} on {', '.join(res.continent_names.get(c, c) for c in cs)}" for p, cs in res.majorities.items()))
    if res.winners:
        lines.append(f"Victory: {', '.join(res.winners)} (a majority of the countries on three continents)")
    return "\n".join(lines)


def _battle_line(b: Any) -> str:
    parts = ", ".join(f"{s.player} {s.force} ({'; '.join(s.parts)})" for s in b.sides)
    forces = sorted((s.force for s in b.sides), reverse=True)
    win = next((s for s in b.sides if s.player == b.winner), None)
    node = b.node.capitalize()
    if win is None:
        end = "all annihilated (equal forces)"
    else:
        # the survivors as the position after has them: those in the country, the supporters
        # going home, the winner's own units leaving (their orders elsewhere, or no room)
        leaving = win.survivors - win.holds - win.supporters_home
        where = ([f"{win.holds} in {node}"] if win.holds else []) + \
            ([f"{win.supporters_home} supporting, who go home"] if win.supporters_home else []) + \
            ([f"{leaving} of {b.winner}'s own, who leave it"] if leaving > 0 else [])
        who = b.winner if win.holds and win.holds == win.survivors else f"{b.winner}'s side"
        end = f"{who} keeps {win.survivors} ({forces[0]} - {forces[1]})"
        if where != [f"{win.holds} in {node}"]:
            end += ": " + ", ".join(where)
        if not win.holds:
            end += f"; {node} is left empty"
    return f"{b.node.capitalize()}: {parts} — every side loses {forces[1]} or all it has — {end}"


def round_json(res: RoundResult) -> dict[str, Any]:
    return {
        "rules": res.rules,
        "round": res.round,
        "created": [c.model_dump() for c in res.created],
        "allowance": res.allowance,
        "outcomes": [o.model_dump() | {"succeeded": o.succeeded} for o in res.outcomes],
        "battles": [b.model_dump() for b in res.battles],
        "readings": res.readings,
        "readings_complete": res.readings_complete,
        "backup": res.backup,
        "units_after": {p: [f"{c} {n.capitalize()}" for n, (q, c) in sorted(res.after.holdings.items()) if q == p]
                        for p in res.after.players()},
        "majorities": res.majorities,
        "winners": res.winners,
        # what the round did, per player (corpus facts: "losses.A.at_sea", "created_for.B",
        # "order_of.A.A 3 Yug-Tar.sent"): units lost at sea and in battle, units created, and each
        # order as written with what it sent, lost and kept
        "losses": losses(res),
        "created_for": {p: sum(c.units for c in res.created if c.player == p) for p in sorted({c.player for c in res.created})},
        "order_of": {p: {o.text: {"result": o.result, "asked": o.asked, "sent": o.sent, "lost_at_sea": o.lost_at_sea,
                                  "lost_in_battle": o.lost_in_battle, "survivors": o.survivors}
                         for o in res.outcomes if o.player == p} for p in sorted({o.player for o in res.outcomes})},
    }


def losses(res: RoundResult) -> dict[str, dict[str, int]]:
    """Each player's units lost in the round: at sea (its orders' crossings) and in battle (its
    moving and supporting units, and the units defending a country it held: a side's losses less
    those of the orders fighting on it)."""
    at_sea: dict[str, int] = {}
    in_battle: dict[str, int] = {}
    for o in res.outcomes:
        at_sea[o.player] = at_sea.get(o.player, 0) + o.lost_at_sea
        in_battle[o.player] = in_battle.get(o.player, 0) + o.lost_in_battle
    for b in res.battles:
        for s in b.sides:
            on_side = sum(o.lost_in_battle for o in res.outcomes if o.node == b.node and (
                (o.kind == "move" and o.player == s.player) or (o.kind == "support" and o.beneficiary == s.player)))
            in_battle[s.player] = in_battle.get(s.player, 0) + s.lost - on_side
    return {p: {"at_sea": at_sea.get(p, 0), "in_battle": in_battle.get(p, 0)} for p in sorted(set(at_sea) | set(in_battle))}
