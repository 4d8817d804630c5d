"""explore / compare / why on the DATC circular-movement and paradox cases."""

from dipsat.game.api import load_request
from dipsat.face.cli import main
from dipsat.research.research import compare, explore, why

from conftest import CORPORA

DATC = CORPORA / "datc"


def test_explore_circular_movement_has_two_readings():
    ex = explore(load_request(DATC / "6.C.01.toml"))
    assert len(ex.resolutions) == 2
    moved = sorted(all(s[d] for d in ex.differing) for s in ex.resolutions)
    assert moved == [False, True]  # all fail, or all move
    label, used, match, _ = ex.picks[0]
    assert "all moves succeed" in used and ex.resolutions[match][ex.differing[0]] is True


def test_explore_pandin_has_no_reading():
    ex = explore(load_request(DATC / "6.F.16.toml"))
    assert ex.resolutions == []
    assert "Szykman" in ex.picks[0][1]


def test_explore_simple_paradox_two_readings_rules_disagree():
    ex = explore(load_request(DATC / "6.F.14.toml"))
    assert len(ex.resolutions) == 2
    picks = {label: match for label, _, match, _ in ex.picks}
    assert picks["the rules as given"] != picks["all hold"]  # DATC 4.A.2 d: all-hold differs on 6.F.14


def test_explore_unique_turn(capsys):
    assert main(["explore", str(CORPORA.parent.parent / "examples" / "spring1901.toml")]) == 0
    out = capsys.readouterr().out
    assert "Consistent resolutions before any backup rule: 1" in out


def test_compare_lists_edition_differences():
    diffs, errors, n = compare([str(DATC / "6.F.17.toml"), str(DATC / "6.C.01.toml")], ["datc", "2000"])
    assert not errors and n == 2
    by = {d.order: d.results for d in diffs}
    assert by["France: A Brest - London"] == {"datc": "no_path", "2000": "moved"}
    assert all(d.case == "6.F.17" for d in diffs)


def test_why_names_orders_and_options():
    ans = why(load_request(DATC / "6.F.14.toml"), "F Wales - English Channel")
    assert ans.outcome == "moved"
    assert ans.backup and "Szykman" in ans.backup
    assert any("F London Supports F Wales - English Channel" in o for o, _ in ans.orders)
    assert any(f == "convoy_paradox_rule" and v == "all_hold" for f, _, v, _ in ans.options)


def test_why_core_names_the_deciding_support():
    # 6.D.2: a move cuts a support on hold, so the supported unit is dislodged
    req = load_request(DATC / "6.D.02.toml")
    target = next(t for ts in req.orders.values() for t in ts if "Hold" in t or "Supports" not in t and "-" not in t)
    ans = why(req, target)
    assert ans.outcome == "dislodged"
    assert ans.orders, "the dislodgement hinges on other orders"


def test_research_commands_work_on_the_variants(capsys):
    for path, order in ((CORPORA / "multiplomacy" / "m6_iii.toml", "2 A Mun stands"),
                        (CORPORA / "multinational" / "mn_e.toml", "M Sas – Alb")):
        assert main(["explore", str(path)]) == 0
        assert main(["why", str(path), "--order", order]) == 0
    out = capsys.readouterr().out
    assert "displaced by 2 A Swi-Mun sup by 1 A Swi" in out and "Revised attacking strength: 3 (3 Sas)" in out


def test_why_acyclic_move_hinges_on_the_hold_support():
    # 6.D.1 (regression): the move bounces because Tyrolia's support of the hold is given; the
    # core once kept every equation, so nothing could flip and it said "the board alone"
    ans = why(load_request(DATC / "6.D.01.toml"), "A Trieste - Venice")
    assert ans.outcome == "bounced"
    assert ans.forced_by == ["A Tyrolia Supports A Venice: support given"]


def test_why_board_alone_when_the_rule_itself_decides():
    # a move into an empty province nobody else enters: its own rule forces it
    req = load_request(CORPORA.parent.parent / "examples" / "spring1901.toml")
    ans = why(req, "F Lon - Nth")
    assert ans.forced_by == []


def test_why_looks_through_a_decision_defined_as_another(tmp_path):
    """A Multiplicity move is its force's entry (one decision defined as another): 'why' explains
    what forces the entry instead of naming the move's own force as its cause."""
    f = tmp_path / "ring.toml"
    f.write_text('variant = "multiplicity"\n[units]\nFrance = ["A Par", "A Bur", "A Pic"]\n'
                 'Germany = ["A Ruh", "A Bel"]\n[orders]\nFrance = ["A(Par)-Bur", "A(Bur)-Pic", "A(Pic)-Par"]\n'
                 'Germany = ["A(Ruh)-Bur", "A(Bel) S A(Ruh)-Bur"]\n')
    ans = why(load_request(f), "A(Bur)-Pic")
    assert ans.outcome == "moved" and ans.forced_by == [] and ans.orders == []  # merging into its own unit
    ans = why(load_request(f), "A(Ruh)-Bur")
    assert ans.outcome == "moved"
    assert not any("force" in x and "A(Ruh)-Bur" in x for x in ans.forced_by), ans.forced_by
    assert any("A(Bel) S A(Ruh)-Bur" in x for x in ans.forced_by), ans.forced_by
