"""``autumn`` (any case) for a calendar's ``fall``, and a season in any case, wherever a standard
board's turn or game names a season: a turn file (``adjudicate``), a batch line, a
``TurnRequest``, a saved game's start (``play``; it was refused there: "start.season: 'autumn'
is not one of spring, fall, winter", and so was ``Fall``), a saved game's phase label
(``A1901M``), a corpus game case, ``Game`` from Python, and the published turn schema."""

import json

import pytest

from dipsat import TurnRequest, adjudicate
from dipsat.face.cli import main
from dipsat.game.game import Game
from dipsat.game.request import StartSpec, same_phase_label, season_word

from conftest import ROOT

SEASONS = ["autumn", "Autumn", "AUTUMN", " autumn ", "Fall", "fall"]
TURN = {"year": 1901, "units": {"France": ["A Par"], "Germany": ["A Mun"]},
        "orders": {"France": ["A Par - Bur"]}}


def test_season_word():
    cal = ("spring", "fall", "winter")
    assert [season_word(s, cal) for s in SEASONS] == ["fall"] * len(SEASONS)
    assert season_word("Winter", cal) == "winter"
    assert season_word("autumn", ("spring", "autumn")) == "autumn"  # a calendar that names it so
    assert season_word("summer", cal) == "summer"  # not a season of the calendar: left for the error


@pytest.mark.parametrize("season", SEASONS)
def test_turn_request_and_adjudicate(season):
    res = adjudicate(TurnRequest(**{**TURN, "season": season}))
    assert res.position.season == "fall"
    assert adjudicate({**TURN, "season": season}).position.season == "fall"


@pytest.mark.parametrize("season", ["Autumn", "autumn"])
def test_adjudicate_file_and_batch_line(season, tmp_path, capsys):
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps({**TURN, "season": season}))
    assert main(["adjudicate", "--json", str(turn)]) == 0
    assert json.loads(capsys.readouterr().out)["next_phase"] == "W1901A"  # the autumn ends the year
    lines = tmp_path / "in.jsonl"
    lines.write_text(json.dumps({**TURN, "season": season, "id": 1}) + "\n")
    main(["batch", str(lines), "-o", str(tmp_path / "out.jsonl"), "-j", "1", "-q"])
    out = json.loads((tmp_path / "out.jsonl").read_text())
    assert out["ok"] and out["next_phase"] == "W1901A", out


def test_a_season_that_is_none_says_which_are():
    with pytest.raises(Exception, match="'summer' is not one of spring, fall, winter"):
        adjudicate({**TURN, "season": "summer"})


@pytest.mark.parametrize("season", SEASONS)
@pytest.mark.parametrize("with_units", [True, False])
def test_a_game_starting_in_autumn(season, with_units):
    start = StartSpec(year=1901, season=season, units=TURN["units"] if with_units else {})
    game = Game("standard", start=start)
    assert (game.season, game.phase_name) == ("fall", "F1901M")
    game.step(TURN["orders"] if with_units else {})
    # the autumn ends the year: builds are due after Paris is left (from the start position,
    # where nothing changes hands, the next spring comes)
    assert game.phase_name == ("W1901A" if with_units else "S1902M")


@pytest.mark.parametrize("label", ["F1901M", "f1901m", "A1901M", "a1901m"])
def test_play_a_saved_game_starting_in_autumn(label, tmp_path, capsys):
    saved = tmp_path / "game.toml"
    saved.write_text(f'variant = "standard"\n[start]\nyear = 1901\nseason = "Autumn"\n'
                     f'[start.units]\nFrance = ["A Par"]\n[[phases]]\nphase = "{label}"\n'
                     f'[phases.orders]\nFrance = ["A Par - Bur"]\n')
    assert main(["play", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "F1901M" in out and "A Bur" in out and "Next phase: W1901A" in out


def test_phase_labels():
    assert same_phase_label("a1901m", "F1901M") and same_phase_label("F1901M", "F1901M")
    assert not same_phase_label("A1901M", "S1901M") and not same_phase_label("A1902M", "F1901M")
    assert not same_phase_label("W1901A", "F1901M")


def test_a_corpus_game_case_starting_in_autumn(tmp_path, capsys):
    case = tmp_path / "autumn.toml"
    case.write_text('id = "autumn"\ntitle = "a game opening in the autumn"\nvariant = "standard"\n'
                    'phase = "game"\nyear = 1901\nseason = "Autumn"\n[units]\nFrance = ["A Par"]\n'
                    '[[steps]]\n[steps.orders]\nFrance = ["A Par - Bur"]\n'
                    '[[expect]]\nphases = ["F1901M"]\nnext_phase = "W1901A"\n'
                    '[expect.units_after]\nFrance = ["A Bur"]\n')
    assert main(["corpus", str(case)]) == 0, capsys.readouterr().out


def test_the_turn_schema_takes_autumn():
    """The published turn schema's season is any string (no enum or pattern that would refuse
    ``Autumn``), and says that ``autumn`` is ``fall``."""
    schema = json.loads((ROOT / "docs" / "schemas" / "turn.schema.json").read_text())
    season = schema["properties"]["season"]
    kinds = season.get("anyOf", [season])
    assert {"type": "string"} in kinds and not any("enum" in k or "pattern" in k for k in kinds)
    assert "autumn" in season["description"] and "autumn" in season["examples"]
