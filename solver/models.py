"""Typed models at the public edge: units, positions, orders, outcomes.

Everything here is a frozen pydantic model, so values can be hashed, compared and serialised to
JSON and back.  Units are identified by their index in :attr:`Position.units`, which is kept in
canonical order (power, location, kind) so that results never depend on the order of
submission.  Nothing here assumes one unit per province or a strength of one per unit: the
``count`` of a unit is its number of pieces (variants with stacks use it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    @classmethod
    def build(cls, **values):
        """Construct without validation, for values the engine makes itself (pydantic's
        ``model_construct`` walks every field's default on each call; this copies a prepared
        dict of defaults).  Input from users always goes through validation."""
        defaults = cls.__dict__.get("_build_defaults")
        if defaults is None:
            defaults = {}
            for name, f in cls.model_fields.items():
                if f.default_factory is not None:
                    defaults[name] = None  # filled per call below
                elif not f.is_required():
                    defaults[name] = f.default
            type.__setattr__(cls, "_build_defaults", defaults)
            type.__setattr__(cls, "_build_factories",
                             {n: f.default_factory for n, f in cls.model_fields.items() if f.default_factory is not None})
        data = dict(defaults)
        for name, factory in cls.__dict__["_build_factories"].items():
            if name not in values:
                data[name] = factory()
        data.update(values)
        obj = cls.__new__(cls)
        object.__setattr__(obj, "__dict__", data)
        object.__setattr__(obj, "__pydantic_fields_set__", set(values))
        object.__setattr__(obj, "__pydantic_extra__", None)
        object.__setattr__(obj, "__pydantic_private__", None)
        return obj


class Drawable:
    """Pictures in notebooks: Jupyter shows ``_repr_svg_`` (the map) or ``_repr_html_`` (the map
    and, for results, the table of orders and outcomes).  See :mod:`dipsat.render`."""

    def _repr_svg_(self) -> str:
        from .render import render_svg

        return render_svg(self)

    def _repr_html_(self) -> str:
        from .render import render_html

        return render_html(self)


# The core's unit kinds, by their letters: the army and the fleet of DATC Diplomacy.  A unit's
# kind is a letter; a variant may have kinds of its own (its ``unit_kinds``), which the core
# carries without interpreting them (the variant's geography says where they may go).
ARMY = "A"
FLEET = "F"


class Unit(Frozen):
    power: str
    kind: str  # a kind letter: ARMY, FLEET or one of the variant's own kinds
    location: str  # province id, or coast id "spa/nc" for fleets
    count: int = 1

    @property
    def province(self) -> str:
        return self.location.split("/", 1)[0]

    def short(self) -> str:
        prov, _, coast = self.location.partition("/")
        loc = prov.capitalize() + (f"/{coast}" if coast else "")
        pre = f"{self.count} " if self.count != 1 else ""
        return f"{pre}{self.kind} {loc}"

    def label(self) -> str:
        return f"{self.power}: {self.short()}"

    def sort_key(self) -> tuple:
        return (self.power, self.location, self.kind, self.count)


class Position(Drawable, Frozen):
    """The board before a phase: units, and optionally centre ownership and the date."""

    variant: str = "standard"
    year: Optional[int] = None
    season: Optional[str] = None
    units: tuple[Unit, ...] = ()
    owners: dict[str, str] = Field(default_factory=dict)  # supply centre -> power

    def canonical(self) -> "Position":
        """Units sorted; units of one power, kind and location merged into one (with a count)."""
        merged: dict[tuple, Unit] = {}
        for u in self.units:
            key = (u.power, u.location, u.kind)
            prev = merged.get(key)
            merged[key] = u if prev is None else prev.model_copy(update={"count": prev.count + u.count})
        return self.model_copy(update={"units": tuple(sorted(merged.values(), key=Unit.sort_key))})

    def units_at(self, province: str) -> list[int]:
        return [i for i, u in enumerate(self.units) if u.province == province]


# -- orders ----------------------------------------------------------------------------------


class OrderBody(Frozen):
    """Base of the order kinds: what one unit is ordered to do.  The core's kinds are
    :class:`Hold`, :class:`Move`, :class:`Support` and :class:`Convoy`; a variant adds kinds of
    its own by subclassing (a subclass of :class:`Move` is a move to the core: it gets a move
    decision and the unit goes to ``dest`` when it succeeds) and registering them with
    :func:`register_order_kind`, which makes them readable from data (:func:`order_body`)."""

    kind: str
    unit: int


class Hold(OrderBody):
    kind: str = "hold"


class Move(OrderBody):
    kind: str = "move"
    dest: str  # location (coast id for fleets into split provinces)
    via_convoy: bool = False
    path: tuple[str, ...] = ()  # provinces of an explicitly written convoy path


class Support(OrderBody):
    kind: str = "support"
    target: int  # supported unit
    dest: Optional[str] = None  # province; None = support to hold
    dest_coast: Optional[str] = None  # coast location named in the support, when it names one
    target_power: Optional[str] = None  # the supported nation, when the order names it ("FA Bur-Mun")


class Convoy(OrderBody):
    kind: str = "convoy"
    target: int  # convoyed army
    dest: str  # province


ORDER_KINDS: dict[str, type[OrderBody]] = {"hold": Hold, "move": Move, "support": Support, "convoy": Convoy}


def register_order_kind(cls: type[OrderBody]) -> type[OrderBody]:
    """Add a variant's order kind to the union of order kinds (by its ``kind`` default)."""
    tag = cls.model_fields["kind"].default
    if not isinstance(tag, str) or ORDER_KINDS.get(tag, cls) is not cls:
        raise ValueError(f"order kind {tag!r} of {cls.__name__} is not a new tag")
    ORDER_KINDS[tag] = cls
    return cls


