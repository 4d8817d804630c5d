"""Dataclasses made without compiling their methods: :func:`dataclass` takes the standard library's
arguments and gives the class the standard decorator gives, at a fraction of the cost.

The standard decorator writes each method of a class as source text and compiles it when the class
is made: six for a frozen class (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__``, ``__delattr__``), about four million instructions a class, a quarter of what
``dipsat batch`` executes before its first line.  Here the standard decorator makes the class with
those methods switched off (its fields, ``__match_args__``, ``__slots__``, ... are its own work as
ever), and the methods are attached made:

* ``__eq__``, ``__hash__`` and ``__repr__`` are closures over the class's field names: the same
  tuples of the same fields compared and hashed, the same text (``Unit(power='France', ...)``,
  ``...`` for a record inside itself);
* a frozen class's ``__setattr__`` and ``__delattr__`` raise the same ``FrozenInstanceError``
  (a frozen class whose base is frozen too: see :func:`_under_unfrozen_bases`); a frozen slots
  class pickles as the standard one does;
* ``__init__`` is compiled, from the same text the standard decorator writes (its parameters are
  the fields'): one compilation a class instead of up to six.

``__dataclass_params__``, ``__doc__`` and ``inspect.signature`` are those of the standard class, so
``dataclasses.fields``, ``replace``, ``asdict`` and pydantic treat the class as they treat any
dataclass.  What this decorator does not follow (``order=True``, ``weakref_slot``, ``InitVar``
fields, a frozen class defining its own ``__setattr__``, an explicit ``__hash__`` with
``unsafe_hash``, a frozen class with a non-frozen base) goes to the standard decorator whole.
Type checkers see the standard decorator itself (tests/test_records.py compares the two).
"""

from __future__ import annotations

import _thread
import abc
import builtins
import dataclasses
import inspect
import sys
from operator import attrgetter
from reprlib import recursive_repr
from types import CodeType, FunctionType
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

__all__ = ["dataclass"]

if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
else:

    def dataclass(cls=None, /, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False,
                  match_args=True, kw_only=False, slots=False, weakref_slot=False):
        """:func:`dataclasses.dataclass`, made cheaply (see the module's text)."""
        options = {"init": init, "repr": repr, "eq": eq, "order": order, "unsafe_hash": unsafe_hash, "frozen": frozen,
                   "match_args": match_args, "kw_only": kw_only, "slots": slots, "weakref_slot": weakref_slot}

        def wrap(c: type) -> type:
            return _make(c, options)

        return wrap if cls is None else wrap(cls)


_MISSING = dataclasses.MISSING
_FrozenInstanceError = dataclasses.FrozenInstanceError


class _Factory:
    """The default of a parameter whose field has a default factory (shown as the standard
    decorator shows its own marker)."""

    def __repr__(self) -> str:
        return "<factory>"


_HAS_DEFAULT_FACTORY = _Factory()


