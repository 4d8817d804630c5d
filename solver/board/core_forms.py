"""The core's short order forms read straight from their words: ``A Par - Bur``, ``A Par H``,
``F Mao - Spa/nc``, ``A Par S A Mar - Bur``, ``A Par S A Mar``, ``F Nth C A Lon - Nwy``,
``A Lon - Nwy via convoy``, ``A Yor - Nth - Bel`` (any spelling the notation's words read: full
names, ``to``, ``supports``, ...).

Most orders a batch reads for the first time are such forms.  :func:`read_core_form` reads one
from the tokens of its words (the lexer's memo of words, :meth:`Notation._word_tokens`) by its
sequence of token kinds, without the grammar's cursor and hooks, and gives exactly the
:class:`ParsedOrder` the full grammar gives (a property test compares the two on the orders of
every variant's notation); on anything else -- a nation or count before a unit, a ``Power:``
prefix, a pasted sentence, a form that is not valid -- it gives None and the full grammar reads
the text (and words its errors).

A notation whose grammar hooks read more than the core reads may still use it, when each hook it
changes reads the core's forms as the core does: such a hook says so with
:func:`reads_core_forms`.  Otherwise (a hook not so marked) the notation reads every order with
its full grammar.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Protocol, TypeVar

from dipsat.board.parsed import LocRef, ParsedOrder, TokenValue, UnitRef

F = TypeVar("F", bound=Callable[..., Any])


class Notation(Protocol):
    """What the quick reader asks of a notation (:class:`dipsat.board.notation.Notation`): its
    keywords, its lexer's memos of words and the memos of the quick reader's own."""

    keywords: dict[str, str]
    kind_words: dict[str, str]
    _continued: dict[str, list[str]]
    _word_memo: dict[str, Any]
    _placed_memo: dict[tuple[str, int], Any]
    core_memo: dict[str, Optional[ParsedOrder]]
    unit_refs: dict[tuple[Optional[str], str, Optional[str], int], UnitRef]

    def lex_word(self, word: str) -> Optional[tuple[str, TokenValue]]: ...

    def _placed_token(self, w: str, i: int) -> Any: ...

    def _placed_at(self, w: str, i: int) -> Any: ...

    @staticmethod
    def _continues(s: str, i: int, names: list[str]) -> bool: ...

# the methods whose every override must say it reads the core's forms as the core does
HOOKS = ("read_unit", "parse_move_tail", "parse", "_parse", "_parse_body", "tokenize", "_word_tokens",
         "_placed_token", "_placed_at", "_word_token", "_tokenize")

_GODIP_WORDS = frozenset(("support", "convoy", "moveviaconvoy"))  # (see dipsat.board.pasted)
_DASHES = frozenset(("DASH", "MOVE"))
_CORE_KINDS = frozenset(("KIND", "PROV", "DASH", "MOVE", "HOLD", "SUPPORT", "CONVOY", "DISBAND"))


def reads_core_forms(hook: F) -> F:
    """Mark a grammar hook that, on the core's forms (kinds, provinces, dashes, ``H``, ``S``,
    ``C``, ``via convoy``, nothing else), reads exactly what the core's hook reads, so the quick
    reader (:func:`read_core_form`) may stand in for it."""
    setattr(hook, "reads_core_forms", True)
    return hook


def quick_reads(notation: Notation, base: type) -> bool:
    """Whether ``notation``'s orders may be read by :func:`read_core_form`: every hook in
    :data:`HOOKS` is ``base``'s (the core's) or marked with :func:`reads_core_forms`, and its
    words ``via`` and ``by`` are the core's keywords."""
    cls = type(notation)
    for name in HOOKS:
        fn = getattr(cls, name)
        if fn is not getattr(base, name) and not getattr(fn, "reads_core_forms", False):
            return False
    return all(notation.keywords.get(w) == kw and w not in notation.kind_words and notation.lex_word(w) is None
               for w, kw in (("via", "VIA"), ("by", "BY")))


def read_core_form(notation: Notation, text: str, power: Optional[str]) -> Optional[ParsedOrder]:
    """``text`` as the full grammar reads it when it is one of the core's short forms, else None
    (see the module's docstring).  From a memo of texts (one power's order read again for
    another: the same order but for its ``power``)."""
    memo = notation.core_memo
    if text in memo:
        hit = memo[text]
    else:
        hit = _read(notation, text, power)
        if len(memo) > 50_000:
            memo.clear()
        memo[text] = hit
    if hit is None or hit.power == power:
        return hit
    return ParsedOrder(hit.text, hit.unit, hit.action, hit.dest, hit.target, hit.via_convoy, hit.path, power)


