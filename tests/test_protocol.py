"""One game protocol below the command line (dipsat.game.protocol): every family — the Diplomacy boards,
continents, Supremacy — is read, adjudicated, researched and drawn through the same protocol, and
every command is one code path for all of them, with the same limits, errors and --json."""

import importlib.util
import json

import pytest

from dipsat.face.cli import main
from dipsat.game.families import find_game, game_of
from dipsat.game.protocol import GameProtocol, GameRecord, PhaseResult
from dipsat.io.schemas import BatchLineJSON, PlayJSON, TurnResultJSON

from conftest import CORPORA, ROOT

# one phase of each family: a DATC case, a continents round on a map of its own, a Supremacy stage
PHASES = {
    "standard": CORPORA / "datc" / "6.A.03.toml",
    "continents": CORPORA / "continents" / "rule_36_victory_tie.toml",
    "supremacy": CORPORA / "supremacy" / "budget_oil.toml",
}
GAMES = {"standard": ROOT / "examples" / "game.toml", "continents": ROOT / "examples" / "continents_game.toml",
         "supremacy": ROOT / "examples" / "supremacy_game.toml"}
ONE_FILE = ("adjudicate", "explore", "why", "readings", "render")


def test_family_is_gone_and_no_command_shaped_hook_is_left():
    assert importlib.util.find_spec("dipsat.family") is None
    from dipsat.game.variant import Variant
    from dipsat.variants import VARIANTS

    for hook in ("family", "render_file", "reading_options"):
        assert hook not in Variant.__dataclass_fields__, hook
    for record in VARIANTS:
        assert isinstance(game_of(record), GameProtocol), record.name
        if isinstance(record, GameRecord):  # none of a Diplomacy board's hooks
            for board_field in ("map_name", "notation_class", "binder_class", "calendar", "options_model"):
                assert not hasattr(record, board_field), (record.name, board_field)
    kinds = {type(r).__name__ for r in VARIANTS}
    assert kinds == {"Variant", "GameRecord"}


@pytest.mark.parametrize("family", sorted(PHASES))
def test_every_family_adjudicates_into_a_typed_phase_result(family):
    game = find_game(family)
    from dipsat.game.api import read_data_file
    from dipsat.limits import DEFAULT_LIMITS

    data = read_data_file(PHASES[family])
    req = game.read(data, str(PHASES[family]), DEFAULT_LIMITS)
    res = game.adjudicate(req, game.options(req))
    assert isinstance(res, PhaseResult) and res.variant == family and res.outcomes
    for o in res.outcomes:
        assert o.kind and o.result and isinstance(o.succeeded, bool) and o.reason
        assert o.details is not None
    TurnResultJSON.model_validate(res.to_json())


def test_typed_outcomes_name_their_culprits():
    """A Supremacy stage's conflicting actions name each other; a continents battle names the
    other sides; the words are rendered from those values."""
    from dipsat.game.api import read_data_file
    from dipsat.limits import DEFAULT_LIMITS

    game = find_game("supremacy")
    req = game.read(read_data_file(PHASES["supremacy"]), "budget_oil", DEFAULT_LIMITS)
    res = game.adjudicate(req, game.options(req))
    airlift = res.outcome("airlift army us_west - us_east")
    assert (airlift.result, airlift.succeeded) == ("conflict", False)
    assert [c.order for c in airlift.culprits] == ["sail navy gulf_of_alaska - east_pacific"]
    assert airlift.details["quantities"] == ["USA Oil"] and "USA Oil" in airlift.reason
    assert any(b.startswith("USA Oil: starts at 2") for b in airlift.details["bounds"])
    assert res.outcome("march army us_west - canada").result == "not_carried_out"

    game = find_game("continents")
    req = game.read(read_data_file(CORPORA / "continents" / "rule_01_equal_forces.toml"), "r1", DEFAULT_LIMITS)
    res = game.adjudicate(req, game.options(req))
    fought = [o for o in res.outcomes if o.culprits]
    assert fought and all(c.power != o.power for o in fought for c in o.culprits)


