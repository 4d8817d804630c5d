"""Notation people paste from other programs: arrows, webDiplomacy's sentences, godip's word
orders, ``season = "autumn"`` and phase labels (``phase = "F1901M"``) in a turn file.  Each form
binds to the same order as dipsat's own notation."""

import pytest

from dipsat import DipsatError, adjudicate
from dipsat.board.pasted import from_other_programs

UNITS = {"France": ["A Par", "A Mar", "F Bre"], "England": ["F Eng", "A Lon", "F Nth"],
         "Russia": ["F Stp/sc"], "Germany": ["A Mun"]}


def _bound(power: str, text: str):
    """The one order ``text`` binds to (its kind and fields), refusing none."""
    res = adjudicate({"units": UNITS, "orders": {power: [text]}})
    assert not res.rejected, [(r.text, r.reason) for r in res.rejected]
    (order,) = [o for o in res.orders if o.text == text]
    return order.body


@pytest.mark.parametrize("power,pasted,ours", [
    ("France", "A Par → Bur", "A Par - Bur"),
    ("France", "A Par ⇒ Bur", "A Par - Bur"),
    ("France", "A Par ⟶ Bur", "A Par - Bur"),
    # webDiplomacy's sentences
    ("France", "The army at Paris move to Burgundy.", "A Par - Bur"),
    ("France", "The army at Paris hold.", "A Par H"),
    ("France", "The army at Marseilles support move to Burgundy from Paris.", "A Mar S A Par - Bur"),
    ("England", "The fleet at English Channel support hold to London", "F Eng S A Lon"),
    ("England", "The fleet at English Channel convoy to Brest from London.", "F Eng C A Lon - Bre"),
    ("England", "The army at London move to Brest via convoy.", "A Lon - Bre via convoy"),
    ("Russia", "The fleet at St. Petersburg (South Coast) move to Gulf of Bothnia.", "F Stp/sc - Bot"),
    # godip's word orders
    ("France", "mar Support par bur", "A Mar S A Par - Bur"),
    ("England", "eng Support lon", "F Eng S A Lon"),
    ("France", "par Move bur", "A Par - Bur"),
    ("England", "eng Convoy lon bre", "F Eng C A Lon - Bre"),
    ("England", "lon MoveViaConvoy bre", "A Lon - Bre via convoy"),
])
def test_pasted_orders_bind_as_ours(power, pasted, ours):
    assert _bound(power, pasted) == _bound(power, ours)


def test_our_notation_is_left_alone():
    for text in ("A Par - Bur", "A Mar S A Par - Bur", "F Eng C A Lon - Bre", "2 F Nth sup F Lon", "Build A Par",
                 "the Army at"):
        assert from_other_programs(text) is None, text


def test_retreat_and_disband_sentences():
    assert from_other_programs("The army at Munich retreat to Bohemia.") == "A Munich - Bohemia"
    assert from_other_programs("The fleet at Kiel disband") == "F Kiel D"


@pytest.mark.parametrize("season", ["autumn", "Autumn", "fall", "FALL"])
def test_autumn_is_fall(season):
    res = adjudicate({"year": 1901, "season": season, "units": UNITS, "orders": {}})
    assert res.position.season == "fall"


@pytest.mark.parametrize("label,season,year,kind", [
    ("S1901M", "spring", 1901, "MovementResult"), ("F1902M", "fall", 1902, "MovementResult"),
    ("W1901A", "winter", 1901, "AdjustmentResult"), ("f1901m", "fall", 1901, "MovementResult")])
def test_a_phase_label_gives_season_year_and_phase(label, season, year, kind):
    res = adjudicate({"phase": label, "units": UNITS, "orders": {}})
    assert (res.position.season, res.position.year, type(res).__name__) == (season, year, kind)


def test_a_label_that_disagrees_with_the_file_says_so():
    with pytest.raises(DipsatError, match="phase 'S1901M' is in spring, but season is 'fall'"):
        adjudicate({"phase": "S1901M", "season": "fall", "units": UNITS})
    with pytest.raises(DipsatError, match="is in 1901, but year is 1902"):
        adjudicate({"phase": "F1901M", "year": 1902, "units": UNITS})
