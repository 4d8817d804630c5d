"""One seam for variants of another game family: the record's family hook answers every command."""

import pytest

from dipsat.cli import main
from dipsat.errors import DipsatError
from dipsat.family import Family
from dipsat.variants import find_variant


def test_the_families_are_on_the_one_seam():
    assert find_variant("standard").family() is None
    for name in ("continents", "supremacy"):
        fam = find_variant(name).family()
        assert isinstance(fam, Family) and fam.variant == name
    # the old hooks are gone from the variant record
    v = find_variant("supremacy")
    for old in ("own_commands", "command_for", "run_case", "commands"):
        assert not hasattr(v, old), old


def test_a_command_a_family_lacks_is_a_clear_error(capsys):
    with pytest.raises(DipsatError, match="the supremacy variant has no 'explore' command"):
        find_variant("supremacy").family().explore({}, "x.toml", None, (), 4)
    assert main(["explore", "tests/corpora/supremacy/budget_oil.toml"]) == 2
    assert "the supremacy variant has no 'explore' command" in capsys.readouterr().err


def test_supremacy_adjudicate_and_subcommands_through_the_seam(capsys):
    assert main(["adjudicate", "tests/corpora/supremacy/budget_oil.toml"]) == 0
    assert capsys.readouterr().out.strip().startswith("{")
    names = [c.name for c in find_variant("supremacy").family().commands()]
    assert names == ["odds", "wealth"]


def test_check_facts_compares_paths_and_errors():
    """The core's check of a variant's ``facts`` expectations: dotted paths into the run's data
    (list items by index), a missing path, and an expected or unexpected error."""
    from dipsat.corpus import check_facts
    from dipsat.errors import DipsatError

    data = {"result": {"winners": ["LEN"], "turns": [{"n": 1}, {"n": 2}]}}
    assert check_facts(lambda: data, {"result.winners": ["LEN"], "result.turns.1.n": 2}) == []
    assert check_facts(lambda: data, {"result.winners": ["USA"]}) == ["result.winners: expected ['USA'], got ['LEN']"]
    assert check_facts(lambda: data, {"result.loser": 1}) == ["result.loser: not in the result"]
    assert check_facts(lambda: data, {"error": "nope"}, ran="the game was played") == \
        ["expected an error mentioning 'nope'; the game was played"]

    def fails() -> dict:
        raise DipsatError("the option 'victory' is unspecified")

    assert check_facts(fails, {"error": "'victory'"}) == []
    assert check_facts(fails, {"error": "money"}) == \
        ["error: expected it to mention 'money', got the option 'victory' is unspecified"]
    assert check_facts(fails, {}) == ["error: the option 'victory' is unspecified"]
