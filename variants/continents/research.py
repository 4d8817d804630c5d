"""The research commands on this variant.

* ``explore``: every consistent reading of a round under the rules as written (the CP-SAT
  service's distinct solutions), the orders on which they differ, and which
  value of the ``ambiguity`` option picks which; then how many readings each other option
  value leaves.
* ``why``: what one order's outcome hinges on — the battle it is in, the other orders (each
  left out in turn) and the rule options (each other value).
* ``compare``: corpus cases under several rule settings, listing the orders and positions that
  differ from the first setting.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from dipsat.corpus import load_case
from dipsat.files import file_access
from dipsat.errors import DipsatError, InputFileError

from .board import Board
from .equations import enumerate_readings
from .requests import RoundRequest, get_map, position_of, rules_of, run_request
from .round import OrderOutcome, RoundResult, allowance, check_orders, create_units, make_setting, solve
from .rules import ContinentsRules, choice_options, continents_preset, option_values


def _holdings(board: Board) -> str:
    per: dict[str, list[str]] = {}
    for n, (p, c) in sorted(board.holdings.items()):
        per.setdefault(p, []).append(f"{c} {n.capitalize()}")
    return "; ".join(f"{p} {', '.join(v)}" for p, v in sorted(per.items())) or "empty"


def explore_command(req: RoundRequest, where: str, rules: Optional[str], options: tuple[str, ...], limit: int) -> str:
    cmap = get_map(req.map, where)
    opts = rules_of(req, rules, options)
    board = position_of(req, cmap)
    if req.create:
        board, _ = create_units(cmap, board)
    start = position_of(req, cmap)
    allow = {p: allowance(cmap, start, p, opts) for p in sorted(set(board.players()) | set(req.orders))}
    checked = check_orders(cmap, board, req.orders, opts, allow)
    setting = make_setting(cmap, board, checked.acts, opts)
    found = enumerate_readings(setting, limit)
    found.found.sort(key=lambda r: [r[k] for k in sorted(r)])
    n = len(found.found)
    lines = [f"Consistent readings of the rules as written: {n}{'' if found.complete else '+ (limit reached)'}"]
    acts = checked.acts

    def describe(sent: dict[int, int]) -> str:
        return "; ".join(f"{a.player}: {a.text} sends {sent[a.key]}" for a in acts)

    for i, r in enumerate(found.found, 1):
        lines.append(f"  #{i}: {describe(r)}")
    differ = [a for a in acts if len({r[a.key] for r in found.found}) > 1]
    if n > 1:
        lines.append("Orders on which they differ: " + ", ".join(f"{a.player}: {a.text}" for a in differ))
    lines.append("What each rule picks:")
    for value in option_values("ambiguity"):
        o2 = opts.with_(ambiguity=value)
        solved = solve(cmap, board, acts, o2)
        full = {a.key: solved.sent.get(a.key, 0) for a in acts}
        pick = next((i for i, r in enumerate(found.found, 1) if r == full), None)
        what = (f"reading #{pick}" if pick else "no reading as written: it cancels " +
                ", ".join(f"{a.player}: {a.text}" for a in acts if a.key in solved.cancelled))
        note = "" if solved.backup is None else f" ({solved.backup})"
        lines.append(f"  ambiguity = {value}: {what}{note}")
    lines.append("Readings under the other option values:")
    for name in choice_options():
        if name in ("ambiguity", "placement", "placement_clash", "draw", "victory_ties"):
            continue
        for value in option_values(name):
            if value == getattr(opts, name):
                continue
            o2 = opts.with_(**{name: value})
            c2 = check_orders(cmap, board, req.orders, o2, {p: allowance(cmap, start, p, o2) for p in allow})
            r2 = enumerate_readings(make_setting(cmap, board, c2.acts, o2), limit)
            lines.append(f"  {name} = {value}: {len(r2.found)}{'' if r2.complete else '+'}")
    return "\n".join(lines)


def _find(res: RoundResult, order: str) -> OrderOutcome:
    key = order.strip()
    player = None
    if ":" in key:
        head, _, rest = key.partition(":")
        player, key = head.strip(), rest.strip()
    norm = " ".join(key.split()).lower()
    hits = [o for o in res.outcomes if " ".join(o.text.split()).lower() == norm and (player is None or o.player == player)]
    if len(hits) != 1:
        known = "; ".join(f"{o.player}: {o.text}" for o in res.outcomes)
        what = "is not among the orders" if not hits else "is written by several players (prefix it with 'Player: ')"
        raise InputFileError(f"order {order!r} {what}; the orders: {known}")
    return hits[0]


def _short(o: OrderOutcome) -> str:
    return f"{o.result} — {o.reason}"


def why_command(req: RoundRequest, where: str, order: str, rules: Optional[str], options: tuple[str, ...]) -> str:
    opts = rules_of(req, rules, options)
    res = run_request(req, where, rules_value=opts)
    target = _find(res, order)
    lines = [f"{target.player}: {target.text}: {_short(target)}"]
    if res.readings != 1 or not res.readings_complete:
        lines.append(f"The rules as written give {res.readings} readings of this round: {res.backup}.")
    lines.append(f"Position after: {_holdings(res.after)}")
    others: list[str] = []
    for p, texts in sorted(req.orders.items()):
        for i, t in enumerate(texts):
            if p == target.player and t == target.text:
                continue
            cut = dict(req.orders)
            cut[p] = texts[:i] + texts[i + 1:]
            alt = run_request(req.model_copy(update={"orders": cut}), where, rules_value=opts)
            o = _find(alt, f"{target.player}: {target.text}")
            if (o.result, o.sent, o.survivors) != (target.result, target.sent, target.survivors):
                others.append(f"  - {p}: {t}: without it: {_short(o)}")
    lines.append("It hinges on these other orders:" if others else "It hinges on no other single order.")
    lines.extend(others)
    opt_lines: list[str] = []
    for name in choice_options():
        for value in option_values(name):
            if value == getattr(opts, name):
                continue
            alt = run_request(req, where, rules_value=opts.with_(**{name: value}))
            o = _find(alt, f"{target.player}: {target.text}")
            if (o.result, o.sent, o.survivors) != (target.result, target.sent, target.survivors):
                opt_lines.append(f"  - {name} = {getattr(opts, name)!r} here; with {value!r}: {_short(o)}")
    lines.append("It hinges on these rule options:" if opt_lines else "It hinges on no rule option.")
    lines.extend(opt_lines)
    return "\n".join(lines)


def default_presets() -> list[str]:
    out = ["continents"]
    for name in choice_options():
        if name in ("placement", "placement_clash", "draw"):  # set-up options: no effect on a round
            continue
        default = ContinentsRules.model_fields[name].default
        out += [f"{name}={v}" for v in option_values(name) if v != default]
    return out


def compare_command(files: list[Path], presets: list[str]) -> tuple[str, int]:
    presets = presets or default_presets()
    settings = [continents_preset(p) for p in presets]
    diffs: list[str] = []
    errors: list[str] = []
    n_diff = 0
    for f in files:
        with file_access(origin=f):  # paths inside the case resolve against it
            try:
                case = load_case(f)
                req = RoundRequest(units=case.units, orders=case.orders)
                results = [run_request(req, str(f), rules_value=s) for s in settings]
            except DipsatError as exc:
                errors.append(f"{f}: {exc}")
                continue
            base = results[0]
            block: list[str] = []
            for i, o in enumerate(base.outcomes):
                alts = [(p, r.outcomes[i]) for p, r in zip(presets[1:], results[1:]) if r.outcomes[i].result != o.result]
                if alts:
                    block.append(f"  {o.player}: {o.text}")
                    block.append(f"      {presets[0]}: {o.result} | " + " | ".join(f"{p}: {x.result}" for p, x in alts))
            moved = [(p, r) for p, r in zip(presets[1:], results[1:]) if r.after != base.after]
            if moved:
                block.append(f"  position after — {presets[0]}: {_holdings(base.after)}")
                block.extend(f"      {p}: {_holdings(r.after)}" for p, r in moved)
            if block:
                n_diff += 1
                diffs.append(f"\n{case.id}")
                diffs.extend(block)
    head = f"{len(files)} cases under {', '.join(presets)}: {n_diff} cases differ from {presets[0]}"
    return "\n".join([head] + diffs + [f"error: {e}" for e in errors]), len(errors)
