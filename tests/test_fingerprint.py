"""dipsat fingerprint: observations adjudicated under known readings fingerprint to them.

Observations are made here by adjudicating corpus cases under a preset or a random assignment
of options and recording what came out (each order's success, the units dislodged, the position
after); the fingerprint must contain the true assignment, every value it excludes must really
change some observation (checked by adjudicating again under it), a falsified record must be
listed as unexplained without emptying the answer, and bad input must be named by its line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dipsat.face.cli import main
from dipsat.io.corpus import Expectation, adjudicate_case, compare, dislodged_units, load_case
from dipsat.research.fingerprint import fingerprint
from dipsat.research.fingerprint_inputs import Observation
from dipsat.research.output_schemas import FingerprintJSON
from dipsat.variants import find_variant

from conftest import CORPORA, ROOT

STANDARD = find_variant("standard")
# DATC cases whose outcomes the editions' options change (paradoxes, adjacent convoys, coasts,
# convoy routes), and two that no option changes
CASES = ["6.A.05", "6.B.04", "6.C.03", "6.D.34", "6.F.10", "6.F.14", "6.F.17", "6.F.21", "6.F.24",
         "6.G.01", "6.G.04", "6.G.08", "6.G.17"]


def _observed(case_id: str, rules) -> dict:
    """A batch line: the case's request, and what came out under ``rules`` as its ``expect``."""
    c = load_case(CORPORA / "datc" / f"{case_id}.toml")
    res = adjudicate_case(c, rules)
    texts = [o.text for o in res.outcomes]
    exp = {"orders": {o.text: ("succeeds" if o.succeeded else "fails") for o in res.outcomes if texts.count(o.text) == 1},
           "dislodged": [f"{u.power}: {u.kind} {u.location}" for u in dislodged_units(res)],
           "units_after": {p: [f"{u.kind} {u.location}" for u in res.after.units if u.power == p]
                           for p in sorted({u.power for u in res.after.units})}}
    return {"id": c.id, "units": c.units, "orders": c.orders, "expect": exp}


def _write(tmp_path: Path, lines: list) -> Path:
    f = tmp_path / "observed.jsonl"
    f.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    return f


def _run(capsys, *args: str) -> tuple[int, dict]:
    code = main(["fingerprint", "--json", "--time-limit", "600", *args])  # a loaded machine: no observation cut short
    return code, FingerprintJSON.model_validate_json(capsys.readouterr().out).model_dump()


def test_cases_observed_under_1982_fingerprint_to_1982(tmp_path, capsys):
    f = _write(tmp_path, [_observed(c, "1982") for c in CASES])
    code, out = _run(capsys, str(f))
    assert code == 0 and out["observations"] == len(CASES) and out["unexplained"] == []
    assert out["options"]["convoy_paradox_rule"] == ["1982"]  # 6.F.14/17/21/24 tell the paradox rules apart
    assert "1982" in out["nearest_presets"] and out["changes"] == {}
    datc = next(p for p in out["presets"] if p["name"] == "datc")
    assert datc["distance"] >= 1 and all(ch.get("convoy_paradox_rule") == "1982" for ch in datc["changes"])


def test_the_same_cases_under_datc_fingerprint_elsewhere(tmp_path, capsys):
    code, out = _run(capsys, str(_write(tmp_path, [_observed(c, "datc") for c in CASES])))
    assert out["options"]["convoy_paradox_rule"] == ["szykman"]
    assert "datc" in out["nearest_presets"] and "1982" not in out["nearest_presets"]


