"""Multiplicity Plus notation: the seed's own forms beside the project's usual ones.

The seed writes a unit as its make-up and its space in brackets: ``A(Par)``, ``2A(Bur)``,
``A/F(ENG)``, ``2A/F(Bre)``, ``A/2F(MAO)``; ``Std`` is a hold.  Its own order forms:

* ``A(Par)-Bur MERGE with ITALIAN A(Mar)-Bur`` — a multinational merge (rule 5);
* ``English A(Pic) S FRENCH MERGE (Bur)`` — support for every French unit moving to Burgundy
  (rule 4(d));
* ``A(Bur) attacks ITALIAN A(Bur)`` and ``A(Par) S A(Bur) attacks ITALIAN A(Bur)`` — an attack
  on the foreign component of one's own multinational unit, and support for it (rule 5(a));
* ``A(Par)-Bur MERGE A(Bur) and support attack on ITALIAN A(Bur)`` — a move that merges into
  one's own component of a multinational unit and adds its strength to that component's attack
  on the foreign one (rule 5(a));
* ``A(Bur)-Pic cutting Par, Bel`` — the attacker's priority for cutting supports (rule 6);
* ``4A(Par): A(Par)Std, 2A(Par)-Bur, A(Par)-Gas`` — a split written as one line (rule 10;
  read by the binder, which makes one order of each part).

The usual forms work as well: ``2 A Par - Bur``, ``A Par - Bur``, ``A & F Eng - Bre``,
``F Eng C A Lon - Pic``.  The seed's forms are rewritten into the usual ones and read by the
core's grammar; what the core's grammar has no words for is recorded on the order as typed
additions (:class:`CutFirst`, :class:`MergeWith`, :class:`MergeAndAttack`, :class:`SupportedMerge`,
:class:`Victim`), which the binder reads back with ``ParsedOrder.addition``.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Optional

from dipsat.errors import InvalidOrder, OrderError
from dipsat.models import ARMY, FLEET, Unit
from dipsat.board.notation import DASH_RE, Addition, ParsedOrder, UnitRef
from dipsat.board.notation_additions import StackNotation, written_parts
from dipsat.records import dataclass

# These read text whose runs of white space are one space (MultiplicityNotation.normalise), and
# start only where a count or a unit kind starts, so a long run of anything is never re-read
# from each of its positions (``2A(`` and 3,000 spaces took 31 s in the bracket pattern).
# "A/F", "2A/F", "A/2F", "2A/2F" -> "A&F" ... (the core's grammar reads "&" between parts)
_COMBO = re.compile(r"(?<![A-Za-z0-9])(\d*)\s?([AaFf])\s?/\s?(\d*)\s?([AaFf])(?![A-Za-z])")
# "2A(Bur)", "A&F(ENG)", "F(StP/sc)" -> "2A Bur ", ...: what is inside starts and ends with a
# character that is not a space
_BRACKET = re.compile(r"(?<![A-Za-z0-9])((?:\d+\s?)?[AaFf](?:&\d*[AaFf])?)\s?\(\s?([^()\s](?:[^()]*[^()\s])?)\s?\)")
_MERGE_WITH = re.compile(r"^(?P<main>.+?)\s+merge\s+with\s+(?P<power>[A-Za-z]+)\s+(?P<other>.+)$", re.I)
_MERGE_SUPPORT = re.compile(r"^(?P<unit>.+?)\s+(?:s|sup|supp|support|supports)\s+(?P<power>[A-Za-z]+)\s+merge\s*"
                            r"(?:\(\s*(?P<p1>[^)]+?)\s*\)|(?P<p2>.+?))\s*$", re.I)
_SUPPORT_ATTACK = re.compile(r"^(?P<unit>.+?)\s+(?:s|sup|supp|support|supports)\s+(?P<target>.+?)\s+attacks?\s+"
                             r"(?P<power>[A-Za-z]+)\s+(?P<victim>.+)$", re.I)
_ATTACK = re.compile(r"^(?P<unit>.+?)\s+attacks?\s+(?P<power>[A-Za-z]+)\s+(?P<victim>.+)$", re.I)
# "A(Par)-Bur MERGE A(Bur) and support attack on ITALIAN A(Bur)" (rule 5(a))
_MERGE_ATTACK = re.compile(r"^(?P<move>.+?)\s+merge\s+(?!with\b)(?P<own>.+?)\s+and\s+(?:s|sup|supp|support|supports)\s+"
                           r"(?:the\s+)?attacks?\s+(?:on\s+)?(?P<power>[A-Za-z]+)\s+(?P<victim>.+)$", re.I)
_CUTTING = re.compile(r"^(?P<main>.+?)[\s,;]+(?:cutting|cuts?)\s+(?P<list>.+?)\s*$", re.I)
# words of a cutting clause that say nothing about which space: "cutting first the support for
# A(Kie)-Ber", "cutting the support for Ber first", "cuts supports aimed at Par"
_CUT_FILLER = re.compile(r"\b(?:first|firstly|the|supports?|orders?|aimed|at|for|into|of|on|move|moving|attacks?|"
                         r"holding|hold|in|place|by|unit)\b", re.I)
_CUT_ITEMS = re.compile(r"\s*(?:,|;|\band\b|\bthen\b|\bbefore\b|\bafter\s+that\b)\s*", re.I)
# a supported move's dash in a cutting clause: any dash an order may have ("A(Kie) – Ber"), or "to"
_CUT_DASH = re.compile(r"\s*(?:" + DASH_RE.pattern.strip("()") + r"|\bto\b)\s*")
_UNIT_KIND = re.compile(r"^\s*(?:\d+\s*)?[AF](?:\s*/\s*\d*\s*[AF])?(?=\s*\(|\s+)", re.I)


def _seed_words(text: str) -> bool:
    """Whether ``text`` may be one of the seed's own forms: each of their patterns needs a word
    with "merge", "attack" or "cut" in it (read in any case, as they read it; text that is not
    ASCII is always tried)."""
    if not text.isascii():
        return True
    low = text.lower()
    return "cut" in low or "merge" in low or "attack" in low


# the seed's keywords in an order none of its forms reads: what was expected
_SEED_FORMS = (
    (re.compile(r"\bmerge\b", re.I),
     "expected one of the seed's merge orders: 'A(Par)-Bur MERGE with ITALIAN A(Mar)-Bur' (rule 5), "
     "'A(Pic) S FRENCH MERGE (Bur)' (rule 4(d)) or 'A(Par)-Bur MERGE A(Bur) and support attack on ITALIAN A(Bur)' "
     "(rule 5(a))"),
    (re.compile(r"\battacks?\b", re.I),
     "expected an attack inside one's own multinational unit, 'A(Bur) attacks ITALIAN A(Bur)', or support for it, "
     "'A(Par) S A(Bur) attacks ITALIAN A(Bur)' (rule 5(a))"),
    (re.compile(r"\b(?:cutting|cuts?)\s*$", re.I),
     "expected the spaces whose supports to cut first after 'cutting', e.g. 'A(Bur)-Pic cutting Par' (rule 6)"),
)


@dataclass(frozen=True)
class CutFirst(Addition):
    """``... cutting Par, Bel``: the spaces whose supports the attack cuts first (rule 6)."""

    spaces: tuple[str, ...]
    unread: tuple[str, ...] = ()  # parts of the clause naming no space: the default order applies to them


@dataclass(frozen=True)
class SplitPart(Addition):
    """A part of a split written as one line (``4A(Par): A(Pic)Std, 2A(Pic)-Bur``) that names
    another space than its header's: read as a part of the header's unit (rule 10's example),
    recorded with the header as written."""

    header: str


@dataclass(frozen=True)
class MergeWith(Addition):
    """``... MERGE with ITALIAN A(Mar)-Bur``: the other nation of a multinational merge (rule 5)
    and its unit as written."""

    partner: str
    partner_unit: UnitRef


@dataclass(frozen=True)
class MergeAndAttack(Addition):
    """``... MERGE A(Bur) and support attack on ITALIAN A(Bur)``: the nation whose component the
    move attacks once merged (rule 5(a))."""

    victim: str


@dataclass(frozen=True)
class SupportedMerge(Addition):
    """``S FRENCH MERGE (Bur)``: the nation whose units merging into the space are supported
    (rule 4(d))."""

    power: str
    space: str


@dataclass(frozen=True)
class Victim(Addition):
    """``attacks ITALIAN A(Bur)``: the foreign component attacked inside one's own space, or
    whose attack is supported (rule 5(a)), and its unit as written."""

    power: str
    unit: UnitRef


class MultiplicityNotation(StackNotation):
    """The core's notation plus the seed's (see the module docstring)."""

    extra_keywords = {"std": "HOLD", "standing": "HOLD"}

    def power_named(self, word: str) -> Optional[str]:
        """``"ITALIAN"``, ``"Italy"`` -> ``"Italy"`` (adjective or name, any case)."""
        return self._power_words.get(word.strip().lower())

    @cached_property
    def _power_words(self) -> dict[str, str]:
        """A nation's name and adjective, in lower case -> the nation (the first nation that
        has it, in the map's order)."""
        out: dict[str, str] = {}
        for name, p in self.map.powers.items():
            out.setdefault(name.lower(), name)
            out.setdefault(p.adjective.lower(), name)
        return out

    def normalise(self, text: str) -> str:
        """The seed's compact units rewritten in the core's grammar (runs of white space read as
        one space)."""
        text = " ".join(text.split())
        s = _COMBO.sub(lambda m: f"{m.group(1)}{m.group(2)}&{m.group(3)}{m.group(4)}", text)
        return _BRACKET.sub(lambda m: f"{m.group(1).replace(' ', '')} {m.group(2)} ", s).strip()

    def _parse_body(self, text: str, power: Optional[str] = None) -> ParsedOrder:
        stripped = " ".join(text.split())  # the patterns below read one space between words
        # "English A(Pic) S ...": a nation's adjective before the unit
        first, _, rest = stripped.partition(" ")
        named = self.power_named(first) if rest and ":" not in first else None
        if named is not None and self.map.lookup_province(first) is None:
            power = named
            stripped = rest
        cut: tuple[Addition, ...] = ()
        if _seed_words(stripped):
            cut, stripped, main = self._seed_forms(text, stripped, power)
            if main is not None:
                return main
        try:
            out = self._core(text, stripped, power)
        except InvalidOrder as exc:
            hint = next((h for kw, h in _SEED_FORMS if kw.search(stripped)), None)
            if hint is None:
                raise
            raise InvalidOrder(text, f"{hint} ({exc.reason})") from None
        out.additions = (*out.additions, *cut)
        out.text = text.strip()
        return out

    def _seed_forms(self, text: str, stripped: str, power: Optional[str]
                    ) -> tuple[tuple[Addition, ...], str, Optional[ParsedOrder]]:
        """The seed's own forms (merges, attacks, a cutting clause): the cutting clause read off
        the end, what is left of the text, and the order when it is one of the other forms
        (None: the core's grammar reads what is left)."""
        cut: tuple[Addition, ...] = ()
        m = _CUTTING.match(stripped)
        if m and not _ATTACK.match(stripped):
            cut = (self._cut_first(m.group("list")),)
            stripped = m.group("main").rstrip(" ,;")
        m = _MERGE_ATTACK.match(stripped)
        if m:
            victim_power = self._partner(text, m.group("power"))
            main = self._core(text, m.group("move"), power)
            own = self._core(text, m.group("own"), power)
            victim = self._core(text, m.group("victim"), victim_power)
            if main.action != "move" or own.action != "hold" or victim.action != "hold":
                raise InvalidOrder(text, "expected 'MOVE MERGE UNIT and support attack on NATION UNIT', e.g. "
                                         "'A(Par)-Bur MERGE A(Bur) and support attack on ITALIAN A(Bur)'")
            assert main.dest is not None
            dest = main.dest.province
            if own.unit.loc.province != dest or victim.unit.loc.province != dest:
                raise InvalidOrder(text, f"the unit merged with and the unit attacked stand where the move goes "
                                         f"({self.map.provinces[dest].name}) (rule 5(a))")
            main.additions = (*main.additions, *cut, MergeAndAttack(victim_power))
            main.text = text.strip()
            return cut, stripped, main
        m = _MERGE_WITH.match(stripped)
        if m:
            partner = self._partner(text, m.group("power"))
            main = self._core(text, m.group("main"), power)
            other = self._core(text, m.group("other"), partner)
            if main.action != "move" or other.action != "move":
                raise InvalidOrder(text, "a multinational merge is written as two moves to one space, e.g. "
                                         "'A(Par)-Bur MERGE with ITALIAN A(Mar)-Bur'")
            assert main.dest is not None and other.dest is not None
            if main.dest.province != other.dest.province:
                raise InvalidOrder(text, f"the two moves of a multinational merge go to different spaces "
                                         f"({main.dest.province.capitalize()} and {other.dest.province.capitalize()})")
            main.additions = (*main.additions, *cut, MergeWith(partner, other.unit))
            main.text = text.strip()
            return cut, stripped, main
        m = _MERGE_SUPPORT.match(stripped)
        if m:
            nation = self._partner(text, m.group("power"))
            where = (m.group("p1") or m.group("p2") or "").strip()
            pid = self.map.lookup_province(where)
            if pid is None:
                raise InvalidOrder(text, f"expected the space of the supported merge after 'MERGE', e.g. "
                                         f"'S FRENCH MERGE (Bur)'; {where!r} is not a space")
            head = self._core(text, m.group("unit"), power)
            if head.action != "hold":
                raise InvalidOrder(text, "expected a unit before 'S ... MERGE', e.g. 'A(Pic) S FRENCH MERGE (Bur)'")
            head.action = "merge_support"
            head.additions = (*head.additions, *cut, SupportedMerge(nation, pid))
            head.text = text.strip()
            return cut, stripped, head
        m = _SUPPORT_ATTACK.match(stripped)
        if m:
            victim_power = self._partner(text, m.group("power"))
            head = self._core(text, m.group("unit"), power)
            target = self._core(text, m.group("target"), None)
            victim = self._core(text, m.group("victim"), victim_power)
            if head.action != "hold" or target.action != "hold" or victim.action != "hold":
                raise InvalidOrder(text, "expected 'UNIT S UNIT attacks NATION UNIT', e.g. "
                                         "'A(Par) S A(Bur) attacks ITALIAN A(Bur)'")
            head.action = "support_attack"
            head.target = target.unit
            head.additions = (*head.additions, *cut, Victim(victim_power, victim.unit))
            head.text = text.strip()
            return cut, stripped, head
        m = _ATTACK.match(stripped)
        if m:
            victim_power = self._partner(text, m.group("power"))
            head = self._core(text, m.group("unit"), power)
            victim = self._core(text, m.group("victim"), victim_power)
            if head.action != "hold" or victim.action != "hold":
                raise InvalidOrder(text, "expected 'UNIT attacks NATION UNIT', e.g. 'A(Bur) attacks ITALIAN A(Bur)'")
            if victim.unit.loc.province != head.unit.loc.province:
                raise InvalidOrder(text, "an attack on a foreign component is made inside one's own space "
                                         "(rule 5(a)); to attack another space, write a move")
            head.action = "attack"
            head.additions = (*head.additions, *cut, Victim(victim_power, victim.unit))
            head.text = text.strip()
            return cut, stripped, head
        return cut, stripped, None

    # -- text --------------------------------------------------------------------------------
    def format(self, order: ParsedOrder) -> str:
        """The order in the core's grammar where it has the words (``2 A Par - Bur``, ``A & F Eng
        H``), in the seed's forms where it has not (``MERGE with``, ``S FRENCH MERGE (Bur)``,
        ``attacks``, ``MERGE ... and support attack on``), a cutting clause last."""
        cut = order.addition(CutFirst)
        tail = ""
        if cut is not None and (cut.spaces or cut.unread):
            tail = " cutting " + ", ".join([*(self.map.display(s) for s in cut.spaces), *cut.unread])
        unit = self.format_unit
        victim = order.addition(Victim)
        if order.action == "merge_support":
            merge = order.addition(SupportedMerge)
            assert merge is not None
            return f"{unit(order.unit)} S {self._adjective(merge.power)} MERGE ({self.map.display(merge.space)}){tail}"
        if order.action == "attack":
            assert victim is not None
            return f"{unit(order.unit)} attacks {self._adjective(victim.power)} {unit(victim.unit)}{tail}"
        if order.action == "support_attack":
            assert victim is not None and order.target is not None
            return (f"{unit(order.unit)} S {unit(order.target)} attacks {self._adjective(victim.power)} "
                    f"{unit(victim.unit)}{tail}")
        text = super().format(order)
        attack = order.addition(MergeAndAttack)
        if attack is not None:
            assert order.dest is not None
            here = self.map.display(order.dest.province)
            return f"{text} MERGE {here} and support attack on {self._adjective(attack.victim)} {here}{tail}"
        merge_with = order.addition(MergeWith)
        if merge_with is not None:
            assert order.dest is not None
            return (f"{text} MERGE with {self._adjective(merge_with.partner)} {unit(merge_with.partner_unit)} - "
                    f"{self.map.display(order.dest.province)}{tail}")
        return text + tail

    def format_split(self, header: UnitRef, parts: list[ParsedOrder]) -> str:
        """A split written as one line (rule 10): ``4 A Par: A Par H, 2 A Par - Bur``."""
        return f"{self.format_unit(header)}: " + ", ".join(self.format(p) for p in parts)

    def _adjective(self, power: str) -> str:
        return self.map.powers[power].adjective.upper()

    def _cut_first(self, clause: str) -> CutFirst:
        """Rule 6: "it is up to the attacker to make it clear which supports he wants to cut
        first".  Each part of the clause names a space: the space a support is aimed at (``Par``),
        or a supported move whose destination it is (``A(Kie)-Ber``, ``Kie-Ber``: Berlin); words
        such as "first", "the support for" are read past.  A part naming no space is kept as
        unread: the attack goes ahead and those supports are cut in the default order."""
        provs: list[str] = []
        unread: list[str] = []
        for item in _CUT_ITEMS.split(clause):
            if not item.strip():
                continue
            pid = None
            for words in (item, _CUT_FILLER.sub(" ", item)):
                # a supported move: the space it goes to
                piece = _CUT_DASH.split(words.strip())[-1]
                piece = " ".join(_UNIT_KIND.sub("", piece).strip().strip("()").split())
                pid = self.map.lookup_province(piece) if piece else None
                if pid is not None:
                    break
            if pid is None:
                unread.append(item.strip())
            elif pid not in provs:
                provs.append(pid)
        return CutFirst(tuple(provs), tuple(unread))

    def _partner(self, text: str, word: str) -> str:
        p = self.power_named(word)
        if p is None:
            raise InvalidOrder(text, f"expected a nation (e.g. ITALIAN or Italy), found {word!r}; nations: "
                                     f"{', '.join(self.map.powers)}")
        return p

    def _core(self, text: str, part: str, power: Optional[str]) -> ParsedOrder:
        """One order in the core's grammar, after the seed's compact units are rewritten; errors
        quote the whole order as written."""
        try:
            out = self.core_parse(self.normalise(part), power)
        except InvalidOrder as exc:
            raise InvalidOrder(text, exc.reason) from None
        return out

    def unit_specs(self, power: str, text: str) -> list[Unit]:
        """A position's unit in either notation: ``2A(Bur)``, ``A/F(ENG)``, ``2 A Bur``,
        ``A/2F Mid-Atlantic Ocean``; one unit record per kind."""
        try:
            p = self._core(text, text.strip(), power)
        except OrderError:
            raise
        if p.action != "hold":
            raise InvalidOrder(text, "a unit is written as its make-up and its space, e.g. '2A(Bur)', 'A/F(ENG)' or '2 A Bur'")
        ref = p.unit
        parts = written_parts(ref)
        out: list[Unit] = []
        m = self.map
        prov = ref.loc.province
        pdata = m.provinces[prov]
        for count, _, kind in parts:
            if kind is None:
                raise InvalidOrder(text, "name the kind of every part: A (army) or F (fleet), e.g. 'A/2F(MAO)'")
            loc = prov
            if kind == FLEET:
                if pdata.coasts:
                    if not ref.loc.coast:
                        raise InvalidOrder(text, f"a fleet in {pdata.name} must name its coast: "
                                                 f"{' or '.join(m.display(c) for c in pdata.coasts)}")
                    loc = ref.loc.location()
                    if loc not in pdata.coasts:
                        raise InvalidOrder(text, f"{pdata.name} has no coast {ref.loc.coast!r}")
                elif not m.is_fleet_location(prov):
                    raise InvalidOrder(text, f"a fleet cannot stand on {pdata.name} ({pdata.terrain})")
            elif kind != ARMY:
                raise InvalidOrder(text, f"a Multiplicity unit is made of armies (A) and fleets (F), not {kind!r}")
            out.append(Unit(power=power, kind=kind, location=loc, count=count or 1))
        return out
