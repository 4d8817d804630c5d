"""``dipsat.records.dataclass`` makes the class the standard decorator makes: each shape of class
the package declares (and the edge cases of the standard decorator) is made twice, once by each,
and the two compared — fields, parameters, docstring, signature, and what their instances do:
construct, compare, hash, print, refuse changes when frozen, copy, replace, validate."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from dataclasses import field
from typing import Any, Callable, ClassVar, Optional

import pytest
from pydantic import TypeAdapter

from dipsat import records
from dipsat.models import Convoy, Hold, Move, Order, Rejected, Support, Unit


def _shapes(dc: Callable[..., Any]) -> dict[str, tuple[type, list[dict[str, Any]]]]:
    """Classes of every shape, made with the decorator ``dc``, each with keyword arguments of a
    few instances (the same names: the two sets compare by qualified name too)."""

    @dc
    class Plain:
        a: int
        b: str = "x"

    @dc(frozen=True)
    class Frozen:
        """A docstring of its own."""

        a: int
        b: Optional[str] = None
        c: tuple[int, ...] = ()

    @dc(frozen=True)
    class FrozenChild(Frozen):
        d: str = "d"

    @dc(frozen=True, slots=True, kw_only=True)
    class Slotted:
        power: str
        kind: str
        count: int = 1

    @dc(frozen=True, slots=True, kw_only=True)
    class SlottedChild(Slotted):
        dest: str
        via: bool = False

    @dc(slots=True, unsafe_hash=True)
    class Node:
        key: Any

    @dc(slots=True, unsafe_hash=True)
    class Pair:
        left: Any
        right: Any
        weights: tuple[int, ...] = ()

    @dc(frozen=True, eq=False)
    class Identity:
        name: str
        ClassVar_kind: ClassVar[str] = "record"

    @dc
    class Factories:
        items: list[int] = field(default_factory=list)
        seen: dict[str, int] = field(default_factory=dict, repr=False)
        total: int = field(default=0, compare=False)
        hidden: int = field(default=7, init=False)
        label: str = field(default="l", hash=False)

    @dc(frozen=True, slots=True)
    class FrozenSlotsInitFalse:
        a: int
        b: int = field(default=2, init=False)

    @dc
    class PostInit:
        a: int
        b: int = 0

        def __post_init__(self) -> None:
            self.b = self.a * 2

    @dc(frozen=True)
    class OwnMethods:
        a: int

        def __repr__(self) -> str:
            return f"<own {self.a}>"

        def __eq__(self, other: object) -> bool:
            return isinstance(other, OwnMethods)

    @dc(frozen=True)
    class OwnHash:
        a: int

        def __hash__(self) -> int:
            return 42

    @dc
    class SelfField:
        self: int
        other: int = 1

    @dc(kw_only=True)
    class KwBase:
        k: int = 0

    @dc
    class KwChild(KwBase):
        p: int

    @dc(frozen=True)
    class Empty:
        pass

    return {
        "Plain": (Plain, [dict(a=1), dict(a=1, b="y"), dict(a=2)]),
        "Frozen": (Frozen, [dict(a=1), dict(a=1, b="b", c=(1, 2)), dict(a=3, c=(1,))]),
        "FrozenChild": (FrozenChild, [dict(a=1), dict(a=1, d="e"), dict(a=2, b="b", c=(3,))]),
        "Slotted": (Slotted, [dict(power="France", kind="A"), dict(power="France", kind="A", count=2)]),
        "SlottedChild": (SlottedChild, [dict(power="France", kind="A", dest="bur"),
                                        dict(power="France", kind="F", dest="spa/nc", via=True)]),
        "Node": (Node, [dict(key=("move", 1)), dict(key=("move", 2)), dict(key=0.5)]),
        "Pair": (Pair, [dict(left=1, right=2), dict(left=1, right=2, weights=(3,)), dict(left="a", right=None)]),
        "Identity": (Identity, [dict(name="a"), dict(name="a")]),
        "Factories": (Factories, [dict(), dict(items=[1], seen={"x": 1}, total=3, label="m")]),
        "FrozenSlotsInitFalse": (FrozenSlotsInitFalse, [dict(a=1), dict(a=5)]),
        "PostInit": (PostInit, [dict(a=1), dict(a=3, b=9)]),
        "OwnMethods": (OwnMethods, [dict(a=1), dict(a=2)]),
        "OwnHash": (OwnHash, [dict(a=1), dict(a=2)]),
        "SelfField": (SelfField, [dict(self=1), dict(self=2, other=3)]),
        "KwChild": (KwChild, [dict(p=1), dict(p=2, k=5)]),
        "Empty": (Empty, [dict()]),
    }


OURS = _shapes(records.dataclass)
STANDARD = _shapes(dataclasses.dataclass)


def _field_facts(cls: type) -> list[tuple[Any, ...]]:
    return [(f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash, f.compare, f.kw_only, f.metadata)
            for f in dataclasses.fields(cls)]


def _class_facts(cls: type) -> dict[str, Any]:
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    init = cls.__dict__.get("__init__")
    return {
        "qualname": cls.__qualname__,
        "doc": cls.__doc__,
        "signature": str(inspect.signature(cls)),
        "params": {name: getattr(params, name) for name in type(params).__slots__},
        "fields": _field_facts(cls),
        "all fields": sorted(cls.__dataclass_fields__),  # type: ignore[attr-defined]
        "match_args": getattr(cls, "__match_args__", None),
        "slots": cls.__dict__.get("__slots__"),
        "hash is None": cls.__hash__ is None,
        "own methods": sorted(n for n in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__",
                                          "__getstate__", "__setstate__") if n in cls.__dict__),
        # (a default factory's marker in the defaults is an object of each decorator's own: by its text)
        "init": None if init is None else (init.__qualname__, repr(init.__defaults__), repr(init.__kwdefaults__),
                                           init.__annotations__),
        "class defaults": {f.name: cls.__dict__.get(f.name, "-") for f in dataclasses.fields(cls)
                           if not cls.__dict__.get("__slots__")},
    }


def _outcome(fn: Callable[[], Any]) -> Any:
    """What ``fn`` returns, or the type and text of what it raises."""
    try:
        return ("value", fn())
    except Exception as exc:  # noqa: BLE001 - the comparison is the point
        return ("raised", type(exc).__name__, str(exc))


def _instance_facts(cls: type, kwargs: list[dict[str, Any]]) -> list[Any]:
    objs = [cls(**kw) for kw in kwargs]
    facts: list[Any] = []
    for i, obj in enumerate(objs):
        facts.append(repr(obj))
        facts.append([_outcome(lambda: obj == other) for other in objs])
        facts.append([_outcome(lambda: obj != other) for other in objs])
        facts.append(_outcome(lambda: obj == object()))
        facts.append(_outcome(lambda: hash(obj)) if cls.__name__ not in ("Identity",) else hash(obj) == object.__hash__(obj))
        facts.append(_outcome(lambda: setattr(obj, dataclasses.fields(cls)[0].name if dataclasses.fields(cls) else "a", 9)))
        if cls.__name__ != "FrozenSlotsInitFalse" and not cls.__dict__.get("__slots__"):
            facts.append(_outcome(lambda: setattr(obj, "not_a_field", 1)))
        facts.append(_outcome(lambda: delattr(obj, dataclasses.fields(cls)[0].name if dataclasses.fields(cls) else "a")))
        facts.append(_outcome(lambda: repr(obj)))
        facts.append(_outcome(lambda: dataclasses.asdict(obj)))
        facts.append(_outcome(lambda: repr(copy.copy(obj))))
        facts.append(_outcome(lambda: repr(copy.deepcopy(obj))))
        facts.append(_outcome(lambda: copy.deepcopy(obj) == obj))
        first = dataclasses.fields(cls)[0] if dataclasses.fields(cls) else None
        if first is not None and first.init:
            facts.append(_outcome(lambda: repr(dataclasses.replace(obj, **{first.name: kwargs[i].get(first.name)}))))
        facts.append([repr(getattr(obj, f.name, "-")) for f in dataclasses.fields(cls)])
        del i
    facts.append(_outcome(lambda: repr(cls())))
    facts.append(_outcome(lambda: repr(cls(**kwargs[0], extra=1))))
    facts.append(_outcome(lambda: repr(cls(*kwargs[0].values()))))
    return facts


@pytest.mark.parametrize("name", sorted(OURS))
def test_a_class_is_the_one_the_standard_decorator_makes(name: str) -> None:
    ours, kwargs = OURS[name]
    standard, _ = STANDARD[name]
    assert dataclasses.is_dataclass(ours)
    assert _class_facts(ours) == _class_facts(standard)
    assert _instance_facts(ours, kwargs) == _instance_facts(standard, kwargs)


@pytest.mark.parametrize("name", ["Plain", "Frozen", "Slotted", "SlottedChild", "Pair", "FrozenSlotsInitFalse"])
def test_its_instances_validate_as_the_standard_ones(name: str) -> None:
    ours, kwargs = OURS[name]
    standard, _ = STANDARD[name]
    for kw in kwargs:
        a, b = TypeAdapter(ours).validate_python(kw), TypeAdapter(standard).validate_python(kw)
        assert type(a) is ours and repr(a) == repr(b)
        assert TypeAdapter(ours).dump_python(a) == TypeAdapter(standard).dump_python(b)
    bad = {"a": "not a number"} if name in ("Plain", "Frozen", "FrozenSlotsInitFalse") else {}
    errors = []
    for cls in (ours, standard):
        with pytest.raises(Exception) as info:
            TypeAdapter(cls).validate_python(bad)
        errors.append(str(info.value).replace(cls.__qualname__, "?"))
    assert errors[0] == errors[1]


def test_a_recursive_record_prints_as_the_standard_one() -> None:
    texts = []
    for dc in (records.dataclass, dataclasses.dataclass):
        @dc
        class Box:
            items: list[Any]

        box = Box([])
        box.items.append(box)
        texts.append(repr(box))
    assert texts[0] == texts[1] == "test_a_recursive_record_prints_as_the_standard_one.<locals>.Box(items=[...])"


def test_the_standard_errors_of_bad_declarations() -> None:
    """A non-default field after a default one; frozen-ness that does not match the base's; an
    explicit hash with unsafe_hash; a frozen class with its own __setattr__."""

    def declare(dc: Callable[..., Any], case: str) -> Any:
        def run() -> Any:
            if case == "default order":
                @dc
                class A:
                    a: int = 1
                    b: int
                return A
            if case in ("thaw", "freeze"):
                @dc(frozen=case == "thaw")
                class Base:
                    a: int

                @dc(frozen=case == "freeze")
                class Child(Base):
                    b: int = 0
                return Child
            if case == "unsafe hash":
                @dc(unsafe_hash=True)
                class H:
                    a: int

                    def __hash__(self) -> int:
                        return 1
                return H
            @dc(frozen=True)
            class S:
                a: int

                def __setattr__(self, name: str, value: Any) -> None:
                    pass
            return S
        return _outcome(run)

    for case in ("default order", "thaw", "freeze", "unsafe hash", "own setattr"):
        got, want = declare(records.dataclass, case), declare(dataclasses.dataclass, case)
        assert got[0] == "raised" and got == want, case


def test_a_frozen_base_stays_frozen_when_a_class_derives_from_it() -> None:
    """A frozen child is made while its frozen bases' parameters say they are not (its
    ``__setattr__`` is not compiled): afterwards they are the same parameters, also when making
    the child failed."""

    @records.dataclass(frozen=True)
    class Base:
        a: int = 0

    params = Base.__dataclass_params__  # type: ignore[attr-defined]

    @records.dataclass(frozen=True)
    class Child(Base):
        b: int = 1

    with pytest.raises(ValueError, match="mutable default"):  # (raised by the standard decorator)
        @records.dataclass(frozen=True)
        class Bad(Base):
            c: list[int] = []  # noqa: RUF012

    assert Base.__dataclass_params__ is params and params.frozen  # type: ignore[attr-defined]
    assert Child.__dataclass_params__.frozen  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'a'"):
        setattr(Child(), "a", 2)


def test_an_init_is_made_when_it_is_first_called() -> None:
    """Until a record is first made through ``__init__``, the class's ``__init__`` is a stand-in
    with the same signature, defaults and errors; its first call puts the real one in its place
    (a plain subclass's first instance too)."""

    @records.dataclass(frozen=True)
    class A:
        a: int
        b: list[int] = field(default_factory=list)
        c: str = "c"

    stub = A.__dict__["__init__"]
    signature, annotations, defaults = inspect.signature(A), stub.__annotations__, stub.__defaults__
    errors = [_outcome(lambda: A()), _outcome(lambda: A(1, [], "c", 4)), _outcome(lambda: A(1, d=2))]
    assert A.__dict__["__init__"] is stub and errors[0][0] == "raised"

    class B(A):
        pass

    first = B(1)
    made = A.__dict__["__init__"]
    assert made is not stub and made.__qualname__ == stub.__qualname__ == f"{A.__qualname__}.__init__"
    assert repr(first).endswith("B(a=1, b=[], c='c')") and A(2, [3]).b == [3] and A(a=2, c="d").c == "d"
    assert (inspect.signature(A), made.__annotations__, made.__defaults__) == (signature, annotations, defaults)
    assert [_outcome(lambda: A()), _outcome(lambda: A(1, [], "c", 4)), _outcome(lambda: A(1, d=2))] == errors
    assert A.__dict__["__init__"] is made


def test_the_package_records_are_dataclasses_that_pickle_and_validate() -> None:
    unit = Unit(power="France", kind="A", location="par")
    bodies = [Hold(unit=0), Move(unit=0, dest="bur"), Support(unit=1, target=0, dest="bur"),
              Convoy(unit=2, target=0, dest="bel")]
    things: list[Any] = [unit, *bodies, Order(power="France", text="A Par - Bur", body=bodies[1]),
                         Rejected(power="France", text="A Par - Mars", severity="invalid", reason="?")]
    for thing in things:
        assert dataclasses.is_dataclass(thing) and thing.__dataclass_params__.frozen
        again = pickle.loads(pickle.dumps(thing))
        assert again == thing and hash(again) == hash(thing) and repr(again) == repr(thing)
        if not isinstance(thing, Order):  # (pydantic reads an order's body as the base kind: OrderBody)
            assert TypeAdapter(type(thing)).validate_python(dataclasses.asdict(thing)) == thing
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(thing, dataclasses.fields(thing)[0].name, None)
    assert repr(unit) == "Unit(power='France', kind='A', location='par', count=1)"
    assert hash(unit) == hash(("France", "A", "par", 1))


def test_a_frozen_slots_record_refuses_a_new_attribute_as_frozen() -> None:
    """The one place the two differ: a frozen slots class refuses an attribute that is no field.
    Python 3.11's own does so with a TypeError of ``super()`` (its ``__setattr__`` keeps the class
    from before ``__slots__`` were added); this one raises the frozen error, as for a field."""
    @records.dataclass(frozen=True, slots=True)
    class A:
        a: int

    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'zz'"):
        setattr(A(1), "zz", 1)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'zz'"):
        delattr(A(1), "zz")
