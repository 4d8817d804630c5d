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

from pathlib import Path
from typing import Any, Optional, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from dipsat.errors import InputFileError
from dipsat.limits import DEFAULT_LIMITS, LimitExceeded, Limits, check_request_size, parse_data

class TurnRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    variant: str = "standard"
    rules: Optional[str] = None
    options: dict[str, Any] = Field(default_factory=dict)
    year: Optional[int] = Field(default=None, ge=1, le=9999)
    season: Optional[str] = None
    phase: str = "movement"
    units: dict[str, list[str]] = Field(default_factory=dict)
    orders: dict[str, list[str]] = Field(default_factory=dict)
    owners: dict[str, list[str]] = Field(default_factory=dict, description="supply centres owned, per power (adjustments)")
    retreat_orders: dict[str, list[str]] = Field(default_factory=dict, description="retreat phase: orders after the movement")

    @field_validator("phase")
    @classmethod
    def _phase(cls, v: str) -> str:
        if v == "game":
            raise ValueError("phase 'game' is a corpus case of several phases in turn: 'dipsat corpus' plays it "
                             "(this command reads one phase: movement, retreat, adjustment or placement)")
        if v not in ("movement", "retreat", "adjustment", "placement"):
            raise ValueError(f"phase {v!r} is not one of movement, retreat, adjustment, placement")
        return v


class StartSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    year: Optional[int] = Field(default=None, ge=1, le=9999)
    season: str = "spring"
    units: dict[str, list[str]] = Field(default_factory=dict)
    owners: dict[str, list[str]] = Field(default_factory=dict)


class PhaseOrders(BaseModel):
    model_config = ConfigDict(extra="forbid")

    phase: Optional[str] = None  # e.g. "S1901M"; checked when given
    orders: dict[str, list[str]] = Field(default_factory=dict)
    expect_units: Optional[dict[str, list[str]]] = None  # position after the phase (checkpoint)


class SavedGame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    variant: str = "standard"
    rules: Optional[str] = None
    options: dict[str, Any] = Field(default_factory=dict)
    start: Optional[StartSpec] = None
    phases: list[PhaseOrders] = Field(default_factory=list)


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


