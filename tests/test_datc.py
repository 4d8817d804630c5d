"""Every corpus case under tests/corpora, under every preset it names, through the one runner."""

import pytest

from dipsat.io.corpus import case_files, load_case, run_expectation, runs_of

from conftest import CORPORA

PARAMS = []
for f in case_files([CORPORA]):
    case = load_case(f)
    for rules, exp in runs_of(case):
        opts = "+" + ",".join(f"{k}={v}" for k, v in sorted(exp.options.items())) if exp.options else ""
        PARAMS.append(pytest.param(case, rules, exp, str(f), id=f"{case.id}[{rules}{opts}]"))


@pytest.mark.parametrize("case,rules,exp,path", PARAMS)
def test_corpus_case(case, rules, exp, path):
    run = run_expectation(case, rules, exp, path)
    if run.skipped:
        pytest.skip(run.skipped)
    assert run.passed, f"{case.id} under {rules}: " + "; ".join(run.problems)


def test_datc_cases_name_their_id():
    files = case_files([CORPORA / "datc"])
    for f in files:
        case = load_case(f)
        assert case.id.startswith("6."), f
        assert case.url.endswith("#" + case.id), f
        assert f.stem.replace(".0", ".") == case.id or f.stem == case.id or f.stem.split(".")[:2] == case.id.split(".")[:2], f


def test_retreat_options_expected_of_a_movement_case_are_a_problem_not_a_crash():
    """The long fuzz run (seed 2) took the phase out of DATC 6.H.7: its expectation names retreat
    options, which a movement phase does not give; the case fails naming why (it crashed with a
    KeyError)."""
    import tomllib

    from dipsat.io.cases import CorpusCase

    data = tomllib.loads((CORPORA / "datc" / "6.H.07.toml").read_text())
    assert data.pop("phase") == "retreat"
    case = CorpusCase.model_validate(data)
    (rules, exp), = runs_of(case)
    run = run_expectation(case, rules, exp)
    assert not run.passed
    assert "retreat_options: given for a case whose phase is not 'retreat'" in run.problems
