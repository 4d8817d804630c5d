"""Orders as people paste them from other programs, rewritten into dipsat's notation before
they are parsed: webDiplomacy's sentences ("The army at Munich move to Burgundy.") and godip's
word orders ("mar Support par bur", "nth Convoy lon nwy", "lon MoveViaConvoy nwy").  Provinces
stay as written (any name or abbreviation the map knows); what is not one of these forms is
left alone (None), so the usual notation is parsed as before.

    >>> from_other_programs("The army at Munich support move to Burgundy from Ruhr.")
    'A Munich S Ruhr - Burgundy'
    >>> from_other_programs("mar Support par bur")
    'mar S par - bur'
"""

from __future__ import annotations

import re
from functools import cache
from typing import Callable, Optional

_KIND = {"army": "A", "fleet": "F"}
_UNIT = r"the (army|fleet) at (.+?)"
_END = r"\s*\.?\s*$"
Rewrite = Callable[[str, tuple[str, ...]], str]


@cache
def _sentences() -> list[tuple[re.Pattern[str], Rewrite]]:
    """webDiplomacy's sentences: (pattern, rewrite from the kind letter and the groups after it);
    the longer forms first, as the unit's place is read lazily ("at Marseilles support move to
    ..."). Compiled on the first order that starts with "the " (most never do)."""
    return [(re.compile(_UNIT + r" support hold to (.+?)" + _END, re.I), lambda k, g: f"{k} {g[0]} S {g[1]}"),
            (re.compile(_UNIT + r" support move to (.+?) from (.+?)" + _END, re.I), lambda k, g: f"{k} {g[0]} S {g[2]} - {g[1]}"),
            (re.compile(_UNIT + r" convoy to (.+?) from (.+?)" + _END, re.I), lambda k, g: f"{k} {g[0]} C {g[2]} - {g[1]}"),
            (re.compile(_UNIT + r" move to (.+?) via convoy" + _END, re.I), lambda k, g: f"{k} {g[0]} - {g[1]} via convoy"),
            (re.compile(_UNIT + r" (?:move|retreat) to (.+?)" + _END, re.I), lambda k, g: f"{k} {g[0]} - {g[1]}"),
            (re.compile(_UNIT + r" holds?" + _END, re.I), lambda k, g: f"{k} {g[0]} H"),
            (re.compile(_UNIT + r" disband" + _END, re.I), lambda k, g: f"{k} {g[0]} D")]


# godip: "<province> <OrderType> <province>..." (its order types as one word each)
_GODIP = re.compile(r"^\s*(\S+)\s+(support|convoy|moveviaconvoy)\s+(\S+)(?:\s+(\S+))?\s*$", re.I)


def from_other_programs(text: str) -> Optional[str]:
    """``text`` in dipsat's notation when it is one of the forms above, else None."""
    head = text.lstrip()[:4].lower()
    if head == "the ":
        for pattern, rewrite in _sentences():
            m = pattern.match(text.strip())
            if m:
                return rewrite(_KIND[m.group(1).lower()], m.groups()[1:])
        return None
    m = _GODIP.match(text)
    if m is None:
        return None
    origin, kind, first, second = m.groups()
    kind = kind.lower()
    if kind == "moveviaconvoy":
        return None if second else f"{origin} - {first} via convoy"
    if kind == "convoy":
        return f"{origin} C {first} - {second}" if second else None
    return f"{origin} S {first}" + (f" - {second}" if second else "")
