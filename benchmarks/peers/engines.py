"""The engines compared: dipsat and the peer adjudicators MILA ``diplomacy`` and ``pydip``.

Every engine has ``run(request, fixes) -> Run``: a turn request of :mod:`benchmarks.workload`
(a dipsat request dict with an ``id``) in, the units after the turn and the dislodged units out,
as ``(power, "A"/"F", location)`` triples.  ``fixes`` names corrections of
:mod:`benchmarks.peers.fixes` to apply (the classifier's confirmation).  :func:`load_peers`
returns the installed peers and why the others are missing.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from .. import workload
from ..workload import BUnit
from .fixes import MILA_FIXES, PYDIP_FIXES, _patch_source
from .turn import Turn


def request_for_dipsat(req: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in req.items() if k not in ("id", "planted")}


def request_from_case(path: str | Path) -> dict[str, Any]:
    """A movement case of a corpus (``tests/corpora``) as a turn in the workload's canonical
    form, so that the peers can be run on it (:func:`request_from_orders`)."""
    from dipsat.io.corpus import load_case

    case = load_case(path)
    if case.phase != "movement" or case.variant != "standard":
        raise ValueError(f"{path}: only standard movement cases can be given to the peers")
    return request_from_orders(case.units, case.orders, case.id, where=str(path))


def request_from_orders(units: dict[str, list[str]], orders: dict[str, list[str]], ident: str,
                        options: Optional[dict[str, Any]] = None, where: str = "turn") -> dict[str, Any]:
    """A standard movement turn (units and orders in any notation dipsat reads) in the
    workload's canonical form.  The orders are read by dipsat's parser under the DATC preset
    with ``options``; a move goes "via convoy" when dipsat's reading routes it by convoy."""
    from dipsat.game.positions import _power_name, build_position
    from dipsat.game.request import TurnRequest
    from dipsat.variants import find_variant

    req = TurnRequest.model_validate({"units": units, "orders": orders})
    variant = find_variant("standard")
    pos = build_position(variant, req)
    by_power: dict[str, list[str]] = {}
    for p, ts in req.orders.items():
        by_power.setdefault(_power_name(variant, p, f"{where}: orders"), []).extend(ts)
    bound = variant.binder(variant.rules("datc", **(options or {}))).bind(pos, by_power)
    if bound.rejected:
        raise ValueError(f"{where}: illegal orders cannot be given to the peers: {[r.text for r in bound.rejected]}")
    bunits = [BUnit(u.power, u.kind, u.location) for u in pos.units]
    out: dict[int, tuple] = {}
    for i, o in bound.orders.items():
        b = o.body
        if b.kind == "hold":
            out[i] = ("H",)
        elif b.kind == "move":
            out[i] = ("M", b.dest, bound.route.get(i) == "convoy")
        elif b.kind == "support":
            out[i] = ("S", b.target, b.dest)
        else:
            out[i] = ("C", b.target, b.dest)
    return workload.to_request(bunits, out, ident=ident)


@dataclass
class Run:
    after: frozenset  # of Loc: the units on the board after the turn (dislodged ones left out)
    dislodged: frozenset  # of Loc: the units dislodged, at their starting location
    refused: list[str] = field(default_factory=list)  # orders the engine would not take
    detail: Any = None  # engine-specific, for the predicates


def _version(dist: str) -> Optional[str]:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:
        return None


class Dipsat:
    name = "dipsat"

    def __init__(self) -> None:
        from dipsat.game.api import adjudicate
        from dipsat.rules import preset
        self._adjudicate, self._preset = adjudicate, preset
        self.version = _version("dipsat") or "checkout"

    def run(self, req: dict[str, Any], **options: Any) -> Run:
        res = self._adjudicate(request_for_dipsat(req), rules=self._preset("datc", **options) if options else None)
        pos = res.position.units
        return Run(after=frozenset((u.power, u.kind, u.location) for u in res.after.units),
                   dislodged=frozenset((pos[i].power, pos[i].kind, pos[i].location) for i in res.dislodged),
                   refused=[f"{r.power}: {r.text}: {r.reason}" for r in res.rejected], detail=res)


