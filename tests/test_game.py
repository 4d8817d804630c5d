import json

import pytest

from dipsat.face.cli import main
from dipsat.errors import InputFileError
from dipsat.game.game import Game, SavedGame, StartSpec, load_saved_game, replay, units_by_power

from conftest import ROOT


def test_saved_game_replays_to_identical_positions(tmp_path):
    saved = load_saved_game(ROOT / "examples" / "game.toml")
    a = replay(saved)
    b = replay(saved)
    assert [r.name for r in a.history] == ["S1901M", "F1901M", "W1901A", "S1902M", "S1902R", "F1902M", "W1902A"]
    assert [units_by_power(r.after) for r in a.history] == [units_by_power(r.after) for r in b.history]
    # the retreat happened and the Winter disband took the retreated army
    assert any(o.text == "A Ser - Alb" and o.result == "moved" for o in a.history[4].outcomes)
    assert "A Alb" not in units_by_power(a.position)["Austria"]
    assert a.phase_name == "S1903M"
    # checkpoints written by --save are checked on replay
    out = tmp_path / "saved.json"
    assert main(["play", str(ROOT / "examples" / "game.toml"), "--save", str(out), "-q"]) == 0
    data = json.loads(out.read_text())
    assert data["phases"][0]["expect_units"]["France"] == ["A Bur", "F Mao", "A Spa"]
    assert main(["play", str(out), "-q"]) == 0
    data["phases"][1]["expect_units"]["France"] = ["A Par"]
    out.write_text(json.dumps(data))
    with pytest.raises(InputFileError, match=r"F1901M.*does not reach the saved position"):
        replay(load_saved_game(out))


def test_phase_label_mismatch_is_an_error():
    saved = SavedGame(phases=[{"phase": "F1901M", "orders": {}}])
    with pytest.raises(InputFileError, match="the game is at S1901M"):
        replay(saved)


def test_victory_at_eighteen_centres():
    centres = ["bel", "bre", "par", "mar", "spa", "por", "hol", "den", "kie", "ber", "mun", "lon", "lvp",
               "edi", "nwy", "swe", "tun"]
    start = StartSpec(year=1910, season="fall", units={"France": ["A Bur", "F Nth"], "Germany": ["A Ruh"]},
                      owners={"France": centres})
    game = Game("standard", start=start)
    assert game.centres()["France"] == 17
    game.step({"France": ["F Nth - Hol", "A Bur - Mun"]})  # Munich and Holland are French already
    assert game.winner is None
    game = Game("standard", start=StartSpec(year=1910, season="fall",
                                            units={"France": ["A Bur", "F Ion"]}, owners={"France": centres}))
    game.step({"France": ["F Ion - Gre"]})
    assert game.winner == "France" and game.centres()["France"] == 18
    with pytest.raises(Exception, match="game is over"):
        game.step({})


# -- game cases of the corpus (phase = "game": several phases played by the calendar) ----------

def _case(tmp_path, text: str):
    f = tmp_path / "case.toml"
    f.write_text(text)
    return f


def test_corpus_game_case_plays_its_steps_and_checks_phases(tmp_path):
    from dipsat.io.corpus import run_corpus

    f = _case(tmp_path, '''
id = "g"
phase = "game"
year = 1901
[units]
France = ["A Par"]
[[steps]]
orders = { France = ["A Par - Bur"] }
[[steps]]
phase = "F1901M"
orders = { France = ["A Bur - Bel"] }
[[expect]]
rules = ["datc"]
phases = ["S1901M", "F1901M"]
next_phase = "S1902M"
orders = { "A Par - Bur" = "succeeds", "A Bur - Bel" = "succeeds" }
dislodged = []
units_after = { France = ["A Bel"] }
''')
    (run,) = run_corpus([f])
    assert run.passed, run.problems
    wrong = _case(tmp_path, f.read_text().replace('next_phase = "S1902M"', 'next_phase = "W1901A"'))
    (run,) = run_corpus([wrong])
    assert run.problems == ["next_phase: expected W1901A, got S1902M"]  # no [owners]: France owns only Belgium
    misnamed = _case(tmp_path, f.read_text().replace('phase = "F1901M"', 'phase = "F1902M"'))
    (run,) = run_corpus([misnamed])
    assert run.problems == ["error: steps[2]: the file says 'F1902M', but the game is at F1901M"]


@pytest.mark.parametrize("fields,error", [
    ('phase = "game"\n', "give the phases to play as [[steps]]"),
    ('phase = "movement"\n[[steps]]\norders = {}\n', "steps, year and season are for phase 'game'"),
    ('phase = "game"\n[orders]\nFrance = ["A Par H"]\n[[steps]]\norders = {}\n', "orders go in each of [[steps]]"),
])
def test_corpus_game_case_fields_are_checked(tmp_path, fields, error):
    from dipsat.io.corpus import run_corpus

    f = _case(tmp_path, f'id = "g"\n{fields}[[expect]]\nrules = ["datc"]\n')
    (run,) = run_corpus([f])
    assert not run.passed and error in run.problems[0]


def test_placement_case_of_a_variant_without_one_is_refused(tmp_path):
    from dipsat.io.corpus import run_corpus

    f = _case(tmp_path, 'id = "p"\nphase = "placement"\n[orders]\nFrance = ["A Par"]\n[[expect]]\nrules = ["datc"]\n')
    (run,) = run_corpus([f])
    assert run.problems == ["error: phase: the standard variant has no placement phase"]


def test_expect_units_compares_counts_as_well_as_places():
    """A checkpoint's units are compared with their counts: a 2A is not an A (Multiplicity)."""
    start = StartSpec(year=1901, units={"Italy": ["2A(Ven)"]}, owners={"Italy": ["Rom", "Nap", "Ven"]})

    def saved(units: list[str]) -> SavedGame:
        return SavedGame(variant="multiplicity", start=start,
                         phases=[{"phase": "S1901M", "orders": {}, "expect_units": {"Italy": units}}])

    assert replay(saved(["2A(Ven)"])).phase_name == "F1901M"
    with pytest.raises(InputFileError, match="does not reach the saved position"):
        replay(saved(["A(Ven)"]))
