"""A saved game's models: where it starts (:class:`StartSpec`), the orders of each phase played
(:class:`PhaseOrders`), and the game (:class:`SavedGame`), as ``play`` reads and writes them.
(Also importable from :mod:`dipsat.game.request`, where they were defined; a command that reads
one request does not make these classes.)"""

from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field


class StartSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)  # built on first use (saved games)

    year: Optional[int] = Field(default=None, ge=1, le=9999)
    season: str = Field(default="spring", description="the season the game starts in, any case ('autumn' for 'fall')")
    units: dict[str, list[str]] = Field(default_factory=dict)
    owners: dict[str, list[str]] = Field(default_factory=dict)


class PhaseOrders(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)  # built on first use (saved games)

    phase: Optional[str] = None  # e.g. "S1901M"; checked when given
    orders: dict[str, list[str]] = Field(default_factory=dict)
    expect_units: Optional[dict[str, list[str]]] = None  # position after the phase (checkpoint)


class SavedGame(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)  # built on first use (saved games)

    variant: str = "standard"
    rules: Optional[str] = None
    options: dict[str, Any] = Field(default_factory=dict)
    start: Optional[StartSpec] = None
    phases: list[PhaseOrders] = Field(default_factory=list)