class Mila:
    name = "mila"

    def __init__(self) -> None:
        from diplomacy import Game
        self._Game = Game
        Game()  # loads and caches the standard map
        self.version = _version("diplomacy")
        self._classes: dict[frozenset, type] = {frozenset(): Game}

    def game_class(self, fixes: frozenset) -> type:
        """MILA's Game with the corrections ``fixes`` (names in :data:`MILA_FIXES`) applied."""
        if fixes not in self._classes:
            edits: dict[str, list] = {}
            attrs: dict[str, Callable] = {}
            for name in sorted(fixes):
                for meth, es in MILA_FIXES[name].items():
                    if callable(es):  # a new method
                        attrs[meth] = es()
                    else:
                        edits.setdefault(meth, []).extend(es)
            attrs.update({m: _patch_source(getattr(self._Game, m), es) for m, es in edits.items()})
            self._classes[fixes] = type("PatchedGame", (self._Game,), attrs)
        return self._classes[fixes]

    def run(self, req: dict[str, Any], fixes: frozenset = frozenset()) -> Run:
        units, orders = workload.to_mila(req)
        game = self.game_class(frozenset(fixes))()
        game.clear_units()
        for power, us in units.items():
            game.set_units(power, us)
        for power, os in orders.items():
            game.set_orders(power, os)
        refused = [str(e) for e in game.error]
        game.process()
        owner = {u: p.title() for p, us in units.items() for u in us}
        results = {u: [str(r) for r in rs] for u, rs in game.result_history.last_value().items()}
        after = frozenset((p.name.title(), u[0], u[2:].lower()) for p in game.powers.values() for u in p.units)
        dislodged = frozenset((owner[u], u[0], u[2:].lower()) for u, rs in results.items() if "dislodged" in rs)
        return Run(after=after, dislodged=dislodged, refused=refused,
                   detail={"results": results, "dislodged_by": dict(game.dislodged)})


class Pydip:
    name = "pydip"

    def __init__(self) -> None:
        from pydip.map.predefined import vanilla_dip
        from pydip.player.unit import UnitTypes
        import pydip.turn.resolve as resolve
        self._map = vanilla_dip.generate_map()
        problems = workload.check_pydip_names(self._map)
        if problems:
            raise RuntimeError("pydip name mapping broken: " + "; ".join(problems[:3]))
        self._resolve = resolve
        self._fleet = UnitTypes.FLEET
        b = workload.board()
        self._loc = {}  # pydip territory -> dipsat location
        for p in b.pids:
            if b.terrain[p] != "sea":
                self._loc[workload.pydip_location("A", p)] = p
            for loc in b.m.fleet_locations_in(p):
                self._loc[workload.pydip_location("F", loc)] = loc
        self.version = _version("pydip")

    @contextlib.contextmanager
    def fixed(self, fixes: frozenset) -> Iterator[None]:
        """pydip with the corrections ``fixes`` (names in :data:`PYDIP_FIXES`) applied."""
        saved = {}
        try:
            for name in sorted(fixes):
                for fn, impl in PYDIP_FIXES[name].items():
                    saved.setdefault(fn, getattr(self._resolve, fn))
                    setattr(self._resolve, fn, impl)
            yield
        finally:
            for fn, impl in saved.items():
                setattr(self._resolve, fn, impl)

    @staticmethod
    def spec(req: dict[str, Any]) -> tuple[dict, list[tuple]]:
        """:func:`workload.pydip_spec`, with the route of each army made explicit the DATC 3.0
        way (pydip has no notion of intent): a move goes by convoy when written "via convoy",
        when the destination is not adjacent, or when a fleet of the army's own power is ordered
        to convoy it there (2000/2023 rulebook, DATC 4.A.3)."""
        players, cmds = workload.pydip_spec(req)
        t = Turn(req)
        cmds = list(cmds)
        for i, c in enumerate(cmds):
            if c[0] == "move" and c[2] == "A":
                dest = t.dest(i)
                own_fleet = any(o[0] == "C" and o[1] == i and o[2] == dest and t.power(f) == t.power(i)
                                for f, o in t.orders.items())
                if own_fleet or not t.b.can_reach(t.units[i], dest):
                    cmds[i] = ("convoy_move", *c[1:])
        return players, cmds

    def run(self, req: dict[str, Any], fixes: frozenset = frozenset()) -> Run:
        commands, rejected = workload.build_pydip_commands(self.spec(req), self._map)
        with self.fixed(frozenset(fixes)):
            out = self._resolve.resolve_turn(self._map, commands)
            resolutions = dict(self._resolve.resolution_map)
        after, dislodged = set(), set()
        for power, units in out.items():
            for unit, retreats in units.items():
                key = (power, "F" if unit.unit_type == self._fleet else "A", self._loc[unit.position])
                (after if retreats is None else dislodged).add(key)
        return Run(after=frozenset(after), dislodged=frozenset(dislodged),
                   refused=[f"{c[1]}: {c}: {msg}" for c, msg in rejected],
                   detail={"resolutions": {self._loc.get(t, t): v for t, v in resolutions.items()}})


def load_peers(names: tuple[str, ...] = ("mila", "pydip")) -> tuple[list[Any], dict[str, str]]:
    """The installed peers, and why the others are missing."""
    peers, missing = [], {}
    for name, cls in (("mila", Mila), ("pydip", Pydip)):
        if name not in names:
            continue
        try:
            peers.append(cls())
        except ImportError as exc:
            missing[name] = f"not installed ({exc})"
        except Exception as exc:  # a broken peer is reported, not fatal
            missing[name] = f"unusable: {type(exc).__name__}: {exc}"
    return peers, missing
