"""Corpus cases of kind 'game': a whole continents game from the continent draw, so that the
rules acting before the first round (``draw``, ``placement``, ``placement_clash``) can be
stated by a case.

``[data]`` holds a saved game's fields (:class:`.game.SavedGame`: ``players``,
``units_to_place``, ``phases``, ``map``; the options come from each expectation).  An
expectation states ``facts``: dotted paths into the game's data as ``dipsat play --json`` prints
it (``continents.Amber``, ``phases.1.units``, ``winners``), or ``error``: a text the error must
contain; ``winners`` and ``units_after`` (the position at the end) may be given too.
"""

from __future__ import annotations

from typing import Any, Optional

from dipsat.corpus import CorpusCase, Expectation, check_facts
from dipsat.errors import DipsatError, InputFileError

from .board import parse_units
from .game import SavedGame, game_json, load_game, replay
from .requests import case_data
from .rules import ContinentsRules, continents_preset

GAME_FIELDS = {"map", "players", "units_to_place", "phases"}


def game_of(data: Any, where: str, options: Optional[dict[str, Any]] = None) -> SavedGame:
    """The saved game of a case file's data (or of a case's ``[data]``)."""
    inner = case_data(data) if isinstance(data, dict) and "expect" in data else data
    if not isinstance(inner, dict):
        raise InputFileError(f"{where}: data: expected a table")
    bad = sorted(set(inner) - GAME_FIELDS - {"kind"})
    if bad:
        raise InputFileError(f"{where}: data: unknown field(s) {', '.join(bad)} (a game case gives "
                             f"{', '.join(sorted(GAME_FIELDS))})")
    fields = {k: v for k, v in inner.items() if k in GAME_FIELDS}
    return load_game({**fields, "options": dict(options or {})}, f"{where}: data")


def run_game_case(data: Any, where: str, opts: ContinentsRules) -> dict[str, Any]:
    """Play the case's game under ``opts``: its data (errors raise)."""
    return game_json(replay(game_of(data, where), where, rules_value=opts))


def check_game_case(case: CorpusCase, preset: Optional[str], exp: Expectation, path: str) -> list[str]:
    """Play a case of kind 'game' under the expectation's options; the differences."""
    if case.units or case.orders:
        return ["a game case has no [units] or [orders]: its phases are in [data]"]
    if exp.orders or exp.reasons or exp.readings is not None or exp.backup is not None:
        return ["a game case states facts, winners and units_after (not orders, reasons, readings, backup)"]
    played: list[Any] = []

    def play() -> dict[str, Any]:
        played.append(replay(game_of(case.data, path), path, rules_value=continents_preset(preset, **exp.options)))
        return game_json(played[0])

    problems = check_facts(play, dict(exp.facts), ran="the game was played")
    if not played or "error" in exp.facts:
        return problems
    game = played[0]
    if exp.winners is not None and sorted(exp.winners) != game.winners:
        problems.append(f"winners: expected {sorted(exp.winners)}, got {game.winners}")
    if exp.units_after is not None:
        try:
            want_board = parse_units(game.cmap, exp.units_after, "units_after")
        except DipsatError as exc:
            return problems + [f"units_after: {exc}"]
        if want_board.holdings != game.board.holdings:
            problems.append(f"units_after: expected {want_board.as_units(game.cmap)}, got {game.board.as_units(game.cmap)}")
    return problems
