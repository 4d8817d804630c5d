"""The seed's order notation.

* ``A 3 Yug-Tar`` — attack (or move, into an own or empty country) from Yug to Tar with three
  units;
* ``SA Dis-Pie 2 Ciu`` — support, with two units from Ciu, the attack of Dis on Pie;
* ``SD Pie 2 Ciu`` — support the defence of Pie with two units from Ciu (the seed: "in that case
  the player only needs to state which country the support defensively"; written like the
  attack support, without an attacker);
* ``H Yug`` (or ``Yug H``) — hold: the default for every unit without an order.

Dashes may be ``-``, ``–``, ``—`` or ``->``; names are ids (``Yug``), full names (``Yugant``) or
aliases, in any case.  A sea crossing needs no mark.
"""

from __future__ import annotations

import re
from typing import Literal, Optional

from dipsat.errors import InvalidOrder
from dipsat.maps.continental import ContinentalMap
from dipsat.board.notation import shown, too_long
from dipsat.records import dataclass

Kind = Literal["move", "support_attack", "support_defence", "hold"]

DASHES = re.compile(r"\s*(?:->|→|–|—|-)\s*")
MOVE = re.compile(r"^A\s+(?P<n>\S+)\s+(?P<origin>[^-]+?)-(?P<target>[^-]+)$", re.I)
# the count starts with a digit (as SD's), so a name of several words ("New Town") before it is read
# whole, not its last word as the count
SUPPORT_A = re.compile(r"^SA\s+(?P<ally>[^-]+?)-(?P<target>.+?)\s+(?P<n>\d\S*)\s+(?P<origin>\S.*)$", re.I)
SUPPORT_D = re.compile(r"^SD\s+(?P<target>.+?)\s+(?P<n>\d\S*)\s+(?P<origin>\S.*)$", re.I)
HOLD_BEFORE = re.compile(r"^H(?:OLD)?\s+(?P<node>.+)$", re.I)
HOLD_AFTER = re.compile(r"^(?P<node>.+?)\s+H(?:OLD)?$", re.I)


@dataclass(frozen=True)
class Order:
    kind: Kind
    origin: str  # where the units come from
    target: str = ""  # the country attacked, entered or supported ("" for a hold)
    count: int = 0
    ally: str = ""  # support_attack: the country whose attack is supported

    def format(self, cmap: ContinentalMap) -> str:
        d = cmap.display
        if self.kind == "move":
            return f"A {self.count} {d(self.origin)}-{d(self.target)}"
        if self.kind == "support_attack":
            return f"SA {d(self.ally)}-{d(self.target)} {self.count} {d(self.origin)}"
        if self.kind == "support_defence":
            return f"SD {d(self.target)} {self.count} {d(self.origin)}"
        return f"H {d(self.origin)}"


def _node(cmap: ContinentalMap, text: str, name: str, order: str) -> str:
    node = cmap.lookup(name.strip())
    if node is None:
        raise InvalidOrder(order, f"unknown country or free city {name.strip()!r}")
    return node


def _count(text: str, order: str) -> int:
    if not text.isdigit():
        raise InvalidOrder(order, f"expected a number of units, got {text!r}")
    n = int(text)
    if n < 1:
        raise InvalidOrder(order, "an order needs at least one unit")
    return n


def parse_order(cmap: ContinentalMap, text: str) -> Order:
    """One order in the seed's notation; :class:`InvalidOrder` (quoting the text) when it is
    not understood."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidOrder(str(text), "empty order")
    why = too_long(text)
    if why is not None:
        raise InvalidOrder(text, why, quote=shown(text))
    s = DASHES.sub("-", " ".join(text.split()))
    if m := MOVE.match(s):
        return Order("move", _node(cmap, text, m["origin"], text), _node(cmap, text, m["target"], text),
                     _count(m["n"], text))
    if m := SUPPORT_A.match(s):
        return Order("support_attack", _node(cmap, text, m["origin"], text), _node(cmap, text, m["target"], text),
                      _count(m["n"], text), ally=_node(cmap, text, m["ally"], text))
    if m := SUPPORT_D.match(s):
        return Order("support_defence", _node(cmap, text, m["origin"], text), _node(cmap, text, m["target"], text),
                     _count(m["n"], text))
    # "H Yug" or "Yug H": the form whose name is a node ("Hold Fast hold": the name starts as "Hold")
    holds = [m["node"] for m in (HOLD_BEFORE.match(s), HOLD_AFTER.match(s)) if m]
    for name in holds:
        if cmap.lookup(name.strip()) is not None:
            return Order("hold", _node(cmap, text, name, text))
    if holds:
        return Order("hold", _node(cmap, text, holds[0], text))  # its error: the unknown name
    head = s.split()[0].upper() if s.split() else ""
    hint: Optional[str] = {
        "A": "an attack or move is 'A 3 Yug-Tar' (units, from, to)",
        "SA": "an attack support is 'SA Dis-Pie 2 Ciu' (the supported attack, then units and where they come from)",
        "SD": "a defence support is 'SD Pie 2 Ciu' (the country defended, then units and where they come from)",
    }.get(head)
    raise InvalidOrder(text, hint or "expected 'A 3 Yug-Tar', 'SA Dis-Pie 2 Ciu', 'SD Pie 2 Ciu' or 'H Yug'")
