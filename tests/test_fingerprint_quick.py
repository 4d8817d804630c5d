"""The fingerprint's quick path is exact: the plain adjudicator run once per class of what it
reads (:func:`dipsat.engine.option_space.explore_reads`) gives every observation the same table
— which assignments of the options explain it, and what differs under the others — as the
readings' one model (a phase) or the split on direct reads (a game).

Observations are made here by adjudicating random turns (the benchmark workload's plain and rich
standard turns, random Multiplicity turns) and option-sensitive DATC cases under a random
assignment of the options, some records then falsified."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dipsat.engine.option_space import assignments, categorical_options, option_values
from dipsat.game.api import adjudicate
from dipsat.io.corpus import CorpusCase, Expectation, dislodged_units, load_case
from dipsat.research.fingerprint import Evidence, evidence
from dipsat.research.fingerprint_inputs import Observation
from dipsat.variants import find_variant

from conftest import CORPORA


def _random_rules(variant: str, rnd: random.Random) -> Any:
    v = find_variant(variant)
    model = v.options_model
    return v.rules(None, **{n: rnd.choice(option_values(model, n)) for n in categorical_options(model)})


def _observe(req: dict[str, Any], rules: Any, ident: str, rnd: random.Random, orders: bool = True) -> Observation:
    """What ``rules`` make of the turn ``req``, as an observation (one record falsified in four)."""
    res = adjudicate({k: v for k, v in req.items() if k in ("variant", "units", "orders")}, rules=rules)
    texts = [o.text for o in res.outcomes]
    said = {o.text: ("succeeds" if o.succeeded else "fails") for o in res.outcomes if texts.count(o.text) == 1}
    if said and rnd.random() < 0.25:
        k = rnd.choice(sorted(said))
        said[k] = "fails" if said[k] == "succeeds" else "succeeds"
    after: dict[str, list[str]] = {}
    for u in res.after.units:
        after.setdefault(u.power, []).append(f"{u.kind} {u.location}")
    exp = Expectation(rules=[], orders=said if orders else {}, units_after=after,
                      dislodged=[f"{u.power}: {u.kind} {u.location}" for u in dislodged_units(res)])
    case = CorpusCase(id=ident, variant=req.get("variant", "standard"), phase="movement", units=req["units"],
                      orders=req["orders"], expect=[exp])
    return Observation(ident, ident, case)


def _table(e: Evidence, names: list[str]) -> dict[tuple[Any, ...], tuple[str, ...]]:
    model = find_variant(e.obs.variant).options_model
    return {tuple(a[n] for n in names): tuple(e.problems_under(a)) for a in assignments(model, names)}


def _same(obs: list[Observation]) -> int:
    """Each observation's quick table equals the model's; the number that some option changes."""
    touched = 0
    for o in obs:
        quick, slow = evidence(o, quick=True), evidence(o, quick=False)
        names = sorted(set(quick.touched) | set(slow.touched))
        assert _table(quick, names) == _table(slow, names), o.id
        assert sorted(quick.names) == sorted(slow.names), o.id
        assert {tuple(sorted(zip(quick.names, t))) for t in quick.allowed} == \
            {tuple(sorted(zip(slow.names, t))) for t in slow.allowed}, o.id
        touched += bool(slow.names)
    return touched


@pytest.mark.parametrize("seed", [1, 2])
def test_standard_random_turns_quick_equals_model(seed):
    from benchmarks.peers.rich import make_turn

    rnd = random.Random(seed)
    obs = [_observe(make_turn(seed, i, "mixed"), _random_rules("standard", rnd), f"turn {i}", rnd) for i in range(10)]
    assert _same(obs) >= 2  # options change some of them: the comparison is not only of one-class turns


def test_option_sensitive_datc_cases_quick_equals_model():
    rnd = random.Random(7)
    ids = ["6.B.04", "6.C.03", "6.D.34", "6.F.10", "6.F.14", "6.F.17", "6.F.21", "6.F.24", "6.G.01", "6.G.04",
           "6.G.08", "6.G.17"]
    obs = []
    for cid in ids:
        c = load_case(CORPORA / "datc" / f"{cid}.toml")
        obs.append(_observe({"units": c.units, "orders": c.orders}, _random_rules("standard", rnd), cid, rnd))
    assert _same(obs) >= 3


def test_multiplicity_random_turns_quick_equals_model():
    from benchmarks.multiplicity import random_turn

    rnd = random.Random(3)
    obs = [_observe(random_turn(rnd, min_units=16), _random_rules("multiplicity", rnd), f"turn {i}", rnd,
                    orders=False) for i in range(6)]
    _same(obs)


def test_game_cases_quick_equals_the_split_on_reads():
    """A game case (several phases): the quick path against the replay split on direct reads."""
    from dipsat.io.corpus import case_files
    from dipsat.research.fingerprint_inputs import read_inputs

    games = [f for f in case_files([CORPORA / "multiplicity"]) if load_case(f).phase == "game"]
    obs = [o for o in read_inputs([str(f) for f in games]) if isinstance(o, Observation)]
    assert obs
    _same(obs)


# -- streaming, worker processes, Dask -------------------------------------------------------------


def _mixed_input(tmp_path):
    """Option-sensitive DATC cases observed under 1982, one record falsified, one contradicting
    record (6.F.17 as datc adjudicates it), and bad lines."""
    import json

    from test_fingerprint import CASES, _observed, _write

    lines = [_observed(c, "1982") for c in CASES]
    bad = lines[0]
    order = next(k for k, v in bad["expect"]["orders"].items() if v == "fails")
    bad["expect"]["orders"][order] = "succeeds"
    lines += [{**_observed("6.F.17", "datc"), "id": "6.F.17 as datc"}, "{not json",
              {**_observed("6.A.05", "datc"), "units": {"France": ["A Atlantis"]}}]
    return _write(tmp_path, lines), json


@pytest.mark.parametrize("how", [["-j", "2"], ["--dask", "local", "-j", "2"]], ids=["jobs", "dask"])
def test_worker_processes_give_the_same_fingerprint(tmp_path, capsys, how):
    from dipsat.face.cli import main

    f, json = _mixed_input(tmp_path)
    here = main(["fingerprint", "--json", "-q", str(f)])
    one = json.loads(capsys.readouterr().out)
    there = main(["fingerprint", "--json", "-q", str(f), *how])
    assert json.loads(capsys.readouterr().out) == one and here == there == 1
    assert [u["id"] for u in one["unexplained"]] == ["6.A.5", "6.F.17 as datc"]  # the second found by reading again
    assert one["options"]["convoy_paradox_rule"] == ["1982"] and len(one["errors"]) == 2


def test_a_stream_of_two_variants_stops_with_a_choice(tmp_path, capsys):
    from dipsat.face.cli import main

    from test_fingerprint import _observed, _write

    mp = load_case(next((CORPORA / "multiplomacy").glob("*.toml")))
    lines = [_observed("6.A.05", "datc"),
             {"variant": "multiplomacy", "units": mp.units, "orders": mp.orders, "expect": {"orders": {}}}]
    assert main(["fingerprint", "-q", str(_write(tmp_path, lines))]) == 2
    err = capsys.readouterr().err
    assert "--variant" in err and "multiplomacy" in err and "observed.jsonl:2" in err
