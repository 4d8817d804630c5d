"""Supremacy (seed 002): exact drill distributions against brute force, the minimal conflicting
sets of the CP-SAT stage check against plain simulation, set-up draws, determinism, CLI."""

from __future__ import annotations

import itertools
import json
import re
import random
from collections import Counter
from fractions import Fraction

import pytest

from dipsat.face.cli import main
from dipsat.errors import DipsatError
from dipsat.variants.supremacy.actions import parse_actions
from dipsat.variants.supremacy.dice import Dice, DiceError
from dipsat.variants.supremacy.drills import Assault, assault, assault_distribution, sum_dist
from dipsat.variants.supremacy.strikes import Clash, NuclearStrike, clash, clash_distribution, nuclear, nuclear_distribution
from dipsat.variants.supremacy.options import BlankRule, make_options
from dipsat.variants.supremacy.setup import SetupInput, set_up
from dipsat.variants.supremacy.stage import apply_actions, check_stage
from dipsat.variants.supremacy.state import CAPACITY, NAVY_CAPACITY, State, parse_state

OPTS = make_options({"tapping": "never"})  # the stage-check pool takes loans


def _brute(run, max_dice: int) -> dict:
    """Run the drill itself on every possible sequence of d6 rolls: a run that asks for one more
    die than given is extended by each face in turn; a complete run of n dice has weight 6**-n."""
    tally: dict = {}
    stack: list[list[int]] = [[]]
    while stack:
        prefix = stack.pop()
        try:
            outcome = run(Dice(prefix))
        except DiceError:
            assert len(prefix) < max_dice
            stack.extend(prefix + [k] for k in range(1, 7))
            continue
        tally[outcome] = tally.get(outcome, Fraction(0)) + Fraction(1, 6 ** len(prefix))
    return tally


ASSAULTS = [
    ({"USA": {"grain": 1, "oil": 1, "mineral": 1, "armies": {"us_west": 3}, "lstars": 1},
      "CSA": {"armies": {"mexico": 2}}}, {"attacker": "USA", "target": "mexico", "forces": ["3 army us_west"]}),
    ({"USA": {"grain": 1, "oil": 1, "mineral": 1, "navies": [{"sea": "north_atlantic", "armies": 3}]},
      "CSA": {"navies": [{"sea": "caribbean"}, {"sea": "caribbean", "armies": 2}], "lstars": 2}},
     {"attacker": "USA", "target": "caribbean", "forces": ["navy north_atlantic"]}),
    ({"USA": {"grain": 1, "oil": 1, "mineral": 1, "armies": {"mexico": 2}}, "CSA": {"armies": {"brazil": 1}}},
     {"attacker": "USA", "target": "gran_colombia", "forces": ["2 army mexico"]}),
]


@pytest.mark.parametrize("powers,drill", ASSAULTS)
def test_assault_distribution_is_exact(powers, drill):
    state = parse_state({"powers": powers})
    a = Assault.model_validate(drill)
    exact = assault_distribution(state, a, OPTS)
    from dipsat.variants.supremacy.drills import plan_assault

    plan = plan_assault(state, a, OPTS)

    def run(d: Dice):
        r = assault(state.model_copy(deep=True), a, OPTS, d)
        return (r.att_losses, r.def_losses)

    assert _brute(run, plan.att_dice + plan.def_dice) == exact
    assert sum(exact.values()) == 1


def test_sum_of_dice_distribution():
    for n in range(1, 5):
        brute = Counter(sum(s) for s in itertools.product(range(1, 7), repeat=n))
        assert sum_dist(n) == {k: Fraction(v, 6 ** n) for k, v in brute.items()}


@pytest.mark.parametrize("groups", [[1], [2], [3], [1, 1]])
def test_clash_distribution_is_exact(groups):
    state = parse_state({"powers": {"USA": {"lstars": sum(groups)}, "USSR": {"lstars": len(groups)}}})
    c = Clash(attacker="USA", groups=[{"target": "USSR", "attackers": k} for k in groups])
    exact = clash_distribution(state, c)

    def run(d: Dice):
        s = state.model_copy(deep=True)
        clash(s, c, d)
        return (state.powers["USA"].lstars - s.powers["USA"].lstars, state.powers["USSR"].lstars - s.powers["USSR"].lstars)

    assert _brute(run, 2 * sum(groups)) == exact