def _make(cls: type, options: dict[str, Any]) -> type:
    own = dict(cls.__dict__)  # what the class body defined (the decorator keeps those methods)
    frozen = options["frozen"]
    dataclass_bases = [b for b in cls.__mro__[1:] if getattr(b, "__dataclass_fields__", None) is not None]
    frozen_base = any(getattr(b, "__dataclass_params__").frozen for b in dataclass_bases)
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    if (options["order"] or options["weakref_slot"] or _has_initvar(own)
            or (frozen and ("__setattr__" in own or "__delattr__" in own))
            or (options["unsafe_hash"] and explicit_hash)
            or (frozen and dataclass_bases and not frozen_base)):
        return dataclasses.dataclass(cls, **options)  # (with the standard errors where there are some)
    no_doc = not getattr(cls, "__doc__")
    if no_doc:
        cls.__doc__ = "(written below, from __init__'s signature)"  # the standard decorator's would read object's
    if frozen and frozen_base:
        made = _under_unfrozen_bases(cls, dataclass_bases, options)
    else:
        made = dataclasses.dataclass(cls, init=False, repr=False, eq=False, order=False, unsafe_hash=False,
                                     frozen=False, match_args=options["match_args"], kw_only=options["kw_only"],
                                     slots=options["slots"])
    made.__dataclass_params__ = _params(made.__dataclass_params__, init=options["init"], repr=options["repr"],
                                        eq=options["eq"], unsafe_hash=options["unsafe_hash"], frozen=frozen)
    fields = dataclasses.fields(made)

    def attach(name: str, fn: Callable[..., Any]) -> None:
        fn.__qualname__ = f"{made.__qualname__}.{fn.__name__}"
        setattr(made, name, fn)

    if options["init"] and "__init__" not in own:
        attach("__init__", _init(made, fields, frozen, options["slots"]))
    if options["repr"] and "__repr__" not in own:
        attach("__repr__", _repr([f.name for f in fields if f.repr]))
    if options["eq"] and "__eq__" not in own:
        attach("__eq__", _eq([f.name for f in fields if f.compare]))
    if options["unsafe_hash"] or (options["eq"] and frozen and not explicit_hash):
        attach("__hash__", _hash([f.name for f in fields if (f.compare if f.hash is None else f.hash)]))
    elif options["eq"] and not frozen and not explicit_hash:
        made.__hash__ = None
    if frozen:
        setter, deleter = _frozen(made, frozenset(f.name for f in fields))
        attach("__setattr__", setter)
        attach("__delattr__", deleter)
        if options["slots"]:  # (pickling: the state is set past the frozen __setattr__)
            if "__getstate__" not in own:
                made.__getstate__ = _getstate
            if "__setstate__" not in own:
                made.__setstate__ = _setstate
    if no_doc:
        try:
            text = str(inspect.signature(made)).replace(" -> None", "")
        except (TypeError, ValueError):
            text = ""
        made.__doc__ = made.__name__ + text
    abc.update_abstractmethods(made)
    result: type = made
    return result


def _params(params: Any, **changes: Any) -> Any:
    """A copy of a class's dataclass parameters with ``changes``."""
    return type(params)(**{**{name: getattr(params, name) for name in type(params).__slots__}, **changes})


_BASES_UNFROZEN = _thread.allocate_lock()  # (held while bases' parameters say they are not frozen)


def _under_unfrozen_bases(cls: type, dataclass_bases: Sequence[type], options: dict[str, Any]) -> Any:
    """The standard decorator's class ``cls`` (no methods) for a frozen class with a frozen base.
    Told the class is frozen, the standard decorator would compile its ``__setattr__`` and
    ``__delattr__`` (made here instead, as for any frozen class); told it is not, it refuses a
    frozen base -- the one thing it reads a base's frozen-ness for.  So while it makes the class,
    the frozen bases' parameters say they are not (under a lock; put back whatever happens)."""
    frozen_bases = [(b, params) for b in dataclass_bases
                    if (params := b.__dict__.get("__dataclass_params__")) is not None and params.frozen]
    with _BASES_UNFROZEN:
        try:
            for b, params in frozen_bases:
                setattr(b, "__dataclass_params__", _params(params, frozen=False))
            return dataclasses.dataclass(cls, init=False, repr=False, eq=False, order=False, unsafe_hash=False,
                                         frozen=False, match_args=options["match_args"], kw_only=options["kw_only"],
                                         slots=options["slots"])
        finally:
            for b, params in frozen_bases:
                setattr(b, "__dataclass_params__", params)


def _has_initvar(own: dict[str, Any]) -> bool:
    return any(isinstance(t, dataclasses.InitVar) or t is dataclasses.InitVar or "InitVar" in str(t)
               for t in own.get("__annotations__", {}).values())


