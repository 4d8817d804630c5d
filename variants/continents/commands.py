"""The commands on this variant: the thin adapter the core's CLI, batch and corpus runner call
(:class:`dipsat.family.Family`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from dipsat.corpus import CaseRun, CorpusCase, Expectation
from dipsat.errors import DipsatError
from dipsat.family import Family

from dipsat.maps.continental import ContinentalMap

from .board import parse_units
from .requests import DEFAULT_MAP, RoundRequest, get_map, is_game_case, read_request, run_request
from .round import RoundResult
from .rules import continents_preset, describe


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
    if win is None:
        end = "all annihilated (equal forces)"
    elif win.holds:
        end = f"{b.winner} keeps {win.survivors} ({forces[0]} - {forces[1]})" + (
            f", {win.holds} of them in {b.node.capitalize()}" if win.holds != win.survivors else "")
    else:
        end = (f"{b.winner}'s side keeps {win.survivors} ({forces[0]} - {forces[1]}), all supporters, who go home: "
               f"{b.node.capitalize()} is left empty")
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
    }


class ContinentsCommands(Family):
    """The continents variant's answers to the commands (:class:`dipsat.family.Family`)."""

    variant = "continents"

    def adjudicate(self, data: Any, where: str, rules: Optional[str] = None, options: tuple[str, ...] = ()) -> RoundResult:
        return run_request(read_request(data, where), where, rules, options)

    def format_result(self, result: Any, as_json: bool = False) -> str:
        if as_json:
            return json.dumps(round_json(result), indent=2)
        return format_round(result)

    def result_json(self, result: Any) -> dict[str, Any]:
        return round_json(result)

    def reading_base(self, data: Any, where: str, rules: Optional[str], options: tuple[str, ...]) -> Any:
        from .requests import rules_of

        if is_game_case(data):
            from .cases import game_of

            saved = game_of(data, where)
            req = RoundRequest(rules=saved.rules, options=saved.options)
            return rules_of(req, rules, options)
        return rules_of(read_request(data, where), rules, options)

    def reading_run(self, data: Any, where: str, opts: Any) -> dict[str, Any]:
        if is_game_case(data):
            from .cases import run_game_case

            return run_game_case(data, where, opts)
        return round_json(run_request(read_request(data, where), where, rules_value=opts))

    def play(self, data: Any, where: str, check: bool = True, save: Optional[str] = None, as_json: bool = False,
             quiet: bool = False) -> str:
        from .game import play_command

        return play_command(data, where, check=check, save=save, as_json=as_json, quiet=quiet)

    def run_case(self, case: CorpusCase, rules: str, exp: Expectation, path: str) -> CaseRun:
        label = rules + ("+" + ",".join(f"{k}={v}" for k, v in sorted(exp.options.items())) if exp.options else "")
        run = CaseRun(case.id, label, path, passed=False)
        if case.phase != "movement" or case.owners or case.retreat_orders:
            run.problems.append("a continents case has units and orders only (phase 'movement' = one round)")
            return run
        preset = None if rules in ("continents", "datc") else rules
        if case.data.get("kind") == "game":
            from .cases import check_game_case

            run.problems = check_game_case(case, preset, exp, path)
            run.passed = not run.problems
            return run
        bad = sorted(set(case.data) - {"map"})
        if bad:
            run.problems.append(f"data: unknown field(s) {', '.join(bad)} (a round case may give data.map; "
                                "data.kind = 'game' plays a whole game)")
            return run
        req = RoundRequest(units=case.units, orders=case.orders, options=dict(exp.options), rules=preset,
                           map=str(case.data.get("map", DEFAULT_MAP)))
        try:
            res = run_request(req, path)
            cmap = get_map(req.map, path)
        except DipsatError as exc:
            run.problems.append(f"error: {exc}")
            return run
        if exp.facts:
            run.problems.append("facts: a round case states orders, reasons, units_after, readings, winners, backup")
            return run
        run.problems = check_expectation(res, exp, path, cmap)
        run.passed = not run.problems
        return run

    def explore(self, data: Any, where: str, rules: Optional[str], options: tuple[str, ...], limit: int) -> str:
        from .research import explore_command

        return explore_command(read_request(data, where), where, rules, options, limit)

    def why(self, data: Any, where: str, order: Optional[str], rules: Optional[str], options: tuple[str, ...]) -> str:
        from .research import why_command

        if not order:
            raise DipsatError("why: name the order with --order \"...\"")

        return why_command(read_request(data, where), where, order, rules, options)

    def compare(self, files: list[Path], presets: list[str]) -> tuple[str, int]:
        from .research import compare_command

        return compare_command(files, presets)

    def describe_rules(self, preset: Optional[str] = None) -> str:
        return describe(continents_preset(preset))

    def summary(self) -> str:
        return ("the continents variant's own rules (seed 004): 'continents' or OPTION=VALUE; "
                "see 'dipsat rules continents'")


def check_expectation(res: RoundResult, exp: Expectation, path: str = "", cmap: Optional[ContinentalMap] = None) -> list[str]:
    """Compare a round's result with a corpus expectation; the list of differences."""
    problems: list[str] = []

    def find(key: str) -> list[Any]:
        player, text = None, key
        if ":" in key:
            head, _, rest = key.partition(":")
            player, text = head.strip(), rest.strip()
        return [o for o in res.outcomes if o.text.strip() == text.strip() and (player is None or o.player == player)]

    for key, want in exp.orders.items():
        hits = find(key)
        if len(hits) != 1:
            problems.append(f"order {key!r}: {'not among the orders of the case' if not hits else 'written by several players; prefix it with Player:'}")
            continue
        o = hits[0]
        ok = {"succeeds": o.succeeded, "fails": not o.succeeded, "partial": o.result == "partial",
              "illegal": o.rejected}[want]
        if not ok:
            problems.append(f"order {key!r}: expected {want}, got {o.result} ({o.reason})")
    for key, texts in exp.reasons.items():
        hits = find(key)
        if len(hits) != 1:
            problems.append(f"reasons: order {key!r} {'not found' if not hits else 'is ambiguous'}")
            continue
        for t in [texts] if isinstance(texts, str) else texts:
            if t not in hits[0].reason and t != hits[0].result:
                problems.append(f"reason of {key!r}: expected it to contain {t!r}, got {hits[0].result}: {hits[0].reason!r}")
    if exp.units_after is not None:
        try:
            want_board = parse_units(cmap or get_map(DEFAULT_MAP, path), exp.units_after, "units_after")
        except DipsatError as exc:
            return problems + [f"units_after: {exc}"]
        if want_board.holdings != res.after.holdings:
            want_units = {n: v for n, v in want_board.holdings.items()}
            got = dict(res.after.holdings)
            diff = sorted(set(want_units) | set(got))
            shown = [f"{n}: expected {want_units.get(n)}, got {got.get(n)}" for n in diff if want_units.get(n) != got.get(n)]
            problems.append("units_after: " + "; ".join(shown))
    if exp.readings is not None and exp.readings != res.readings:
        problems.append(f"readings: expected {exp.readings} consistent resolutions, got {res.readings}")
    if exp.winners is not None and sorted(exp.winners) != res.winners:
        problems.append(f"winners: expected {sorted(exp.winners)}, got {res.winners}")
    if exp.backup is not None:
        has = res.backup is not None
        if has != (exp.backup != "none"):
            problems.append(f"backup: expected {exp.backup}, got {res.backup or 'none'}")
    return problems
