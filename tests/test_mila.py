"""MILA saved games in: ``dipsat play GAME --from mila`` and the replay of random MILA games.

``examples/mila_game.json`` is a real MILA (``diplomacy`` 1.1.2) saved game of two phases: in
F1901M Germany orders ``A KIE - BER VIA`` with no fleet ordered to convoy it.  MILA falls back
to the land route (DATC 4.A.3, the DATC 2 preference: dipsat's ``adjacent_convoy =
"2000_fallback"``, one of the MILA-compatible options); under the DPTG reading (``dptg``: the
convoy only, no fallback) the army stays, and the replay reports that phase as the first
difference.  The scale run is ``python -m benchmarks.mila_games``; here a few seeded games.
"""

import copy
import json

import pytest

from dipsat.face.cli import main
from dipsat.errors import InputFileError
from dipsat.io.mila import MILA_OPTIONS, load_mila_game, read_mila_game, replay_mila

from conftest import ROOT

EXAMPLE = ROOT / "examples" / "mila_game.json"


def _run(capsys, *args):
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_example_agrees_with_the_mila_options(capsys):
    code, out, _ = _run(capsys, "play", str(EXAMPLE), "--from", "mila")
    assert code == 0, out
    assert "S1901M: same" in out and "F1901M: same" in out
    assert "Every phase agrees (2 of 2)" in out


def test_first_difference_is_reported_in_text_and_json(capsys):
    code, out, _ = _run(capsys, "play", str(EXAMPLE), "--from", "mila", "--option", "adjacent_convoy=dptg")
    assert code == 1
    assert "S1901M: same" in out and "F1901M: DIFFERENT" in out
    assert "First difference: after F1901M" in out
    assert "units only in MILA: Germany A Ber" in out
    assert "units only in dipsat: Germany A Kie" in out
    assert "A KIE - BER VIA: no_path" in out
    code, out, _ = _run(capsys, "play", str(EXAMPLE), "--from", "mila", "--option", "adjacent_convoy=dptg", "--json")
    assert code == 1
    data = json.loads(out)
    first = data["first_difference"]
    assert first["phase"] == "F1901M" and first["mila_next"] == "W1901A"
    assert first["units_mila_only"] == ["Germany A Ber"] and first["units_dipsat_only"] == ["Germany A Kie"]
    assert data["phases_compared"] == 2 and data["phases_agreeing"] == 1
    assert data["options"]["adjacent_convoy"] == "dptg"


def test_a_changed_position_is_found_at_its_phase():
    """Move one unit in MILA's saved state after S1901M: the replay must notice it there."""
    data = json.loads(EXAMPLE.read_text())
    bad = copy.deepcopy(data)
    units = bad["phases"][1]["state"]["units"]["FRANCE"]
    units[units.index("A BUR")] = "A PIC"
    rep = replay_mila(read_mila_game(bad))
    first = rep.first_difference
    assert first is not None and first.phase == "S1901M"
    assert first.units_mila_only == [("France", "A", "pic")] and first.units_dipsat_only == [("France", "A", "bur")]
    assert rep.skipped == ["F1901M"]
    # with resync the replay goes on from MILA's (changed) position
    rep = replay_mila(read_mila_game(bad), resync=True)
    assert [c.phase for c in rep.phases] == ["S1901M", "F1901M"]


@pytest.mark.parametrize("content,needle", [
    ("not json", "not valid JSON"),
    ('{"id": "x"}', "not a MILA saved game"),
    ('{"map": "ancmed", "phases": [{"name": "S0001M", "state": {}}]}', "map 'ancmed'"),
    ('{"phases": [{"name": "S1901M", "state": {"units": {"FRANCE": ["X PAR"]}}}, '
     '{"name": "F1901M", "state": {}}]}', "bad unit 'X PAR'"),
    ('{"phases": [{"name": "Spring", "state": {}}]}', "phase name 'Spring'"),
    ('{"phases": [{"name": "S1901M", "state": {"units": {"PRUSSIA": ["A BER"]}}}, '
     '{"name": "F1901M", "state": {}}]}', "unknown power 'PRUSSIA'"),
])
def test_bad_files_give_clear_errors(tmp_path, capsys, content, needle):
    path = tmp_path / "game.json"
    path.write_text(content)
    code, out, err = _run(capsys, "play", str(path), "--from", "mila")
    assert code == 2, out
    assert needle in err and "Traceback" not in err


