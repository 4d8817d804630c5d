"""The public API as a user meets it: the examples of its docstrings run (from the repository
root), every name of ``dipsat.__all__`` has a docstring, results print readably and name their
dislodged units."""

import doctest

import pytest

import dipsat
from dipsat import adjudicate

from conftest import ROOT


@pytest.mark.parametrize("name", sorted(dipsat.__all__))
def test_every_public_name_is_documented_and_its_examples_run(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    obj = getattr(dipsat, name)
    assert (obj.__doc__ or "").strip(), f"dipsat.{name} has no docstring"
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(obj, name, globs={}):
        runner.run(test)
    assert runner.failures == 0, f"dipsat.{name}: an example of its docstring fails"


def test_explore_why_rules_and_requests_show_an_example():
    for name in ("RuleOptions", "TurnRequest", "explore", "why", "legal_orders"):
        assert ">>>" in (getattr(dipsat, name).__doc__ or ""), name


def test_a_result_prints_its_outcomes_dislodged_units_and_position():
    res = adjudicate({"units": {"France": ["A Par", "A Mar"], "Germany": ["A Bur"]},
                      "orders": {"France": ["A Par - Bur", "A Mar S A Par - Bur"]}})
    assert [(u.power, u.kind, u.location) for u in res.dislodged_units] == [("Germany", "A", "bur")]
    assert str(res).splitlines() == [
        "France: A Mar S A Par - Bur: given — support given",
        "France: A Par - Bur: moved — moves — attack 2 (A Par + support A Mar)",
        "Germany: A Bur Hold: dislodged — dislodged by A Par - Bur",
        "dislodged: Germany: A Bur",
        "after: France: A Bur, France: A Mar"]
    assert res.outcomes[0].result == "given"


def test_a_result_pickles_and_comes_back_equal_with_its_variant_record():
    """A result goes to another process (a user's own pool) and back: its variant is pickled by
    name and comes back as the registered record; a record made outside the registry says why it
    cannot be pickled."""
    import dataclasses
    import pickle

    from dipsat.game.registry import find_variant

    r = adjudicate({"units": {"France": ["A Par", "A Mar"], "Germany": ["A Mun"]},
                    "orders": {"France": ["A Par - Bur", "A Mar S A Par - Bur"], "Germany": ["A Mun - Bur"]}})
    back = pickle.loads(pickle.dumps(r))
    assert back == r and back.variant is find_variant("standard") and str(back) == str(r)
    stray = dataclasses.replace(find_variant("standard"), name="stray")
    with pytest.raises(TypeError, match="'stray' is not the registered one"):
        pickle.dumps(stray)
