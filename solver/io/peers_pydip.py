"""pydip (0.1.8) as a peer adjudicator: a :class:`~dipsat.io.peers.PeerTurn` in pydip's terms.

pydip names territories by their full names, and a fleet on a coastal province stands on its
coast territory (``"Spain North Coast"``, ``"Rome Coast"``).  A turn becomes a plain description
first (:func:`pydip_spec`: players' units and command tuples, by name), then pydip's ``Player`` and
``Command`` objects (:func:`build_pydip_commands`; a command pydip refuses becomes a hold and is
reported).  pydip has no notion of a move's intent: each army's route is made explicit the DATC 3.0
way before pydip sees the turn -- by convoy when the order asks for one, when the destination is
not adjacent, or when a fleet of the army's own power is ordered to convoy it there (DATC 4.A.3) --
so a pydip fingerprint says nothing about ``adjacent_convoy``.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Optional

from dipsat.io.peer_turns import POWERS, Loc, PeerError, PeerRun, PeerTurn, _missing, standard_variant, version_of

_NAME_FIX = {"stp": "St. Petersburg", "eas": "Eastern Mediterranean Sea", "wes": "Western Mediterranean Sea"}
_COAST = {"nc": "North Coast", "sc": "South Coast", "ec": "North Coast"}  # pydip: Bulgaria North/South

Spec = tuple[dict[str, list[tuple[str, str]]], list[tuple[Any, ...]]]


def pydip_province_name(province: str) -> str:
    return _NAME_FIX.get(province) or standard_variant().map.provinces[province].name


def pydip_location(kind: str, loc: str) -> str:
    """The pydip territory a unit of ``kind`` stands on / moves to at dipsat location ``loc``."""
    prov, _, coast = loc.partition("/")
    name = pydip_province_name(prov)
    if kind == "A" or standard_variant().map.provinces[prov].terrain == "sea":
        return name
    return f"{name} {_COAST[coast]}" if coast else f"{name} Coast"


def pydip_territory_to_location() -> dict[str, str]:
    """pydip territory name -> dipsat location (a fleet's coast included: ``spa/nc``)."""
    m = standard_variant().map
    out = {}
    for p, prov in m.provinces.items():
        if not prov.passable:
            continue
        if prov.terrain != "sea":
            out[pydip_location("A", p)] = p
        for loc in m.fleet_locations_in(p):
            out[pydip_location("F", loc)] = loc
    return out


def _own_convoy(turn: PeerTurn, a: int, dest: str) -> bool:
    power = turn.units[a].power
    return any(o[0] == "C" and o[1] == a and o[2] == dest and turn.units[f].power == power
               for f, o in turn.orders.items())


def pydip_spec(turn: PeerTurn) -> Spec:
    """Plain-data description of the turn for pydip: players' units and commands, by name.

    players: power -> [(territory, 'A'/'F')]; commands, one per unit in the order of the units:
    ("hold", power, kind, terr) | ("move", power, kind, terr, dest) | ("convoy_move", power, kind,
    terr, dest) | ("support", power, kind, terr, t_power, t_kind, t_terr, dest) | ("transport",
    power, kind, terr, t_power, t_kind, t_terr, dest).  Armies are routed as the module says.
    """
    m = standard_variant().map
    units = turn.units
    terr = [pydip_location(u.kind, u.loc) for u in units]
    players: dict[str, list[tuple[str, str]]] = {p: [] for p in POWERS}
    for u, name in zip(units, terr):
        players[u.power].append((name, u.kind))
    cmds: list[tuple[Any, ...]] = []
    for i, u in enumerate(units):
        o = turn.order(i)
        me = (u.power, u.kind, terr[i])
        if o[0] == "H":
            cmds.append(("hold", *me))
        elif o[0] == "M":
            dest = o[1].split("/")[0]
            by_sea = u.kind == "A" and (o[2] or not m.can_reach_province("A", u.loc, dest) or _own_convoy(turn, i, dest))
            cmds.append(("convoy_move" if by_sea else "move", *me, pydip_location(u.kind, o[1])))
        elif o[0] == "S":
            t = units[o[1]]
            if o[2] is None:
                into = terr[o[1]]
            elif t.kind == "F" and m.provinces[o[2]].terrain != "sea":
                # pydip wants the exact territory the supported fleet would enter
                own = turn.orders.get(o[1])
                if own and own[0] == "M" and own[1].split("/")[0] == o[2]:
                    into = pydip_location("F", own[1])
                else:
                    locs = m.fleet_coasts_reachable(t.loc, o[2]) or m.fleet_locations_in(o[2])
                    into = pydip_location("F", locs[0])
            else:
                into = pydip_location(t.kind, o[2])
            cmds.append(("support", *me, t.power, t.kind, terr[o[1]], into))
        else:
            t = units[o[1]]
            cmds.append(("transport", *me, t.power, t.kind, terr[o[1]], pydip_province_name(o[2])))
    return players, cmds


def build_pydip_commands(spec: Spec, game_map: Any) -> tuple[list[Any], list[tuple[tuple[Any, ...], str]]]:
    """pydip Player and Command objects for a :func:`pydip_spec`; a command pydip refuses
    (AssertionError) becomes a hold and is returned in the second list with the error."""
    from pydip.player.command.command import (ConvoyMoveCommand, ConvoyTransportCommand, HoldCommand,
                                              MoveCommand, SupportCommand)
    from pydip.player.player import Player
    from pydip.player.unit import Unit, UnitTypes

    ut = {"A": UnitTypes.TROOP, "F": UnitTypes.FLEET}
    players_spec, cmds = spec
    players = {p: Player(p, game_map, [{"territory_name": t, "unit_type": ut[k]} for t, k in us])
               for p, us in players_spec.items()}
    commands: list[Any] = []
    rejected = []
    for c in cmds:
        player = players[c[1]]
        unit = Unit(ut[c[2]], c[3])
        try:
            if c[0] == "hold":
                commands.append(HoldCommand(player, unit))
            elif c[0] == "move":
                commands.append(MoveCommand(player, unit, c[4]))
            elif c[0] == "convoy_move":
                commands.append(ConvoyMoveCommand(player, unit, c[4]))
            elif c[0] == "support":
                commands.append(SupportCommand(player, unit, Unit(ut[c[5]], c[6]), c[7]))
            else:
                commands.append(ConvoyTransportCommand(player, unit, Unit(ut[c[5]], c[6]), c[7]))
        except AssertionError as exc:
            rejected.append((c, str(exc) or "AssertionError"))
            commands.append(HoldCommand(player, unit))
    return commands, rejected


def check_pydip_names(game_map: Any) -> list[str]:
    """Problems in the dipsat -> pydip name mapping (unknown names, adjacency differences)."""
    m = standard_variant().map
    problems = []
    names = set(game_map.name_map)
    seas = {pydip_province_name(p) for p, prov in m.provinces.items() if prov.terrain == "sea"}
    for p, prov in m.provinces.items():
        if not prov.passable:
            continue
        for kind, locs in (("A", [p] if prov.terrain != "sea" else []), ("F", list(m.fleet_locations_in(p)))):
            for loc in locs:
                t = pydip_location(kind, loc)
                if t not in names:
                    problems.append(f"{kind} {loc}: pydip has no territory {t!r}")
                    continue
                moves = m.army_neighbours(loc) if kind == "A" else m.fleet_neighbours(loc)
                ours = {pydip_location(kind, n) for n in moves if m.passable(m.province_of(n))}
                theirs = set(game_map.adjacency[t]) if kind == "F" else {
                    n for n in game_map.adjacency[t] if n in names and "Coast" not in n and n not in seas}
                if ours != theirs:
                    problems.append(f"{kind} {loc}: adjacency differs: dipsat-only {sorted(ours - theirs)}, "
                                    f"pydip-only {sorted(theirs - ours)}")
    return problems


class PydipPeer:
    """pydip's ``resolve_turn`` on its vanilla map (checked against dipsat's standard map once)."""

    name = "pydip"

    def __init__(self) -> None:
        try:
            import pydip.turn.resolve as resolve
            from pydip.map.predefined import vanilla_dip
            from pydip.player.unit import UnitTypes
        except ImportError as exc:
            raise _missing("pydip", exc) from None
        self.map = vanilla_dip.generate_map()
        problems = check_pydip_names(self.map)
        if problems:
            raise PeerError("pydip's map does not match dipsat's standard map: " + "; ".join(problems[:3]))
        self.resolve = resolve
        self._fleet = UnitTypes.FLEET
        self._loc = pydip_territory_to_location()
        self.version: Optional[str] = version_of("pydip")

    @contextlib.contextmanager
    def patched(self, functions: dict[str, Any]) -> Iterator[None]:
        """pydip with functions of ``pydip.turn.resolve`` replaced for the duration (a caller's corrections)."""
        saved = {fn: getattr(self.resolve, fn) for fn in functions}
        try:
            for fn, impl in functions.items():
                setattr(self.resolve, fn, impl)
            yield
        finally:
            for fn, impl in saved.items():
                setattr(self.resolve, fn, impl)

    def run(self, turn: PeerTurn, spec: Optional[Spec] = None) -> PeerRun:
        commands, rejected = build_pydip_commands(spec or pydip_spec(turn), self.map)
        out = self.resolve.resolve_turn(self.map, commands)
        resolutions = dict(self.resolve.resolution_map)
        after: set[Loc] = set()
        dislodged: set[Loc] = set()
        for power, units in out.items():
            for unit, retreats in units.items():
                key = (power, "F" if unit.unit_type == self._fleet else "A", self._loc[unit.position])
                (after if retreats is None else dislodged).add(key)
        return PeerRun(after=frozenset(after), dislodged=frozenset(dislodged),
                       refused=[f"{c[1]}: {c}: {msg}" for c, msg in rejected],
                       detail={"resolutions": {self._loc.get(t, t): v for t, v in resolutions.items()}})
