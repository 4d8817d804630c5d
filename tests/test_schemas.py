"""The published JSON Schemas (docs/schemas/, `dipsat schema`) are current, and real outputs of
every kind validate against the models they are generated from."""

import json

import pytest

from dipsat.face.cli import main
from dipsat.io.schemas import BatchLineJSON, PlayJSON, TurnResultJSON

from conftest import ROOT

SCHEMAS = ROOT / "docs" / "schemas"


@pytest.mark.parametrize("what", ["corpus", "turn", "result", "batch", "play"])
def test_published_schema_is_current(what, capsys):
    assert main(["schema", what]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads((SCHEMAS / f"{what}.schema.json").read_text())


TURNS = ["spring1901.toml", "pandin.toml", "retreat.toml", "multiplomacy.toml",
         "../tests/corpora/multinational/mn_e.toml", "../tests/corpora/datc/6.F.14.toml"]


@pytest.mark.parametrize("name", TURNS)
def test_adjudicate_json_matches_the_result_schema(name, capsys):
    assert main(["adjudicate", "--json", str(ROOT / "examples" / name)]) == 0
    TurnResultJSON.model_validate_json(capsys.readouterr().out)


def test_adjustment_result_matches(tmp_path, capsys):
    f = tmp_path / "adj.toml"
    f.write_text('phase = "adjustment"\n[units]\nFrance = ["A Par"]\n[owners]\nFrance = ["Par", "Bre", "Mar"]\n'
                 '[orders]\nFrance = ["Build F Brest", "Build A Mar"]\n')
    assert main(["adjudicate", "--json", str(f)]) == 0
    out = TurnResultJSON.model_validate_json(capsys.readouterr().out)
    assert {o.result for o in out.outcomes} == {"built"}


def test_batch_lines_match_the_batch_schema(tmp_path, capsys):
    good = {"units": {"France": ["A Par", "A Mar"]}, "orders": {"France": ["A Par - Bur", "A Mar S A Par - Bur"]}, "id": 1}
    inp = tmp_path / "in.jsonl"
    inp.write_text("\n".join([json.dumps(good), "{", '{"units": {"France": ["A Atlantis"]}, "id": "x"}']) + "\n")
    main(["batch", str(inp), "-o", str(tmp_path / "out.jsonl"), "-j", "1", "-q"])
    lines = [BatchLineJSON.model_validate_json(x).root for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [x.ok for x in lines] == [True, False, False]


def test_play_json_matches_the_play_schema(capsys):
    assert main(["play", "--json", str(ROOT / "examples" / "game.toml")]) == 0
    out = PlayJSON.model_validate_json(capsys.readouterr().out)
    assert out.phases


def test_details_carry_the_outcome_kinds_typed_fields(capsys):
    """A bounced move's obstacles name the culprit order and the strength that stopped it; a
    Multiplicity merge names the units merged with; a batch line without explanations has none."""
    assert main(["adjudicate", "--json", str(ROOT / "examples" / "pandin.toml")]) == 0
    out = json.loads(capsys.readouterr().out)
    wales = next(o for o in out["outcomes"] if o["order"] == "F Wales - English Channel")
    (obstacle,) = wales["details"]["obstacles"]
    assert obstacle["why"] == "prevent" and obstacle["by"]["order"] == "F Belgium - English Channel"
    assert obstacle["by"]["unit"] == "Germany: F Bel" and obstacle["strength"]["value"] == 2
    given = next(o for o in out["outcomes"] if o["result"] == "given")
    assert given["details"] == {}
    case = ROOT / "tests" / "corpora" / "multiplicity" / "r04_merge.toml"
    assert main(["adjudicate", "--json", str(case)]) == 0
    moved = json.loads(capsys.readouterr().out)["outcomes"]
    assert {o["order"]: o["details"]["merge"]["with_units"] for o in moved} == {"A(Mar)-Bur": ["A Par"], "A(Par)-Bur": ["A Mar"]}


@pytest.mark.parametrize("what", ["readings", "coverage", "fingerprint"])
def test_published_research_schema_is_current(what, capsys):
    assert main(["schema", what]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads((SCHEMAS / f"{what}.schema.json").read_text())


# one phase of each family: a Diplomacy board (standard, a stacks board, Multiplicity), continents, Supremacy
READINGS = ["examples/spring1901.toml", "examples/multiplomacy.toml", "tests/corpora/multiplicity/r06_attacker_priority.toml",
            "tests/corpora/continents/rule_01_equal_forces.toml", "tests/corpora/supremacy/assault_basic.toml"]


@pytest.mark.parametrize("name", READINGS)
def test_readings_json_of_every_family_matches_the_readings_schema(name, capsys):
    from dipsat.research.output_schemas import ReadingsJSON

    assert main(["readings", "--json", str(ROOT / name)]) == 0
    out = ReadingsJSON.model_validate_json(capsys.readouterr().out)
    assert out.orders and out.table and out.distinct_outcomes >= 1


@pytest.mark.parametrize("family", ["datc", "multiplicity", "continents", "supremacy"])
def test_coverage_json_of_every_family_matches_the_coverage_schema(family, tmp_path, capsys):
    from dipsat.research.output_schemas import CoverageJSON

    for case in sorted((ROOT / "tests" / "corpora" / family).glob("*.toml"))[:3]:
        (tmp_path / case.name).write_bytes(case.read_bytes())
    assert main(["coverage", "--json", "-q", str(tmp_path)]) == 0
    out = CoverageJSON.model_validate_json(capsys.readouterr().out).root
    assert out and all(c.cases for c in out) and all(c.pairs for c in out)


def test_schemas_name_their_closed_sets():
    """The turn schema's phase is an enum (or a phase label), the result schema names the board's
    closed set of outcome kinds and the backup kinds, the batch schema its error kinds."""
    from typing import get_args

    from dipsat.outcomes import OutcomeKind

    turn = json.loads((SCHEMAS / "turn.schema.json").read_text())
    assert {"enum": ["movement", "retreat", "adjustment", "placement"]} in turn["properties"]["phase"]["anyOf"]
    assert "autumn" in turn["properties"]["season"]["examples"]
    text = (SCHEMAS / "result.schema.json").read_text()
    result = json.loads(text)
    assert result["$defs"]["OutcomeJSON"]["properties"]["result"]["examples"] == list(get_args(OutcomeKind))
    assert result["$defs"]["BackupJSON"]["properties"]["kind"]["enum"] == ["circular_movement", "convoy_paradox",
                                                                           "other_cycle"]
    batch = json.loads((SCHEMAS / "batch.schema.json").read_text())
    kinds = batch["$defs"]["BatchErrorJSON"]["properties"]["kind"]["anyOf"]
    assert "worker_died" in kinds[0]["enum"] and kinds[1] == {"pattern": "^[A-Z][A-Za-z]+$"}
