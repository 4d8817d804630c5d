"""The space of rule readings: which options a computation reads, and options as model literals.

Rule options are values (:class:`dipsat.rules.RuleOptions`).  To study many readings at once,
the code that adjudicates a turn is run inside a :class:`Scope`, with a *recording* copy of the
options (:func:`recording`): every read of an option field goes through the scope, which

* returns the value the scope fixes for it (and notes the read), or
* for an option left **free**, stops the computation (:class:`Wanted`): it reads the option
  directly, so the option must be enumerated outside the model, one run per value, or
* for a free option asked through :meth:`RuleOptions.cases` / :meth:`RuleOptions.choose` — the
  rules code's declaration that a formula depends on an option — gives one boolean literal per
  value (``Key("option", i, j)``: the ``j``-th value of the ``i``-th field), so the formula
  covers every value, each part enforced only under its literal.

A computation is deterministic given the option values it reads, so a result obtained with some
options fixed and none of the free ones read directly holds for every assignment that agrees on
the fixed ones.  :func:`split_by_reads` builds on that: it runs a computation, and wherever it
read a free option directly, splits on that option's values and runs again — a decision tree over
exactly the options the computation consults, and no others.

:func:`explore_reads` is the same tree grown the other way: each run is made under a whole
assignment (nothing free, nothing stopped), records what it read, and the next runs are made only
inside the regions where a read would have gone otherwise.  There a *folding* scope lets rules
code read less than a value: :meth:`RuleOptions.pick` (``among``, ``cases_of``, ``choose``) applies
its function to every value and notes only which values give the same result here, so an option
whose formula or route is alike under every value is not read at all.  This is the fingerprint's
quick path: most turns read nothing, and are one adjudication for every assignment.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import field
from functools import lru_cache
from itertools import product
from typing import Any, Callable, Generic, Iterator, Literal, Mapping, Optional, Sequence, TypeVar, get_args, get_origin

from pydantic import BaseModel

from dipsat.engine.formulas import FALSE, TRUE, VAR, Formula, Key
from dipsat.records import dataclass

OPTION_KIND = "option"  # the kind of the keys of option literals

Assignment = dict[str, Any]  # option name -> value
T = TypeVar("T")


@lru_cache(maxsize=None)
def option_values(model: type[BaseModel], name: str) -> tuple[Any, ...]:
    """The values a categorical option may take (``Literal`` choices, or ``True``/``False``);
    empty for an option whose values are not a short list (a seed, a list of draws)."""
    ann = model.model_fields[name].annotation
    if ann is bool:
        return (True, False)
    if get_origin(ann) is Literal:
        return tuple(get_args(ann))
    return ()


def categorical_options(model: type[BaseModel]) -> list[str]:
    """The options of ``model`` with at least two values, in declaration order."""
    return [n for n in model.model_fields if n != "name" and len(option_values(model, n)) > 1]


def literal_key(model: type[BaseModel], name: str, value: Any) -> Key:
    """The key of the literal "option ``name`` has ``value``"."""
    names = list(model.model_fields)
    return Key(OPTION_KIND, names.index(name), option_values(model, name).index(value))


def literal_of(model: type[BaseModel], key: Key) -> tuple[str, Any]:
    """``(option, value)`` of an option literal's key."""
    name = list(model.model_fields)[key.unit]
    return name, option_values(model, name)[key.part]


@dataclass
class Scope:
    """What a run may read: ``fixed`` options have a value; ``free`` ones are left to the model
    (literals through ``cases``/``choose``) or, read directly, are ``wanted`` outside it."""

    model: type[BaseModel]
    fixed: Assignment = field(default_factory=dict)
    free: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    reads: Assignment = field(default_factory=dict)  # fixed options read, with their values
    wanted: list[str] = field(default_factory=list)  # free options read directly
    split: list[str] = field(default_factory=list)  # free options the formulas were split on
    log: list[str] = field(default_factory=list)  # every read, in order
    in_model: bool = True  # may free options be split on in formulas (else every read is direct)
    fold: bool = False  # choose()/pick() try every value and read only which of them act alike
    seen: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)  # (fold) each read: the values acting as the one read

    def read(self, name: str, base: Any) -> Any:
        self.log.append(name)
        if name in self.fixed:
            value = self.fixed[name]
            self.reads[name] = value
            if self.fold:
                self.seen.append((name, (value,)))
            return value
        if name in self.free:
            if name not in self.wanted:
                self.wanted.append(name)
            raise Wanted(name)
        self.reads[name] = base
        return base

    def cases(self, name: str) -> list[tuple[Formula, Any]]:
        """A free option's values, each with its literal (the option is split on)."""
        if name not in self.split:
            self.split.append(name)
        return [(VAR(literal_key(self.model, name, v)), v) for v in self.free[name]]

    def literals(self, assignment: Mapping[str, Any]) -> dict[Key, bool]:
        """The values of the literals of the split options under ``assignment``."""
        out: dict[Key, bool] = {}
        for name in self.split:
            for v in self.free[name]:
                out[literal_key(self.model, name, v)] = assignment[name] == v
        return out


