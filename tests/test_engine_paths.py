"""The two ways of solving a turn give identical outcomes, on random turns of every variant.

By default the acyclic parts of a turn's decisions are evaluated directly and only the cycles go
to CP-SAT; ``all_cpsat`` sends everything to CP-SAT.  Both must agree exactly (outcomes, reasons,
strengths, the position after), for standard, Multiplomacy, Multinational and Multiplicity turns
(continents and Supremacy have no direct path: a continents round is always one CP-SAT model,
Supremacy's checks are CP-SAT models of their own).  A turn
adjudicated without explanations (``explain=False``, what ``batch`` does by default) must give the
same outcomes, culprits and position.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dipsat.game.api import adjudicate, result_to_json
from dipsat.errors import DipsatError
from dipsat.variants import find_variant

from benchmarks.multiplicity import random_turn as multiplicity_turn
from strategies import any_turns
from test_multiplicity import _seaworthy_turn, _with_agreed_merges
from test_multiplomacy import stacked_turns

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

MN = find_variant("multinational").map
MN_POWERS = sorted(MN.powers)
MN_LAND = sorted(p for p, d in MN.provinces.items() if not d.is_sea)
MN_SEA = sorted(p for p, d in MN.provinces.items() if d.is_sea)


def multinational_turn(seed: int) -> dict:
    """A random Multinational position (one power per state) with moves within two states,
    supports of holds and moves, convoys by Military powers at sea, and holds."""
    rnd = random.Random(seed)
    provs = rnd.sample(MN_LAND, rnd.randint(3, 9)) + rnd.sample(MN_SEA, rnd.randint(0, 2))
    units: dict[str, list[str]] = {}
    placed = []
    for prov in provs:
        mn = rnd.choice(MN_POWERS)
        kind = "M" if prov in MN_SEA else rnd.choice("EMP")
        units.setdefault(mn, []).append(f"{kind} {prov}")
        placed.append((mn, kind, prov))

    def near(prov: str) -> list[str]:
        one = set(MN.army_neighbours(prov)) | set(MN.fleet_neighbours(prov))
        two = {q for p in one if p in MN_LAND for q in MN.army_neighbours(p)}
        return sorted((one | two) - {prov})

    orders: dict[str, list[str]] = {}
    for mn, kind, prov in placed:
        r = rnd.random()
        me = f"{kind} {prov}"
        if r < 0.5 and near(prov):
            text = f"{me} – {rnd.choice(near(prov))}"
        elif r < 0.8:
            _, k2, p2 = rnd.choice(placed)
            text = f"{me} S {k2} {p2} – {rnd.choice(near(p2))}" if near(p2) and rnd.random() < 0.6 else f"{me} S {k2} {p2} holds"
        elif r < 0.9 and prov in MN_SEA:
            _, k2, p2 = rnd.choice(placed)
            text = f"{me} C {k2} {p2} – {rnd.choice(MN_LAND)}"
        else:
            text = f"{me} hold"
        orders.setdefault(mn, []).append(text)
    return {"variant": "multinational", "units": units, "orders": orders}


def multinational_turns():
    return st.builds(multinational_turn, st.integers(0, 10**9))


def both_ways(req: dict) -> None:
    try:
        direct = adjudicate(req)
    except DipsatError as exc:  # a bad random position: both ways must refuse it alike
        try:
            adjudicate(req, all_cpsat=True)
        except DipsatError as exc2:
            assert str(exc2) == str(exc)
            return
        raise AssertionError(f"only the direct way refused the turn: {exc}")
    full = adjudicate(req, all_cpsat=True)
    assert result_to_json(direct) == result_to_json(full)
    assert direct.after == full.after
    # without explanations: the same outcomes, culprits and position, only no reasons or terms
    lean = adjudicate(req, explain=False)
    assert not lean.explained and direct.explained
    unexplained = result_to_json(direct)
    for o in unexplained["outcomes"]:
        del o["reason"], o["strengths"], o["details"]
    assert result_to_json(lean) == unexplained
    assert lean.after == direct.after and lean.dislodged_by == direct.dislodged_by
    assert [(o.kind, o.by, o.dislodged_by) for o in lean.outcomes] == [(o.kind, o.by, o.dislodged_by) for o in direct.outcomes]


@SETTINGS
@given(any_turns())
def test_standard_direct_and_all_cpsat_agree(req):
    both_ways(req)


@SETTINGS
@given(stacked_turns())
def test_multiplomacy_direct_and_all_cpsat_agree(req):
    both_ways(req)


@SETTINGS
@given(multinational_turns())
def test_multinational_direct_and_all_cpsat_agree(req):
    both_ways(req)


@settings(max_examples=20, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.sampled_from(["mixed", "at_sea", "merges"]))
def test_multiplicity_direct_and_all_cpsat_agree(seed, kind):
    rng = random.Random(seed)
    if kind == "at_sea":  # A/Fs at sea: seaworthiness, disembarking, splitting fleets
        req = _seaworthy_turn(rng)
    else:
        req = multiplicity_turn(rng, min_units=20)
        if kind == "merges":  # multinational merges, agreed or one-sided
            req = _with_agreed_merges(rng, req)[0]
    both_ways(req)


def test_multinational_turns_are_mostly_adjudicated():
    """The generator makes turns the variant accepts, with orders that are carried out (so the
    property above tests something)."""
    accepted = 0
    for seed in range(40):
        try:
            res = adjudicate(multinational_turn(seed))
        except DipsatError:
            continue
        accepted += any(o.order_kind == "move" and o.result == "moved" for o in res.outcomes)
    assert accepted >= 20


def test_ortools_is_imported_only_when_a_cycle_is_past_the_small_search():
    """An acyclic turn and a small paradox (Pandin's: its cycles are counted by trying the values
    of a few decisions) import no OR-Tools; a cycle past the small search's budget, or a turn
    sent wholly to CP-SAT, does."""
    import subprocess
    import sys

    from conftest import ROOT

    code = ("import sys\n"
            "from dipsat.engine import equations\n"
            "from dipsat.game.api import adjudicate, load_request\n"
            "adjudicate(load_request('examples/spring1901.toml'))\n"
            "print('ortools' in sys.modules)\n"
            "res = adjudicate(load_request('examples/pandin.toml'))\n"
            "print('ortools' in sys.modules, len(res.backups))\n"
            "equations.CYCLE_WORK = 0\n"
            "adjudicate(load_request('examples/pandin.toml'))\n"
            "print('ortools' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["False", "False 1", "True"]
    code = ("import sys\n"
            "from dipsat.game.api import adjudicate, load_request\n"
            "adjudicate(load_request('examples/spring1901.toml'), all_cpsat=True)\n"
            "print('ortools' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True"]


def test_the_command_line_imports_no_ortools_for_an_acyclic_turn():
    """The whole ``dipsat adjudicate`` command, not only the API: collecting the variants'
    own subcommands at start-up must not pull in OR-Tools (numpy, pandas) either."""
    import subprocess
    import sys

    from conftest import ROOT

    code = ("import sys\n"
            "from dipsat.face.cli import main\n"
            "status = main(['adjudicate', 'examples/spring1901.toml'])\n"
            "print(status, sorted(m for m in ('ortools', 'numpy', 'pandas') if m in sys.modules))\n"
            "print(sorted(m for m in sys.modules if m in ('networkx', 'rich')\n"
            "             or m.startswith('dipsat.variants.') and m != 'dipsat.variants.standard'))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-2] == "0 []"
    # cold start: no other variant is loaded, nor networkx (maps build graphs on first use) or Rich
    assert out.splitlines()[-1] == "[]"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_batch_of_acyclic_turns_imports_no_ortools_in_any_process(tmp_path, jobs):
    """``dipsat batch`` of acyclic turns: neither the command (``-j 1`` answers in it), nor the
    forkserver's preload, nor a worker (``-j 2``) imports OR-Tools (``-X importtime`` passes to
    every process multiprocessing starts and reports each import on the shared standard error);
    a Supremacy stage, whose joint check is a CP-SAT model, does import it where it is answered
    -- so the check sees the imports of whichever process answers."""
    import json
    import subprocess
    import sys

    from benchmarks.workload import generate
    from conftest import CORPORA, ROOT
    from dipsat.game.request import read_data_file

    def imports(lines: list[dict]) -> tuple[list[dict], str]:
        inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
        inp.write_text("".join(json.dumps(x) + "\n" for x in lines))
        run = subprocess.run([sys.executable, "-X", "importtime", "-m", "dipsat.face.cli", "batch", str(inp), "-o",
                              str(out), "-q", "-j", jobs], cwd=ROOT, capture_output=True, text=True)
        return [json.loads(x) for x in out.read_text().splitlines()], run.stderr

    results, err = imports(generate(7, 6))
    assert [r["ok"] for r in results] == [True] * 6
    assert "dipsat.board.movement" in err and "ortools" not in err
    results, err = imports([read_data_file(CORPORA / "supremacy" / "assault_reinforce.toml")])
    assert results[0]["ok"] and "ortools" in err