_UNSEEN: Any = object()  # a text not yet in the memo


def _read(notation: Notation, text: str, power: Optional[str]) -> Optional[ParsedOrder]:
    s = text.strip()
    if not s or ":" in s or not s.isascii():  # empty, a "Power:" prefix; (ASCII: columns as lowered)
        return None
    low = s.lower()
    words = low.split()
    n = len(words)
    if words[0] == "the" or (3 <= n <= 4 and words[1] in _GODIP_WORDS):  # pasted from other programs
        return None
    continued = notation._continued
    via = False
    last = words[-1]
    if (last == "via" and n > 1) or (last == "convoy" and n > 2 and words[-2] in ("via", "by")):
        # "via", "via convoy", "by convoy": one VIA token, last (unless a longer name starts there)
        cut = 1 if last == "via" else 2
        if words[-cut] in continued:
            return None
        via = True
        del words[-cut:]
    # the words' tokens, as the lexer's word path reads them (Notation._word_tokens): each word
    # one token of the memo of words, a place moved to the word's column (a memo of placed
    # words), none where a longer name goes on past it
    word_memo, placed = notation._word_memo, notation._placed_memo
    kinds: list[str] = []
    values: list[Any] = []
    pos = 0
    for w in words:
        i = low.index(w, pos)
        pos = i + len(w)
        tok = word_memo.get(w, _UNSEEN)
        if tok is _UNSEEN:
            tok = notation._placed_token(w, 0)  # (read, and kept in the memo of words)
        if tok is None or (w in continued and notation._continues(low, i, continued[w])):
            return None
        kind = tok.kind
        if kind not in _CORE_KINDS:
            return None
        if kind == "PROV" and i:
            tok = placed.get((w, i), _UNSEEN)
            if tok is _UNSEEN:
                tok = notation._placed_at(w, i)
        kinds.append(kind)
        values.append(tok.value)
    k = len(kinds)
    refs = notation.unit_refs
    # the ordered unit: [kind] province
    i = 1 if kinds[0] == "KIND" else 0
    if i >= k or kinds[i] != "PROV":
        return None
    loc = values[i]
    key = (values[0] if i else None, loc.province, loc.coast, loc.column)
    unit = refs.get(key)
    if unit is None:
        unit = _unit_ref(refs, key, loc)
    i += 1
    if i == k:  # "A Par": a hold
        return None if via else ParsedOrder(s, unit, "hold", power=power)
    what = kinds[i]
    i += 1
    if what in _DASHES:
        locs: list[LocRef] = []
        while True:
            if i == k or kinds[i] != "PROV":
                return None
            locs.append(values[i])
            i += 1
            if i == k:
                break
            if kinds[i] not in _DASHES:
                return None
            i += 1
        dest = locs.pop()
        return ParsedOrder(s, unit, "move", dest, None, via, tuple(x.province for x in locs), power)
    if via and what != "SUPPORT":  # only a move and a supported move read a "via" at their end
        return None
    if what == "HOLD":
        return ParsedOrder(s, unit, "hold", power=power) if i == k else None
    if what == "DISBAND":
        return ParsedOrder(s, unit, "disband", power=power) if i == k else None
    if what not in ("SUPPORT", "CONVOY") or i == k:
        return None
    # the supported or convoyed unit: [kind] province
    kind = None
    if kinds[i] == "KIND":
        kind = values[i]
        i += 1
    if i >= k or kinds[i] != "PROV":
        return None
    loc = values[i]
    key = (kind, loc.province, loc.coast, loc.column)
    target = refs.get(key)
    if target is None:
        target = _unit_ref(refs, key, loc)
    i += 1
    if i == k or kinds[i] == "HOLD":  # "A Par S A Mar [H]": a support to hold (a convoy names its move)
        if via or what == "CONVOY" or (i != k and i + 1 != k):
            return None
        return ParsedOrder(s, unit, "support", None, target, power=power)
    if kinds[i] not in _DASHES or i + 2 != k or kinds[i + 1] != "PROV":
        return None
    return ParsedOrder(s, unit, what.lower(), values[i + 1], target, power=power)


def _unit_ref(refs: dict[Any, UnitRef], key: tuple[Any, ...], loc: LocRef) -> UnitRef:
    """A unit reference of the memo of references (made once: a reference is a value)."""
    if len(refs) > 50_000:
        refs.clear()
    ref = refs[key] = UnitRef(key[0], loc)
    return ref