def test_play_takes_options_without_mila_too(capsys):
    """Issue 24: 'dipsat play FILE --option NAME=VALUE' works for every family, a saved game too
    (the option extends the rules it names); a bad option is still a clear error."""
    code, out, _ = _run(capsys, "play", str(ROOT / "examples" / "game.toml"), "--option", "civil_disorder=2023")
    assert code == 0 and "Next phase" in out
    code, _, err = _run(capsys, "play", str(ROOT / "examples" / "game.toml"), "--option", "nope=1")
    assert code == 2 and "nope" in err


def test_a_game_marked_completed_is_compared_to_the_end():
    """MILA names the phase after a won game COMPLETED; dipsat must end the game there too."""
    data = json.loads(EXAMPLE.read_text())
    data["phases"][-1]["name"] = "COMPLETED"
    first = replay_mila(read_mila_game(data)).first_difference
    assert first is not None and first.phase == "F1901M"
    assert (first.mila_next, first.dipsat_next) == ("COMPLETED", "W1901A")


def test_jsonl_first_line(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(json.loads(EXAMPLE.read_text())) + "\n")
    assert load_mila_game(path).id == "mila-example"


# ---------------------------------------------------------------------------------------------
# random MILA games (the suite's slice of ``python -m benchmarks.mila_games``)


def test_random_mila_games_replay_and_every_difference_is_classified():
    pytest.importorskip("diplomacy")
    from benchmarks import peers
    from benchmarks.peers.mila_replay import run_mila_games

    res = run_mila_games(seed=7, games=3, last_year=1904)
    t = res["totals"]
    assert t["games"] == 3 and t["phases_compared"] >= 3 * 10
    assert not res["unclassified"], res["unclassified"]
    known = {"reading:adjacent_convoy=dptg"} | {d.name for d in peers.DEVIATIONS if d.peer == "mila"}
    assert all(part in known for label in res["classes"] for part in label.split("+")), res["classes"]
    kinds = res["phases_by_kind"]
    assert kinds["M"]["compared"] and kinds["A"]["compared"]


def test_random_mila_games_are_deterministic():
    pytest.importorskip("diplomacy")
    from benchmarks.peers.mila_games import saved_game

    a, b = saved_game(3, 1, last_year=1902), saved_game(3, 1, last_year=1902)
    assert [(p["name"], p["orders"]) for p in a["phases"]] == [(p["name"], p["orders"]) for p in b["phases"]]


def test_mila_options_are_valid_rule_options():
    from dipsat.rules import preset

    opts = preset("datc", **MILA_OPTIONS)
    assert opts.civil_disorder == "home_centres" and opts.adjacent_convoy == "2000_fallback"


def test_read_error_is_an_input_error():
    with pytest.raises(InputFileError):
        read_mila_game([1, 2, 3])


def test_civil_disorder_tie_deviation_persists_and_is_classified():
    """MILA still removes F Bot where DATC 4.D.8 removes F Fin (the corpus case
    ``peers/mila_civil_disorder_ties_by_abbreviation``, checked for dipsat by test_datc), and
    the replay classifies that difference as the documented deviation."""
    pytest.importorskip("diplomacy")
    from diplomacy import Game
    from diplomacy.utils.export import to_saved_game_format

    from benchmarks.peers import Dipsat, Mila
    from benchmarks.peers.mila_replay import ADJUSTMENT_DEVIATIONS, classify_phase

    g = Game(game_id="tie")
    g.clear_units()
    g.clear_centers()
    g.set_units("RUSSIA", ["F FIN", "F BOT", "A MOS", "A SEV"])
    g.set_centers("RUSSIA", ["STP", "MOS", "SEV"])
    g.set_current_phase("W1901A")
    g.process()
    assert sorted(g.get_units("RUSSIA")) == ["A MOS", "A SEV", "F FIN"]  # MILA removed F BOT
    game = read_mila_game(to_saved_game_format(g))
    rep = replay_mila(game)
    first = rep.first_difference
    assert first is not None and first.phase == "W1901A"
    assert first.units_mila_only == [("Russia", "F", "fin")] and first.units_dipsat_only == [("Russia", "F", "bot")]
    label, _ = classify_phase(game, 0, Dipsat(), Mila(), dict(MILA_OPTIONS))
    assert label == "mila_civil_disorder_ties_by_abbreviation"
    case = ROOT / ADJUSTMENT_DEVIATIONS[label][2]
    assert case.exists() and label in case.read_text()