class Wanted(BaseException):
    """A run read a free option directly: it stops, and is run again once per value.  (Not an
    ``Exception``: no handler of the code under study may swallow it.)"""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


_SCOPE: ContextVar[Optional[Scope]] = ContextVar("dipsat_option_scope", default=None)


@contextmanager
def scoped(scope: Scope) -> Iterator[Scope]:
    token = _SCOPE.set(scope)
    try:
        yield scope
    finally:
        _SCOPE.reset(token)


def current_scope() -> Optional[Scope]:
    return _SCOPE.get()


_RECORDING: dict[type[BaseModel], type[BaseModel]] = {}
_FIELDS: dict[type, frozenset[str]] = {}


def recording(opts: BaseModel) -> Any:
    """A copy of ``opts`` (an instance of a subclass of its model) whose option reads go through
    the current :class:`Scope`; outside any scope it behaves as ``opts``."""
    base = type(opts)
    cls = _RECORDING.get(base)
    if cls is None:
        fields = frozenset(n for n in base.model_fields if n != "name")

        def __getattribute__(self: Any, name: str) -> Any:
            value = object.__getattribute__(self, name)
            if name in fields:
                scope = _SCOPE.get()
                if scope is not None:
                    return scope.read(name, value)
            return value

        cls = type(base.__name__, (base,), {"__getattribute__": __getattribute__, "__module__": base.__module__})
        _RECORDING[base] = cls
        _FIELDS[cls] = fields
    return cls.model_validate(opts.model_dump())


def option_cases(opts: BaseModel, name: str) -> list[tuple[Formula, Any]]:
    """See :meth:`dipsat.rules.RuleOptions.cases`."""
    scope = _SCOPE.get()
    if scope is None or name not in scope.free or not scope.in_model:
        return [(TRUE, getattr(opts, name))]
    return scope.cases(name)


def option_pick(opts: BaseModel, name: str, of: Callable[[Any], T]) -> T:
    """See :meth:`dipsat.rules.RuleOptions.pick`.  Under a folding scope (:func:`explore_reads`)
    ``of`` is applied to every value, and what is read is only which values give the same as the
    one set: a result alike under every value does not depend on the option at all."""
    scope = _SCOPE.get()
    if scope is not None and scope.fold and name in scope.fixed:
        values = option_values(scope.model, name)
        results = [of(v) for v in values]
        mine = results[values.index(scope.fixed[name])]
        alike = tuple(v for v, r in zip(values, results) if r == mine)
        if len(alike) < len(values):
            scope.log.append(name)
            scope.reads[name] = scope.fixed[name]
            scope.seen.append((name, alike))
        return mine
    return of(getattr(opts, name))


def option_cases_of(opts: BaseModel, name: str, of: Callable[[Any], T]) -> list[tuple[Formula, T]]:
    """See :meth:`dipsat.rules.RuleOptions.cases_of`."""
    scope = _SCOPE.get()
    if scope is not None and scope.fold and name in scope.fixed:
        return [(TRUE, option_pick(opts, name, of))]
    return [(g, of(v)) for g, v in option_cases(opts, name)]


def option_choose(opts: BaseModel, name: str, build: Callable[[Any], Formula]) -> Formula:
    """See :meth:`dipsat.rules.RuleOptions.choose` (folded as :func:`option_pick` is)."""
    scope = _SCOPE.get()
    if scope is not None and scope.fold and name in scope.fixed:
        return option_pick(opts, name, build)
    cases = option_cases(opts, name)
    if len(cases) == 1:  # one reading (the usual case): its formula, no guard
        return build(cases[0][1])
    return guarded([(g, build(v)) for g, v in cases])


def guarded(cases: Sequence[tuple[Formula, Formula]]) -> Formula:
    """One formula from ``(guard, formula)`` cases whose guards are the literals of one option:
    the formula itself when every case gives the same."""
    from dipsat.engine.formulas import AND, OR

    first = cases[0][1]
    if all(f == first for _, f in cases):
        return first
    return OR(*(AND(g, f) for g, f in cases)) if cases else FALSE