OPTIONS = ["convoy_paradox_rule", "adjacent_convoy", "multi_route_disruption", "convoy_path", "support_coast",
           "dislodged_no_effect_on_origin"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_random_assignment_is_contained_and_every_excluded_value_changes_an_observation(seed):
    """The property: the true assignment is consistent, and the fingerprint excludes a value only
    when the true assignment with that value changes some observation (re-adjudicated)."""
    rnd = random.Random(seed)
    from dipsat.engine.option_space import option_values

    model = STANDARD.options_model
    true = {n: rnd.choice(option_values(model, n)) for n in OPTIONS}
    rules = STANDARD.rules("datc", **true)
    obs = []
    for cid in CASES:
        line = _observed(cid, rules)
        c = load_case(CORPORA / "datc" / f"{cid}.toml")
        exp = Expectation(rules=[], **line["expect"])
        obs.append(Observation(cid, cid, c.model_copy(update={"expect": [exp]})))
    fp = fingerprint(obs)
    assert not fp.unexplained and not fp.problems
    full = {n: getattr(rules, n) for n in fp.values}
    for n, vals in fp.values.items():
        assert full[n] in vals, (n, full[n], vals)
        for v in option_values(model, n):
            if v in vals:
                continue
            other = rules.with_(**{n: v})
            assert any(compare(o.case, o.expectation, adjudicate_case(o.case, other), STANDARD) for o in obs), (n, v)


def test_a_falsified_record_is_listed_and_does_not_empty_the_answer(tmp_path, capsys):
    lines = [_observed(c, "1982") for c in CASES]
    bad = lines[0]  # 6.A.05: no option changes it; claim the move succeeded
    order = next(k for k, v in bad["expect"]["orders"].items() if v == "fails")
    bad["expect"]["orders"][order] = "succeeds"
    code, out = _run(capsys, str(_write(tmp_path, lines)))
    assert out["unexplained_count"] == 1 and out["explained"] == len(CASES) - 1
    (u,) = out["unexplained"]
    assert u["id"] == "6.A.5" and any(order in d and "expected succeeds" in d for d in u["diff"])
    assert u["orders"] and u["phase"] == "movement"
    assert out["options"]["convoy_paradox_rule"] == ["1982"] and "1982" in out["nearest_presets"]
    main(["fingerprint", str(_write(tmp_path, lines))])
    text = capsys.readouterr().out
    assert "Unexplained observations (1" in text and "6.A.5" in text and "Nearest preset: " in text


def test_contradicting_records_keep_the_readings_most_observations_follow(tmp_path, capsys):
    """The cases observed under 1982, and 6.F.17 once more as datc adjudicates it: no assignment
    explains both records of 6.F.17; the answer explains every other, the datc record is
    unexplained."""
    lines = [_observed(c, "1982") for c in CASES] + [{**_observed("6.F.17", "datc"), "id": "6.F.17 as datc"}]
    code, out = _run(capsys, str(_write(tmp_path, lines)))
    assert out["explained"] == len(CASES) and [u["id"] for u in out["unexplained"]] == ["6.F.17 as datc"]
    assert out["options"]["convoy_paradox_rule"] == ["1982"]


def test_bad_lines_are_named_and_lose_no_other_line(tmp_path, capsys):
    good = _observed("6.A.05", "datc")
    lines = [good, "{not json",
             {**good, "expect": "fails"},
             {**good, "expect": {"order": {}}},
             {**good, "options": {"no_such_option": "x"}},
             {**good, "units": {"France": ["A Atlantis"]}},
             {**good, "expect": {"orders": {"A Par - Bur": "maybe"}}},
             {**good, "id": "no expect", "expect": None}]
    code, out = _run(capsys, str(_write(tmp_path, lines)))
    assert code == 1 and out["observations"] == 1
    wheres = [e["where"].rsplit(":", 1)[1] for e in out["errors"]]
    assert wheres == ["2", "3", "4", "5", "6", "7", "8"]
    msgs = " | ".join(e["message"] for e in out["errors"])
    assert "expect" in msgs and "no_such_option" in msgs and "Atlantis" in msgs.replace("atlantis", "Atlantis")


def test_batch_accepts_and_ignores_expect(tmp_path, capsys):
    f = _write(tmp_path, [_observed("6.A.05", "datc")])
    assert main(["batch", str(f), "-o", str(tmp_path / "out.jsonl"), "-j", "1", "-q"]) == 0
    (line,) = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert line["ok"] and line["id"] == "6.A.5"


def test_a_corpus_folder_with_its_game_cases(capsys):
    """The DATC corpus is DATC 3.0's preferences; the multiplicity corpus (game cases included)
    is explained by the variant's own rules."""
    code, out = _run(capsys, str(CORPORA / "multiplicity"))
    assert out["variant"] == "multiplicity" and out["observations"] > 10
    assert out["unexplained"] == [] and out["errors"] == []
    # its rules are DATC's with its own options at their defaults; one case is the postal year's
    assert "datc" in out["nearest_presets"] and out["smallest_changes"] == [{"year": "three_season"}]


def test_a_mila_saved_game_is_one_observation_a_phase(capsys):
    code, out = _run(capsys, str(ROOT / "examples" / "mila_game.json"))
    data = json.loads((ROOT / "examples" / "mila_game.json").read_text())
    assert code == 0 and out["observations"] == len(data["phases"]) - 1 and out["unexplained"] == []
    # MILA convoys an adjacent army when the order says VIA and the land route otherwise
    assert "2000_fallback" in out["options"]["adjacent_convoy"]


def test_a_dipsat_saved_game_with_checkpoints(tmp_path, capsys):
    saved = tmp_path / "saved.json"
    assert main(["play", str(ROOT / "examples" / "game.toml"), "--save", str(saved), "-q"]) == 0
    capsys.readouterr()
    code, out = _run(capsys, str(saved))
    assert code == 0 and out["observations"] == 7 and out["unexplained"] == []  # one a checkpoint (test_fingerprint_saved)


def test_several_variants_need_a_choice(capsys):
    assert main(["fingerprint", str(CORPORA / "multiplicity"), str(CORPORA / "multiplomacy"), "-q"]) == 2
    assert "--variant" in capsys.readouterr().err


def test_most_satisfied_tables():
    """The readings' search: the most tables one assignment satisfies, its optima, and each
    variable's values among them — exact also past the listing limit (asked value by value)."""
    from dipsat.engine.tables import most_satisfied

    tables = [([0], [(0,), (1,)]), ([0, 1], [(1, 2), (0, 0)]), ([1], [(1,)])]  # the third contradicts the second
    best, found, values, complete = most_satisfied([3, 3], tables, 100)
    assert best == 2 and complete and sorted(found) == [(0, 0), (0, 1), (1, 1), (1, 2)] and values == [[0, 1], [0, 1, 2]]
    best, found, values, complete = most_satisfied([3, 3], tables, 2)
    assert best == 2 and not complete and len(found) == 2 and values == [[0, 1], [0, 1, 2]]


@pytest.mark.parametrize("preset", ["datc", "1971"])
def test_dipsat_on_random_turns_fingerprints_to_its_own_preset(preset):
    """benchmarks/fingerprint.py's observations (the workload's turns, the position after and
    the units dislodged) of dipsat under a preset: every one explained, the preset consistent."""
    from benchmarks.peers.engines import Dipsat
    from benchmarks.peers.rich import make_turn
    from dipsat.research.fingerprint_inputs import _line
    from dipsat.rules import preset as make

    def observation(req, run):  # as benchmarks/fingerprint.py writes them
        after = {}
        for power, kind, loc in sorted(run.after):
            after.setdefault(power, []).append(f"{kind} {loc}")
        line = {k: v for k, v in req.items() if k not in ("id", "planted", "rules")}
        return {**line, "id": req["id"], "expect": {"units_after": after, "dislodged": [
            f"{p}: {k} {loc}" for p, k, loc in sorted(run.dislodged)]}}

    engine, opts = Dipsat(), make(preset).model_dump(exclude={"name"})
    obs = [_line(observation(req, engine.run(req, **opts)), f"turn {i}", i)
           for i, req in enumerate(make_turn(1, i, "mixed") for i in range(4))]
    fp = fingerprint(obs, "standard")
    assert fp.observations == 4 and not fp.unexplained and not fp.problems
    rules = make(preset)
    assert all(getattr(rules, n) in vals for n, vals in fp.values.items())
    assert preset in [p.name for p in fp.nearest]
