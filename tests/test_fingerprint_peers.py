"""``dipsat fingerprint --peer``: the peer adjudicators' adapters in the package (dipsat.io.peers,
dipsat.io.peers_pydip) and the fingerprint of MILA and pydip on the project's random workload.

The peers are test dependencies (pyproject's test extra installs both); a peer that is not
installed skips its tests with that reason."""

from __future__ import annotations

import json
import sys

import pytest

from dipsat.face.cli import main
from dipsat.io.peers import PeerError, PeerRun, PeerTurn, load_peer, peer_turn, turn_texts
from dipsat.research.fingerprint_inputs import InputProblem, Observation, read_inputs
from dipsat.research.fingerprint_peers import PeerFeed

from conftest import ROOT

MODULE = {"mila": "diplomacy", "pydip": "pydip"}


def _peer(name):
    pytest.importorskip(MODULE[name], reason=f"the {name} extra ({MODULE[name]}) is not installed")
    return load_peer(name)


@pytest.mark.parametrize("name", ["mila", "pydip"])
def test_a_missing_peer_names_its_extra(name, monkeypatch):
    monkeypatch.setitem(sys.modules, MODULE[name], None)  # import fails as if not installed
    for mod in [m for m in sys.modules if m.startswith(MODULE[name] + ".")]:
        monkeypatch.setitem(sys.modules, mod, None)
    with pytest.raises(PeerError, match=rf"pip install 'dipsat\[{name}\]'"):
        load_peer(name)


def test_an_unknown_peer_is_named():
    with pytest.raises(PeerError, match="unknown peer 'godip'"):
        load_peer("godip")


def test_the_package_reads_a_workload_turn_as_the_benchmarks_do():
    """dipsat's parser (peer_turn) and the workload's own reader give the peers the same turn."""
    from benchmarks import workload
    from benchmarks.peers.rich import make_turn

    for i in range(6):
        req = make_turn(3, i, "mixed")
        turn, left_out = peer_turn(req["units"], req["orders"])
        assert not left_out
        units, orders = turn_texts(PeerTurn(*workload.parse_request(req)))
        got_units, got_orders = turn_texts(turn)
        assert {p: sorted(us) for p, us in got_units.items()} == {p: sorted(us) for p, us in units.items()}
        assert {p: sorted(o for o in os if not o.endswith(" H")) for p, os in got_orders.items()} == \
            {p: sorted(o for o in os if not o.endswith(" H")) for p, os in orders.items()}, req["id"]


class _Crashing:
    """A peer that fails on any turn with a unit in Munich, and keeps every unit where it is otherwise."""

    name = "mila"
    version = "test"

    def run(self, turn: PeerTurn) -> PeerRun:
        if any(u.province == "mun" for u in turn.units):
            raise KeyError("mun")
        return PeerRun(after=frozenset((u.power, u.kind, u.loc) for u in turn.units), dislodged=frozenset())


