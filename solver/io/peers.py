"""The peer adjudicators dipsat can drive: MILA's ``diplomacy`` and ``pydip``.

Each peer is an optional extra (``pip install 'dipsat[mila]'`` installs ``diplomacy``,
``'dipsat[pydip]'`` installs ``pydip``); it is imported only when asked for, and
:func:`load_peer` names the extra when it is missing.  A peer adjudicates movement turns of the
standard board (the only map both know):

* a turn is given as a :class:`PeerTurn` -- units (:class:`PeerUnit`, dipsat location ids such as
  ``spa/nc``) and one order per unit index (:mod:`dipsat.io.peer_turns`);
  :func:`peer_turn` makes one from orders in any notation dipsat reads (dipsat's own parser and
  legality checks; an order dipsat reads as illegal is given to no peer: that unit holds);
* the peer's answer is a :class:`PeerRun`: the units after the turn and the units dislodged, as
  ``(power, "A"/"F", location)``, plus the orders the peer refused.

:func:`observed` writes a run in the corpus vocabulary (``units_after``, ``dislodged``), which is
how ``dipsat fingerprint --peer`` turns a peer's result into an observation.

MILA (:class:`MilaPeer`) is given a fresh ``Game`` per turn, its units and order strings
(``A PAR - BUR``, ``A LON - NWY VIA``, ``F NTH C A LON - NWY``); pydip's adapter is in
:mod:`dipsat.io.peers_pydip`.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from dipsat.io.peer_turns import (PEERS, POWERS, TITLES, Loc, Peer, PeerError, PeerOrder, PeerRun, PeerTurn, PeerUnit,
                                  _missing, _order, loc_text, observed, order_text, peer_turn, turn_texts, unit_text,
                                  version_of)

__all__ = ["PEERS", "POWERS", "TITLES", "Loc", "MilaPeer", "Peer", "PeerError", "PeerOrder", "PeerRun", "PeerTurn",
           "PeerUnit", "load_peer", "loc_text", "mila_input", "mila_order", "mila_unit", "observed", "order_text",
           "peer_turn", "turn_texts", "unit_text", "version_of"]


# -- MILA -----------------------------------------------------------------------------------------


def mila_unit(u: PeerUnit) -> str:
    return f"{u.kind} {u.loc.upper()}"


def mila_order(turn: PeerTurn, i: int) -> str:
    """Unit ``i``'s order as MILA writes it: ``A PAR - BUR``, ``A LON - NWY VIA``, ``F NTH C A LON - NWY``."""
    return _order(turn, i, mila_unit, str.upper, " VIA")


def mila_input(turn: PeerTurn) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(units, orders) per MILA power name (``'FRANCE'``): ``'F SPA/NC'``, ``'A PAR - BUR'``."""
    mu: dict[str, list[str]] = {p.upper(): [] for p in POWERS}
    mo: dict[str, list[str]] = {p.upper(): [] for p in POWERS}
    for i, u in enumerate(turn.units):
        mu[u.power.upper()].append(mila_unit(u))
        if i in turn.orders:
            mo[u.power.upper()].append(mila_order(turn, i))
    return mu, mo


class MilaPeer:
    """MILA's ``diplomacy`` engine: a fresh ``Game`` per turn (``game_class`` may be a subclass)."""

    name = "mila"

    def __init__(self) -> None:
        try:
            from diplomacy import Game
        except ImportError as exc:
            raise _missing("mila", exc) from None
        self.game_class: Callable[[], Any] = Game
        Game()  # loads and caches the standard map
        self.version = version_of("mila")

    def run(self, turn: PeerTurn, game_class: Optional[Callable[[], Any]] = None) -> PeerRun:
        units, orders = mila_input(turn)
        game = (game_class or self.game_class)()
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
        return PeerRun(after=after, dislodged=dislodged, refused=refused,
                       detail={"results": results, "dislodged_by": dict(game.dislodged)})


def load_peer(name: str) -> Peer:
    """The peer called ``name`` (``mila``, ``pydip``), ready to run turns; a :class:`PeerError`
    naming the extra to install when it is missing or broken."""
    key = name.strip().lower()
    if key not in PEERS:
        raise PeerError(f"unknown peer {name!r}; the peers: {', '.join(PEERS)}")
    try:
        if key == "mila":
            return MilaPeer()
        from dipsat.io.peers_pydip import PydipPeer

        return PydipPeer()
    except PeerError:
        raise
    except ImportError as exc:
        raise _missing(key, exc) from None
    except Exception as exc:  # a peer that fails to start is named, not a traceback
        raise PeerError(f"the {TITLES[key]} adjudicator failed to start: {type(exc).__name__}: {exc}") from None
