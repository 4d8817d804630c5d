"""Typed values at the public edge: units, positions, orders (outcomes: :mod:`dipsat.outcomes`).

Units, orders, their bodies and rejected orders are plain frozen records (slots dataclasses,
:class:`Record`): the engine makes and reads them field by field in every stage of every turn.
A position is a frozen pydantic model, which validates units given as data.  All of them can be
hashed, compared and serialised to JSON and back.  Units are identified by their index in
:attr:`Position.units`, which is kept in canonical order (power, location, kind) so that results
never depend on the order of submission.  Nothing here assumes one unit per province or a
strength of one per unit: the ``count`` of a unit is its number of pieces (variants with stacks
use it).
"""

from __future__ import annotations

from dataclasses import MISSING, asdict, field, fields, replace
from operator import attrgetter
from typing import (
    Any,
    Literal,
    Optional,
    Self,
    Sequence,
    TypeAlias,
    TypeVar,
    cast,
)

from pydantic import BaseModel, ConfigDict, Field

from dipsat import seams
from dipsat.records import dataclass

# A phase result carries the variant record it was adjudicated by (a
# :class:`dipsat.game.variant.Variant`), for drawing and printing: never validated, dumped or
# shown, a value of the engine's own making.  Typed loosely: the shared models sit below the game
# layer that defines the record.
VariantRecord: TypeAlias = Any


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    @classmethod
    def build(cls, **values: Any) -> Self:
        """Construct without validation, for values the engine makes itself (pydantic's
        ``model_construct`` walks every field's default on each call; this copies a prepared
        dict of defaults).  Input from users always goes through validation."""
        return construct_frozen(cls, values)

    def updated(self, **update: Any) -> Self:
        """``model_copy(update=...)`` without pydantic's copy machinery: a shallow copy with
        ``update`` as new field values (not validated: values the engine makes itself)."""
        obj = _new(type(self))
        _set(obj, "__dict__", {**self.__dict__, **update})
        _set_fields_set(obj, self.__pydantic_fields_set__ | update.keys())
        _set_extra(obj, None)
        _set_private(obj, None)
        return obj


_F = TypeVar("_F", bound=Frozen)


def construct_frozen(cls: type[_F], values: dict[str, Any]) -> _F:
    """:meth:`Frozen.build` of ``cls`` from a dict of field values."""
    meta = _BUILD_META.get(cls)
    if meta is None:
        meta = _BUILD_META[cls] = _build_meta(cls)
    defaults, factories = meta
    # (``values`` is the caller's own keyword dict: with no defaults to merge it is the data)
    data = {**defaults, **values} if defaults else values
    if factories:
        for name, factory in factories.items():
            if name not in values:
                data[name] = factory()
    obj = _new(cls)
    _set(obj, "__dict__", data)
    _set_fields_set(obj, set(values))
    _set_extra(obj, None)
    _set_private(obj, None)
    return obj


