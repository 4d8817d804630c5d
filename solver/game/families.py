"""Every family through one look-up: a variant's protocol object by its record or its name (a
Diplomacy board's :class:`~dipsat.game.board_game.BoardGame`, another family's own game), and
the variant a file names."""

from __future__ import annotations

from typing import Any, Optional

from dipsat.errors import DipsatError
from dipsat.game.board_game import BoardGame
from dipsat.game.protocol import GameProtocol, GameRecord
from dipsat.game.registry import find_record
from dipsat.game.variant import Variant


def game_of(record: Variant | GameRecord) -> GameProtocol:
    """The protocol object of a variant record."""
    if isinstance(record, GameRecord):
        return record.game()
    return BoardGame(record)


def find_game(name: Optional[str] = None) -> GameProtocol:
    """The family of the variant called ``name`` (default: standard), as its protocol object (a
    board's :class:`BoardGame` made once per record: it holds nothing but the record)."""
    record = find_record(name)
    if isinstance(record, GameRecord):
        return record.game()
    game = _BOARDS.get(id(record))
    if game is None or game.variant is not record:
        if len(_BOARDS) > 64:
            _BOARDS.clear()
        game = _BOARDS[id(record)] = BoardGame(record)
    return game


_BOARDS: dict[int, BoardGame] = {}  # id of a board's record -> its game (checked to be that record's)


def variant_of(data: Any, override: Optional[str] = None) -> str:
    """The variant a file's data names (``override``: the command line's ``--variant``)."""
    if override:
        return override
    name = data.get("variant") if isinstance(data, dict) else None
    if name is not None and not isinstance(name, str):
        raise DipsatError(f"field variant: expected a variant's name, got {type(name).__name__}")
    return name or "standard"