def _key(names: Sequence[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of a record's fields ``names``, as the standard methods build it."""
    if len(names) > 1:
        key: Callable[[Any], tuple[Any, ...]] = attrgetter(*names)
        return key
    if names:
        get = attrgetter(names[0])
        return lambda obj: (get(obj),)
    return lambda obj: ()


def _eq(names: Sequence[str]) -> Callable[[Any, Any], Any]:
    key = _key(names)

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _hash(names: Sequence[str]) -> Callable[[Any], int]:
    key = _key(names)

    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __hash__


def _repr(names: Sequence[str]) -> Callable[[Any], str]:
    parts = [(f"{name}=", attrgetter(name)) for name in names]

    @recursive_repr()
    def __repr__(self: Any) -> str:
        text: str = self.__class__.__qualname__
        return text + "(" + ", ".join([label + repr(get(self)) for label, get in parts]) + ")"

    return __repr__


def _frozen(cls: Any, names: frozenset[str]) -> tuple[Callable[..., None], Callable[..., None]]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise _FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise _FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state):
        object.__setattr__(self, f.name, value)


def _init(cls: type, fields: Sequence[dataclasses.Field[Any]], frozen: bool, slots: bool) -> Callable[..., None]:
    """``__init__`` as the standard decorator writes it for these fields: the code of a template of
    as many parameters (compiled once per number of fields) with the fields' names, or, for fields
    a template does not cover (a default factory, a field outside ``__init__``, one called
    ``self``, keyword-only fields before positional ones), compiled from its own text."""
    seen_default = False
    for f in fields:
        if f.init and not f.kw_only:
            if not (f.default is _MISSING and f.default_factory is _MISSING):
                seen_default = True
            elif seen_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
    module = sys.modules.get(cls.__module__)
    space = module.__dict__ if module is not None else {}
    post_init = hasattr(cls, "__post_init__")
    kw = [bool(f.kw_only) for f in fields]
    if (all(f.init and f.default_factory is _MISSING and f.name != "self" for f in fields)
            and kw == sorted(kw)):  # (positional parameters first, in the fields' order)
        return _deferred(cls, fields, lambda: _from_template(fields, frozen, post_init, space))
    return _deferred(cls, fields, lambda: _compiled(fields, frozen, slots, post_init, space))


def _default(f: dataclasses.Field[Any]) -> Any:
    """A parameter's default: the field's, or the marker of a default factory (MISSING: none)."""
    return _HAS_DEFAULT_FACTORY if f.default_factory is not _MISSING else f.default


def _first_call(self):  # type: ignore[no-untyped-def]  # (the code of every deferred __init__, renamed)
    _install(self, locals())  # type: ignore[name-defined]  # noqa: F821  (a name of the function's own globals)


def _deferred(cls: type, fields: Sequence[dataclasses.Field[Any]], make: Callable[[], Callable[..., None]]
              ) -> Callable[..., None]:
    """``__init__``, made (its code compiled, or a template's renamed) when it is first called:
    about a third of the package's records are never made through it (their modules make them in
    one step, :func:`dipsat.models.new_record`), and making one costs about as much as the rest of
    its class.  Until then it is a function with the same parameters, defaults and annotations
    (``inspect.signature``, its errors for missing or unexpected arguments: the same) whose code
    makes the real one, puts it on the class in its place and calls it."""
    positional = [f for f in fields if f.init and not f.kw_only]
    keywords = [f for f in fields if f.init and f.kw_only]
    self_name = "__dataclass_self__" if any(f.name == "self" for f in fields) else "self"
    names = (self_name, *(f.name for f in positional), *(f.name for f in keywords))
    code = _first_call.__code__.replace(co_name="__init__", co_qualname=f"{cls.__qualname__}.__init__",
                                        co_argcount=1 + len(positional), co_kwonlyargcount=len(keywords),
                                        co_varnames=names, co_nlocals=len(names))
    made: list[Callable[..., None]] = []

    def install(obj: Any, values: dict[str, Any]) -> None:
        if not made:
            made.append(make())
            made[0].__qualname__ = stub.__qualname__
            if cls.__dict__.get("__init__") is stub:
                setattr(cls, "__init__", made[0])
        del values[self_name]
        made[0](obj, **values)

    stub: Any = FunctionType(code, {"_install": install, "__builtins__": builtins}, "__init__",
                             tuple(_default(f) for f in positional if _default(f) is not _MISSING) or None)
    stub.__kwdefaults__ = {f.name: _default(f) for f in keywords if _default(f) is not _MISSING} or None
    stub.__annotations__ = {**{f.name: f.type for f in positional}, **{f.name: f.type for f in keywords},
                            "return": None}
    result: Callable[..., None] = stub
    return result


# (number of fields, frozen, __post_init__) -> the code of an __init__ of fields f0, f1, ... and the
# cells it reads (the standard decorator's name for ``object``)
_TEMPLATES: dict[tuple[int, bool, bool], tuple[CodeType, Any]] = {}


def _from_template(fields: Sequence[dataclasses.Field[Any]], frozen: bool, post_init: bool,
                   space: dict[str, Any]) -> Callable[..., None]:
    key = (len(fields), frozen, post_init)
    if key not in _TEMPLATES:
        placeholders = [f"f{i}" for i in range(len(fields))]
        made = _compile(placeholders, [], frozen, post_init, "self", {}, {})
        _TEMPLATES[key] = (made.__code__, made.__closure__)
    code, closure = _TEMPLATES[key]
    rename = {f"f{i}": f.name for i, f in enumerate(fields)}

    def renamed(names: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(rename.get(n, n) if isinstance(n, str) else n for n in names)

    positional = [f for f in fields if not f.kw_only]
    code = code.replace(co_varnames=renamed(code.co_varnames), co_consts=renamed(code.co_consts),
                        co_names=renamed(code.co_names), co_argcount=1 + len(positional),
                        co_kwonlyargcount=len(fields) - len(positional))
    init: Any = FunctionType(code, space, "__init__", tuple(f.default for f in positional if f.default is not _MISSING)
                             or None, closure)
    init.__kwdefaults__ = {f.name: f.default for f in fields if f.kw_only and f.default is not _MISSING} or None
    init.__annotations__ = {**{f.name: f.type for f in positional}, **{f.name: f.type for f in fields if f.kw_only},
                            "return": None}
    result: Callable[..., None] = init
    return result


def _compiled(fields: Sequence[dataclasses.Field[Any]], frozen: bool, slots: bool, post_init: bool,
              space: dict[str, Any]) -> Callable[..., None]:
    self_name = "__dataclass_self__" if any(f.name == "self" for f in fields) else "self"
    names: dict[str, Any] = {}
    body = []
    for f in fields:
        default = f"_dflt_{f.name}"
        if f.default_factory is not _MISSING:
            names[default] = f.default_factory
            value = f"{default}() if {f.name} is _HAS_DEFAULT_FACTORY else {f.name}" if f.init else f"{default}()"
        elif f.init:
            value = f.name
        elif slots and f.default is not _MISSING:
            names[default] = f.default
            value = default
        else:
            continue  # read from the class attribute holding the default
        body.append((f.name, value))

    # (the parameters' defaults and annotations are set on the function, not written in its text:
    # a shorter text to compile, the same function)
    positional = [f for f in fields if f.init and not f.kw_only]
    keywords = [f for f in fields if f.init and f.kw_only]

    init: Any = _compile([f.name for f in positional], [f.name for f in keywords], frozen, post_init, self_name,
                         names, space, body)
    init.__defaults__ = tuple(_default(f) for f in positional if _default(f) is not _MISSING) or None
    init.__kwdefaults__ = {f.name: _default(f) for f in keywords if _default(f) is not _MISSING} or None
    init.__annotations__ = {**{f.name: f.type for f in positional}, **{f.name: f.type for f in keywords},
                            "return": None}
    result: Callable[..., None] = init
    return result


def _compile(params: list[str], keywords: list[str], frozen: bool, post_init: bool, self_name: str,
             names: dict[str, Any], space: dict[str, Any], body: Optional[list[tuple[str, str]]] = None
             ) -> Callable[..., None]:
    """The standard decorator's text of ``__init__``, compiled: parameters ``params`` (and
    keyword-only ``keywords``) assigned to the fields of the same names (or ``body``: (field,
    value) pairs), ``names`` the values the text refers to."""
    if body is None:
        body = [(p, p) for p in params]
    names = {**names, "_HAS_DEFAULT_FACTORY": _HAS_DEFAULT_FACTORY, "__dataclass_builtins_object__": object,
             "_return_type": None}
    lines = [f"__dataclass_builtins_object__.__setattr__({self_name},{name!r},{value})" if frozen
             else f"{self_name}.{name}={value}" for name, value in body]
    if post_init:
        lines.append(f"{self_name}.__post_init__()")
    signature = [self_name, *params, *(["*", *keywords] if keywords else [])]
    text = (f"def __create_fn__({', '.join(names)}):\n def __init__({','.join(signature)})->_return_type:\n"
            + "\n".join(f"  {line}" for line in lines or ["pass"]) + "\n return __init__")
    made: dict[str, Any] = {}
    # (compiled as the standard decorator's text is: not under this module's ``annotations`` future)
    exec(compile(text, "<string>", "exec", dont_inherit=True), space, made)
    init: Callable[..., None] = made["__create_fn__"](**names)
    return init