def test_nuclear_distribution_is_exact():
    state = parse_state({"powers": {"USSR": {"nukes": 2}, "LEN": {"lstars": 1, "armies": {"western_europe": 1}},
                                    "AFR": {"lstars": 1}}})
    n = NuclearStrike(strikes=[{"power": "USSR", "targets": ["western_europe", "outer space"]}], champions=["AFR"],
                      screens=[{"power": "LEN", "nuke": 1}, {"power": "AFR", "nuke": 1}])
    exact = nuclear_distribution(state, n)
    opts = make_options({"fallout": "none"})

    def run(d: Dice):
        return sum(1 for k in nuclear(state.model_copy(deep=True), n, opts, d) if k.result == "strikes")

    assert _brute(run, 2 + 2) == exact  # 2 screen dice + at most 2 winds of fate


# ---------------------------------------------------------------- the joint stage check -------

def _simulate(state: State, power: str, stage: int, texts: list[str]) -> bool:
    """Plain-Python reference: carry the actions out one by one; every quantity stays in bounds."""
    s = state.model_copy(deep=True)
    board = s.get_board()
    for a in parse_actions(board, power, texts):
        try:
            apply_actions(s, power, [a], OPTS)
        except DipsatError:
            return False
        for h in s.powers.values():
            if h.money < 0 or any(v < 0 for v in h.armies.values()):
                return False
            if any(not 0 <= getattr(h, r) <= CAPACITY for r in ("grain", "oil", "mineral", "nukes", "lstars")):
                return False
            if any(not 0 <= nv.armies <= NAVY_CAPACITY for nv in h.navies):
                return False
    return True


POOL = ["march army us_west - canada", "march 2 army us_east - canada", "march army canada - us_east",
        "airlift army us_west - us_east", "board 2 army us_east - navy caribbean", "board 3 army us_east - navy caribbean",
        "sail navy gulf_of_alaska - east_pacific", "loan 500"]


@pytest.mark.parametrize("budget", [(1, 1), (2, 2), (3, 1), (1, 4), (4, 6)])
def test_minimal_conflict_is_minimal(budget):
    grain, oil = budget
    state = parse_state({"powers": {"USA": {"grain": grain, "oil": oil, "armies": {"us_west": 2, "us_east": 3},
                                            "navies": [{"sea": "caribbean"}, {"sea": "gulf_of_alaska"}],
                                            "companies": ["usw_grain"]}}})
    rng = random.Random(f"budget:{budget}")
    for _ in range(12):
        texts = rng.sample(POOL, rng.randint(2, 6))
        chk = check_stage(state, "USA", 5, texts, OPTS)
        assert chk.feasible == _simulate(state, "USA", 5, texts), texts
        if chk.feasible:
            continue
        conflict = [a.text for a in chk.conflict]
        keep = [t for t in texts if t in conflict]
        assert not _simulate(state, "USA", 5, keep), (texts, conflict)
        for t in keep:  # minimal: every proper subset can be carried out
            assert _simulate(state, "USA", 5, [x for x in keep if x != t]), (texts, conflict, t)
        assert chk.quantities


def test_stage_check_does_not_depend_on_python_hash_order():
    state = parse_state({"powers": {"USA": {"grain": 1, "oil": 2, "armies": {"us_west": 3, "us_east": 1},
                                            "navies": [{"sea": "gulf_of_alaska"}]}}})
    texts = ["march army us_west - canada", "airlift army us_west - us_east", "sail navy gulf_of_alaska - east_pacific",
             "march army us_east - canada"]
    first = check_stage(state, "USA", 5, texts, OPTS)
    for _ in range(3):
        again = check_stage(state, "USA", 5, texts, OPTS)
        assert [a.text for a in again.conflict] == [a.text for a in first.conflict]


# ---------------------------------------------------------------- set-up, dice, options -------

PLAYERS = {"USA": {"armies": {"us_west": 9}, "resources": {"grain": 9}},
           "CSA": {"armies": {"brazil": 9}, "resources": {"oil": 9}},
           "LEN": {"armies": {"western_europe": 9}, "resources": {"mineral": 9}},
           "USSR": {"armies": {"ukraine": 9}, "resources": {"grain": 9}},
           "PRC": {"armies": {"north_china": 9}, "resources": {"oil": 9}},
           "AFR": {"armies": {"north_africa": 9}, "resources": {"mineral": 9}}}