def test_bad_observations_are_errors_each_and_lose_no_other(tmp_path):
    lines = [{"id": "ok", "units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}},
             {"id": "crash", "units": {"Germany": ["A Mun"]}, "orders": {"Germany": ["A Mun H"]}},
             {"id": "multi", "variant": "multiplicity", "units": {"France": ["A Par"]}, "orders": {}},
             {"id": "retreat", "phase": "retreat", "units": {"France": ["A Par"]}, "orders": {}},
             {"id": "illegal", "units": {"France": ["A Par", "F Bre"]}, "orders": {"France": ["A Par - Lon", "F Bre - Mao"]}}]
    path = tmp_path / "turns.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines) + "not json\n")
    feed = PeerFeed(_Crashing())  # type: ignore[arg-type]
    items = list(feed.observations(read_inputs([str(path)], turns=True)))
    got = {(it.id if isinstance(it, Observation) else it.where.rsplit(":", 1)[1]): it for it in items}
    assert isinstance(got["ok"], Observation) and isinstance(got["illegal"], Observation)
    assert got["ok"].expectation.units_after == {"France": ["A par"]}  # the peer's result, not dipsat's
    # the illegal order was given to no one: the unit held
    assert sorted(got["illegal"].case.orders["France"]) == ["A Par H", "F Bre - Mao"]
    assert feed.left_out and "A Par - Lon" in feed.left_out[0] and feed.turns == 2
    list(feed.observations(read_inputs([str(path)], turns=True)))  # a second pass (a streaming run's) counts nothing twice
    assert feed.turns == 2 and len(feed.left_out) == 1
    problems = {it.where.rsplit(":", 1)[1]: it.message for it in items if isinstance(it, InputProblem)}
    assert "failed on this turn: KeyError" in problems["2"]
    assert "standard board only" in problems["3"] and "multiplicity" in problems["3"]
    assert "movement phases only" in problems["4"] and "retreat" in problems["4"]
    assert "6" in problems  # the line that is not JSON, listed with the others


def test_peer_on_another_variant_is_refused_by_the_command(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps({"units": {"France": ["A Par"]}, "orders": {}}) + "\n")
    pytest.importorskip("diplomacy")
    assert main(["fingerprint", str(path), "--peer", "mila", "--variant", "multiplicity"]) == 2
    assert "standard board only" in capsys.readouterr().err


# -- the peers fingerprinted (docs/fingerprint.md states these) -----------------------------------

SEED, TURNS = 1, range(8, 14)  # turns 8..13 of the project's mixed random workload, seed 1
#: per peer: the turns no reading explains (each a documented deviation of the peer's), and the
#: DATC cases fingerprinted with what they decide and what stays unexplained
WORKLOAD = {"mila": {"s1-r9", "s1-r13"}, "pydip": {"s1-t12"}}
DATC = {"mila": (["6.G.08", "6.G.11", "6.G.20"], {}, {"6.G.8"}),
        "pydip": (["6.F.16", "6.F.17", "6.G.13"], {"convoyed_attack_from_target_cuts": True}, {"6.F.16", "6.F.17"})}


def _fingerprint(capsys, name, *args):
    main(["fingerprint", "--peer", name, "--json", "-q", *args])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", ["mila", "pydip"])
def test_peer_fingerprint_on_the_random_workload_is_its_documented_deviations(name, tmp_path, capsys):
    """The peer adjudicates the workload's turns; the turns no reading explains are exactly those
    the differential run classifies as the peer's documented deviations from DATC 3.0 (each
    confirmed there by correcting the peer: benchmarks.peers.classify)."""
    _peer(name)
    from benchmarks import peers
    from benchmarks.fingerprint import observation
    from benchmarks.peers.rich import make_turn

    reqs = {r["id"]: r for r in (make_turn(SEED, i, "mixed") for i in TURNS)}
    path = tmp_path / "turns.jsonl"
    path.write_text("".join(json.dumps(observation(r)) + "\n" for r in reqs.values()))
    out = _fingerprint(capsys, name, str(path))
    assert out["observations"] == len(TURNS) and not out["errors"]
    title, package = {"mila": ("MILA", "diplomacy"), "pydip": ("pydip", "pydip")}[name]
    assert out["peer"]["summary"].startswith(f"{title} ({package} {out['peer']['version']}) follows DATC 3.0 on 6 turns")
    assert "datc" in out["nearest_presets"] and out["changes"] == {}  # it follows DATC 3.0 on these turns
    assert {u["id"] for u in out["unexplained"]} == WORKLOAD[name]
    dipsat = peers.Dipsat()
    (bench,), missing = peers.load_peers((name,))
    for ident in WORKLOAD[name]:
        req = reqs[ident]
        verdict = peers.classify(peers.Turn(req), bench, dipsat.run(req), bench.run(req))
        assert verdict.classes and all(peers.DEVIATION[c].peer == name for c in verdict.classes), (ident, verdict.note)


@pytest.mark.parametrize("name", ["mila", "pydip"])
def test_peer_fingerprint_on_datc_cases(name, capsys):
    """DATC cases given to the peer: the readings it follows in ``changes``, its bugs unexplained."""
    _peer(name)
    cases, changes, unexplained = DATC[name]
    out = _fingerprint(capsys, name, *(str(ROOT / "tests" / "corpora" / "datc" / f"{c}.toml") for c in cases))
    assert "datc" in out["nearest_presets"] and out["changes"] == changes
    assert {u["id"] for u in out["unexplained"]} == unexplained
