"""Hypothesis strategies for the notation round trips (tests/test_notation_round_trip.py): small
positions of each Diplomacy-board variant, their legal orders (``dipsat.legal_orders``) and the
forms only a variant's own grammar writes, each respelled as people write it (full names, other
dashes and keywords, coasts in brackets, the seed's compact units)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from hypothesis import assume, strategies as st

from dipsat import legal_orders
from dipsat.errors import DipsatError
from dipsat.variants import find_variant

BOARDS = ("standard", "multiplomacy", "multinational", "multiplicity")
CORPORA = Path(__file__).resolve().parent / "corpora"
# (board, corpus folder): the corpora whose orders are written in a Diplomacy-family notation
CORPUS_FOLDERS = (("standard", "datc"), ("standard", "regressions"), ("standard", "readings"),
                  ("multiplomacy", "multiplomacy"), ("multinational", "multinational"),
                  ("multiplicity", "multiplicity"))


def corpus_orders(folder: str) -> list[str]:
    """Every order text of the corpus cases in ``tests/corpora/<folder>``."""
    texts = []
    for path in sorted((CORPORA / folder).glob("*.toml")):
        data = tomllib.loads(path.read_text())
        for orders in (data.get("orders") or {}).values():
            texts.extend(o for o in orders if isinstance(o, str))
    return texts

_KEYWORDS = {"H": ("H", "Hold", "holds", "h"), "S": ("S", "Supports", "support", "sup"), "C": ("C", "convoys", "Convoy"),
             "-": ("-", "–", "—", "->", "→"), "D": ("D", "Disband", "disbands")}
_COAST_WORDS = {"nc": ("north coast", "N"), "sc": ("south coast", "S"), "ec": ("east coast", "E"), "wc": ("west coast", "W")}


@st.composite
def board_positions(draw: Any, name: str) -> dict[str, Any]:
    """A request of a few units of ``name``'s board near one another (so that supports and
    convoys are among their legal orders); stacks of one to three units where the board has
    them, several nations in a space where it allows them."""
    v = find_variant(name)
    m = v.map
    places = sorted(p for p, d in m.provinces.items() if m.passable(p))
    centre = draw(st.sampled_from(places))
    near = {centre}
    for _ in range(2):
        near |= {m.province_of(n) for p in near for loc in (p, *m.fleet_locations_in(p))
                 for n in (*m.army_neighbours(loc), *m.fleet_neighbours(loc))}
    near_places = sorted(p for p in near if m.passable(p))
    powers = sorted(m.powers)
    units: dict[str, list[str]] = {}
    used: dict[str, str] = {}
    for _ in range(draw(st.integers(2, 7))):
        prov = draw(st.sampled_from(near_places))
        kind = draw(st.sampled_from(v.unit_kinds))
        if kind == "F":
            locs = m.fleet_locations_in(prov)
            if not locs or not m.is_fleet_location(locs[0]):
                continue
            loc = draw(st.sampled_from(sorted(locs)))
        else:
            loc = prov
        power = draw(st.sampled_from(powers))
        if prov in used and (v.max_units_per_province == 1 or (name == "multiplomacy" and used[prov] != power)):
            continue
        used[prov] = power
        count = draw(st.integers(1, 3)) if v.max_units_per_province is None else 1
        units.setdefault(power, []).append((f"{count} " if count > 1 else "") + f"{kind} {m.display(loc)}")
    request = {"variant": name, "units": units}
    try:
        legal = legal_orders(request)
    except DipsatError:
        legal = None
    assume(legal)  # a position the board refuses (a fleet inland of a variant's own kinds ...)
    return {**request, "legal": legal}


def respell(draw: Any, name: str, text: str, own: bool = True, power: str | None = None) -> str:
    """``text`` (dipsat's canonical notation) as people write it: each place by its name, in
    another case or with its coast in words, each keyword and dash in another form, and a
    variant's own spellings (Multiplicity's ``2A(Par)`` and ``Std``; ``power``'s nation letter or
    code before the ordered unit) unless ``own`` is false.  The order means what it meant."""
    m = find_variant(name).map
    if own and name == "multiplicity" and draw(st.booleans()):
        # the seed's compact units: "2 A Par" -> "2A(Par)", "A Spa/nc" -> "A(Spa/nc)"
        text = re.sub(r"\b(?:(\d+) )?([AF]) ([A-Z][A-Za-z]{1,2}(?:/[a-z]{2})?)\b",
                      lambda g: f"{g.group(1) or ''}{g.group(2)}({g.group(3)})", text)
        if text.endswith(" H") and draw(st.booleans()):
            text = text[:-2] + " Std"
    words: list[str] = []
    head = True  # the ordered unit's kind is yet to come
    for word in text.split(" "):
        prov, _, coast = word.partition("/")
        pid = m.lookup_province(prov) if re.fullmatch(r"[A-Z][A-Za-z]{1,3}", prov) else None
        if pid is not None:
            how = draw(st.sampled_from(("as is", "name", "lower", "upper")))
            place = {"as is": prov, "name": m.provinces[pid].name, "lower": prov.lower(), "upper": prov.upper()}[how]
            if coast:
                place += draw(st.sampled_from((f"/{coast}", f"({coast})", f" ({_COAST_WORDS[coast][0]})",
                                               f"/{_COAST_WORDS[coast][1]}")))
            words.append(place)
        elif word in _KEYWORDS:
            words.append(draw(st.sampled_from(_KEYWORDS[word])))
        elif own and head and power and word in ("A", "F") and name == "multiplomacy" and draw(st.booleans()):
            words.append(power[0] + word)  # the nation's letter before the kind ("FA Par")
        elif own and head and power and word in ("E", "M", "P") and name == "multinational" and draw(st.booleans()):
            words.append(f"{power} {word}")  # the multinational's code before its power ("IB E Mon")
        else:
            words.append(word)
        head = head and word not in ("A", "F", "E", "M", "P")
    return " ".join(words)


def _unit_of(text: str) -> str:
    """The unit an order of a legal list names first (``2 A Par`` of ``2 A Par - Bur``)."""
    return re.split(r" (?:H|S|C|-) ", text + " ", maxsplit=1)[0].strip()


@st.composite
def own_forms(draw: Any, name: str, legal: dict[str, dict[str, list[str]]]) -> tuple[str, str, str, str]:
    """(power, unit, order, the order respelled) in a form only ``name``'s grammar writes: supports written with a
    move (``sup by``), a fly-over's route (``FO``), Multiplicity's merges, inside attacks,
    cutting clauses and splits.  Legal or not: the round trip holds for a refused order too."""
    m = find_variant(name).map
    power = draw(st.sampled_from(sorted(legal)))
    unit = draw(st.sampled_from(sorted(legal[power])))
    texts = legal[power][unit]
    moves = [t for t in texts if " - " in t and " S " not in t and " C " not in t] or [f"{unit} - {unit.split()[-1]}"]
    move = draw(st.sampled_from(moves))
    dest = move.split(" - ")[-1].removesuffix(" via convoy")
    others = sorted(u for p in legal for u in legal[p] if u != unit)
    other = draw(st.sampled_from(others)) if others else unit
    place = unit.split()[-1].split("/")[0]
    forms = []
    if name in ("multiplomacy", "multinational", "multiplicity"):
        by = [u for u in sorted(legal[power]) if u != unit] or [unit]
        forms.append(move + "".join(f" sup by {draw(st.sampled_from(by))}" for _ in range(draw(st.integers(1, 2)))))
    if name == "multinational":
        route = draw(st.lists(st.sampled_from(sorted(m.display(p) for p in m.provinces)), max_size=3))
        forms.append(f"{move} FO {' '.join(route)}".rstrip())
    if name == "multiplicity":
        adjective = draw(st.sampled_from(sorted(p.adjective for p in m.powers.values()))).upper()
        forms += [f"{move} MERGE with {adjective} {other} - {dest.split('/')[0]}",
                  f"{unit} S {adjective} MERGE ({dest.split('/')[0]})",
                  f"{unit} attacks {adjective} A {place}",
                  f"{unit} S {other} attacks {adjective} {other.split()[-2]} {other.split()[-1]}",
                  f"{move} MERGE {dest.split('/')[0]} and support attack on {adjective} {dest.split('/')[0]}"]
        cut = draw(st.lists(st.sampled_from([m.display(p) for p in sorted(m.provinces)][:20] + [
            "first", "the support for A Kie - Ber", "Bur first", "nowhere"]), min_size=1, max_size=3))
        forms.append(f"{draw(st.sampled_from(texts))} cutting {', '.join(cut)}")
        head = re.match(r"(\d+) ([AF]) (\S+)$", unit)
        if head and int(head.group(1)) > 1:
            n = int(head.group(1))
            first = draw(st.integers(1, n - 1))
            parts = []
            for c in (first, n - first):
                part = draw(st.sampled_from(texts)).replace(unit, f"{c} {head.group(2)} {head.group(3)}" if c > 1
                                                            else f"{head.group(2)} {head.group(3)}", 1)
                parts.append(part)
            forms.append(f"{unit}: {', '.join(parts)}")
    assume(forms)
    form = draw(st.sampled_from(forms))
    return power, unit, form, respell(draw, name, form, power=power)
