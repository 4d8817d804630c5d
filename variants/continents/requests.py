"""Requests of the continents variant: one round (``dipsat adjudicate``, ``batch``, corpus
cases, research commands), read from a dict with errors that name the field and the text."""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dipsat.errors import InputFileError, InvalidRequest
from dipsat.io.files import BUNDLED_NAME, FileAccess, current_access, read_named
from dipsat.maps import MAP_DIR, MapError
from dipsat.maps.continental import FORMAT, ContinentalMap, build_continental_map

from .board import Board, parse_units
from .round import RoundResult, adjudicate_round
from .rules import ContinentsRules, continents_preset

DEFAULT_MAP = "continents_demo"


class RoundRequest(BaseModel):
    """A position (units per player) and the order lists of one round."""

    model_config = ConfigDict(extra="forbid")

    variant: str = "continents"
    map: str = Field(default=DEFAULT_MAP, description="a map of maps/ by name, or a file's path: beside the request "
                     "file, or in a folder allowed with --allow-files")
    rules: Optional[str] = Field(default=None, description="'continents' (default) or OPTION=VALUE[,OPTION=VALUE]")
    options: dict[str, Any] = Field(default_factory=dict)
    round: Optional[int] = None
    create: bool = Field(default=True, description="create units in free cities at the start of the round (the seed's order)")
    units: dict[str, list[str]] = Field(default_factory=dict, description="per player: ['4 Yug', '2 Tar']")
    orders: dict[str, list[str]] = Field(default_factory=dict, description="per player: the order list, first = highest priority")


def describe_validation(exc: ValidationError) -> str:
    parts = []
    for e in exc.errors():
        loc = ".".join(str(x) for x in e["loc"]) or "(top level)"
        parts.append(f"field {loc}: {e['msg']}")
    return "; ".join(parts)


CASE_FIELDS = {"variant", "map", "units", "orders"}


def case_data(data: Any) -> dict[str, Any]:
    """A corpus case's own ``[data]`` table ({} for a request or a case without one)."""
    table = data.get("data") if isinstance(data, dict) and "expect" in data else None
    return table if isinstance(table, dict) else {}


def is_game_case(data: Any) -> bool:
    """A corpus case of kind 'game': a whole game from the continent draw (``[data]`` holds the
    saved game's fields: players, units_to_place, phases, map)."""
    return case_data(data).get("kind") == "game"


def read_request(data: Any, where: str) -> RoundRequest:
    if not isinstance(data, dict):
        raise InputFileError(f"{where}: expected a table of fields, got {type(data).__name__}")
    if is_game_case(data):
        raise InputFileError(f"{where}: a corpus case of kind 'game' is a whole game, not one round "
                             "(run it with dipsat corpus or dipsat readings)")
    if "expect" in data:  # a corpus case: its position and orders (and its own map, in [data])
        extra = case_data(data)
        bad = sorted(set(extra) - {"map", "create"})
        if bad:
            raise InputFileError(f"{where}: data: unknown field(s) {', '.join(bad)} (a round case may give "
                                 "data.map and data.create; data.kind = 'game' plays a whole game)")
        data = {k: v for k, v in data.items() if k in CASE_FIELDS}
        for key in ("map", "create"):
            if key in extra:
                data[key] = extra[key]
    try:
        return RoundRequest.model_validate(data)
    except ValidationError as exc:
        raise InvalidRequest(f"{where}: {describe_validation(exc)}") from None


def get_map(name: str, where: str = "") -> ContinentalMap:
    """The continental map a request names: a map of ``maps/`` by name, or a file by the rules of
    :mod:`dipsat.io.files` (a path beside the request file, or in a folder allowed with
    ``--allow-files``; never the current directory).  ``where`` names the request in errors."""
    return _map_named(name, current_access())


@lru_cache(maxsize=16)
def _map_named(name: str, access: FileAccess) -> ContinentalMap:
    found = read_named(name, "map", bundled_maps())
    try:
        raw = tomllib.loads(found.text)
    except tomllib.TOMLDecodeError as exc:
        raise InputFileError(f"map {name!r}: not valid TOML: {exc}") from None
    try:
        return build_continental_map(raw, str(found.path) if BUNDLED_NAME.fullmatch(name) else name)
    except MapError as exc:
        raise InputFileError(f"map {name!r}: {exc}") from None


@lru_cache(maxsize=1)
def bundled_maps() -> dict[str, Path]:
    """The continental maps shipped in ``maps/``: its files that say ``format = "continents"``."""
    line = re.compile(rf'^format\s*=\s*"{FORMAT}"\s*$', re.M)
    return {p.stem: p for p in sorted(MAP_DIR.glob("*.toml")) if line.search(p.read_text(encoding="utf-8"))}


def rules_of(req: RoundRequest, rules: Optional[str] = None, options: tuple[str, ...] = ()) -> ContinentsRules:
    overrides: dict[str, Any] = dict(req.options)
    for item in options:
        key, sep, value = item.partition("=")
        if not sep:
            raise InputFileError(f"rule option {item!r}: expected NAME=VALUE")
        overrides[key.strip().replace("-", "_")] = value.strip()
    return continents_preset(rules or req.rules, **overrides)


def position_of(req: RoundRequest, cmap: ContinentalMap) -> Board:
    return parse_units(cmap, req.units)


def run_request(req: RoundRequest, where: str = "", rules: Optional[str] = None, options: tuple[str, ...] = (),
                rules_value: Optional[ContinentsRules] = None) -> RoundResult:
    cmap = get_map(req.map, where)
    opts = rules_value or rules_of(req, rules, options)
    board = position_of(req, cmap)
    return adjudicate_round(cmap, board, req.orders, opts, create=req.create, round_no=req.round)