def order_body(data: dict[str, Any]) -> OrderBody:
    """An order body from data, by its ``kind`` tag (the discriminator of the union)."""
    tag = data.get("kind")
    cls = ORDER_KINDS.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise ValueError(f"unknown order kind {tag!r}; known: {', '.join(sorted(ORDER_KINDS))}")
    return cls.model_validate(data)


class Order(Frozen):
    """An order after parsing and legality checks, bound to a unit of the position."""

    power: str
    text: str
    body: OrderBody

    @property
    def unit(self) -> int:
        return self.body.unit


class Rejected(Frozen):
    """An order that could not be used, and why.  ``severity``: invalid (not understood),
    illegal (understood, not allowed here), ambiguous (several readings)."""

    power: str
    text: str
    severity: Literal["invalid", "illegal", "ambiguous"]
    reason: str
    unit: Optional[int] = None  # the unit it was meant for, when known


# -- outcomes --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Term:
    """One labelled part of a strength: ``weight`` counted when ``active``."""

    label: str
    weight: int
    active: bool


@dataclass(frozen=True, slots=True)
class Strength:
    name: str  # "attack", "hold", "defend", "prevent"
    owner: str  # label of the unit or province it belongs to
    terms: tuple[Term, ...] = ()

    @property
    def value(self) -> int:
        return sum(t.weight for t in self.terms if t.active)

    def describe(self) -> str:
        parts: list[list] = []  # [label, times]: identical terms (one per supporting unit) merged
        for t in self.terms:
            if t.active and t.weight:
                if parts and parts[-1][0] == t.label:
                    parts[-1][1] += 1
                else:
                    parts.append([t.label, 1])
        inner = " + ".join(f"{l} ×{n}" if n > 1 else l for l, n in parts) if parts else "nothing"
        return f"{self.name} {self.value} ({inner})"


class Outcome(Frozen):
    """What happened to one order.  ``result`` names the kind of success or failure; the
    culprit fields say who caused it.  ``succeeded`` is derived from ``result``."""

    power: str
    text: str  # the order as written (or the implied hold)
    unit: Optional[int] = None
    order_kind: str  # hold, move, support, convoy, or "rejected"
    result: Literal[
        "moved", "bounced", "no_path", "held", "dislodged", "given", "cut", "void",
        "convoyed", "disrupted", "illegal", "invalid", "ambiguous", "duplicate",
        "built", "disbanded", "waived", "partial",
    ]
    by: tuple[str, ...] = ()  # culprit orders / units
    reason: str = ""
    strengths: tuple[Strength, ...] = ()
    dislodged_by: Optional[str] = None

    @classmethod
    def rejected(cls, power: str, text: str, severity: str, reason: str, unit: Optional[int] = None) -> "Outcome":
        """An order that could not be used (invalid, illegal, ambiguous): the unit holds."""
        return cls.build(power=power, text=text, unit=unit, order_kind="rejected", result=severity,
                         reason=f"{severity}: {reason}", by=(), strengths=(), dislodged_by=None)

    @property
    def succeeded(self) -> bool:
        return self.result in ("moved", "held", "given", "convoyed", "built", "disbanded", "waived")


class Backup(Frozen):
    """A component of the turn whose equations did not have exactly one solution."""

    kind: Literal["circular_movement", "convoy_paradox", "other_cycle"]
    resolutions: int  # consistent resolutions before the backup rule (0, 1 = n/a, 2+)
    rule: str  # the backup rule applied
    orders: tuple[str, ...]  # the orders of the component


class MovementResult(Drawable, Frozen):
    position: Position
    outcomes: tuple[Outcome, ...]
    dislodged: tuple[int, ...]  # unit indices of the position before
    dislodged_by: dict[int, int] = Field(default_factory=dict)  # dislodged unit -> attacker unit
    after: Position
    backups: tuple[Backup, ...] = ()
    rejected: tuple[Rejected, ...] = ()
    contested: tuple[str, ...] = ()  # provinces left empty by a standoff
    convoyed: tuple[int, ...] = ()  # units that moved by convoy
    failed_into: tuple[str, ...] = ()  # provinces some move tried and failed to enter this turn
    orders: tuple[Order, ...] = ()  # the orders as bound to the units (implicit holds included), for drawing
