"""Supremacy's inputs shared by its cases and its games: a data file and its rule options, a
battle drill (an assault, a nuclear strike, a clash) read and run, and validation errors as one
line naming the field."""

from __future__ import annotations

from typing import Any, Optional, Union

from pydantic import TypeAdapter, ValidationError

from dipsat.errors import DipsatError

from .dice import Dice
from .drills import Assault, assault
from .options import SupremacyOptions
from .state import State
from .strikes import Clash, NuclearStrike, clash, nuclear

DrillInput = Union[Assault, NuclearStrike, Clash]
_DRILL = TypeAdapter(DrillInput)


def _shown(x: object) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def invalid(exc: ValidationError, where: str) -> DipsatError:
    """A validation error as the usual one-line error: the first faulty field, its place and what
    it was (never pydantic's own text)."""
    e = exc.errors()[0]
    loc = ".".join(str(x) for x in e["loc"])
    return DipsatError(f"{where}{'.' + loc if loc else ''}: {e['msg'].lower()} (got {_shown(e.get('input'))})")


def parse_drill(data: object) -> DrillInput:
    if isinstance(data, dict) and "drill" not in data:
        data = {**data, "drill": "assault"}
    try:
        return _DRILL.validate_python(data)
    except ValidationError as exc:
        e = exc.errors()[0]
        raise DipsatError(f"drill: {'.'.join(str(x) for x in e['loc'])}: {e['msg']}") from None


def run_drill(state: State, drill: DrillInput, opts: SupremacyOptions, dice: Dice) -> dict[str, Any]:
    if isinstance(drill, Assault):
        res = assault(state, drill, opts, dice)
        return {**res.facts(), "dice_reasons": res.plan.dice_reasons}
    if isinstance(drill, NuclearStrike):
        nukes = nuclear(state, drill, opts, dice)
        return {"nukes": [{"number": k.number, "owner": k.owner, "target": k.target, "rolls": k.rolls,
                           "fate": k.fate, "result": k.result} for k in nukes],
                "struck": sum(1 for k in nukes if k.result == "strikes")}
    duels = clash(state, drill, dice)
    return {"duels": [{"group": d.group, "target": d.target, "rolls": [d.attacker_roll, d.defender_roll],
                       "result": d.result} for d in duels]}


def load_data_file(path: str) -> dict[str, Any]:
    from dipsat.game.request import read_data_file

    data = read_data_file(path)
    if not isinstance(data, dict):
        raise DipsatError(f"{path}: expected a table")
    return data


def file_options(doc: dict[str, Any], extra: Optional[list[str]] = None) -> dict[str, Any]:
    """A file's rule options: its ``[options]``, over a corpus case's first expectation's, under
    ``--option NAME=VALUE`` items; each place checked to be a table."""
    own = doc.get("options", {})
    if not isinstance(own, dict):
        raise DipsatError(f"options: expected a table of rule options, got {_shown(own)}")
    opts = dict(own)
    expect = doc.get("expect")
    if expect is not None and expect != []:
        if not isinstance(expect, list) or not isinstance(expect[0], dict):
            raise DipsatError(f"expect: expected a list of expectation tables ([[expect]]), got {_shown(expect)}")
        first = expect[0].get("options", {})
        if not isinstance(first, dict):
            raise DipsatError(f"expect.0.options: expected a table of rule options, got {_shown(first)}")
        opts = {**first, **opts}
    for item in extra or []:
        k, sep, v = item.partition("=")
        if not sep:
            raise DipsatError(f"--option {item!r}: expected NAME=VALUE")
        import json

        try:
            opts[k.strip()] = json.loads(v)
        except ValueError:
            opts[k.strip()] = v.strip()
    return opts
