"""``parse(format(order)) == order`` for the notations of the two other game families (issue 28):
continents' orders (``A 3 Yug-Tar``, ``SA Dis-Pie 2 Ciu``, ``SD Pie 2 Ciu``, ``H Yug``) and
Supremacy's actions (``march 2 army us_west - canada``, ...).  Orders are drawn from real
positions (a continents board; Supremacy's world), respelled as people write them; the parsed
values are compared (they carry no text), and a continents round adjudicates the same with the
formatted texts as with the texts written."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dipsat.errors import InvalidOrder
from dipsat.maps.continental import ContinentalMap, build_continental_map, load_continental_map
from dipsat.variants.continents.board import parse_units
from dipsat.variants.continents.notation import Order, parse_order
from dipsat.variants.continents.round import adjudicate_round
from dipsat.variants.continents.rules import continents_preset

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

# a map of the awkward names a map file may give: several words, a keyword or an order's letter
# as a word or an id ("Hold Fast", "A Town", ids h, a, sa, sd)
ODD_MAP = build_continental_map({
    "format": "continents", "name": "odd", "title": "Odd names",
    "continents": {"x": {"name": "Xland"}},
    "countries": {"h": {"name": "Hold Fast", "continent": "x"}, "a": {"name": "A Town", "continent": "x"},
                  "sa": {"name": "Sand Bay", "continent": "x"}, "new_town": {"name": "New Town", "continent": "x"},
                  "sd": {"name": "Sd", "continent": "x"}},
    "free_cities": {"port": {"name": "Port Royal", "continent": "x"}},
    "borders": {"land": ["h-a", "a-sa", "sa-new_town", "new_town-sd", "sd-h", "h-new_town"], "sea": ["a-port", "port-sd"]},
})
MAPS = {"continents_demo": load_continental_map("continents_demo"), "continents_six": load_continental_map("continents_six"),
        "odd": ODD_MAP}


def _name(draw: Any, cmap: ContinentalMap, node: str) -> str:
    """A node as people write it: its short form, its name, in any case."""
    written = draw(st.sampled_from((cmap.display(node), cmap.nodes[node].name)))
    return draw(st.sampled_from((written, written.lower(), written.upper())))


@st.composite
def continents_rounds(draw: Any) -> tuple[ContinentalMap, dict[str, list[str]], dict[str, list[str]], dict[str, list[str]]]:
    """(map, units, orders as dipsat writes them, the same orders respelled): players holding
    countries, and orders of every kind from the countries they hold."""
    cmap = MAPS[draw(st.sampled_from(sorted(MAPS)))]
    nodes = sorted(cmap.nodes)
    held = draw(st.lists(st.sampled_from(nodes), min_size=1, max_size=6, unique=True))
    units: dict[str, list[str]] = {}
    holder: dict[str, tuple[str, int]] = {}
    for node in held:
        player = draw(st.sampled_from(("Amber", "Blue", "Coral")))
        n = draw(st.integers(1, cmap.nodes[node].capacity))
        holder[node] = (player, n)
        units.setdefault(player, []).append(f"{n} {cmap.display(node)}")
    canon: dict[str, list[str]] = {}
    spelled: dict[str, list[str]] = {}
    d = cmap.display
    for node, (player, n) in sorted(holder.items()):
        nbrs = cmap.neighbours(node) or [node]
        kind = draw(st.sampled_from(("move", "support_attack", "support_defence", "hold")))
        k = draw(st.integers(1, n))
        dash = draw(st.sampled_from(("-", " - ", "–", " -> ", " → ", "—")))
        o = _name(draw, cmap, node)
        if kind == "move":
            t = draw(st.sampled_from(nbrs))
            order, text = Order("move", node, t, k), f"A {k} {o}{dash}{_name(draw, cmap, t)}"
        elif kind == "support_attack":
            ally = draw(st.sampled_from(nodes))
            t = draw(st.sampled_from(cmap.neighbours(ally) or [ally]))
            order = Order("support_attack", node, t, k, ally=ally)
            text = f"SA {_name(draw, cmap, ally)}{dash}{_name(draw, cmap, t)} {k} {o}"
        elif kind == "support_defence":
            t = draw(st.sampled_from(nbrs))
            order, text = Order("support_defence", node, t, k), f"SD {_name(draw, cmap, t)} {k} {o}"
        else:
            order = Order("hold", node)
            text = draw(st.sampled_from((f"H {o}", f"{o} H", f"Hold {o}", f"{o} hold")))
        if draw(st.booleans()):
            text = text.replace("SA ", "sa ").replace("SD ", "sd ").replace("A ", "a ", 1)
        canon.setdefault(player, []).append(order.format(cmap))
        spelled.setdefault(player, []).append(text)
    return cmap, units, canon, spelled


def _without_texts(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_texts(v) for k, v in value.items() if k != "text"}
    if isinstance(value, list):
        return [_without_texts(v) for v in value]
    return value


@SETTINGS
@given(continents_rounds())
def test_a_continents_order_reads_back_from_its_text(turn):
    cmap, units, canon, spelled = turn
    for player in canon:
        for text, written in zip(canon[player], spelled[player]):
            order = parse_order(cmap, text)
            assert parse_order(cmap, order.format(cmap)) == order  # the round trip
            assert parse_order(cmap, written) == order, (written, text)  # every way of writing it reads the same
    # and a round adjudicates the same from the formatted texts as from the texts written
    board = parse_units(cmap, units)
    formatted = {p: [parse_order(cmap, t).format(cmap) for t in ts] for p, ts in spelled.items()}
    rules = continents_preset()
    assert _without_texts(adjudicate_round(cmap, board, formatted, rules).model_dump()) == \
        _without_texts(adjudicate_round(cmap, board, spelled, rules).model_dump())


@pytest.mark.parametrize("text,order", [
    # found writing the round trip: a name of several words as the attacked country of an attack
    # support ("SA A Town-New Town 2 Hold Fast") read "Town" as the number of units
    ("SA A Town-New Town 2 Hold Fast", Order("support_attack", "h", "new_town", 2, ally="a")),
    ("SA A Town - New Town 2 Hold Fast", Order("support_attack", "h", "new_town", 2, ally="a")),
    ("A 2 Hold Fast-A Town", Order("move", "h", "a", 2)),
    ("Hold Fast hold", Order("hold", "h")),
    ("H Hold Fast", Order("hold", "h")),
    ("SD Sand Bay 1 Sd", Order("support_defence", "sd", "sa", 1)),
])
def test_odd_names_read(text, order):
    assert parse_order(ODD_MAP, text) == order
    assert parse_order(ODD_MAP, order.format(ODD_MAP)) == order


def test_a_count_that_is_no_number_is_refused_with_the_form():
    for text, form in (("SA A Town-Sd two Hold Fast", "an attack support is 'SA Dis-Pie 2 Ciu'"),
                       ("SD Sand Bay two Sd", "a defence support is 'SD Pie 2 Ciu'")):
        with pytest.raises(InvalidOrder, match=re.escape(form)):
            parse_order(ODD_MAP, text)


# -- Supremacy's actions -----------------------------------------------------------------------

from dataclasses import replace  # noqa: E402

from dipsat.variants.supremacy.actions import Action, format_action, parse_action  # noqa: E402
from dipsat.variants.supremacy.board import load_board  # noqa: E402

WORLD = load_board()
TERRITORIES = sorted(WORLD.territories)
SEAS = sorted(WORLD.seas)
POWERS = sorted(WORLD.superpowers)


@st.composite
def supremacy_actions(draw: Any) -> Action:
    """An action of every verb over the bundled world's zones and superpowers, with the fields
    :func:`parse_action` gives it."""
    n = draw(st.integers(1, 40))
    nth = draw(st.integers(1, 3))
    terr, terr2 = draw(st.sampled_from(TERRITORIES)), draw(st.sampled_from(TERRITORIES))
    sea, sea2 = draw(st.sampled_from(SEAS)), draw(st.sampled_from(SEAS))
    to = draw(st.sampled_from(POWERS))
    verb = draw(st.sampled_from(("march", "airlift", "sail", "board", "unload", "buy", "sell", "loan", "repay",
                                 "transfer", "exchange", "build", "draw", "blockade", "siege", "lift", "prospect", "pass")))
    a = Action("USA", "", verb)
    if verb in ("march", "airlift"):
        return replace(a, count=n, item="army", src=terr, dst=terr2)
    if verb == "sail":
        return replace(a, item="navy", src=sea, dst=sea2, navy=nth)
    if verb == "board":
        return replace(a, count=n, item="army", src=terr, dst=sea, navy=nth)
    if verb == "unload":
        return replace(a, count=n, item="army", src=sea, dst=terr, navy=nth)
    if verb in ("buy", "sell"):
        return replace(a, count=n, item=draw(st.sampled_from(("grain", "oil", "mineral"))))
    if verb in ("loan", "repay"):
        return replace(a, count=n * 100, item="money")
    if verb == "transfer":
        what = draw(st.sampled_from(("navy", "army", "money", "grain", "oil", "mineral", "nuke", "lstar")))
        if what == "navy":
            return replace(a, item="navy", src=sea, navy=nth, to=to)
        return replace(a, count=n, item=what, src=terr if what == "army" else "", to=to)
    if verb == "exchange":
        sides = []
        for _ in range(2):
            what = draw(st.sampled_from(("navy", "army", "money", "grain", "oil", "mineral", "nuke", "lstar")))
            k = draw(st.integers(1, 9))
            sides.append((1, "navy", draw(st.sampled_from(SEAS)), nth) if what == "navy" else
                         (k, "army", draw(st.sampled_from(TERRITORIES)), 0) if what == "army" else (k, what, "", 0))
        (c, i, s, v), (bc, bi, bs, bv) = sides
        return replace(a, count=c, item=i, src=s, navy=v, to=to, back=bc, back_item=bi, back_src=bs, back_navy=bv)
    if verb == "build":
        what = draw(st.sampled_from(("army", "navy", "nuke", "lstar")))
        where = terr if what == "army" else sea if what == "navy" else draw(st.sampled_from(("", terr)))
        return replace(a, count=n, item=what, dst=where)
    if verb == "draw":
        return replace(a, count=n, item=draw(st.sampled_from(("grain", "oil", "mineral", "nuke", "lstar"))), to=to)
    if verb in ("blockade", "siege"):
        group = tuple(draw(st.lists(st.sampled_from(POWERS), max_size=3)))
        return replace(a, dst=terr if verb == "blockade" else to, group=group)
    if verb == "lift":
        what = draw(st.sampled_from(("blockade", "siege")))
        return replace(a, item=what, dst=terr if what == "blockade" else to)
    return a


def _spelled(draw: Any, text: str) -> str:
    """An action's text as people write it: zones and superpowers by name, in any case, other
    dashes."""
    def word(m: re.Match[str]) -> str:
        w = m.group(0)
        if w in WORLD.territories:
            return draw(st.sampled_from((w, WORLD.territories[w].name)))
        if w in WORLD.seas:
            return draw(st.sampled_from((w, WORLD.seas[w].name)))
        if w in WORLD.superpowers:
            return draw(st.sampled_from((w, WORLD.superpowers[w].name)))
        return w
    text = re.sub(r"[A-Za-z_]+", word, text)
    text = text.replace(" - ", draw(st.sampled_from((" - ", " – ", " -> ", "-"))))
    return draw(st.sampled_from((text, text.upper(), text.lower(), text.capitalize())))


@SETTINGS
@given(supremacy_actions(), st.data())
def test_a_supremacy_action_reads_back_from_its_text(action, data):
    text = format_action(action)
    assert replace(parse_action(WORLD, "USA", text), text="") == action, text
    written = _spelled(data.draw, text)
    assert replace(parse_action(WORLD, "USA", written), text="") == action, written