@pytest.mark.parametrize("family", sorted(PHASES))
@pytest.mark.parametrize("command", ONE_FILE)
@pytest.mark.parametrize("limit", [["--max-orders", "1"], ["--time-limit", "0.000001"]])
def test_every_command_keeps_the_limits_on_every_family(command, family, limit, capsys):
    assert main([command, str(PHASES[family]), *limit]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dipsat: error: ")
    assert ("the limit is 1" if limit[0] == "--max-orders" else "time limit of 1e-06 s") in err, err


@pytest.mark.parametrize("family", sorted(GAMES))
def test_play_keeps_the_limits_and_prints_the_published_json_on_every_family(family, capsys):
    assert main(["play", str(GAMES[family]), "--max-orders", "1"]) == 2
    assert "the limit is 1" in capsys.readouterr().err
    assert main(["play", str(GAMES[family]), "--time-limit", "0.000001"]) == 2
    assert "time limit of 1e-06 s" in capsys.readouterr().err
    assert main(["play", "--json", str(GAMES[family])]) == 0
    out = PlayJSON.model_validate_json(capsys.readouterr().out)
    assert out.phases and all(p.phase for p in out.phases)


@pytest.mark.parametrize("family", sorted(PHASES))
def test_adjudicate_json_of_every_family_matches_the_published_schema(family, capsys):
    assert main(["adjudicate", "--json", str(PHASES[family])]) == 0
    out = json.loads(capsys.readouterr().out)
    schema = json.loads((ROOT / "docs" / "schemas" / "result.schema.json").read_text())
    assert schema == TurnResultJSON.model_json_schema()  # the published schema is the model's
    TurnResultJSON.model_validate(out)
    assert out["variant"] == family and out["phase"] and out["rules"]


def test_batch_answers_every_family_through_one_path_with_the_same_error_kinds(tmp_path):
    from dipsat.io.batch import BatchSettings, answer_line
    from dipsat.limits import Limits
    from dipsat.game.api import read_data_file

    lines = []
    for family, path in sorted(PHASES.items()):
        data = read_data_file(path)
        data = {k: v for k, v in data.items() if k not in ("expect", "id", "title", "notes", "source", "url")}
        data["variant"] = family
        if family == "continents":  # a round request names its map itself
            data["map"] = data.pop("data")["map"]
        lines.append(json.dumps(data))
    for i, line in enumerate(lines, 1):
        ok = BatchLineJSON.model_validate(answer_line(line, i)).root
        assert ok.ok, ok
        small = answer_line(line, i, BatchSettings(limits=Limits(max_orders=1)))
        assert small["error"]["kind"] == "too_large", small
        slow = answer_line(line, i, BatchSettings(limits=Limits(turn_time_limit=0.000001)))
        assert slow["error"]["kind"] == "timeout", slow


def test_a_timeout_while_the_variant_is_looked_up_is_the_lines_timeout(monkeypatch):
    """The look-up is not swallowed: a time-out there is the line's error, not a line answered
    by another parser."""
    import dipsat.game.families
    from dipsat.io.batch import answer_line
    from dipsat.limits import TurnTimeout

    def slow(name=None):
        raise TurnTimeout("the turn took more than its time limit of 1 s")

    monkeypatch.setattr(dipsat.game.families, "find_record", slow)
    out = answer_line(json.dumps({"variant": "continents", "units": {"A": ["2 Yug"]}}), 1)
    assert out["error"]["kind"] == "timeout", out
    bad = answer_line(json.dumps({"variant": "atlantis"}), 2)
    monkeypatch.undo()
    bad = answer_line(json.dumps({"variant": "atlantis"}), 2)
    assert bad["error"]["kind"] == "UnknownVariant", bad


def test_compare_runs_a_case_with_its_own_map_and_a_game_case(capsys):
    """compare reads a continents case with its own map (no 'unknown country'), plays a game case
    (not an empty round), and reports the cases that differ."""
    files = [str(CORPORA / "continents" / "rule_36_victory_tie.toml"), str(CORPORA / "continents" / "game_02_draw.toml")]
    assert main(["compare", *files, "-q"]) == 0
    out = capsys.readouterr().out
    assert "unknown country" not in out and "error" not in out.split("\n", 1)[0]
    assert "2 cases under continents" in out and "2 cases differ" in out
    assert "victory_ties=none: round" in out  # under 'none' nobody has won: the game goes on
    assert "draw=with_replacement: none" in out  # the draw fails under 'distinct' only


def test_readings_of_a_case_with_its_own_map_and_of_a_game_case(capsys):
    assert main(["readings", str(CORPORA / "continents" / "rule_36_victory_tie.toml")]) == 0
    out = capsys.readouterr().out
    assert "unknown country" not in out and "details.winners" in out and "victory_ties = none" in out
    assert main(["readings", str(CORPORA / "continents" / "game_02_draw.toml")]) == 0
    out = capsys.readouterr().out
    assert "draw = with_replacement" in out and "6 players but 5 continents" in out


def test_coverage_of_a_case_with_its_own_map_and_a_game_case(capsys):
    files = [str(CORPORA / "continents" / "rule_36_victory_tie.toml"), str(CORPORA / "continents" / "game_02_draw.toml")]
    assert main(["coverage", *files, "-q"]) == 0
    out = capsys.readouterr().out
    assert "victory_ties: shared | none: continents.rule.36" in out
    assert "draw: distinct | with_replacement: continents.game.2" in out


@pytest.mark.parametrize("family", sorted(PHASES))
def test_why_and_explore_answer_every_family(family, capsys):
    assert main(["why", str(PHASES[family])]) == 0
    assert capsys.readouterr().out.strip()
    assert main(["explore", str(PHASES[family])]) == 0
    assert capsys.readouterr().out.strip()


def test_supremacy_subcommands_are_a_records_own_tools(capsys):
    from dipsat.variants import find_record

    assert [c.name for c in find_record("supremacy").commands()] == ["odds", "wealth"]
    assert main(["wealth", str(CORPORA / "supremacy" / "budget_oil.toml")]) == 0


def test_a_board_only_look_up_names_the_family():
    from dipsat.errors import DipsatError
    from dipsat.variants import find_variant

    with pytest.raises(DipsatError, match="continents variant is a game of its own family"):
        find_variant("continents")


def test_check_facts_compares_paths_and_errors():
    """The core's check of a family's ``facts`` expectations: dotted paths into a result's
    details (list items by index), a missing path, and an expected or unexpected error."""
    from dipsat.io.corpus import check_facts
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


def test_continents_outcomes_are_typed_and_their_words_rendered_from_the_values():
    """A continents outcome stores values (its kind, the battle, losses, survivors), not prose:
    its reason is rendered from them, so changing a value changes the words."""
    from dipsat.variants.continents.outcomes import Foe, OrderOutcome

    assert "reason" not in OrderOutcome.model_fields  # computed, not stored
    o = OrderOutcome(player="A", text="A 4 Yug-Dis", result="won", kind="move", origin="Yug", target="Dis",
                     node="dis", asked=4, sent=4, arrived=4, battle=True, foes=(Foe(player="B", force=3),),
                     winner="A", holder="A", lost_in_battle=3, survivors=1)
    assert o.reason == "sent 4 from Yug; battle at Dis against B 3: lost 3; 1 survives and holds Dis"
    lost = o.model_copy(update={"result": "lost", "winner": "B", "holder": None, "survivors": 0})
    assert lost.reason.endswith("B's side wins, but none of B's own units is left: Dis is empty")
    assert o.model_dump()["reason"] == o.reason  # the JSON carries the words too
    game = find_game("continents")
    from dipsat.game.api import read_data_file
    from dipsat.limits import DEFAULT_LIMITS

    path = CORPORA / "continents" / "seed_01_four_way_battle.toml"
    req = game.read(read_data_file(path), str(path), DEFAULT_LIMITS)
    won = game.adjudicate(req, game.options(req)).outcome("A 4 Yug-Dis")
    assert (won.kind, won.result, won.details["lost_in_battle"], won.details["survivors"]) == ("move", "won", 3, 1)
    assert {c.power for c in won.culprits} == {"B", "C", "D"}


@pytest.mark.parametrize("family", sorted(PHASES))
@pytest.mark.parametrize("command", ["corpus", "compare", "coverage"])
@pytest.mark.parametrize("limit", [["--max-orders", "1"], ["--time-limit", "0.000001"]])
def test_the_corpus_commands_keep_the_limits_per_case_on_every_family(command, family, limit, capsys):
    """A command over many cases keeps the same limits per case: a case beyond them is that case's
    error (status 1: the other cases are still answered), with the same words as everywhere."""
    assert main([command, str(PHASES[family]), "-q", *limit]) == 1
    out = capsys.readouterr().out
    assert ("the limit is 1" if limit[0] == "--max-orders" else "time limit of 1e-06 s") in out, out