@pytest.mark.parametrize("seed", [1, 2, 3, "x"])
def test_drawn_companies_follow_the_rules(seed):
    opts = make_options({"random_seed": seed})
    state, _ = set_up(SetupInput.model_validate({"players": PLAYERS}), opts)
    board = state.get_board()
    zones: dict[str, set[str]] = {}
    for p, h in state.powers.items():
        own = [c for c in h.companies if board.company(c.id).superpower == p]
        other = [c for c in h.companies if not board.company(c.id).superpower]
        assert len(own) == 4 and len(other) == 2
        for c in h.companies:
            zones.setdefault(board.company(c.id).zone, set()).add(p)
        assert 2 <= state.market["grain"] <= 12
    assert all(len(ps) == 1 for ps in zones.values())
    held = {c.id for h in state.powers.values() for c in h.companies}
    assert sorted(state.deck) == state.deck and set(state.deck) == {c.id for c in board.companies} - held
    same, _ = set_up(SetupInput.model_validate({"players": PLAYERS}), opts)
    assert same == state


def test_given_dice_are_checked():
    with pytest.raises(DiceError, match="roll 1 .* is 7"):
        Dice([7]).roll(6, "test")
    with pytest.raises(DiceError, match="ran out"):
        Dice([]).roll(6, "test")


def test_blank_rule_error_names_option_and_values():
    strict = make_options({"preset": "strict"})
    with pytest.raises(BlankRule, match="'fallout' .*none, destroy_forces.*default: forces_and_companies"):
        strict.need("fallout", "a nuke")
    assert OPTS.need("fallout", "a nuke") == "forces_and_companies"  # the table preset's default
    with pytest.raises(DipsatError, match="unknown Supremacy rule option 'falout'"):
        make_options({"falout": "none"})


def test_bad_action_is_quoted():
    state = parse_state({"powers": {"USA": {}}})
    with pytest.raises(DipsatError, match="invalid action 'marhc army us_west - canada'"):
        check_stage(state, "USA", 5, ["marhc army us_west - canada"], OPTS)
    with pytest.raises(DipsatError, match="unknown zone 'atlantis'"):
        check_stage(state, "USA", 5, ["march army atlantis - canada"], OPTS)


# ---------------------------------------------------------------- CLI --------------------------

def test_cli_odds_wealth_why_rules_compare(capsys):
    assert main(["odds", "tests/corpora/supremacy/odds_assault.toml"]) == 0
    out = capsys.readouterr().out
    assert "P(defender loses >= 2) = 103/108" in out
    assert main(["wealth", "tests/corpora/supremacy/wealth_table.toml"]) == 0
    assert "3851" in capsys.readouterr().out
    assert main(["why", "tests/corpora/supremacy/budget_oil.toml"]) == 0
    out = capsys.readouterr().out
    assert "airlift army us_west - us_east" in out and "USA Oil: starts at 2" in out
    assert main(["rules", "supremacy"]) == 0
    out = capsys.readouterr().out
    assert "fallout = 'forces_and_companies'; strict: 'unspecified'" in out and "strict: every blank" in out
    assert main(["compare", "tests/corpora/supremacy/nuke_fallout.toml"]) == 0
    assert "fallout" in capsys.readouterr().out


# ---------------------------------------------------------------- the example game ------------

def test_example_game_plays_setup_and_three_turns(capsys):
    from dipsat.variants.supremacy.game import play_file

    g = play_file("examples/supremacy_game.toml")
    assert len(g.turns) == 3
    usa, csa, ussr = (g.state.powers[p] for p in ("USA", "CSA", "USSR"))
    assert csa.armies["mexico"] == 2 and "mexico" not in usa.armies  # USA took it in turn 2, CSA back in turn 3
    assert usa.loan is None  # repaid in full in turn 3: the collateral is untapped again
    assert not any(c.tapped for c in usa.companies) and len(usa.companies) == 7  # 6 dealt + 1 prospected
    assert usa.lstars == 1 and csa.lstars == 1 and ussr.nukes == 1
    assert g.result is not None and g.result.winners == ["USSR"]
    assert play_file("examples/supremacy_game.toml").state == g.state  # deterministic
    assert main(["play", "examples/supremacy_game.toml", "-q"]) == 0
    assert "== Turn 3 ==" in capsys.readouterr().out


def _without_options(tmp_path) -> str:
    text = open("examples/supremacy_game.toml", encoding="utf-8").read()
    start, end = text.index("[options]"), text.index("[setup]")
    f = tmp_path / "g.toml"
    f.write_text(text[:start] + text[end:], encoding="utf-8")
    return str(f)


