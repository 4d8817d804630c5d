"""A turn request: the position and orders of one phase of a Diplomacy board, as read from a
file, a batch line or a Python dict, and the board's position built from it in a variant's terms.

A *turn request* is::

    {"variant": "standard", "rules": "datc", "options": {"convoy_paradox_rule": "1982"},
     "year": 1901, "season": "spring",
     "units":  {"England": ["F London", "F Edinburgh", "A Liverpool"], ...},
     "orders": {"England": ["F London - North Sea", ...], ...}}

``units`` holds every unit on the board in order notation ("F Spain(nc)", "A Par"); ``orders``
the orders as written.  Units without an order hold.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Sequence, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from dipsat.errors import InputFileError
from dipsat.limits import DEFAULT_LIMITS, LimitExceeded, Limits, check_request_size, parse_data

if TYPE_CHECKING:  # (defined in dipsat.game.saved: a request does not make them; see __getattr__)
    from dipsat.game.saved import PhaseOrders as PhaseOrders, SavedGame as SavedGame, StartSpec as StartSpec

# a phase label, as games and ``play`` write it: season letter, year, phase letter ("F1901M")
_LABEL = re.compile(r"^([SFWA])(\d{1,4})([MRAP])$", re.I)
_LABEL_SEASONS = {"S": "spring", "F": "fall", "A": "fall", "W": "winter"}
_LABEL_PHASES = {"M": "movement", "R": "retreat", "A": "adjustment", "P": "placement"}

# the other names a season goes by ("autumn" for a calendar's "fall", and back)
SEASON_NAMES = {"autumn": "fall", "fall": "autumn"}


def season_word(text: str, seasons: Sequence[str]) -> str:
    """A season as written (any case; "autumn" for "fall"), as the calendar names it (the text
    unchanged when it names none of ``seasons``).

        >>> season_word(" Autumn", ("spring", "fall", "winter"))
        'fall'
    """
    word = text.strip().lower()
    if word not in seasons and SEASON_NAMES.get(word) in seasons:
        return SEASON_NAMES[word]
    return word if word in seasons else text


def same_phase_label(written: str, label: str) -> bool:
    """Does a phase label as written (any case; ``A`` for autumn: ``A1901M``) name the phase a
    calendar labels ``label`` (``F1901M``)?"""
    w, lab = written.strip().upper(), label.upper()
    if w == lab:
        return True
    return _LABEL.match(w) is not None and w[0] == "A" and lab[0] == "F" and w[1:] == lab[1:]


class TurnRequest(BaseModel):
    """One phase to adjudicate, as a turn file, a batch line or a dict gives it: ``variant``
    (default ``standard``), ``rules`` (a preset; default the variant's), ``options`` (rule
    options by name), ``year`` and ``season``, ``phase`` (``movement``, ``retreat``,
    ``adjustment``, ``placement``), ``units`` and ``orders`` per power (every unit on the board;
    a unit without an order holds), ``owners`` (the centres each power owns) and, in a retreat
    phase, ``retreat_orders`` after the movement ``orders``.  Unknown fields are refused.

        >>> from dipsat import TurnRequest, adjudicate
        >>> req = TurnRequest(units={"France": ["A Par"]}, orders={"France": ["A Par - Bur"]})
        >>> [o.result for o in adjudicate(req).outcomes]
        ['moved']
    """

    model_config = ConfigDict(extra="forbid")

    variant: str = Field(default="standard", description="the variant's name (dipsat rules lists them)",
                         examples=["standard"])
    rules: Optional[str] = Field(default=None, description="a rules preset (default: the variant's)",
                                 examples=["datc", "1971", "1982", "2000", "dptg"])
    options: dict[str, Any] = Field(default_factory=dict, description="rule options by name (dipsat rules lists them)")
    year: Optional[int] = Field(default=None, ge=1, le=9999)
    season: Optional[str] = Field(default=None, description="a season of the variant's calendar, any case ('autumn' "
                                  "for 'fall')", examples=["spring", "fall", "autumn", "winter"])
    phase: str = Field(default="movement", description="the phase: its kind, or a phase label as play prints it "
                       "(season letter, year, phase letter: F1901M), which also gives the season and year",
                       json_schema_extra={"anyOf": [{"enum": ["movement", "retreat", "adjustment", "placement"]},
                                                    {"pattern": "^[SFWAsfwa][0-9]{1,4}[MRAPmrap]$"}]})
    units: dict[str, list[str]] = Field(default_factory=dict, description="every unit on the board, per power "
                                        "('A Par', 'F Spa/nc', 'F Spain (north coast)')")
    orders: dict[str, list[str]] = Field(default_factory=dict, description="the orders as written, per power; a unit "
                                         "without an order holds")
    owners: dict[str, list[str]] = Field(default_factory=dict, description="supply centres owned, per power (adjustments)")
    retreat_orders: dict[str, list[str]] = Field(default_factory=dict, description="retreat phase: orders after the movement")

    @model_validator(mode="before")
    @classmethod
    def _phase_label(cls, data: Any) -> Any:
        """A phase label as ``play`` prints it (``phase = "F1901M"``): the season, year and phase
        it names; a ``year`` or ``season`` also given must agree with it."""
        if not isinstance(data, dict) or not isinstance(data.get("phase"), str):
            return data
        m = _LABEL.match(data["phase"].strip())
        if m is None:
            return data
        season, year, phase = _LABEL_SEASONS[m.group(1).upper()], int(m.group(2)), _LABEL_PHASES[m.group(3).upper()]
        given = data.get("season")
        if isinstance(given, str) and given.strip().lower() not in (season, "autumn" if season == "fall" else season):
            raise ValueError(f"phase {data['phase']!r} is in {season}, but season is {given!r}")
        if data.get("year") not in (None, year):
            raise ValueError(f"phase {data['phase']!r} is in {year}, but year is {data['year']!r}")
        return {**data, "phase": phase, "season": given if isinstance(given, str) else season, "year": year}

    @field_validator("phase")
    @classmethod
    def _phase(cls, v: str) -> str:
        if v == "game":
            raise ValueError("phase 'game' is a corpus case of several phases in turn: 'dipsat corpus' plays it "
                             "(this command reads one phase: movement, retreat, adjustment or placement)")
        if v not in ("movement", "retreat", "adjustment", "placement"):
            raise ValueError(f"phase {v!r} is not one of movement, retreat, adjustment, placement")
        return v


def __getattr__(name: str) -> Any:
    """The saved game's models, once defined here (:mod:`dipsat.game.saved`), imported on first use."""
    if name in ("StartSpec", "PhaseOrders", "SavedGame"):
        from dipsat.game import saved

        return getattr(saved, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def describe_validation(exc: ValidationError) -> str:
    parts = []
    for e in exc.errors():
        loc = ".".join(str(x) for x in e["loc"]) or "(top level)"
        parts.append(f"field {loc}: {e['msg']}")
    return "; ".join(parts)


def read_data_file(path: str | Path, limits: Limits = DEFAULT_LIMITS, max_bytes: int | None = None) -> Any:
    """A TOML file (or JSON, by its suffix), read with the safe standard loaders within
    ``limits`` (size: ``max_bytes``, default the request limit; nesting depth). ``-`` reads
    standard input: JSON when its first character is ``{``, else TOML."""
    if str(path) == "-":
        import sys

        cap = limits.max_request_bytes if max_bytes is None else max_bytes
        raw = sys.stdin.buffer.read(cap + 1)
        if len(raw) > cap:
            raise LimitExceeded(f"standard input: more than the limit of {cap:,} bytes")
        fmt = "json" if raw.lstrip()[:1] == b"{" else "toml"
        return parse_data(raw, fmt, "standard input", limits, max_bytes=cap)
    p = Path(path)
    cap = limits.max_request_bytes if max_bytes is None else max_bytes
    try:
        with p.open("rb") as f:
            raw = f.read(cap + 1)
    except OSError as exc:
        raise InputFileError(f"{p}: cannot read: {exc.strerror}") from None
    if len(raw) > cap:
        raise LimitExceeded(f"{p}: more than the limit of {cap:,} bytes")
    return parse_data(raw, "json" if p.suffix.lower() == ".json" else "toml", str(p), limits, max_bytes=cap)


_Model = TypeVar("_Model", bound=BaseModel)


def load_model(path: str | Path, model: type[_Model], data: Any = None) -> _Model:
    """A data file validated as ``model``; errors name the file and the fields."""
    p = Path(path)
    if data is None:
        data = read_data_file(p)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InputFileError(f"{p}: {describe_validation(exc)}") from None


def load_request(path: str | Path, limits: Limits = DEFAULT_LIMITS, data: Any = None) -> TurnRequest:
    """Read a position-plus-orders file (TOML or JSON) within ``limits`` (or take its ``data``
    when it was read already)."""
    p = Path(path)
    if data is None:
        data = read_data_file(p, limits)
    if isinstance(data, dict):
        check_request_size(data, str(p), limits)
    if isinstance(data, dict) and "expect" in data:  # a corpus case: take its position and orders
        keep = {"variant", "phase", "units", "orders", "owners", "retreat_orders"}
        data = {k: v for k, v in data.items() if k in keep}
    return load_model(p, TurnRequest, data)


