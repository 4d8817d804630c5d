"""One pipeline: the commands adjudicate a turn through the same stages, with the same result."""

from dipsat.game.api import TurnRequest, adjudicate, result_to_json
from dipsat.game.game import Game
from dipsat.game.pipeline import Pipeline

REQ = TurnRequest(units={"France": ["A Par", "A Mar", "F Bre"], "Germany": ["A Mun", "A Ruh"]},
                  orders={"France": ["A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao"],
                          "Germany": ["A Mun - Bur", "A Ruh S A Mun - Bur"]},
                  year=1901, season="spring")


def test_the_stages_give_what_adjudicate_gives():
    pipe = Pipeline.for_request(REQ)
    turn = pipe.prepare(REQ)
    enc = pipe.encode(pipe.bind(turn.position, turn.orders))
    direct = pipe.explain(enc, pipe.solve(enc))
    cpsat = pipe.explain(enc, pipe.solve(enc, "cpsat"))
    api = adjudicate(REQ)
    assert result_to_json(direct) == result_to_json(cpsat) == result_to_json(api)
    assert direct.rules == api.rules == pipe.rules
    assert len(pipe.enumerate(enc)) == 1  # an acyclic turn has exactly one reading


def test_other_rules_on_the_same_bound_orders():
    pipe = Pipeline.for_request(REQ)
    other = pipe.with_rules(pipe.rules.with_(name="other"))
    assert other.variant is pipe.variant and other.rules.name == "other"


def test_game_phase_is_the_pipeline_phase():
    game = Game("standard", start=None)
    orders = {"France": ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"]}
    rec = game.step(orders)
    pipe = Pipeline(game.variant, game.rules)
    res = pipe.movement(game.history[0].result.position, orders)
    assert result_to_json(res) == result_to_json(rec.result)
    assert rec.result.rules == game.rules
