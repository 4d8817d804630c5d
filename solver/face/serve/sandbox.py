"""What the sandbox's page asks, answered without the web: plain functions from a *state* (the
page's position as JSON) to JSON values.  The web application (:mod:`dipsat.face.serve.app`) only
reads requests, runs these in its worker (:mod:`dipsat.face.serve.worker`, within the limits) and
sends their answers back.

A state is what a request file holds, as JSON: ``variant``, ``rules`` (a preset), ``options``
(overrides), ``phase``, ``year``, ``season``, ``units``, ``orders``, ``owners``,
``retreat_orders`` (a Diplomacy board), or another family's own fields; and ``meta`` (the case's
``id``, ``title``, ``notes``, ... when it was loaded from one), which is the page's alone.  Each
function reads the state through the game protocol (:func:`dipsat.game.families.find_game`), so a
state is checked as a file is: the same errors, the same limits on units and orders.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Optional

from dipsat.errors import DipsatError
from dipsat.limits import DEFAULT_LIMITS, Limits, TurnTimeout
from dipsat.game.families import find_game, variant_of
from dipsat.game.protocol import GameProtocol, PhaseResult

if TYPE_CHECKING:
    from dipsat.game.board_game import BoardGame

WHERE = "the page's position"
PAGE_ONLY = ("meta",)  # fields of a state that are not the request's
PRESETS = ("datc", "1971", "1982", "2000", "dptg")  # the board rulebooks a page offers (dipsat rules)


def read_state(state: Any, limits: Limits = DEFAULT_LIMITS) -> tuple[GameProtocol, Any, dict[str, Any]]:
    """The game, its typed request and the request's data of a page's state."""
    if not isinstance(state, dict):
        raise DipsatError(f"{WHERE}: expected a table of fields, got {type(state).__name__}")
    data = {k: v for k, v in state.items() if k not in PAGE_ONLY}
    game = find_game(variant_of(data))
    return game, game.read(data, WHERE, limits), data


def is_board(game: GameProtocol) -> bool:
    from dipsat.game.board_game import BoardGame

    return isinstance(game, BoardGame)


def variants() -> list[dict[str, Any]]:
    """Every variant a page offers: its name, whether it is a Diplomacy board, its powers and
    unit kinds (boards), its presets and its rule options with their values."""
    from dipsat.research.research import option_values
    from dipsat.game.variant import Variant
    from dipsat.game.registry import all_records

    out = []
    for record in all_records():
        game = find_game(record.name)
        model = game.options_model()
        options = []
        for name, f in model.model_fields.items():
            values = option_values(f.annotation)
            if name != "name" and values:
                options.append({"name": name, "values": [_text(v) for v in values], "default": _text(f.default),
                                "help": f.description or ""})
        entry: dict[str, Any] = {"name": record.name, "description": getattr(record, "description", ""),
                                 "board": isinstance(record, Variant), "options": options}
        if isinstance(record, Variant):
            m = record.map
            places = {pid: p.name for pid, p in m.provinces.items()}
            places |= {cid: f"{m.provinces[c.province].name}({cid.split('/')[-1]})" for cid, c in m.coasts.items()}
            by_preset = {p: {o["name"]: _text(getattr(record.rules(p), o["name"], None)) for o in options} for p in PRESETS}
            entry |= {"powers": list(record.map.powers), "unit_kinds": list(record.unit_kinds), "places": places,
                      "preset_values": by_preset,
                      "presets": list(PRESETS), "default_rules": record.default_rules or "datc"}
        else:  # a family's own clicks (what its picture names, which orders it draws) and empty start
            clicks = getattr(game, "clicks", None)
            blank = getattr(game, "blank", None)
            entry |= {"powers": [], "unit_kinds": list((clicks or {}).get("kinds", [])), "presets": [],
                      "default_rules": None, "clicks": clicks, "blank": blank() if blank is not None else None}
        out.append(entry)
    return out


def opening(variant: str) -> dict[str, Any]:
    """The state of a board variant's opening: its start position, or (a variant that starts
    with a placement phase) an empty board in that phase; another family's empty position when
    it has one (its ``blank()``)."""
    from dipsat.game.registry import find_record
    from dipsat.game.variant import Variant

    record = find_record(variant)
    if not isinstance(record, Variant):
        blank = getattr(find_game(record.name), "blank", None)
        if blank is not None:  # a family that starts from an empty position of its own
            return dict(blank()) | {"meta": {"title": f"{record.name}: an empty position"}}
        raise DipsatError(f"{record.name} is not a Diplomacy board: load one of its cases by name, or paste a position")
    pos = record.start_position(record)
    units: dict[str, list[str]] = {}
    for u in pos.units:
        units.setdefault(u.power, []).append(u.short())
    state: dict[str, Any] = {"variant": record.name, "phase": "movement" if units else "placement",
                             "units": units, "orders": {}}
    if pos.year is not None:
        state["year"] = pos.year
    if pos.season is not None:
        state["season"] = pos.season
    state["meta"] = {"title": f"{record.map.title}: the opening"}
    return state


def pasted(text: str, limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """The state of a pasted position: a request file's or a corpus case's text, TOML or JSON
    (its expectations are left out)."""
    from dipsat.limits import parse_data

    fmt = "json" if text.lstrip().startswith("{") else "toml"
    data = parse_data(text, fmt, "the pasted text", limits)
    return state_of_data(data, "the pasted text", limits)


def state_of_data(data: Any, where: str, limits: Limits = DEFAULT_LIMITS, phase: Optional[str] = None) -> dict[str, Any]:
    """A file's or a case's data as a page's state, checked as the file would be (a board's
    saved game: the position and orders of its phase ``phase``, by default the last)."""
    if not isinstance(data, dict):
        raise DipsatError(f"{where}: expected a table of fields, got {type(data).__name__}")
    if "phases" in data:
        return saved_game_phase(data, where, phase, limits)
    if data.get("phase") == "game":
        raise DipsatError(f"{where}: a corpus case of several phases; the sandbox takes one phase: "
                          "paste the position and orders of the phase you want")
    meta_keys = ("id", "title", "source", "url", "notes")
    meta = {k: data[k] for k in meta_keys if isinstance(data.get(k), str)}
    state = {k: v for k, v in data.items() if k not in meta_keys and k != "expect"}
    game = find_game(variant_of(state))
    game.read(state, where, limits)  # checked now: an error names the file, not the page
    if is_board(game):
        state.setdefault("variant", game.name)
    if meta:
        state["meta"] = meta
    return state


def saved_game_phase(data: dict[str, Any], where: str, phase: Optional[str], limits: Limits) -> dict[str, Any]:
    """The state of one phase of a board's saved game (``dipsat play``'s file): the game replayed
    up to it, its position and its orders (a retreat phase: the movement's too); ``meta.phases``
    names every phase, ``meta.phase`` this one."""
    from dataclasses import replace

    from dipsat.game.request import describe_validation
    from dipsat.game.game import replay
    from dipsat.game.saved import SavedGame
    from pydantic import ValidationError

    game = find_game(variant_of(data))
    if not is_board(game):
        raise DipsatError(f"{where}: a saved game of {game.name}; the sandbox loads the saved games of a Diplomacy board")
    try:
        saved = SavedGame.model_validate(data)
    except ValidationError as exc:
        raise DipsatError(f"{where}: {describe_validation(exc)}") from None
    # the whole call is under the command's time limit already: no second alarm per phase
    played = replay(saved, check=False, limits=replace(limits, turn_time_limit=None), where=f"{where}: phases")
    names = [r.name for r in played.history]
    if not names:
        raise DipsatError(f"{where}: the game has no phases")
    want = (phase or names[-1]).strip().upper()
    if want not in names:
        raise DipsatError(f"{where}: no phase {phase!r}; its phases: {', '.join(names)}")
    i = names.index(want)
    rec = played.history[i]
    kind = {"M": "movement", "R": "retreat", "A": "adjustment", "P": "placement"}.get(want[-1], "movement")
    first = played.history[i - 1] if kind == "retreat" and i > 0 else rec
    before = first.result.position
    variant = played.variant
    state: dict[str, Any] = {"variant": variant.name, "phase": kind, "units": _units_of(before)}
    owners: dict[str, list[str]] = {}
    for pid, power in sorted(before.owners.items()):
        owners.setdefault(power, []).append(variant.map.provinces[pid].name)
    if owners:
        state["owners"] = owners
    if saved.rules:
        state["rules"] = saved.rules
    if saved.options:
        state["options"] = dict(saved.options)
    if kind == "retreat":
        state |= {"orders": saved.phases[i - 1].orders, "retreat_orders": saved.phases[i].orders}
    else:
        state["orders"] = saved.phases[i].orders
    if before.year is not None and before.season is not None and kind != "retreat":
        state |= {"year": before.year, "season": before.season}
    state["meta"] = {"title": f"{where}, {want}", "phases": names, "phase": want, "game": where}
    return state


def _units_of(pos: Any) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for u in pos.units:
        out.setdefault(u.power, []).append(u.short())
    return out


# -- adjudication ---------------------------------------------------------------------------------


def adjudicate(state: Any, limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """The phase adjudicated: every outcome with its reason, culprits and strengths, the
    picture, the backup rules used and (a board's movement) every consistent resolution before
    them, and the state the next phase starts from."""
    from dipsat.game.protocol import Engine

    req: Any = None
    try:
        game, req, data = read_state(state, limits)
        opts = game.options(req)
        res = game.adjudicate(req, opts, Engine(time_limit=limits.turn_time_limit))
    except TurnTimeout:
        raise
    except DipsatError as exc:  # the page still shows the board, to go on placing units
        svg = bare_picture(state) if req is None or is_board(game) else family_picture(game, req)
        return {"error": str(exc), "svg": svg, "result": None, "board": True, "next": None}
    meta = state.get("meta") or {}
    title = meta.get("title") if isinstance(meta, dict) else None
    out: dict[str, Any] = {"result": res.to_json(), "text": game.describe(res), "rules": res.rules,
                           "board": is_board(game), "svg": game.draw(req, res, title if isinstance(title, str) else None)}
    if is_board(game) and req.phase == "movement":
        out["resolutions"] = resolutions(req)
    out["next"] = next_state(game, state, res)
    return out


def bare_picture(state: Any) -> Optional[str]:
    """A board's picture without orders: the units of the state that can be read, on the map
    (None: the state names no board)."""
    from dipsat.game.positions import build_position
    from dipsat.game.request import TurnRequest
    from dipsat.models import Position
    from dipsat.face.render import render_svg
    from dipsat.game.variant import Variant
    from dipsat.game.registry import find_record

    try:
        record = find_record(variant_of(state))
    except DipsatError:
        return None
    if not isinstance(record, Variant):
        return None
    units: dict[str, list[str]] = {}
    for power, specs in (state.get("units") or {}).items() if isinstance(state.get("units"), dict) else ():
        for spec in specs if isinstance(specs, list) else ():
            try:  # each unit on its own: a bad one is left out of the picture (the error names it)
                build_position(record, TurnRequest(variant=record.name, units={power: [spec]}, phase="placement"))
            except (DipsatError, ValueError):
                continue
            units.setdefault(power, []).append(spec)
    try:
        pos = build_position(record, TurnRequest(variant=record.name, units=units, phase="placement"))
    except (DipsatError, ValueError):  # units that are fine alone but not together
        pos = Position.build(variant=record.name, units=())
    return render_svg(pos, title=record.map.title, variant=record)


def family_picture(game: GameProtocol, req: Any) -> Optional[str]:
    """Another family's picture of a position it read but could not decide (None: it cannot be
    drawn either)."""
    try:
        return game.draw(req, None)
    except (DipsatError, ValueError, KeyError):
        return None


def resolutions(req: Any) -> dict[str, Any]:
    """Every consistent resolution of a board's movement before any backup rule, and what each
    paradox rule picks (``dipsat explore``)."""
    from dipsat.research.research import explore, format_exploration

    ex = explore(req, limit=16)
    return {"count": len(ex.resolutions), "capped": ex.capped, "text": format_exploration(ex)}


def next_state(game: GameProtocol, state: dict[str, Any], res: PhaseResult) -> Optional[dict[str, Any]]:
    """The state the next phase of a board starts from (retreats after a movement that
    dislodged, adjustments at the end of a year, the next movement), or None."""
    from dipsat.game.board_game import BoardGame

    if not isinstance(game, BoardGame) or res.phase == "placement" and not res.units_after:
        return None
    native = res.native
    kind, season, year = game.next_parts(native, res.phase)
    base = {k: state[k] for k in ("variant", "rules", "options") if k in state}
    if kind == "retreat":
        return base | {k: state[k] for k in ("year", "season", "units", "orders", "owners") if k in state} | {
            "phase": "retreat", "retreat_orders": {}}
    owners = _owners_after(game, state, native, kind, year)
    nxt = base | {"phase": kind, "units": res.units_after, "orders": {}}
    if owners:
        nxt["owners"] = owners
    if year is not None and season is not None:
        nxt |= {"year": year, "season": season}
    return nxt


def _owners_after(game: "BoardGame", state: dict[str, Any], native: Any, kind: str, year: Optional[int]) -> dict[str, list[str]]:
    """Who owns which centre in the next phase: as before, and after the last movement of a year
    (an adjustment follows, or a new year starts) each occupied centre to its occupant."""
    variant = game.variant
    owners = dict(native.position.owners or {})
    year_ends = kind == "adjustment" or (kind == "movement" and year is not None and native.position.year is not None
                                         and year > native.position.year and native.position.season is not None
                                         and state.get("phase") in ("movement", "retreat"))
    if year_ends:
        for u in native.after.units:
            if variant.map.provinces[u.province].supply_centre:
                owners[u.province] = u.power
    out: dict[str, list[str]] = {}
    for pid, power in sorted(owners.items()):
        out.setdefault(power, []).append(variant.map.provinces[pid].name)
    return out


# -- research -------------------------------------------------------------------------------------


def readings(state: Any, limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """Every reading of the rules at once (``dipsat readings``): each order's outcome as
    conditions on the options, and for each option that matters and each of its other values,
    the orders whose outcome it changes from the current reading's."""
    from dipsat.research.readings import protocol_readings, turn_readings
    from dipsat.research.readings_format import readings_json
    from dipsat.rules import RuleOptions

    game, req, data = read_state(state, limits)
    current = game.options(req)
    if isinstance(current, RuleOptions):  # a board: every option enumerated, the page's own values included
        rd = turn_readings(req.model_copy(update={"options": {}}), rules=current)
    else:
        rd = protocol_readings(game, req, {k: v for k, v in data.items() if k != "options"}, req_rules(data))
    js = readings_json(rd)
    here = {name: _text(getattr(current, name, None)) for name in js["options"]}
    rows = [(dict((k, _text(v)) for k, v in row["options"].items()), row["outcomes"]) for row in js["table"]]

    def row_for(assign: dict[str, str]) -> Optional[dict[str, str]]:
        return next((o for a, o in rows if all(a.get(k) == v for k, v in assign.items() if k in a)), None)

    now = row_for(here) or {}
    depends = sorted({d for o in js["orders"] for d in o["depends_on"]}, key=js["options"].index)
    switches = []
    for name in depends:
        values = sorted({a[name] for a, _ in rows if name in a} - {here.get(name)})
        for v in values:
            other = row_for(here | {name: v})
            if other is None:
                continue
            changed = [{"order": o, "from": now.get(o, "(not ordered)"), "to": other.get(o, "(not ordered)")}
                       for o in sorted(set(now) | set(other)) if now.get(o) != other.get(o)]
            if changed:
                switches.append({"option": name, "value": v, "current": here.get(name), "changes": changed})
    return {"current": here, "orders": js["orders"], "depends": depends, "never_matter": js["never_matter"],
            "distinct_outcomes": js["distinct_outcomes"], "switches": switches}


def req_rules(data: dict[str, Any]) -> Optional[str]:
    rules = data.get("rules")
    return rules if isinstance(rules, str) else None


def why(state: Any, order: str, limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """What one order's outcome hinges on (``dipsat why``)."""
    from dipsat.research.research import format_why

    if not isinstance(order, str) or not order.strip():
        raise DipsatError("why: name an order")
    game, req, _ = read_state(state, limits)
    if is_board(game):
        from dipsat.research.research import why as board_why

        return {"order": order, "text": format_why(board_why(req, order))}
    from dipsat.research.research_games import why_game

    return {"order": order, "text": format_why(why_game(game, req, game.options(req), order))}


def _text(value: Any) -> Any:
    """An option's value as the page writes it (an enum member by its value)."""
    value = getattr(value, "value", value)
    return value if isinstance(value, (bool, int, float)) or value is None else str(value)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False, default=str)