@dataclass
class Leaf(Generic[T]):
    """One result of :func:`split_by_reads`: it holds for every assignment that agrees with
    ``assignment``; ``reads`` are the fixed options the run read, ``scope`` its scope."""

    assignment: Assignment
    result: T
    scope: Scope


def split_by_reads(run: Callable[[Scope], T], model: type[BaseModel], candidates: Sequence[str],
                   fixed: Optional[Assignment] = None, limit: int = 4096, literals: bool = False) -> list[Leaf[T]]:
    """Run ``run`` under scopes that fix more and more options: the free options are the
    ``candidates`` not fixed; where a run reads a free option directly, its result is dropped and
    the run repeated once per value of that option.  With ``literals``, formulas may split on free
    options through :meth:`RuleOptions.cases` (the options split on: ``leaf.scope.split``).  The leaves partition the assignments of the
    candidates (in a fixed order: the tree is the same on every run)."""
    leaves: list[Leaf[T]] = []
    work: list[Assignment] = [dict(fixed or {})]
    runs = 0
    while work:
        a = work.pop(0)
        runs += 1
        if runs > limit:
            raise RuntimeError(f"more than {limit} runs while splitting on rule options")
        scope = Scope(model, fixed=dict(a), free={c: option_values(model, c) for c in candidates if c not in a},
                      in_model=literals)
        try:
            with scoped(scope):
                result = run(scope)
        except Wanted:
            pass
        if scope.wanted:
            name = scope.wanted[0]
            work[0:0] = [{**a, name: v} for v in option_values(model, name)]
            continue
        leaves.append(Leaf(a, result, scope))
    return leaves


@dataclass
class ReadClass(Generic[T]):
    """One result of :func:`explore_reads`: it holds for every assignment whose value of each
    option in ``within`` is one of those listed (the others' values are free)."""

    within: dict[str, tuple[Any, ...]]
    result: T

    def holds(self, a: Assignment) -> bool:
        return all(a[n] in vs for n, vs in self.within.items())


def explore_reads(run: Callable[[Scope], T], model: type[BaseModel], candidates: Sequence[str], start: Assignment,
                  limit: int = 4096) -> list[ReadClass[T]]:
    """The classes of ``run``'s results over the assignments of ``candidates``, found by running it
    under whole assignments and recording what it reads, with no run wasted.

    A run under the assignment ``a`` (``start`` first) is deterministic given what it reads: an
    option's value, or (:meth:`RuleOptions.pick`, :meth:`RuleOptions.choose`) only which of the
    option's values act as ``a``'s does.  So its result holds for every assignment that reads
    alike at every read it made.  An assignment that first reads otherwise at the ``i``-th read
    agrees with the reads before it, so it is found by running again inside that region: the
    values read otherwise at read ``i``, those of the earlier reads kept — one run per class,
    none stopped half-way.  A turn that reads no option is one run: its result holds for every
    assignment.  The classes' regions partition the assignments of the candidates."""
    cands = set(candidates)
    whole = {n: option_values(model, n) for n in candidates}
    classes: list[ReadClass[T]] = []
    work: list[dict[str, tuple[Any, ...]]] = [{}]  # regions still to run, on top of ``start``
    while work:
        if len(classes) >= limit:
            raise RuntimeError(f"more than {limit} runs while splitting on rule options")
        region = work.pop()
        a = {**start, **{n: vs[0] for n, vs in region.items()}}
        scope = Scope(model, fixed={n: a[n] for n in candidates}, in_model=False, fold=True)
        with scoped(scope):
            result = run(scope)
        within = dict(region)
        branches: list[dict[str, tuple[Any, ...]]] = []
        for n, alike in scope.seen:
            if n not in cands:
                continue
            now = within.get(n, whole[n])
            other = tuple(v for v in now if v not in alike)
            if other:
                branches.append({**within, n: other})
                within[n] = tuple(v for v in now if v in alike)
        classes.append(ReadClass(within, result))
        work.extend(reversed(branches))
    return classes


def assignments(model: type[BaseModel], names: Sequence[str], base: Optional[Assignment] = None) -> list[Assignment]:
    """Every assignment of ``names`` (in declaration order of the values), each on top of ``base``."""
    out = []
    for values in product(*(option_values(model, n) for n in names)):
        a = dict(base or {})
        a.update(zip(names, values))
        out.append(a)
    return out
