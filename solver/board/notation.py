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

The core grammar knows one unit per province: a unit is ``[kind] province``.  A variant's notation
adds to it through narrow hooks (see :class:`Notation`): words and symbols of its own lexed into
tokens of its own (:meth:`Notation.lex_word`, :attr:`Notation.symbols`), how a unit reference is
read (:meth:`Notation.read_unit`, which may return a :class:`UnitRef` subclass carrying what it
read before the unit), and what may follow a move (:meth:`Notation.parse_move_tail`, which
records typed :class:`Addition` values on the order).  The notation shared by boards where a
province holds several units (counts, nation letters, ``&``, ``sup by``) is such an addition:
:mod:`solver.notation_additions`.
"""

from __future__ import annotations

import re
from typing import Optional

from dipsat.maps import GameMap

from dipsat.board.parsed import (
    A,
    Addition,
    LocRef,
    ParsedOrder,
    TokenValue,
    UnitRef,
    format_order,
    format_unit,
)
from dipsat.board.core_forms import HOOKS, Form, quick_reads, read_core_form
from dipsat.board.pasted import from_other_programs
from dipsat.board.unit_specs import parse_unit_spec
from dipsat.errors import InvalidOrder
from dipsat.models import Unit
from dipsat.records import dataclass

# (the parsed order's types are read from here too: dipsat.board.parsed holds them)
__all__ = ["A", "Addition", "COAST_WORDS", "Cursor", "KEYWORDS", "LocRef", "MAX_ORDER_CHARS", "Notation",
           "ParsedOrder", "Token", "TokenValue", "UnitRef", "format_order", "format_unit", "parse_unit_spec",
           "shown", "too_long"]

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

DASH_RE = re.compile(r"(->|=>|–|—|-|→|⇒|⟶|➔|➜)")  # the arrows people paste too
_WORD_RE = re.compile(r"[a-z][a-z']*")
_NUM_RE = re.compile(r"[0-9]+")
_SLASH_COAST_RE = re.compile(r"/\s*([a-z]+(?:\s+coast)?)")
_CONVOY_AFTER_RE = re.compile(r"\s+convoy\b")
_COAST_AFTER_RE = re.compile(r"\s+coast\b")
_POWER_PREFIX_RE = re.compile(r"^([A-Za-z][A-Za-z ]*?)\s*:\s*(.*)$")

MAX_ORDER_CHARS = 1000
"""The longest order (or unit) text read, in characters: a DATC order is under 60, a seed's
longest forms (a split of a multiple unit, a merge with an attack) a few hundred.  Every pattern
that reads an order reads at most this many characters, so none can take long whatever it holds
(the patterns themselves are written to need no backtracking over long runs)."""


def too_long(text: str) -> Optional[str]:
    """Why ``text`` is too long to read as an order or a unit (None when it is not)."""
    if len(text) <= MAX_ORDER_CHARS:
        return None
    return f"{len(text):,} characters; an order or a unit is at most {MAX_ORDER_CHARS:,}"


def shown(text: str, n: int = 60) -> str:
    """``text`` as an error quotes it: cut after ``n`` characters."""
    return text if len(text) <= n else text[:n] + "..."


_UNSEEN = object()  # a word not yet in the word memo


@dataclass(frozen=True)
class _Tok:
    kind: str  # PROV, DASH, HOLD, SUPPORT, CONVOY, VIA, BY, KIND, NUM, MOVE, or a variant's own
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


Token = _Tok


class Notation:
    """Tokeniser and parser of order text for one map: DATC and MILA notation, one unit per
    province.

    A variant's notation subclasses it and changes only its tables and grammar hooks:
    :attr:`kind_words` (its unit kinds), :attr:`extra_keywords` (words of its own, read as the
    token kind given), :attr:`symbols` (characters of its own, read as the token kind given),
    :meth:`lex_word` (words of its own carrying a value), :meth:`read_unit` (how a unit is
    named, e.g. with a count or a nation before it), :meth:`named_power` (the nation such a
    reference names) and :meth:`parse_move_tail` (what may follow a move, e.g. a route)."""

    # words of the variant's own grammar: word -> token kind (e.g. {"fo": "FO"})
    extra_keywords: dict[str, str] = {}
    # characters of the variant's own grammar: character -> token kind (e.g. {"&": "AND"})
    symbols: dict[str, str] = {}

    def __init__(self, game_map: GameMap):
        self.map = game_map
        self.keywords = {**KEYWORDS, **self.extra_keywords}
        table = game_map.name_table()
        # names with spaces/hyphens are matched on the raw text; keep longest first
        self._names = sorted(table.items(), key=lambda kv: -len(kv[0]))
        self._name_set = frozenset(n for n, _ in self._names)
        # candidates by the first two characters (longest first; one-letter names last, under
        # their letter alone), so a token is matched against a handful of names, not all
        self._first_chars: dict[str, list[tuple[str, str]]] = {}
        for name, pid in self._names:
            self._first_chars.setdefault(name[:2], []).append((name, pid))
        # the candidates at a position, by its first two characters: the names starting with
        # both, then the one-letter names of the first (the order the lexer tries them in)
        self._candidates: dict[str, tuple[tuple[str, str], ...]] = {
            key: (*names, *(self._first_chars.get(key[0], ()) if len(key) == 2 else ()))
            for key, names in self._first_chars.items()}
        self._token_memo: dict[str, tuple[_Tok, ...]] = {}  # text -> tokens (pure memo)
        # the words a longer name continues past (a name's text before each of its spaces) -> the
        # names that do: such a word is read on its own only where none of them is written
        self._continued: dict[str, list[str]] = {}
        for name, _ in self._names:
            for j, c in enumerate(name):
                if c == " ":
                    self._continued.setdefault(name[:j], []).append(name)
        self._word_memo: dict[str, Optional[_Tok]] = {}  # word -> its one token, or None (pure memo)
        # (word, column) -> its one token moved to that column, or None (pure memo)
        self._placed_memo: dict[tuple[str, int], Optional[_Tok]] = {}
        self._parse_memo: dict[tuple[str, Optional[str]], ParsedOrder] = {}  # (text, power) -> parse (pure memo)
        self.unit_memo: dict[tuple[str, str], Unit] = {}  # (power, text) -> Unit, for solver.orders (pure memo)
        # the lexer asks lex_word only of a notation that has one of its own
        self._lexes_words = type(self).lex_word is not Notation.lex_word
        self._quick = quick_reads(self, Notation)  # the core's short forms read from their words
        # ... by core_parse: the hooks the core's grammar asks (this notation's own _parse_body aside)
        self._quick_core = quick_reads(self, Notation, tuple(h for h in HOOKS if h not in ("parse", "_parse", "_parse_body")))
        self.core_memo: dict[str, Optional[ParsedOrder]] = {}  # text -> its core form or None (pure memo)
        self.form_memo: dict[str, Optional[Form]] = {}  # text -> its form read in one pass or None (pure memo)
        # (kind, province, coast, column) -> the unit reference, for the core forms (pure memo)
        self.unit_refs: dict[tuple[Optional[str], str, Optional[str], int], UnitRef] = {}

    # unit kinds: word -> kind letter (variants with other kinds of unit replace this table)
    kind_words: dict[str, str] = {"a": "A", "army": "A", "f": "F", "fleet": "F"}

    def lex_word(self, word: str) -> Optional[tuple[str, TokenValue]]:
        """Grammar hook: a word of the variant's own that carries a value, as (token kind,
        value); None if ``word`` is not one.  Asked after the unit kinds and before keywords and
        province names.  The standard notation has none."""
        return None

    def unit_specs(self, power: str, text: str) -> list["Unit"]:
        """Hook: the unit records a position's unit spec stands for (``"F Spain(nc)"``, ``"2 A
        Par"``).  One by default; a variant whose units are composite (an army and a fleet
        written as one) returns one record per part."""
        return [parse_unit_spec(self, power, text)]

    # -- tokens ---------------------------------------------------------------------------
    def tokenize(self, text: str) -> list[_Tok]:
        hit = self._token_memo.get(text)
        if hit is None:
            hit = self._word_tokens(text)
            if hit is None:
                hit = tuple(self._tokenize(text))
            if len(self._token_memo) > 50_000:
                self._token_memo.clear()
            self._token_memo[text] = hit
        return list(hit)

    def _word_tokens(self, text: str) -> Optional[tuple[_Tok, ...]]:
        """The tokens of an order whose every word (split at white space) is one token read the
        same way on its own -- most orders: ``A Par - Bur``, ``F Nth C A Lon - Nwy`` -- from a
        memo of words (their tokens moved to the word's column); None when some word is not such
        a word, and :meth:`_tokenize` reads the text.  The same tokens as :meth:`_tokenize`
        (a test compares them on every kind of order)."""
        s = text.lower()
        placed = self._placed_memo
        continued = self._continued
        toks: list[_Tok] = []
        pos = 0
        for w in s.split():
            i = s.index(w, pos)
            pos = i + len(w)
            tok = placed.get((w, i), _UNSEEN)
            if tok is _UNSEEN:
                tok = self._placed_at(w, i)
            if tok is None or (w in continued and self._continues(s, i, continued[w])):
                return None
            assert isinstance(tok, _Tok)
            toks.append(tok)
        return tuple(toks)

    def _placed_at(self, w: str, i: int) -> Optional[_Tok]:
        """:meth:`_placed_token`, kept in the (bounded) memo of placed words."""
        tok = self._placed_token(w, i)
        if len(self._placed_memo) > 50_000:
            self._placed_memo.clear()
        self._placed_memo[(w, i)] = tok
        return tok

    @staticmethod
    def _continues(s: str, i: int, names: list[str]) -> bool:
        """Is one of ``names`` (longer names going on past the word at ``i``) written at ``i``,
        as the scan reads a name (followed by the end or a character neither letter nor digit)?"""
        for name in names:
            end = i + len(name)
            if s.startswith(name, i) and (end == len(s) or not s[end].isalnum()):
                return True
        return False

    def _placed_token(self, w: str, i: int) -> Optional[_Tok]:
        """The one token of word ``w`` standing at column ``i`` (its token from the memo of
        words, moved to the column), or None (see :meth:`_word_token`)."""
        memo = self._word_memo
        tok = memo.get(w, _UNSEEN)
        if tok is _UNSEEN:
            tok = self._word_token(w)
            if len(memo) > 50_000:
                memo.clear()
            memo[w] = tok
        assert tok is None or isinstance(tok, _Tok)
        if tok is None or not i:
            return tok
        value = tok.value
        if isinstance(value, LocRef):
            value = LocRef(value.province, value.coast, value.column + i)
        return _Tok(tok.kind, value, tok.column + i)

    def _word_token(self, w: str) -> Optional[_Tok]:
        """The one token a word is read as wherever it stands, or None: when it is not exactly
        one token, or when its token takes in the words after it (``via convoy``).  (Where a
        longer province name continues past it, ``north`` of ``north sea``, the caller declines.)"""
        try:
            toks = self._tokenize(w)
        except InvalidOrder:
            return None
        if len(toks) != 1 or toks[0].kind in ("VIA", "BY"):
            return None
        return toks[0]

    def _tokenize(self, text: str) -> list[_Tok]:
        s = text.lower()
        toks: list[_Tok] = []
        i, n = 0, len(s)
        symbols = self.symbols
        keywords = self.keywords
        kind_words = self.kind_words
        first_chars = self._first_chars
        candidates = self._candidates
        while i < n:
            ch = s[i]
            if ch.isspace() or ch in ",.;":
                i += 1
                continue
            if ch in "-–—=→⇒⟶➔➜":
                m = DASH_RE.match(s, i)
                if m:
                    toks.append(_Tok("DASH", None, i))
                    i = m.end()
                    continue
            if ch in "(/":
                # coast: "(nc)", "/nc", "(north coast)"
                if ch == "(":
                    j = s.find(")", i)
                    if j < 0:
                        raise InvalidOrder(text, "unclosed '('", i)
                    word = s[i + 1 : j].strip()
                    end = j + 1
                else:
                    mm = _SLASH_COAST_RE.match(s, i)
                    if not mm:
                        raise InvalidOrder(text, "expected a coast after '/'", i)
                    word = mm.group(1)
                    end = mm.end()
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
            if ch in symbols:
                toks.append(_Tok(symbols[ch], None, i))
                i += 1
                continue
            if ch in "0123456789":
                m2 = _NUM_RE.match(s, i)
                assert m2
                if len(m2.group(0)) > 9:  # a count or a year, never this long (and int() refuses >4300 digits)
                    raise InvalidOrder(text, f"number {m2.group(0)[:12]}... is too large ({len(m2.group(0))} digits)", i)
                toks.append(_Tok("NUM", int(m2.group(0)), i))
                i = m2.end()
                continue
            # a province name (longest first) followed by a boundary
            hit = None
            two = s[i:i + 2]
            cands = candidates.get(two) if len(two) == 2 else None
            for name, pid in cands if cands is not None else first_chars.get(ch, ()):
                if s.startswith(name, i):
                    end = i + len(name)
                    if end == n or not (s[end].isalnum()):
                        hit = (name, pid)
                        break
            word_m = _WORD_RE.match(s, i)
            word = word_m.group(0) if word_m else ch
            shorter = hit is None or len(hit[0]) <= len(word)
            if shorter and word in kind_words:
                toks.append(_Tok("KIND", kind_words[word], i))
                i += len(word)
                continue
            if shorter and self._lexes_words:
                own = self.lex_word(word)
                if own is not None:
                    toks.append(_Tok(own[0], own[1], i))
                    i += len(word)
                    continue
            if shorter and word in keywords:
                # "via convoy" / "by convoy": one token
                kw = keywords[word]
                if kw in ("VIA", "BY"):
                    rest = _CONVOY_AFTER_RE.match(s, i + len(word))
                    if kw == "BY" and not rest:
                        toks.append(_Tok("BY", None, i))
                        i += len(word)
                        continue
                    toks.append(_Tok("VIA", None, i))
                    i = rest.end() if rest else i + len(word)
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
                mm = _COAST_AFTER_RE.match(s, i)
                if mm:
                    i = mm.end()
                continue
            raise InvalidOrder(text, f"unknown word {text[i:i + len(word)]!r}: not a province of the {self.map.name} map nor an order keyword", i)
        return toks

    # -- grammar --------------------------------------------------------------------------
    def parse(self, text: str, power: Optional[str] = None) -> ParsedOrder:
        """Parse one order.  Raises :class:`InvalidOrder` quoting the text.  The result is shared
        between calls with the same text: treat it as read-only."""
        key = (text, power)
        hit = self._parse_memo.get(key)  # (only orders read are kept: none too long)
        if hit is None:
            why = too_long(text)
            if why is not None:
                raise InvalidOrder(text, why, quote=shown(text))
            hit = (read_core_form(self, text, power) if self._quick else None) or self._parse(text, power)
            if len(self._parse_memo) > 50_000:
                self._parse_memo.clear()
            self._parse_memo[key] = hit
        return hit

    def core_parse(self, text: str, power: Optional[str] = None) -> ParsedOrder:
        """``text`` read by the core's grammar with this notation's hooks (the core's
        :meth:`_parse_body`, whatever this notation's own does), as a new record the caller may
        change: the quick reader's where it reads the text, else the full grammar's.  For a
        notation that rewrites its own forms into the core's and reads them so."""
        if self._quick_core:
            hit = read_core_form(self, text, power)
            if hit is not None:
                return ParsedOrder(hit.text, hit.unit, hit.action, hit.dest, hit.target, hit.via_convoy, hit.path, hit.power)
        return Notation._parse_body(self, text, power)

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
        if ":" in stripped:
            m = _POWER_PREFIX_RE.match(stripped)
            if m and m.group(1).lower() not in self._name_set:
                written_power = m.group(1).strip()
                stripped = m.group(2)
        pasted = from_other_programs(stripped)  # webDiplomacy's sentences, godip's word orders
        if pasted is not None:
            stripped = pasted
        toks = self.tokenize(stripped)
        p = Cursor(stripped, toks)
        unit = self.read_unit(p, "the ordered unit")
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
        elif t.kind == "SUPPORT":
            p.next()
            order.action = "support"
            order.target = self.read_unit(p, "the supported unit")
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
            order.target = self.read_unit(p, "the convoyed army")
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

    # -- text ------------------------------------------------------------------------------
    def format(self, order: ParsedOrder) -> str:
        """The order's canonical text in this notation: ``parse(format(order))`` binds to the
        same order as ``order`` (a property test checks it on every variant's notation).  A
        variant whose grammar reads more writes it in :meth:`format_unit` (what is written before
        a unit) and :meth:`format_move_tail` (what follows a move), or overrides this."""
        return format_order(order, self.format_unit, self.format_move_tail(order))

    def format_unit(self, ref: UnitRef) -> str:
        """A unit reference as :meth:`read_unit` reads it back: ``[kind] province``."""
        return format_unit(ref)

    def format_move_tail(self, order: ParsedOrder) -> str:
        """What :meth:`parse_move_tail` reads back after a move (with a leading space); the
        standard notation writes nothing there."""
        return ""

    def parse_move_tail(self, p: "Cursor", order: ParsedOrder) -> None:
        """Grammar hook: read what the variant allows after a move (and its ``via convoy``)
        into ``order.additions``.  The standard notation has nothing there."""

    def read_unit(self, p: "Cursor", what: str) -> UnitRef:
        """Grammar hook: a unit reference, ``[kind] province`` (one unit per province: nothing
        else is written before it).  A variant's addition may read more and return a
        :class:`UnitRef` subclass."""
        t = p.peek()
        kind: Optional[str] = None
        if t is not None and t.kind == "KIND":
            p.next()
            kind = t.word()
        elif t is not None and t.kind == "NUM":
            raise InvalidOrder(p.text, f"a count ({t.number()}) before {what} only makes sense where several units "
                                       f"share a province, not on the {self.map.name} board", t.column)
        return UnitRef(kind, p.expect_prov(f"{what}'s province"))

    def named_power(self, ref: UnitRef) -> Optional[str]:
        """Grammar hook: the nation a unit reference names, when the variant's notation writes
        one before the unit (None: not written; the standard notation never does)."""
        return None


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
