"""The engines compared: dipsat and the peer adjudicators MILA ``diplomacy`` and ``pydip``.

Every engine has ``run(request, fixes) -> Run``: a turn request of :mod:`benchmarks.workload`
(a dipsat request dict with an ``id``) in, the units after the turn and the dislodged units out,
as ``(power, "A"/"F", location)`` triples.  ``fixes`` names corrections of
:mod:`benchmarks.peers.fixes` to apply (the classifier's confirmation).  :func:`load_peers`
returns the installed peers and why the others are missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

from .. import workload
from dipsat.io.peers import PeerRun

from ..workload import BUnit
from .fixes import MILA_FIXES, PYDIP_FIXES, _patch_source


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
    from dipsat.io.peers import peer_turn

    turn, rejected = peer_turn(units, orders, "datc", options, where=where, routed=True)
    if rejected:
        raise ValueError(f"{where}: illegal orders cannot be given to the peers: {rejected}")
    return workload.to_request(turn.units, turn.orders, ident=ident)


def _version(dist: str) -> Optional[str]:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:
        return None


Run = PeerRun  # after, dislodged (frozensets of (power, "A"/"F", location)), refused, detail


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
    """MILA through the package's adapter (:class:`dipsat.io.peers.MilaPeer`), its Game class
    patched with the corrections ``fixes`` when asked."""

    name = "mila"

    def __init__(self) -> None:
        from dipsat.io.peers import MilaPeer

        self._peer = MilaPeer()
        self._Game = self._peer.game_class
        self.version = self._peer.version
        self._classes: dict[frozenset, Any] = {frozenset(): self._Game}

    def game_class(self, fixes: frozenset) -> Any:
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
        return self._peer.run(workload.peer_turn(req), game_class=self.game_class(frozenset(fixes)))


class Pydip:
    """pydip through the package's adapter (:class:`dipsat.io.peers_pydip.PydipPeer`), with the
    corrections ``fixes`` patched into ``pydip.turn.resolve`` when asked."""

    name = "pydip"

    def __init__(self) -> None:
        from dipsat.io.peers_pydip import PydipPeer

        self._peer = PydipPeer()
        self._map = self._peer.map
        self.version = self._peer.version

    @staticmethod
    def spec(req: dict[str, Any]) -> tuple[dict, list[tuple]]:
        """The turn in pydip's terms, each army routed the DATC 3.0 way (:func:`workload.pydip_spec`)."""
        return workload.pydip_spec(req)

    def run(self, req: dict[str, Any], fixes: frozenset = frozenset()) -> Run:
        impls = {fn: impl for name in sorted(fixes) for fn, impl in PYDIP_FIXES[name].items()}
        with self._peer.patched(impls):
            return self._peer.run(workload.peer_turn(req))


def load_peers(names: tuple[str, ...] = ("mila", "pydip")) -> tuple[list[Any], dict[str, str]]:
    """The installed peers, and why the others are missing."""
    from dipsat.io.peers import PeerError

    peers, missing = [], {}
    for name, cls in (("mila", Mila), ("pydip", Pydip)):
        if name not in names:
            continue
        try:
            peers.append(cls())
        except ImportError as exc:
            missing[name] = f"not installed ({exc})"
        except PeerError as exc:
            missing[name] = str(exc)
        except Exception as exc:  # a broken peer is reported, not fatal
            missing[name] = f"unusable: {type(exc).__name__}: {exc}"
    return peers, missing
