"""dipsat readings takes game cases: a board's game case is replayed once per class of the
options it reads (each outcome keyed by its phase); a corpus case's settings that are not
readings (a continents seed) are kept from its first expectation."""

from __future__ import annotations

import json

from dipsat.face.cli import main

from conftest import CORPORA

VIA = """id = "via"
phase = "game"
[units]
Germany = ["A Kiel", "F Baltic Sea"]
[[steps]]
phase = "S1901M"
orders = { Germany = ["A Kiel - Berlin via convoy", "F Baltic Sea Hold"] }
[[steps]]
phase = "F1901M"
orders = { Germany = ["A Berlin - Kiel", "F Baltic Sea - Berlin"] }
expect_units = { Germany = ["A Kiel", "F Berlin"] }
[[expect]]
units_after = { Germany = ["A Kiel", "F Berlin"] }
"""


def test_a_standard_game_case_is_read_under_every_reading(tmp_path, capsys):
    f = tmp_path / "via.toml"
    f.write_text(VIA)
    assert main(["readings", str(f)]) == 0
    out = capsys.readouterr().out
    # an army ordered "via convoy" with no fleet convoying it: by land under 1971 and the DATC 2
    # fallback, no path under the 1982/2000 readings; the fall depends on where it stood
    assert "S1901M: Germany: A Kiel - Berlin via convoy: moved iff adjacent_convoy ∈ {1971, 2000_fallback}; else no_path" in out
    assert "F1901M: Germany: F Baltic Sea - Berlin: " in out and "depending on adjacent_convoy" in out
    assert "a game of several phases" in out
    # the saved position is an expectation, not checked here: no reading is an error
    assert "error" not in out


def test_multiplicity_game_cases_are_read(capsys):
    for name in ("g_same_order_two_phases", "r12_spring_retreats_and_autumn"):
        assert main(["readings", "--json", str(CORPORA / "multiplicity" / f"{name}.toml")]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["orders"] and all(": " in o["order"] for o in data["orders"])
        assert not any(o["order"] == "error" for o in data["orders"])


def test_a_continents_case_keeps_its_expectations_seed(tmp_path, capsys):
    text = (CORPORA / "continents" / "game_02_draw.toml").read_text().replace("random_seed = 5", "random_seed = 7")
    f = tmp_path / "draw.toml"
    f.write_text(text)
    assert main(["readings", str(f)]) == 0
    seed7 = capsys.readouterr().out
    assert main(["readings", str(f), "--option", "random_seed=7"]) == 0
    assert capsys.readouterr().out == seed7
    assert main(["readings", str(f), "--option", "random_seed=5"]) == 0
    assert capsys.readouterr().out != seed7  # the seed given on the command line wins
