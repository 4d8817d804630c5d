"""Order notation: text -> syntax (:class:`ParsedOrder`), and back.

Both common families are understood, case-insensitively:

* DATC style: ``A Par - Bur``, ``F Lon S A Wal - Bel``, ``F London Supports F Wales - English
  Channel``, ``F Eng C A Lon - Bre``, ``A Lon - Bre via convoy``, ``F Spa/nc``, ``F Spa(nc)``,
  ``F Spain (north coast)``, ``A Mun H``, ``A Munich Hold``;
* MILA / DPjudge style: ``A PAR - BUR``, ``F SPA/NC``, ``A BRE - LON VIA``, ``A PAR H``.

An en dash, em dash, ``->`` and ``=>`` are accepted for the move dash; ``A Yor - Nth - Bel`` gives
a convoy path.  Province names are matched longest first against the map's names and aliases,
so ``Mid-Atlantic Ocean`` and ``Nth-Nwy`` both read right.

This module only reads text.  Whether an order is allowed is decided against a position in
:mod:`solver.orders`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional

from dipsat.maps import GameMap

from .errors import InvalidOrder
from .models import Unit

if TYPE_CHECKING:
    from .models import Unit

COAST_WORDS = {
    "nc": "nc", "n": "nc", "north": "nc", "north coast": "nc", "northcoast": "nc",
    "sc": "sc", "s": "sc", "south": "sc", "south coast": "sc", "southcoast": "sc",
    "ec": "ec", "e": "ec", "east": "ec", "east coast": "ec", "eastcoast": "ec",
    "wc": "wc", "w": "wc", "west": "wc", "west coast": "wc", "westcoast": "wc",
}

KEYWORDS = {
    "hold": "HOLD", "holds": "HOLD", "h": "HOLD", "stand": "HOLD", "stands": "HOLD",
    "support": "SUPPORT", "supports": "SUPPORT", "s": "SUPPORT", "sup": "SUPPORT", "supp": "SUPPORT",
    "sups": "SUPPORT", "supported": "SUPPORT",
    "convoy": "CONVOY", "convoys": "CONVOY", "c": "CONVOY",
    "via": "VIA", "by": "BY",
    "move": "MOVE", "moves": "MOVE", "to": "MOVE",
    "r": "MOVE", "retreat": "MOVE", "retreats": "MOVE",
    "disband": "DISBAND", "disbands": "DISBAND", "d": "DISBAND", "remove": "DISBAND",
}

DASH_RE = re.compile(r"(->|=>|–|—|-)")


@dataclass(frozen=True)
class LocRef:
    province: str
    coast: Optional[str] = None  # "nc", "sc", ... as written (maybe not a real coast)
    column: int = 0

    def location(self) -> str:
        return f"{self.province}/{self.coast}" if self.coast else self.province


@dataclass(frozen=True)
class UnitRef:
    kind: Optional[str]  # "A", "F" or None when omitted
    loc: LocRef
    count: Optional[int] = None  # "2 F Nth": how many units of a multiply-held province
    power: Optional[str] = None  # "FA Bur" (French army), "1 I A Tun": the nation, when written
    kinds: tuple[tuple[Optional[int], Optional[str], Optional[str]], ...] = ()  # "1 A & 1 F Naf": (count, power, kind) parts


@dataclass
class ParsedOrder:
    text: str
    unit: UnitRef
    action: str  # hold, move, support, convoy
    dest: Optional[LocRef] = None  # move destination / supported or convoyed move destination
    target: Optional[UnitRef] = None  # supported / convoyed unit
    via_convoy: bool = False
    path: tuple[str, ...] = ()  # intermediate provinces of a written convoy path
    power: Optional[str] = None  # "England: ..." prefix, when written
    supported_by: tuple[UnitRef, ...] = ()  # "2 A Swi-Mun sup by 1 A Swi": supports written with the move
    extras: dict[str, Any] = field(default_factory=dict)  # what a variant's grammar additions read


def _loc_text(loc: LocRef) -> str:
    return loc.province.capitalize() + (f"/{loc.coast}" if loc.coast else "")


def _unit_text(u: UnitRef) -> str:
    return (f"{u.count} " if u.count is not None else "") + (f"{u.kind} " if u.kind else "") + _loc_text(u.loc)


def format_unit(u: UnitRef) -> str:
    return _unit_text(u)


def format_order(p: "ParsedOrder") -> str:
    """Canonical DATC-style text of a parsed order; ``parse(format_order(p))`` reads back the
    same order (the round trip the property tests check)."""
    head = _unit_text(p.unit)
    if p.action == "hold":
        return f"{head} H"
    if p.action == "disband":
        return f"{head} Disband"
    if p.action == "move":
        assert p.dest is not None
        steps = " - ".join([*(x.capitalize() for x in p.path), _loc_text(p.dest)])
        return f"{head} - {steps}" + (" via convoy" if p.via_convoy else "")
    assert p.target is not None
    word = "S" if p.action == "support" else "C"
    tail = f" - {_loc_text(p.dest)}" if p.dest is not None else ""
    return f"{head} {word} {_unit_text(p.target)}{tail}"


# what a token carries: a place (PROV), a number (NUM), a kind letter (KIND), a nation and kind
# (POWKIND), the word as written (keywords), or nothing (DASH, COLON, AND, VIA, BY)
TokenValue = LocRef | int | str | tuple[Optional[str], Optional[str]] | None


@dataclass(frozen=True)
class _Tok:
    kind: str  # PROV, DASH, HOLD, SUPPORT, CONVOY, VIA, BY, KIND, POWKIND, NUM, MOVE, ...
    value: TokenValue
    column: int

    def loc(self) -> LocRef:
        """The place of a PROV token."""
        assert isinstance(self.value, LocRef), self
        return self.value

    def number(self) -> int:
        """The number of a NUM token."""
        assert isinstance(self.value, int), self
        return self.value

    def word(self) -> str:
        """The letter of a KIND token, the word of a keyword token."""
        assert isinstance(self.value, str), self
        return self.value

    def power_kind(self) -> tuple[Optional[str], Optional[str]]:
        """The (nation, kind letter) of a POWKIND token."""
        assert isinstance(self.value, tuple), self
        return self.value


class Notation:
    """Tokeniser and parser of order text for one map.

    A variant's notation subclasses it and changes only its tables and hooks:
    :attr:`kind_words` (its unit kinds), :attr:`power_letters` (nation letters before a unit),
    :attr:`extra_keywords` (words of its own, read as the token kind given) and
    :meth:`parse_move_tail` (what may follow a move, e.g. a route)."""

    # words of the variant's own grammar: word -> token kind (e.g. {"fo": "FO"})
    extra_keywords: dict[str, str] = {}

    def __init__(self, game_map: GameMap):
        self.map = game_map
        self.keywords = {**KEYWORDS, **self.extra_keywords}
        table = game_map.name_table()
        # names with spaces/hyphens are matched on the raw text; keep longest first
        self._names = sorted(table.items(), key=lambda kv: -len(kv[0]))
        # candidates by the first two characters (longest first; one-letter names last, under
        # their letter alone), so a token is matched against a handful of names, not all
        self._first_chars: dict[str, list[tuple[str, str]]] = {}
        for name, pid in self._names:
            self._first_chars.setdefault(name[:2], []).append((name, pid))
        self._token_memo: dict[str, tuple[_Tok, ...]] = {}  # text -> tokens (pure memo)
        self._parse_memo: dict[tuple, ParsedOrder] = {}  # (text, power) -> parse (pure memo)
        self.unit_memo: dict[tuple[str, str], Unit] = {}  # (power, text) -> Unit, for solver.orders (pure memo)

    # unit kinds: word -> kind letter (variants with other kinds of unit replace this table)
    kind_words: dict[str, str] = {"a": "A", "army": "A", "f": "F", "fleet": "F"}

    # nation letters ("FA Bur" = French army, "1 I A Tun"): off on the standard map, where the
    # letters A and F would be ambiguous; variants whose notation uses them set this table.
    power_letters: dict[str, str] = {}

    def power_kind(self, word: str) -> Optional[tuple[Optional[str], Optional[str]]]:
        """``"fa"`` -> (France, "A"); ``"i"`` -> (Italy, None); None if not such a word."""
        if not self.power_letters:
            return None
        if len(word) == 2 and word[0] in self.power_letters and word[1] in "af":
            return self.power_letters[word[0]], word[1].upper()
        if len(word) == 1 and word in self.power_letters and word not in "af" and word not in self.keywords:
            return self.power_letters[word], None
        return None

    def unit_specs(self, power: str, text: str) -> list["Unit"]:
        """Hook: the unit records a position's unit spec stands for (``"F Spain(nc)"``, ``"2 A
        Par"``).  One by default; a variant whose units are composite (an army and a fleet
        written as one) returns one record per part."""
        from .orders import parse_unit_spec

        return [parse_unit_spec(self, power, text)]

    # -- tokens ---------------------------------------------------------------------------
    def tokenize(self, text: str) -> list[_Tok]:
        hit = self._token_memo.get(text)
        if hit is None:
            hit = tuple(self._tokenize(text))
            if len(self._token_memo) > 50_000:
                self._token_memo.clear()
            self._token_memo[text] = hit
        return list(hit)

    def _tokenize(self, text: str) -> list[_Tok]:
        s = text.lower()
        toks: list[_Tok] = []
        i, n = 0, len(s)
        while i < n:
            ch = s[i]
            if ch.isspace() or ch in ",.;":
                i += 1
                continue
            m = DASH_RE.match(s, i)
            if m and not (ch == "-" and toks and toks[-1].kind == "PROV" and False):
                toks.append(_Tok("DASH", None, i))
                i = m.end()
                continue
            if ch in "(/":
                # coast: "(nc)", "/nc", "(north coast)"
                close = ")" if ch == "(" else None
                j = s.find(")", i) if close else i + 1
                if close and j < 0:
                    raise InvalidOrder(text, "unclosed '('", i)
                if close:
                    word = s[i + 1 : j].strip()
                    end = j + 1
                else:
                    mm = re.match(r"/\s*([a-z]+(?:\s+coast)?)", s[i:])
                    if not mm:
                        raise InvalidOrder(text, "expected a coast after '/'", i)
                    word = mm.group(1)
                    end = i + mm.end()
                if not toks or toks[-1].kind != "PROV":
                    raise InvalidOrder(text, f"coast {word!r} does not follow a province", i)
                prev = toks[-1]
                loc = prev.loc()
                coast = COAST_WORDS.get(" ".join(word.split()), word.replace(" ", ""))
                toks[-1] = _Tok("PROV", LocRef(loc.province, coast, loc.column), prev.column)
                i = end
                continue
            if ch == ":":
                toks.append(_Tok("COLON", None, i))
                i += 1
                continue
            if ch == "&":
                toks.append(_Tok("AND", None, i))
                i += 1
                continue
            if ch in "0123456789":
                m2 = re.match(r"[0-9]+", s[i:])
                assert m2
                if len(m2.group(0)) > 9:  # a count or a year, never this long (and int() refuses >4300 digits)
                    raise InvalidOrder(text, f"number {m2.group(0)[:12]}... is too large ({len(m2.group(0))} digits)", i)
                toks.append(_Tok("NUM", int(m2.group(0)), i))
                i += m2.end()
                continue
            # a province name (longest first) followed by a boundary
            hit = None
            for name, pid in (*self._first_chars.get(s[i:i + 2], ()), *self._first_chars.get(ch, ())):
                if s.startswith(name, i):
                    end = i + len(name)
                    if end == n or not (s[end].isalnum()):
                        hit = (name, pid)
                        break
            word_m = re.match(r"[a-z][a-z']*", s[i:])
            word = word_m.group(0) if word_m else s[i]
            if word in self.kind_words and (hit is None or len(hit[0]) <= len(word)):
                toks.append(_Tok("KIND", self.kind_words[word], i))
                i += len(word)
                continue
            pk = self.power_kind(word)
            if pk is not None and (hit is None or len(hit[0]) <= len(word)):
                toks.append(_Tok("POWKIND", pk, i))
                i += len(word)
                continue
            if word in self.keywords and (hit is None or len(hit[0]) <= len(word)):
                # "via convoy" / "by convoy": one token
                kw = self.keywords[word]
                if kw in ("VIA", "BY"):
                    rest = re.match(r"\s+convoy\b", s[i + len(word) :])
                    if kw == "BY" and not rest:
                        toks.append(_Tok("BY", None, i))
                        i += len(word)
                        continue
                    toks.append(_Tok("VIA", None, i))
                    i += len(word) + (rest.end() if rest else 0)
                    continue
                toks.append(_Tok(kw, word, i))
                i += len(word)
                continue
            if hit:
                toks.append(_Tok("PROV", LocRef(hit[1], None, i), i))
                i += len(hit[0])
                continue
            if word in COAST_WORDS and toks and toks[-1].kind == "PROV" and len(word) > 1:
                prev = toks[-1]
                loc = prev.loc()
                toks[-1] = _Tok("PROV", LocRef(loc.province, COAST_WORDS[word], loc.column), prev.column)
                i += len(word)
                mm = re.match(r"\s+coast\b", s[i:])
                if mm:
                    i += mm.end()
                continue
            raise InvalidOrder(text, f"unknown word {text[i:i + len(word)]!r}: not a province of the {self.map.name} map nor an order keyword", i)
        return toks

    # -- grammar --------------------------------------------------------------------------
    def parse(self, text: str, power: Optional[str] = None) -> ParsedOrder:
        """Parse one order.  Raises :class:`InvalidOrder` quoting the text.  The result is shared
        between calls with the same text: treat it as read-only."""
        key = (text, power)
        hit = self._parse_memo.get(key)
        if hit is None:
            hit = self._parse(text, power)
            if len(self._parse_memo) > 50_000:
                self._parse_memo.clear()
            self._parse_memo[key] = hit
        return hit

    def _parse(self, text: str, power: Optional[str] = None) -> ParsedOrder:
        try:
            return self._parse_body(text, power)
        except InvalidOrder as exc:
            if exc.text == text:
                raise
            # quote the whole order, even when the error was found after a "Power:" prefix
            offset = text.find(exc.text) if exc.text else -1
            col = exc.column + offset if exc.column is not None and offset >= 0 else exc.column
            raise InvalidOrder(text, exc.reason, col) from None

    def _parse_body(self, text: str, power: Optional[str] = None) -> ParsedOrder:
        if not text or not text.strip():
            raise InvalidOrder(text, "empty order")
        stripped = text.strip()
        written_power = None
        m = re.match(r"^([A-Za-z][A-Za-z ]*?)\s*:\s*(.*)$", stripped)
        if m and m.group(1).lower() not in {n for n, _ in self._names}:
            written_power = m.group(1).strip()
            stripped = m.group(2)
        toks = self.tokenize(stripped)
        p = Cursor(stripped, toks)
        unit = self._unit(p, "the ordered unit")
        order = ParsedOrder(text=text.strip(), unit=unit, action="hold", power=written_power or power)
        t = p.peek()
        if t is None or t.kind == "HOLD":
            if t is not None:
                p.next()
            order.action = "hold"
        elif t.kind in ("DASH", "MOVE"):
            p.next()
            locs = [p.expect_prov("a destination after '-'")]
            while p.at("DASH", "MOVE"):
                p.next()
                locs.append(p.expect_prov("a province after '-'"))
            order.action = "move"
            order.dest = locs[-1]
            order.path = tuple(l.province for l in locs[:-1])
            if p.at("VIA"):
                p.next()
                order.via_convoy = True
            self.parse_move_tail(p, order)
            by: list[UnitRef] = []
            while p.at("SUPPORT") and p.i + 1 < len(p.toks) and p.toks[p.i + 1].kind == "BY":
                p.next()
                p.next()
                by.append(self._unit(p, "the supporting unit"))
                if p.at("AND"):
                    p.next()
            order.supported_by = tuple(by)
        elif t.kind == "SUPPORT":
            p.next()
            order.action = "support"
            order.target = self._unit(p, "the supported unit")
            nt = p.peek()
            if nt is not None and nt.kind in ("DASH", "MOVE"):
                p.next()
                order.dest = p.expect_prov("the destination of the supported move")
                if p.at("VIA"):
                    p.next()
            elif nt is not None and nt.kind == "HOLD":
                p.next()
        elif t.kind == "DISBAND":
            p.next()
            order.action = "disband"
        elif t.kind == "CONVOY":
            p.next()
            order.action = "convoy"
            order.target = self._unit(p, "the convoyed army")
            if not (p.at("DASH", "MOVE")):
                raise InvalidOrder(text, "a convoy order needs the convoyed move, e.g. 'F Nth C A Lon - Nwy'", p.col())
            p.next()
            order.dest = p.expect_prov("the destination of the convoyed army")
        elif t.kind == "PROV":
            # MILA "A PAR BUR"? not accepted: say what was expected
            raise InvalidOrder(text, "expected '-', 'H', 'S' or 'C' after the unit", t.column)
        else:
            raise InvalidOrder(text, f"unexpected {stripped[t.column:].split()[0]!r} after the unit; expected '-', 'H', 'S' or 'C'", t.column)
        rest = p.peek()
        if rest is not None:
            raise InvalidOrder(text, f"unexpected text {stripped[rest.column:]!r} at the end of the order", rest.column)
        return order

    def parse_move_tail(self, p: "Cursor", order: ParsedOrder) -> None:
        """Grammar hook: read what the variant allows after a move (and its ``via convoy``)
        into ``order.extras``.  The standard notation has nothing there."""

    def _unit(self, p: "Cursor", what: str) -> UnitRef:
        """``[count] [nation] [kind] ( & [count] [nation] [kind] )* province``."""
        parts: list[tuple[Optional[int], Optional[str], Optional[str]]] = []
        while True:
            count: Optional[int] = None
            power: Optional[str] = None
            kind: Optional[str] = None
            t = p.peek()
            if t is not None and t.kind == "NUM":
                p.next()
                count = t.number()
                t = p.peek()
            if t is not None and t.kind == "POWKIND":
                p.next()
                power, kind = t.power_kind()
                t = p.peek()
            if t is not None and t.kind == "KIND" and kind is None:
                p.next()
                kind = t.word()
                t = p.peek()
                # "FF": a plural kind letter repeated ("2 FF Gol", "AA")
            parts.append((count, power, kind))
            if t is not None and t.kind == "AND":
                p.next()
                continue
            break
        loc = p.expect_prov(f"{what}'s province")
        count, power, kind = parts[0]
        if count is not None and count < 1:
            raise InvalidOrder(p.text, f"a unit count must be at least 1, not {count}")
        if len(parts) > 1:
            total = sum(c or 1 for c, _, _ in parts)
            return UnitRef(None, loc, total, power, tuple(parts))
        return UnitRef(kind, loc, count, power)


class Cursor:
    """A position in the tokens of one order (for the grammar hooks)."""

    def __init__(self, text: str, toks: list[_Tok]):
        self.text, self.toks, self.i = text, toks, 0

    def peek(self) -> Optional[_Tok]:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def at(self, *kinds: str) -> bool:
        """Is the next token of one of these kinds?"""
        t = self.peek()
        return t is not None and t.kind in kinds

    def next(self) -> _Tok:
        t = self.toks[self.i]
        self.i += 1
        return t

    def col(self) -> int:
        t = self.peek()
        return t.column if t else len(self.text)

    def expect_prov(self, what: str) -> LocRef:
        t = self.peek()
        if t is None:
            raise InvalidOrder(self.text, f"expected {what}, found the end of the order", len(self.text))
        if t.kind != "PROV":
            raise InvalidOrder(self.text, f"expected {what}, found {self.text[t.column:].split()[0]!r}", t.column)
        self.i += 1
        return t.loc()
