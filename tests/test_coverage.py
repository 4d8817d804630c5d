"""dipsat coverage: which pairs of rule readings a corpus tells apart, from its expectations."""

from __future__ import annotations

import json
from pathlib import Path

from dipsat.face.cli import main
from dipsat.research.coverage import coverage

DATC = Path(__file__).parent / "corpora" / "datc"


def _pairs(covs, variant="standard"):
    cov = next(c for c in covs if c.variant == variant)
    return {(p.option, str(p.a), str(p.b)): p.cases for p in cov.pairs.values()}, cov


def test_one_differing_option_that_was_read_tells_its_values_apart():
    # 6.B.2: the DATC expectation and one with missing_coast_single = fail differ in the outcome
    pairs, cov = _pairs(coverage([DATC / "6.B.02.toml"]))
    assert pairs[("missing_coast_single", "attempt", "fail")] == ["6.B.2"]
    assert not cov.joint
    assert all(not cases for (name, _, _), cases in pairs.items() if name != "missing_coast_single")


def test_options_nobody_read_do_not_count_and_several_read_ones_are_joint():
    # 6.F.16 datc vs 2000: the presets differ in civil_disorder and the retreat option too, but
    # the movement turn never reads them, so only the paradox rule can have made the difference
    pairs, cov = _pairs(coverage([DATC / "6.F.16.toml"]))
    assert pairs[("convoy_paradox_rule", "2000", "szykman")] == ["6.F.16"]
    assert pairs[("civil_disorder", "2023", "home_centres")] == []
    # datc vs 1982 differ in adjacent_convoy too, but the convoyed army is not adjacent to London:
    # the route rule is not read, and the paradox rule alone tells them apart
    assert pairs[("convoy_paradox_rule", "1982", "szykman")] == ["6.F.16"]
    # 6.F.21: datc vs 1982 differ in two options the turn reads (paradox rule and adjacent convoy)
    pairs, cov = _pairs(coverage([DATC / "6.F.21.toml"]))
    assert any({n for n, _, _ in key} == {"convoy_paradox_rule", "adjacent_convoy"} for _, key in cov.joint)


def test_variant_of_its_own_family_counts_its_option_overrides(tmp_path):
    case = tmp_path / "c.toml"
    case.write_text((Path(__file__).parent / "corpora" / "continents" / "rule_11_defend_first.toml").read_text())
    pairs, cov = _pairs(coverage([case]), "continents")
    assert pairs[("defend_first", "all_units", "ordered_leave")] == ["continents.rule.11"]
    assert ("placement", "spread", "own_continent") in pairs and not pairs[("placement", "spread", "own_continent")]


def test_same_outcome_tells_nothing_apart(tmp_path):
    text = (DATC / "6.A.01.toml").read_text()
    (tmp_path / "a.toml").write_text(text + '\n[[expect]]\nrules = ["1971"]\ndislodged = []\n')
    pairs, cov = _pairs(coverage([tmp_path]))
    assert not any(pairs.values()) and not cov.joint


def test_cli_json_and_text(capsys):
    assert main(["coverage", str(DATC / "6.B.02.toml"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0]["variant"] == "standard"
    assert {"option": "missing_coast_single", "a": "attempt", "b": "fail", "cases": ["6.B.2"]} in data[0]["pairs"]
    assert main(["coverage", str(DATC / "6.B.02.toml"), "-q"]) == 0
    out = capsys.readouterr().out
    assert "missing_coast_single: attempt | fail: 6.B.2" in out
    assert "Untested: 40 of 41 pairs" in out


def test_cli_missing_path_is_a_clear_error(capsys):
    assert main(["coverage", "no/such/folder"]) == 2
    assert "no/such/folder: no such file or folder" in capsys.readouterr().err


def test_an_error_under_one_value_and_a_result_under_another_tell_them_apart():
    # Supremacy: the airlift assault is refused while airlift_assault is unspecified, and fought
    # under occupy_by_airlift; the two expectations share no other item
    case = Path(__file__).parent / "corpora" / "supremacy" / "assault_airlift.toml"
    pairs, cov = _pairs(coverage([case]), "supremacy")
    assert pairs[("airlift_assault", "unspecified", "occupy_by_airlift")] == [cov_case_id(case)]


def cov_case_id(path: Path) -> str:
    from dipsat.io.corpus import load_case

    return load_case(path).id


def test_a_bad_option_value_in_a_case_of_another_family_is_a_clear_error(tmp_path, capsys):
    text = (Path(__file__).parent / "corpora" / "continents" / "rule_11_defend_first.toml").read_text()
    (tmp_path / "bad.toml").write_text(text.replace('"defend_first" = "ordered_leave"', '"defend_first" = "sometimes"'))
    assert '"defend_first" = "sometimes"' in (tmp_path / "bad.toml").read_text()
    main(["coverage", str(tmp_path)])  # the case's error is reported in its place, the run goes on
    out = capsys.readouterr().out
    assert "error: continents.rule.11 under continents: options {'defend_first': 'sometimes'}: " \
           "rule option 'defend_first': Input should be 'all_units' or 'ordered_leave' (got 'sometimes')" in out