def _build_meta(cls: type[Frozen]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A model's defaults (a placeholder for those made by a factory) and its factories."""
    defaults: dict[str, Any] = {}
    for name, f in cls.model_fields.items():
        if f.default_factory is not None:
            defaults[name] = None  # filled per call by the factory
        elif not f.is_required():
            defaults[name] = f.default
    return defaults, {n: f.default_factory for n, f in cls.model_fields.items() if f.default_factory is not None}


# model class -> (defaults, factories): what :func:`construct_frozen` needs of a class, read once
# (a pure memo of the classes' field definitions)
_BUILD_META: dict[type, tuple[dict[str, Any], dict[str, Any]]] = {}


_new = object.__new__  # pydantic models define no __new__ of their own
_set = object.__setattr__
# the setters of BaseModel's slots, called directly (no attribute lookup per object)
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


class Drawable:
    """Pictures in notebooks: Jupyter shows ``_repr_svg_`` (the map) or ``_repr_html_`` (the map
    and, for results, the table of orders and outcomes), drawn by :mod:`dipsat.face.render` (which
    the package root plugs in: :mod:`dipsat.seams`)."""

    def _repr_svg_(self) -> str:
        return seams.drawers["svg"](self)

    def _repr_html_(self) -> str:
        return seams.drawers["html"](self)


# The core's unit kinds, by their letters: the army and the fleet of DATC Diplomacy.  A unit's
# kind is a letter; a variant may have kinds of its own (its ``unit_kinds``), which the core
# carries without interpreting them (the variant's geography says where they may go).
ARMY = "A"
FLEET = "F"


# (kind, location, count) -> Unit.short(); (power, kind, location, count) -> Unit.label(): pure
# memos of the texts every result writes several times per unit (outcomes, culprits, the position
# after), bounded like the notation's
_SHORT: dict[tuple[str, str, int], str] = {}
_LABEL: dict[tuple[str, str, str, int], str] = {}


class Record:
    """Base of the engine's plain records (units, orders, their bodies, rejected orders): frozen
    slots dataclasses, each declared with ``@dataclass(frozen=True, slots=True, kw_only=True)``.
    A turn makes and reads about a hundred of them, field by field, in every stage: a slots
    record's field is read in about a tenth of a pydantic model's (whose ``__getattr__`` keeps
    CPython from specialising the read), and made in half the time.  Pydantic still validates
    them where data enters (a :class:`Position`'s units from JSON) and writes them as JSON."""

    __slots__ = ()

    @classmethod
    def build(cls, **values: Any) -> Self:
        """A record of ``values`` (keyword arguments, as the class's constructor takes them)."""
        return cls(**values)

    def updated(self, **update: Any) -> Self:
        """A copy with ``update``'s fields changed."""
        new: Self = replace(cast(Any, self), **update)  # (every subclass is a dataclass)
        return new

    def model_dump(self) -> dict[str, Any]:
        """The record as a dict of its fields (nested records as dicts), as a pydantic model's."""
        data: dict[str, Any] = asdict(cast(Any, self))
        return data


class DictRecord(Record):
    """Base of the plain records of many fields, most at their defaults (outcomes and what they
    name: :mod:`dipsat.outcomes`): frozen dataclasses without slots, each declared with
    ``@dataclass(frozen=True, kw_only=True)``, whose fields live in the instance's dict, so a
    record is made in one step from a dict of its fields (:func:`new_record`).  A frozen record's
    slots are filled one by one through their descriptors (the frozen ``__init__`` goes through
    ``object.__setattr__`` per field): for a dozen fields that costs twice the dict's one step.
    Its fields are read as fast as slots; equality, hash and repr are the dataclass's.  Pydantic
    validates them from data (an unknown field is an error, as a model's) and writes them
    (:meth:`model_dump`) as it writes a model."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    @classmethod
    def build(cls, **values: Any) -> Self:
        """A record of ``values`` (the class's keyword arguments), its defaults filled in, in one
        step; an unknown field or a missing one is a TypeError naming it."""
        defaults, names, required = _record_meta(cls)
        if not (values.keys() <= names and required <= values.keys()):
            unknown, missing = sorted(values.keys() - names), sorted(required - values.keys())
            raise TypeError(f"{cls.__name__}: " + "; ".join(
                ([f"unknown field(s) {', '.join(unknown)}"] if unknown else [])
                + ([f"missing field(s) {', '.join(missing)}"] if missing else [])))
        return new_record(cls, {**defaults, **values})

    def updated(self, **update: Any) -> Self:
        """A copy with ``update``'s fields changed."""
        return type(self).build(**{**self.__dict__, **update})

    def model_dump(self, mode: Literal["python", "json"] = "python") -> dict[str, Any]:
        """The record as pydantic writes it (nested records and models as dicts; ``mode`` "json":
        JSON values only)."""
        data: dict[str, Any] = record_adapter(type(self)).dump_python(self, mode=mode)
        return data

    @classmethod
    def model_validate(cls, data: object) -> Self:
        """A record of this class from data, validated by pydantic (errors name the field)."""
        record: Self = record_adapter(cls).validate_python(data)
        return record


_DR = TypeVar("_DR", bound=DictRecord)


def new_record(cls: type[_DR], data: dict[str, Any]) -> _DR:
    """A record of ``cls`` whose fields are ``data`` (every field of the class, by name, nothing
    else: the caller's own dict becomes the record's), in one step."""
    obj: _DR = _new(cls)
    _set(obj, "__dict__", data)
    return obj


def make_record(cls: type[_DR], values: dict[str, Any]) -> _DR:
    """A record of ``cls`` of ``values`` and the class's defaults for the fields not in them, in one
    step: :meth:`DictRecord.build` without its checks, for values the engine makes itself (every
    field it has no default for given, by its name)."""
    meta = _RECORD_META.get(cls)
    if meta is None:
        meta = _record_meta(cls)
    obj: _DR = _new(cls)
    _set(obj, "__dict__", {**meta[0], **values})
    return obj


def record_defaults(cls: type) -> dict[str, Any]:
    """A record class's defaults by field name (read once per class; shared: copy it, never
    change it)."""
    meta = _RECORD_META.get(cls)
    return (meta or _record_meta(cls))[0]


def _record_meta(cls: type) -> tuple[dict[str, Any], frozenset[str], frozenset[str]]:
    """A record class's defaults, field names and required fields, read once per class."""
    meta = _RECORD_META.get(cls)
    if meta is None:
        fs = fields(cls)
        if any(f.default_factory is not MISSING for f in fs):
            raise TypeError(f"{cls.__name__}: a record's defaults are values (no factories)")
        meta = _RECORD_META[cls] = ({f.name: f.default for f in fs if f.default is not MISSING},
                                    frozenset(f.name for f in fs),
                                    frozenset(f.name for f in fs if f.default is MISSING))
    return meta


def record_adapter(cls: type) -> Any:
    """Pydantic's adapter of a record class (made once per class, when data is first read or
    written)."""
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        from pydantic import TypeAdapter

        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    return adapter


# memos of the record classes' field definitions and pydantic adapters (per class, made once)
_RECORD_META: dict[type, tuple[dict[str, Any], frozenset[str], frozenset[str]]] = {}
_ADAPTERS: dict[type, Any] = {}


def _setters(cls: type, names: str) -> tuple[Any, ...]:
    """The slot setters of ``cls``'s fields ``names``: a record made by calling them on
    ``object.__new__(cls)`` skips the frozen ``__init__``'s ``object.__setattr__`` per field (a
    record the binder makes for every order of every turn)."""
    return tuple(getattr(cls, n).__set__ for n in names.split())


@dataclass(frozen=True, slots=True, kw_only=True)
class Unit(Record):
    power: str
    kind: str  # a kind letter: ARMY, FLEET or one of the variant's own kinds
    location: str  # province id, or coast id "spa/nc" for fleets
    count: int = 1

    @property
    def province(self) -> str:
        return self.location.split("/", 1)[0]

    def short(self) -> str:
        key = (self.kind, self.location, self.count)
        text = _SHORT.get(key)
        if text is None:
            prov, _, coast = self.location.partition("/")
            loc = prov.capitalize() + (f"/{coast}" if coast else "")
            pre = f"{self.count} " if self.count != 1 else ""
            text = f"{pre}{self.kind} {loc}"
            if len(_SHORT) > 50_000:
                _SHORT.clear()
            _SHORT[key] = text
        return text

    def label(self) -> str:
        key = (self.power, self.kind, self.location, self.count)
        text = _LABEL.get(key)
        if text is None:
            text = f"{self.power}: {self.short()}"
            if len(_LABEL) > 50_000:
                _LABEL.clear()
            _LABEL[key] = text
        return text

    def sort_key(self) -> tuple[str, str, str, int]:
        return (self.power, self.location, self.kind, self.count)


class Position(Drawable, Frozen):
    """The board before a phase: units, and optionally centre ownership and the date."""

    variant: str = "standard"
    year: Optional[int] = None
    season: Optional[str] = None
    units: tuple[Unit, ...] = ()
    owners: dict[str, str] = Field(default_factory=dict)  # supply centre -> power

    def canonical(self) -> "Position":
        """Units sorted; units of one power, kind and location merged into one (with a count).
        A position whose units are so already is its own canonical form."""
        units = canonical_units(self.units)
        if len(units) == len(self.units) and all(a is b for a, b in zip(units, self.units)):
            return self
        return self.updated(units=units)

    def units_at(self, province: str) -> list[int]:
        return [i for i, u in enumerate(self.units) if u.province == province]


def canonical_units(units: tuple[Unit, ...] | list[Unit]) -> tuple[Unit, ...]:
    """Units in canonical order (:meth:`Unit.sort_key`), those of one power, kind and location
    merged into one (with a count): :meth:`Position.canonical`'s units."""
    keys = list(map(_MERGE_KEY, units))
    merged = dict(zip(keys, units))
    if len(merged) < len(keys):  # some share a power, location and kind: merged, in order of appearance
        merged = {}
        for key, u in zip(keys, units):
            prev = merged.get(key)
            merged[key] = u if prev is None else prev.updated(count=prev.count + u.count)
    # the keys are distinct, so their order is the order of the units' sort keys
    return tuple(map(merged.__getitem__, sorted(merged)))


_MERGE_KEY = attrgetter("power", "location", "kind")  # a unit's key in canonical_units


# -- strengths (what an outcome compares) -------------------------------------------------


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
    # the sum of the active terms, counted once (an outcome and its words read it several times)
    value: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", sum(t.weight for t in self.terms if t.active))

    def describe(self) -> str:
        parts: list[tuple[str, int]] = []  # (label, times): identical terms (one per supporting unit) merged
        for t in self.terms:
            if t.active and t.weight:
                if parts and parts[-1][0] == t.label:
                    parts[-1] = (t.label, parts[-1][1] + 1)
                else:
                    parts.append((t.label, 1))
        inner = " + ".join(f"{l} ×{n}" if n > 1 else l for l, n in parts) if parts else "nothing"
        return f"{self.name} {self.value} ({inner})"


_STRENGTH = _setters(Strength, "name owner terms value")


def new_strength(name: str, owner: str, terms: tuple[Term, ...], value: int) -> Strength:
    """``Strength(name, owner, terms)`` in one step, given its ``value`` (the sum of the active
    terms' weights, which the caller counted as it made them): an explained turn makes a few
    dozen strengths."""
    obj: Strength = _new(Strength)
    sn, so, st, sv = _STRENGTH
    sn(obj, name)
    so(obj, owner)
    st(obj, terms)
    sv(obj, value)
    return obj


# -- orders ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class OrderBody(Record):
    """Base of the order kinds: what one unit is ordered to do.  The core's kinds are
    :class:`Hold`, :class:`Move`, :class:`Support` and :class:`Convoy`; a variant adds kinds of
    its own by subclassing (a subclass of :class:`Move` is a move to the core: it gets a move
    decision and the unit goes to ``dest`` when it succeeds; declared like these, with
    ``@dataclass(frozen=True, slots=True, kw_only=True)``) and registering them with
    :func:`register_order_kind`, which makes them readable from data (:func:`order_body`)."""

    kind: str
    unit: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Hold(OrderBody):
    kind: str = "hold"


@dataclass(frozen=True, slots=True, kw_only=True)
class Move(OrderBody):
    kind: str = "move"
    dest: str  # location (coast id for fleets into split provinces)
    via_convoy: bool = False
    path: tuple[str, ...] = ()  # provinces of an explicitly written convoy path


@dataclass(frozen=True, slots=True, kw_only=True)
class Support(OrderBody):
    kind: str = "support"
    target: int  # supported unit
    dest: Optional[str] = None  # province; None = support to hold
    dest_coast: Optional[str] = None  # coast location named in the support, when it names one
    target_power: Optional[str] = None  # the supported nation, when the order names it ("FA Bur-Mun")


@dataclass(frozen=True, slots=True, kw_only=True)
class Convoy(OrderBody):
    kind: str = "convoy"
    target: int  # convoyed army
    dest: str  # province


_B = TypeVar("_B", bound=OrderBody)

ORDER_KINDS: dict[str, type[OrderBody]] = {"hold": Hold, "move": Move, "support": Support, "convoy": Convoy}


def kind_tag(cls: type[OrderBody]) -> object:
    """An order kind's tag: the default of its ``kind`` field."""
    return next((f.default for f in fields(cls) if f.name == "kind"), None)


def register_order_kind(cls: type[_B]) -> type[_B]:
    """Add a variant's order kind to the union of order kinds (by its ``kind`` default)."""
    tag = kind_tag(cls)
    if not isinstance(tag, str) or ORDER_KINDS.get(tag, cls) is not cls:
        raise ValueError(f"order kind {tag!r} of {cls.__name__} is not a new tag")
    ORDER_KINDS[tag] = cls
    return cls


def order_body(data: dict[str, Any]) -> OrderBody:
    """An order body from data, by its ``kind`` tag (the discriminator of the union), validated."""
    tag = data.get("kind")
    cls = ORDER_KINDS.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise ValueError(f"unknown order kind {tag!r}; known: {', '.join(sorted(ORDER_KINDS))}")
    from pydantic import TypeAdapter

    body: OrderBody = TypeAdapter(cls).validate_python(data)
    return body


@dataclass(frozen=True, slots=True, kw_only=True)
class Order(Record):
    """An order after parsing and legality checks, bound to a unit of the position."""

    power: str
    text: str
    body: OrderBody

    @property
    def unit(self) -> int:
        return self.body.unit


_UNIT = _setters(Unit, "power kind location count")
_ORDER = _setters(Order, "power text body")
_HOLD = _setters(Hold, "kind unit")
_MOVE = _setters(Move, "kind unit dest via_convoy path")
_SUPPORT = _setters(Support, "kind unit target dest dest_coast target_power")


def new_unit(power: str, kind: str, location: str, count: int) -> Unit:
    """``Unit(power=power, kind=kind, location=location, count=count)`` in one step (the position
    after a turn makes one per unit that moved; see :func:`new_order`)."""
    obj = _new(Unit)
    sp, sk, sl, sc = _UNIT
    sp(obj, power)
    sk(obj, kind)
    sl(obj, location)
    sc(obj, count)
    return obj


def new_order(power: str, text: str, body: OrderBody) -> Order:
    """``Order(power=power, text=text, body=body)`` in one step (the binder makes one per order
    of every turn): the same value, without the frozen ``__init__``."""
    obj = _new(Order)
    sp, st, sb = _ORDER
    sp(obj, power)
    st(obj, text)
    sb(obj, body)
    return obj


def new_hold(unit: int) -> Hold:
    """``Hold(unit=unit)`` in one step (see :func:`new_order`)."""
    obj = _new(Hold)
    sk, su = _HOLD
    sk(obj, "hold")
    su(obj, unit)
    return obj


def new_move(unit: int, dest: str) -> Move:
    """``Move(unit=unit, dest=dest)`` in one step (see :func:`new_order`): a move as written,
    not by convoy and naming no path."""
    return new_move_written(unit, dest, False, ())


def new_move_written(unit: int, dest: str, via_convoy: bool, path: tuple[str, ...]) -> Move:
    """``Move(unit=unit, dest=dest, via_convoy=via_convoy, path=path)`` in one step (see
    :func:`new_order`)."""
    obj = _new(Move)
    sk, su, sd, sv, sp = _MOVE
    sk(obj, "move")
    su(obj, unit)
    sd(obj, dest)
    sv(obj, via_convoy)
    sp(obj, path)
    return obj


def new_support(unit: int, target: int, target_power: Optional[str], dest: Optional[str] = None,
                dest_coast: Optional[str] = None) -> Support:
    """``Support(unit=, target=, target_power=)`` (a support to hold) or, with ``dest`` (and
    ``dest_coast``), a support of a move, in one step (see :func:`new_order`)."""
    obj = _new(Support)
    sk, su, st, sd, sc, sp = _SUPPORT
    sk(obj, "support")
    su(obj, unit)
    st(obj, target)
    sd(obj, dest)
    sc(obj, dest_coast)
    sp(obj, target_power)
    return obj


@dataclass(frozen=True, slots=True, kw_only=True)
class Rejected(Record):
    """An order that could not be used, and why.  ``severity``: invalid (not understood),
    illegal (understood, not allowed here), ambiguous (several readings)."""

    power: str
    text: str
    severity: Literal["invalid", "illegal", "ambiguous"]
    reason: str
    unit: Optional[int] = None  # the unit it was meant for, when known
    duplicate: bool = False  # one of several different orders to one unit (DATC 4.D.3): all hold


def dislodged_units(pos: Position, dislodged: Sequence[int]) -> list[tuple[int, Unit]]:
    """The dislodged units as the players see them: the pieces of one power's units of one kind in
    one place (a multiple unit that its orders split, all of it dislodged) are one unit, counted
    together; each with the index of its first piece, in the order of ``dislodged``."""
    out: dict[tuple[str, str, str], tuple[int, Unit]] = {}
    for i in dislodged:
        u = pos.units[i]
        key = (u.power, u.kind, u.location)
        if key in out:
            first, seen = out[key]
            out[key] = (first, seen.updated(count=seen.count + u.count))
        else:
            out[key] = (i, u)
    return list(out.values())
