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


# an order's form as read in one pass (:func:`read_form`): the text (stripped), the action, the
# ordered unit's kind (None: not written), province and coast (as written), the destination's
# province and coast (None: none written), the other unit's kind and province (a support's or a
# convoy's; None: none), ``via convoy`` and the convoy path written
Form = tuple[str, str, Optional[str], str, Optional[str], Optional[str], Optional[str], Optional[str],
             Optional[str], bool, tuple[str, ...]]


class Notation(Protocol):
    """What the quick reader asks of a notation (:class:`dipsat.board.notation.Notation`): its
    keywords, its lexer's memos of words and the memos of the quick reader's own."""

    keywords: dict[str, str]
    kind_words: dict[str, str]
    _continued: dict[str, list[str]]
    _word_memo: dict[str, Any]
    _placed_memo: dict[tuple[str, int], Any]
    core_memo: dict[str, Optional[ParsedOrder]]
    form_memo: dict[str, Optional[Form]]
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


def quick_reads(notation: Notation, base: type, hooks: tuple[str, ...] = HOOKS) -> bool:
    """Whether ``notation``'s orders may be read by :func:`read_core_form`: every hook in
    ``hooks`` (:data:`HOOKS`) is ``base``'s (the core's) or marked with :func:`reads_core_forms`,
    and its words ``via`` and ``by`` are the core's keywords."""
    cls = type(notation)
    for name in hooks:
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
    words = _words(notation, text, True)
    if words is None:
        return None
    s, kinds, values, via = words
    form = _grammar(kinds, values, via)
    if form is None:
        return None
    action, kind, loc, dest, target_kind, target_loc, path = form
    refs = notation.unit_refs
    key = (kind, loc.province, loc.coast, loc.column)
    unit = refs.get(key)
    if unit is None:
        unit = _unit_ref(refs, key, loc)
    target = None
    if target_loc is not None:
        key = (target_kind, target_loc.province, target_loc.coast, target_loc.column)
        target = refs.get(key)
        if target is None:
            target = _unit_ref(refs, key, target_loc)
    return ParsedOrder(s, unit, action, dest, target, via and action == "move", path, power)  # (a support reads past it)


def read_form(notation: Notation, text: str) -> Optional[Form]:
    """What the full grammar reads in ``text`` (but the columns of its places), when it is one of
    the core's short forms, else None: the places read from the memo of words alone, not placed
    at their columns, and no order record made (:mod:`dipsat.board.one_pass` binds the form
    straight away).  From a memo of texts."""
    memo = notation.form_memo
    hit: Optional[Form] = memo.get(text, _UNSEEN)
    if hit is _UNSEEN:
        hit = None
        words = _words(notation, text, False)
        if words is not None:
            s, kinds, values, via = words
            form = _grammar(kinds, values, via)
            if form is not None:
                action, kind, loc, dest, target_kind, target_loc, path = form
                hit = (s, action, kind, loc.province, loc.coast, dest.province if dest is not None else None,
                       dest.coast if dest is not None else None, target_kind,
                       target_loc.province if target_loc is not None else None, via and action == "move", path)
        if len(memo) > 50_000:
            memo.clear()
        memo[text] = hit
    return hit


def _words(notation: Notation, text: str, placed: bool) -> Optional[tuple[str, list[str], list[Any], bool]]:
    """The tokens of ``text``'s words, as the lexer's word path reads them
    (Notation._word_tokens): each word one token of the memo of words, none where a longer name
    goes on past it; (the text stripped, their kinds, their values, whether ``via convoy`` ends
    it), or None.  ``placed``: each place moved to its word's column (a memo of placed words)."""
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
    word_memo, placed_memo = notation._word_memo, notation._placed_memo
    kinds: list[str] = []
    values: list[Any] = []
    pos = 0
    for j, w in enumerate(words):
        tok = word_memo.get(w, _UNSEEN)
        if tok is _UNSEEN:
            tok = notation._placed_token(w, 0)  # (read, and kept in the memo of words)
        shift = 0
        if tok is None:  # "-bul": a dash and the word after it (a seed's "A(Rum)-Bul" rewritten: "A Rum -Bul")
            if len(w) < 2 or w[0] != "-" or w[1] == ">":
                return None
            kinds.append("DASH")
            values.append(None)
            w, shift = w[1:], 1
            tok = word_memo.get(w, _UNSEEN)
            if tok is _UNSEEN:
                tok = notation._placed_token(w, 0)
            if tok is None:
                return None
        kind = tok.kind
        if kind not in _CORE_KINDS:
            return None
        if placed:
            i = low.index(w, pos)
            pos = i + len(w)
            if w in continued and notation._continues(low, i, continued[w]):
                return None
            if kind == "PROV" and i:
                tok = placed_memo.get((w, i), _UNSEEN)
                if tok is _UNSEEN:
                    tok = notation._placed_at(w, i)
        elif w in continued and notation._continues(low, _column(low, words, j) + shift, continued[w]):
            return None
        kinds.append(kind)
        values.append(tok.value)
    return s, kinds, values, via


def _column(low: str, words: list[str], j: int) -> int:
    """The column of ``words[j]`` in ``low`` (its words, split at white space)."""
    i = 0
    for w in words[:j]:
        i = low.index(w, i) + len(w)
    return low.index(words[j], i)


def _grammar(kinds: list[str], values: list[Any], via: bool
             ) -> Optional[tuple[str, Optional[str], LocRef, Optional[LocRef], Optional[str], Optional[LocRef], tuple[str, ...]]]:
    """The core's short forms in a sequence of token kinds (their values beside them): (the
    action, the ordered unit's kind and place, the destination, the other unit's kind and place,
    the convoy path written), or None."""
    k = len(kinds)
    # the ordered unit: [kind] province
    i = 1 if kinds[0] == "KIND" else 0
    if i >= k or kinds[i] != "PROV":
        return None
    kind = values[0] if i else None
    loc = values[i]
    i += 1
    if i == k:  # "A Par": a hold
        return None if via else ("hold", kind, loc, None, None, None, ())
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
        return "move", kind, loc, dest, None, None, tuple(x.province for x in locs)
    if via and what != "SUPPORT":  # only a move and a supported move read a "via" at their end
        return None
    if what == "HOLD":
        return ("hold", kind, loc, None, None, None, ()) if i == k else None
    if what == "DISBAND":
        return ("disband", kind, loc, None, None, None, ()) if i == k else None
    if what not in ("SUPPORT", "CONVOY") or i == k:
        return None
    # the supported or convoyed unit: [kind] province
    target_kind = None
    if kinds[i] == "KIND":
        target_kind = values[i]
        i += 1
    if i >= k or kinds[i] != "PROV":
        return None
    target = values[i]
    i += 1
    if i == k or kinds[i] == "HOLD":  # "A Par S A Mar [H]": a support to hold (a convoy names its move)
        if via or what == "CONVOY" or (i != k and i + 1 != k):
            return None
        return "support", kind, loc, None, target_kind, target, ()
    if kinds[i] not in _DASHES or i + 2 != k or kinds[i + 1] != "PROV":
        return None
    return what.lower(), kind, loc, values[i + 1], target_kind, target, ()


def _unit_ref(refs: dict[Any, UnitRef], key: tuple[Any, ...], loc: LocRef) -> UnitRef:
    """A unit reference of the memo of references (made once: a reference is a value)."""
    if len(refs) > 50_000:
        refs.clear()
    ref = refs[key] = UnitRef(key[0], loc)
    return ref