def test_example_game_plays_with_no_options_block(tmp_path, capsys):
    """The table preset: a game file with no [options] at all (not even a random seed) plays set-up
    and every turn, every stage reached with players in it, and is decided."""
    from dipsat.variants.supremacy.game import play_file

    f = _without_options(tmp_path)
    g = play_file(f)
    assert len(g.turns) == 3 and g.opts.preset == "table"
    played = {s.stage for t in g.turns for s in t.stages if s.stage <= 2 or s.order}
    assert played == set(range(1, 9))
    assert g.result is not None and g.result.winners
    assert play_file(f).state == g.state  # the seeded random source: the same game on every run
    assert main(["play", f, "-q"]) == 0
    assert "The game is over after turn 3" in capsys.readouterr().out


def test_game_refuses_a_play_by_a_non_bidder(tmp_path):
    from dipsat.variants.supremacy.game import play_file

    text = open("examples/supremacy_game.toml", encoding="utf-8").read()
    bad = text.replace('{ stage = 7, power = "CSA", actions = ["buy 1 mineral"] },',
                       '{ stage = 7, power = "CSA", actions = ["buy 1 mineral"] },\n  { stage = 7, power = "USA", actions = ["buy 1 grain"] },')
    f = tmp_path / "g.toml"
    f.write_text(bad, encoding="utf-8")
    with pytest.raises(DipsatError, match="USA did not bid on Stage 7, so it may not take part"):
        play_file(str(f))


def test_strict_game_needs_the_blank_stage_rules(tmp_path):
    """The strict preset refuses the first blank the game meets, naming it; giving it moves the
    refusal to the next blank the game needs."""
    from dipsat.variants.supremacy.game import play_file

    text = open("examples/supremacy_game.toml", encoding="utf-8").read()
    f = tmp_path / "g.toml"
    seen = []
    given = ['preset = "strict"']
    for _ in range(20):
        f.write_text(text.replace("random_seed = 2026", "\n".join(["random_seed = 2026", *given])), encoding="utf-8")
        try:
            g = play_file(str(f))
        except DipsatError as exc:
            m = re.search(r"set the rule option '(\w+)' \(values: (\w+)", str(exc))
            assert m, str(exc)
            assert m.group(1) not in seen
            seen.append(m.group(1))
            given.append(f'{m.group(1)} = "{make_options().model_dump()[m.group(1)]}"'
                         if m.group(1) != "build_costs" else "build_costs = { army = { money = 50 }, lstar = { money = 500 }, nuke = { money = 250 } }")
            continue
        break
    assert seen[:3] == ["salaries", "production", "market_adjustment"]
    assert {"tapping", "prospecting", "defender_tactics", "build_costs", "build_placement"} <= set(seen)
    assert "stage12_order" not in seen  # one player acts in Stage 1 of each turn: the order is not needed
    assert len(g.turns) == 3


def test_picture_shows_blockades_sieges_and_captured_centers():
    from dipsat.variants.supremacy.picture import draw

    state = parse_state({"blockades": [{"zone": "mexico", "by": ["USA"]}], "sieges": [{"power": "CSA", "by": ["USA"]}],
                         "captured": {"AFR": {"controller": "USA", "frozen_until": 2}},
                         "powers": {"USA": {"navies": [{"sea": "caribbean"}]}, "CSA": {"armies": {"mexico": 1}},
                                    "AFR": {}}})
    svg = draw(state, "t")
    assert 'class="blockade" data-zone="mexico"' in svg
    assert svg.count('class="siege"') == 3  # CSA's three home territories
    assert "AFR&#x27;s supply center captured: controlled by USA, frozen until turn 2" in svg


def test_state_refuses_unknown_players_in_standing_conditions():
    with pytest.raises(DipsatError, match="blockade of mexico: 'XYZ' is not a player"):
        parse_state({"blockades": [{"zone": "mexico", "by": ["XYZ"]}], "powers": {"USA": {}}})


