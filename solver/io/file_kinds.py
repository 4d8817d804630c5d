"""What kind of file a command was given, told from its top-level fields, so that a command
given the wrong kind says so — "examples/spring1901.toml is a turn (a position and its orders),
not a saved game: try dipsat adjudicate examples/spring1901.toml" — instead of listing the fields
its schema does not expect.

    >>> file_kind({"units": {}, "orders": {}}).name
    'a turn (a position and its orders)'
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Optional

from dipsat.errors import InputFileError
from dipsat.records import dataclass


@dataclass(frozen=True)
class FileKind:
    name: str  # "a saved game", as a sentence says it
    command: str  # the command that takes it: "play", "play --from mila", "corpus", "adjudicate"
    commands: frozenset[str]  # every command that reads this kind


_MILA = FileKind("a game saved by MILA's diplomacy package", "play --from mila", frozenset())
_GAME = FileKind("a saved game", "play", frozenset({"play", "render"}))
_CASES = FileKind("a file of test cases in the Rust diplomacy crate's schema", "corpus", frozenset({"corpus"}))
_CASE = FileKind("a corpus case", "corpus",
                 frozenset({"corpus", "adjudicate", "explore", "why", "readings", "render", "orders"}))
_TURN = FileKind("a turn (a position and its orders)", "adjudicate",
                 frozenset({"adjudicate", "explore", "why", "readings", "render", "orders"}))

# what each command expects, as its error says it
EXPECTED = {"play": "a dipsat saved game", "adjudicate": "a turn", "explore": "a turn", "why": "a turn",
            "readings": "a turn", "render": "a turn or a saved game", "corpus": "a corpus case", "orders": "a turn"}


def file_kind(data: Any) -> Optional[FileKind]:
    """The kind of a file's data, when its top-level fields tell it; None when they do not."""
    if not isinstance(data, dict):
        return None
    phases = data.get("phases")
    if isinstance(phases, list):
        first = phases[0] if phases else None
        if isinstance(first, dict) and "state" in first and "name" in first:
            return _MILA
        return _GAME
    if isinstance(data.get("turns"), list) or "setup" in data:
        return _GAME
    if isinstance(data.get("cases"), list):
        return _CASES
    if "expect" in data:
        return _CASE
    if "units" in data or "orders" in data:
        return _TURN
    return None


def wrong_kind(command: str, where: str, data: Any) -> Optional[str]:
    """The message for ``command`` given ``data`` of a kind it does not take, else None."""
    kind = file_kind(data)
    if kind is None or command not in EXPECTED or command in kind.commands:
        return None
    return f"{where} is {kind.name}, not {EXPECTED[command]}: try dipsat {kind.command} {where}"


@contextmanager
def reading(command: str, where: str, data: Any) -> Iterator[None]:
    """Turn an error about the fields of a file of another kind into one naming the kind (and
    the command that takes it); every other error goes on as it is."""
    try:
        yield
    except InputFileError as exc:
        said = wrong_kind(command, where, data)
        if said is None:
            raise
        raise InputFileError(said) from exc
