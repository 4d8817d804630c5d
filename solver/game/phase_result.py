"""The one result type of every game family: :class:`PhaseResult` of :class:`PhaseOutcome`s
naming their :class:`Culprit`s (the protocol, :mod:`dipsat.game.protocol`, describes them; also
importable from there).  Defined here, imported on first use: ``adjudicate`` in words and
``batch`` write a board's result without them."""

from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from dipsat.errors import DipsatError


class _Edge(BaseModel):
    # built on first use: `adjudicate` in words and `batch` make none of these
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True, defer_build=True)


class Culprit(_Edge):
    """An order an outcome names as its cause."""

    power: str
    order: str = Field(description="the order as written")
    unit: Optional[str] = Field(default=None, description="'Power: unit' the order is for, when it names one")


class PhaseOutcome(_Edge):
    """The outcome of one order, of any family: typed values, and words rendered from them."""

    power: str
    order: str = Field(description="the order as written (or the implied hold)")
    unit: Optional[str] = None
    kind: str = Field(description="the order's kind: hold, move, support, convoy, retreat, build, ..., a family's own")
    result: str = Field(description="the outcome's kind: moved, bounced, cut, won, partial, lost, ...")
    succeeded: bool
    culprits: tuple[Culprit, ...] = ()
    by: tuple[str, ...] = Field(default=(), description="the culprits' texts")
    dislodged_by: Optional[str] = None
    strengths: Optional[tuple[dict[str, Any], ...]] = None
    details: Optional[dict[str, Any]] = Field(default=None, description="the typed fields of the outcome's kind beyond "
                                              "these, as JSON values (None: not explained)")
    reason: Optional[str] = Field(default=None, description="why, in words rendered from the values (None: not explained)")

    @property
    def text(self) -> str:
        """The order as written (``order``; the name a board's outcomes give it)."""
        return self.order

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"power": self.power, "order": self.order, "unit": self.unit, "kind": self.kind,
                               "result": self.result, "succeeded": self.succeeded}
        if self.reason is not None:
            out["reason"] = self.reason
        out |= {"by": list(self.by), "dislodged_by": self.dislodged_by,
                "culprits": [c.model_dump() for c in self.culprits]}
        if self.strengths is not None:
            out["strengths"] = list(self.strengths)
        if self.details is not None:
            out["details"] = self.details
        return out


class PhaseResult(_Edge):
    """One adjudicated phase (or a game case played), of any family.

    ``board`` holds the fields only a Diplomacy board has (dislodged units, standoffs, backup
    rules, retreat options, the movement before a retreat phase: the published result schema
    names them); ``details`` the fields of another family's result (battles, units created,
    the readings of a round, a stage's conflict, ...) as JSON values.  ``native`` is the
    family's own result object (its words and pictures are drawn from it); it is not part of
    the JSON."""

    variant: str
    phase: str = Field(description="movement, retreat, adjustment, placement, or a family's own (round, stage, game, ...)")
    rules: str
    outcomes: tuple[PhaseOutcome, ...]
    units_after: dict[str, list[str]] = Field(description="the position after, per power")
    next_phase: Optional[str] = None
    winners: tuple[str, ...] = Field(default=(), description="who has won at the end of the phase (a game: at its end)")
    history: tuple["PhaseResult", ...] = Field(default=(), description="a game: each phase played, in turn")
    board: Optional[dict[str, Any]] = None
    details: Optional[dict[str, Any]] = None
    native: Any = Field(default=None, exclude=True, repr=False)
    _outcomes_json: Optional[list[dict[str, Any]]] = PrivateAttr(default=None)  # as the engine wrote them

    def with_outcomes_json(self, outcomes: list[dict[str, Any]]) -> "PhaseResult":
        """The result, keeping the JSON of its outcomes as the engine wrote it (to_json reuses it)."""
        self._outcomes_json = outcomes
        return self

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``adjudicate --json`` and of a ``batch`` line (the published ``result``
        schema, :mod:`dipsat.io.schemas`)."""
        outs = self._outcomes_json if self._outcomes_json is not None else [o.to_json() for o in self.outcomes]
        out: dict[str, Any] = {"variant": self.variant, "phase": self.phase, "outcomes": outs}
        out |= dict(self.board or {})
        out["units_after"] = self.units_after
        out["rules"] = self.rules
        out["next_phase"] = self.next_phase
        if self.details is not None:
            out["details"] = self.details
        return out

    def play_json(self) -> dict[str, Any]:
        """A game played as the JSON of ``play --json`` (the published ``play`` schema): each
        phase's outcomes and position, what comes next, the winners; a family's own data of the
        game in ``details``."""
        return {"phases": [{"phase": h.phase, "outcomes": [{"power": o.power, "order": o.order, "result": o.result,
                                                            "reason": o.reason or ""} for o in h.outcomes],
                            "units": h.units_after, "centres": dict((h.details or {}).get("centres") or {})}
                           for h in self.history],
                "next_phase": self.next_phase, "winner": "+".join(self.winners) or None, "winners": list(self.winners),
                "details": self.details}

    def outcome(self, order: str) -> PhaseOutcome:
        """The outcome of the order written ``order`` (``Power: order`` when several powers
        wrote it); a :class:`DipsatError` listing the orders otherwise."""
        key, power = order.strip(), None
        if ":" in key:
            head, _, rest = key.partition(":")
            if any(o.power.lower() == head.strip().lower() for o in self.outcomes):
                power, key = head.strip(), rest.strip()
        norm = " ".join(key.split()).lower()
        hits = [o for o in self.outcomes if " ".join(o.order.split()).lower() == norm
                and (power is None or o.power.lower() == power.lower())]
        if len(hits) != 1:
            known = "; ".join(f"{o.power}: {o.order}" for o in self.outcomes)
            what = "is not among the orders" if not hits else "is written by several powers (prefix it with 'Power: ')"
            raise DipsatError(f"order {order!r} {what}; the orders: {known}")
        return hits[0]