def test_a_board_path_is_read_from_the_folder_of_the_file_that_names_it(tmp_path, monkeypatch, capsys):
    """A state's ``board`` is relative to its file, not to the current directory; a board with
    no seas needs no [seas] table."""
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "tiny.toml").write_text(
        'title = "two lands"\n[superpowers.A]\nname = "Aland"\n[superpowers.B]\nname = "Bland"\n'
        '[territories.a]\nname = "A-land"\nhome = "A"\nadjacent = ["b"]\n'
        '[territories.b]\nname = "B-land"\nhome = "B"\nadjacent = ["a"]\n', encoding="utf-8")
    state = tmp_path / "cases" / "state.toml"
    state.write_text('variant = "supremacy"\n[state]\nboard = "tiny.toml"\n'
                     '[state.powers.A]\nmoney = 700\narmies = { a = 2 }\n[state.powers.B]\narmies = { b = 1 }\n',
                     encoding="utf-8")
    case = tmp_path / "cases" / "case.toml"
    case.write_text('id = "tiny"\nvariant = "supremacy"\n[data]\nkind = "stage"\npower = "A"\nstage = 5\n'
                    'actions = ["march army a - b"]\n[data.state]\nboard = "tiny.toml"\n'
                    '[data.state.powers.A]\ngrain = 1\narmies = { a = 2 }\n[data.state.powers.B]\n'
                    '[[expect]]\nrules = ["supremacy"]\n[expect.facts]\nerror = "B-land is an empty home territory of B"\n',
                    encoding="utf-8")
    monkeypatch.chdir(tmp_path.parent)  # not the files' folder
    assert main(["wealth", str(state)]) == 0
    assert "800" in capsys.readouterr().out  # $700 million and 2 armies
    assert main(["adjudicate", str(case)]) == 2
    assert "B-land is an empty home territory of B" in capsys.readouterr().err
    assert main(["corpus", str(case)]) == 0


def test_wealth_and_odds_say_which_files_they_take(capsys):
    assert main(["wealth", "examples/supremacy_game.toml"]) == 0
    out = capsys.readouterr().out
    assert "After turn 3" in out and "USSR" in out.splitlines()[2]  # the richest first, after the game
    assert main(["wealth", "examples/multinational_game.toml"]) == 2
    assert "dipsat wealth takes Supremacy files" in capsys.readouterr().err
    assert main(["wealth", "tests/corpora/supremacy/bids_order.toml"]) == 2
    assert "holds no Supremacy state" in capsys.readouterr().err
    assert main(["odds", "tests/corpora/supremacy/loan_take.toml"]) == 2
    assert "holds no battle drill" in capsys.readouterr().err
    assert main(["odds", "tests/corpora/supremacy/assault_naval.toml"]) == 0
    assert "a navy removed takes its armies with it" in capsys.readouterr().out


@pytest.mark.parametrize("doc,message", [
    ({"expect": 1}, "expect: expected a list of expectation tables"),
    ({"expect": [1.5]}, "expect: expected a list of expectation tables"),
    ({"options": [1]}, "options: expected a table of rule options"),
    ({"data": {"kind": "bids", "bids": None}}, "data.bids: "),
    ({"data": {"kind": "stage", "power": "USA", "stage": "five", "state": {"powers": {"USA": {}}}}}, "data.stage: "),
    ({"data": {"kind": "stage", "power": "USA", "stage": 5, "actions": [3]}}, "data.actions.0: "),
    ({"data": {"kind": "drill", "state": {"powers": {"USA": {}}}}}, "data.drill: missing"),
    ({"data": {"kind": "setup", "setup": {"players": {"USA": {"companies": [1]}}}}}, "data.setup.players.USA.companies.0"),
    ({"data": {"kind": "game", "state": {"powers": {"USA": {}}}, "turns": [{"bids": None}]}}, "turns.0.bids"),
    ({"data": {"kind": "game", "state": {"powers": {"USA": {}}}, "turns": [{"plays": [{"stage": 5, "power": "USA", "actions": "x"}]}]}},
     "turns.0.plays.0.actions"),
    ({"data": {"kind": 3}}, "data.kind: "),
    ({"data": {"kind": "wealth", "state": {"powers": {"USA": {"money": "lots"}}}}}, "data.state: powers.USA.money"),
])
def test_malformed_fields_are_clear_errors(tmp_path, capsys, doc, message):
    f = tmp_path / "bad.json"
    f.write_text(json.dumps({"variant": "supremacy", **doc}), encoding="utf-8")
    assert main(["adjudicate", str(f)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and "validation error" not in err and "pydantic" not in err


def test_a_game_error_names_the_turn_once(tmp_path):
    from dipsat.variants.supremacy.game import play_file

    text = open("examples/supremacy_game.toml", encoding="utf-8").read()
    f = tmp_path / "g.toml"
    f.write_text(text.replace('{ stage = 7, power = "CSA", actions = ["buy 1 mineral"] },',
                              '{ stage = 7, power = "CSA", actions = ["buy 1 mineral"] },\n  { stage = 7, power = "USA", actions = ["buy 1 grain"] },'),
                 encoding="utf-8")
    with pytest.raises(DipsatError) as exc:
        play_file(str(f))
    assert str(exc.value).count("turn 2") == 1, str(exc.value)


def test_supremacy_fuzz_gives_no_crash():
    """A few hundred hostile Supremacy files and batch lines (the long run, 5,000 inputs and more,
    is ``python -m benchmarks.fuzz --family supremacy``)."""
    from benchmarks.fuzz import fuzz

    tally = fuzz(inputs=240, seed=11, batch_share=0.5, batch_size=120, family="supremacy")
    assert sum(tally.inputs.values()) == 240 and {"batch", "adjudicate", "play", "odds", "wealth"} <= set(tally.inputs)
    assert tally.lines_lost == 0
    assert not tally.findings, "\n".join(str(f) for f in tally.findings[:5])
    assert any(k.endswith(" 0") for k in tally.statuses) and any(k.endswith(" 2") for k in tally.statuses)


def test_the_corpus_states_each_blanks_default_and_another_value():
    """For every blank of the seed: a case whose notes discuss the option and whose source names
    the seed's heading has an expectation under the table preset's default (the option not set),
    one with the option 'unspecified' (the strict reading: refused, or not needed), and one under
    each other value where the option has one (some case)."""
    import tomllib
    from pathlib import Path

    from dipsat.variants.supremacy.options import SupremacyOptions, _values, blank_names

    cases = [tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted(Path("tests/corpora/supremacy").glob("*.toml"))]
    missing = []
    for name in blank_names():
        default = SupremacyOptions.model_fields[name].default
        others = {v for v in _values(name) if v not in ("unspecified", default)}
        told = set()
        has_default = has_unspecified = False
        for c in cases:
            if name not in c.get("notes", "") or "seed 002" not in c.get("source", ""):
                continue
            exps = c.get("expect", [])
            if any(name not in e.get("options", {}) and e.get("options", {}).get("preset") != "strict" for e in exps):
                has_default = True
                told |= {v for e in exps if isinstance(v := e.get("options", {}).get(name), str)} & others
                has_unspecified |= any(e.get("options", {}).get(name) == "unspecified"
                                       or e.get("options", {}).get("preset") == "strict" for e in exps)
        if not has_default or not has_unspecified or told != others:
            missing.append(f"{name}: default {has_default}, unspecified {has_unspecified}, others {sorted(others - told)}")
    assert not missing, "\n".join(missing)


def test_a_loans_legality_does_not_ask_how_it_taps():
    strict = make_options({"preset": "strict"})
    state = parse_state({"powers": {"USA": {"money": 100, "companies": ["usw_grain"]}}})
    assert check_stage(state, "USA", 7, ["loan 500"], strict).feasible  # legal under every reading
    with pytest.raises(BlankRule, match="'tapping'"):
        apply_actions(state, "USA", check_stage(state, "USA", 7, ["loan 500"], strict).actions, strict)


def test_play_takes_rules_and_options_for_every_family(capsys):
    assert main(["play", "examples/supremacy_game.toml", "--rules", "strict"]) == 2
    assert "set the rule option 'salaries'" in capsys.readouterr().err
    assert main(["play", "examples/supremacy_game.toml", "--option", "preset=strict", "--option", "salaries=none"]) == 2
    assert "set the rule option 'production'" in capsys.readouterr().err
    assert main(["play", "examples/supremacy_game.toml", "-q", "--option", "victory=last_standing"]) == 0
    assert "The game goes on (victory = 'last_standing')" in capsys.readouterr().out
    assert main(["play", "examples/continents_game.toml", "-q", "--option", "nope=1"]) == 2
    assert "continents rule option 'nope'" in capsys.readouterr().err
    assert main(["play", "examples/game.toml", "-q", "--rules", "1971", "--option", "convoy_paradox_rule=1982"]) == 0
    assert "Next phase" in capsys.readouterr().out


def test_adjudicate_of_a_game_case_prints_its_facts(capsys):
    assert main(["adjudicate", "tests/corpora/supremacy/victory_richest.toml", "--option", "victory=richest"]) == 0
    out = capsys.readouterr().out
    assert "Facts:" in out and '"winners": [\n' in out and '"USA"' in out
