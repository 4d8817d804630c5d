"""The language of adjudication decisions: keys, boolean formulas and integer expressions.

Every adjudication decision (a move succeeds, a support is given, a convoy is carried out, a
path exists, a battle's losses, ...) is named by a typed :class:`Key` and defined by one
expression over the other decisions:

* a **boolean formula** (:data:`Formula`): ``True`` / ``False``, :class:`Var` (another boolean
  decision), :class:`Not`, :class:`And`, :class:`Or`, or :class:`Ge` -- "the weighted sum of these
  terms is at least ``k``", where a term is a boolean formula (counting 0 or 1) or an integer
  expression (strength comparisons, ``x >= y``);
* an **integer expression** (:data:`IntExpr`): an ``int`` constant, :class:`IntVar` (another
  integer decision), :class:`Sum` (weighted terms plus a constant: sums and differences),
  :class:`Min`, :class:`Max` or :class:`If`.

The constructors :func:`VAR`, :func:`NOT`, :func:`AND`, :func:`OR`, :func:`GE`, :func:`INT`,
:func:`SUM`, :func:`MIN`, :func:`MAX` and :func:`IF` fold constants as they build, so a
formula is never larger than it must be.  Folding never changes the meaning of a formula.
Reading them: :func:`variables`, :func:`evaluate`, :func:`value_of`, substitution of known
values, :func:`bounds_of` (interval arithmetic over declared domains).

Keys sort by kind, then unit, so models are built in a fixed order; a system of equations over
them is :class:`dipsat.engine.equations.System`.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping, NamedTuple, Optional, Sequence, Union

from typing_extensions import TypeIs

from dipsat.records import dataclass


class Key(NamedTuple):
    """The id of one decision: its kind (a domain word: ``move``, ``support``, ``convoy``,
    ``path``, ``force``, or whatever a variant decides), the unit (order) it belongs to, and a
    part number where one unit has several decisions of a kind.  Immutable, hashable and sorted
    by ``(kind, unit, part)``."""

    kind: str
    unit: int
    part: int = 0

    def __str__(self) -> str:
        return f"{self.kind} #{self.unit}" + (f".{self.part}" if self.part else "")


# -- boolean formulas ----------------------------------------------------------------------------
# The nodes are slots records compared and hashed by value.  They are values: nothing assigns to
# a node after it is made (they are not ``frozen`` only because a frozen record costs twice as
# much to make, and a turn makes about a hundred).


@dataclass(slots=True, unsafe_hash=True)
class Var:
    """The value of a boolean decision."""

    key: Key


@dataclass(slots=True, unsafe_hash=True)
class Not:
    arg: "Formula"


@dataclass(slots=True, unsafe_hash=True)
class And:
    args: tuple["Formula", ...]


@dataclass(slots=True, unsafe_hash=True)
class Or:
    args: tuple["Formula", ...]


@dataclass(slots=True, unsafe_hash=True)
class Ge:
    """``sum(w * t for w, t in terms) >= k``; a term is a boolean formula (0 or 1) or an integer
    expression."""

    terms: tuple[tuple[int, "Term"], ...]
    k: int


# -- integer expressions -------------------------------------------------------------------------


@dataclass(slots=True, unsafe_hash=True)
class IntVar:
    """The value of an integer decision."""

    key: Key


@dataclass(slots=True, unsafe_hash=True)
class Sum:
    """``const + sum(w * t for w, t in terms)``; a term is a boolean formula (0 or 1) or an
    integer expression.  Differences are sums with negative weights."""

    terms: tuple[tuple[int, "Term"], ...]
    const: int = 0


@dataclass(slots=True, unsafe_hash=True)
class Min:
    args: tuple["IntExpr", ...]


@dataclass(slots=True, unsafe_hash=True)
class Max:
    args: tuple["IntExpr", ...]


@dataclass(slots=True, unsafe_hash=True)
class If:
    """``then`` when ``cond`` holds, else ``other``."""

    cond: "Formula"
    then: "IntExpr"
    other: "IntExpr"


Formula = Union[bool, Var, Not, And, Or, Ge]
IntExpr = Union[int, IntVar, Sum, Min, Max, If]
Term = Union[Formula, IntExpr]  # inside Ge and Sum: a boolean counts 0 or 1
Definition = Union[Formula, IntExpr]
Value = Union[bool, int]
Values = Mapping["Key", Value]  # the values of decisions, by key

_BOOL_NODES = (Var, Not, And, Or, Ge)
_INT_NODES = (IntVar, Sum, Min, Max, If)

TRUE: Formula = True
FALSE: Formula = False


_FORMULA_CLASSES = frozenset((bool, *_BOOL_NODES))
_INT_CLASSES = frozenset((int, *_INT_NODES))


def is_formula(t: Term) -> TypeIs[Formula]:
    """Is this term a boolean formula (as opposed to an integer expression)?"""
    c = t.__class__
    if c in _FORMULA_CLASSES:
        return True
    return c not in _INT_CLASSES and isinstance(t, _BOOL_NODES)


# -- constructors with constant folding -------------------------------------------------------------


def VAR(name: Key) -> Formula:
    return Var(name)


def NOT(f: Formula) -> Formula:
    if f is True:
        return False
    if f is False:
        return True
    if f.__class__ is Not:
        return f.arg
    return Not(f)


def AND(*fs: Formula) -> Formula:
    out: list[Formula] = []
    for f in fs:
        if f is False:
            return False
        if f is True:
            continue
        if f.__class__ is And:
            out.extend(f.args)
        else:
            out.append(f)
    if not out:
        return True
    if len(out) == 1:
        return out[0]
    return And(tuple(out))


def OR(*fs: Formula) -> Formula:
    out: list[Formula] = []
    for f in fs:
        if f is True:
            return True
        if f is False:
            continue
        if f.__class__ is Or:
            out.extend(f.args)
        else:
            out.append(f)
    if not out:
        return False
    if len(out) == 1:
        return out[0]
    return Or(tuple(out))


def _split_terms(terms: Iterable[tuple[int, Term]]) -> tuple[int, list[tuple[int, Term]]]:
    """Constant part and live terms (constants, booleans and folded sums merged away)."""
    const = 0
    live: list[tuple[int, Term]] = []
    for w, t in terms:
        if w == 0 or t is False:
            continue
        if t is True:
            const += w
        elif isinstance(t, int):
            const += w * t
        elif isinstance(t, Sum):
            const += w * t.const
            live.extend((w * w2, t2) for w2, t2 in t.terms)
        else:
            live.append((w, t))
    return const, live


def GE(terms: Iterable[tuple[int, Term]], k: int) -> Formula:
    """``sum(w * t for w, t in terms) >= k`` with constant folding.  A term may be a boolean
    formula or an integer expression (``GE([(1, INT(x)), (-1, INT(y))], 0)`` is ``x >= y``)."""
    const, live = _split_terms(terms)
    k2 = k - const
    lo = hi = 0  # the least and the most the live terms can add up to, when all are booleans
    ones = True  # every weight is 1
    fs: list[Formula] = []
    for w, t in live:  # (no weight is 0: those terms are gone)
        if not is_formula(t):
            break  # an integer expression: no bounds without domains
        fs.append(t)
        if w < 0:
            lo += w
            ones = False
        else:
            hi += w
            ones = ones and w == 1
    else:
        if lo >= k2:
            return True
        if hi < k2:
            return False
        if len(live) == 1 and live[0][0] > 0:
            return fs[0]
        if ones and k2 == 1:
            return OR(*fs)
        if ones and k2 == len(live):
            return AND(*fs)
    return Ge(tuple(live), k2)


def INT(name: Key) -> IntExpr:
    """The value of an integer decision."""
    return IntVar(name)


def SUM(terms: Iterable[tuple[int, Term]], const: int = 0) -> IntExpr:
    """``const + sum(w * t for w, t in terms)`` (nested sums flattened, constants folded)."""
    c, live = _split_terms(terms)
    if not live:
        return const + c
    if len(live) == 1 and live[0][0] == 1 and const + c == 0:
        only = live[0][1]
        if not is_formula(only):
            return only
    return Sum(tuple(live), const + c)


def _minmax(args: Sequence[IntExpr], pick: Callable[[Iterable[int]], int], node: type[Min] | type[Max]) -> IntExpr:
    consts: list[int] = []
    rest: list[IntExpr] = []
    for a in args:
        if isinstance(a, int):
            consts.append(a)
        elif isinstance(a, node):
            rest.extend(a.args)
        else:
            rest.append(a)
    if consts:
        rest.append(pick(consts))
    if not rest:
        raise ValueError("min/max of no values")
    if len(rest) == 1:
        return rest[0]
    return node(tuple(rest))


def MIN(*args: IntExpr) -> IntExpr:
    return _minmax(args, min, Min)


def MAX(*args: IntExpr) -> IntExpr:
    return _minmax(args, max, Max)


def IF(cond: Formula, then: IntExpr, other: IntExpr) -> IntExpr:
    if cond is True:
        return then
    if cond is False or then == other:
        return other
    return If(cond, then, other)


# -- reading formulas ------------------------------------------------------------------------------


def references(f: Definition, out: list[Key]) -> list[Key]:
    """The decisions a definition refers to, appended to ``out`` (with repeats, in an order fixed
    by the definition; :func:`variables` is their set)."""
    c = f.__class__
    if c is Var or c is IntVar:
        out.append(f.key)  # type: ignore[union-attr]
    elif c is And or c is Or or c is Min or c is Max:
        for g in f.args:  # type: ignore[union-attr]
            if g.__class__ is Var:
                out.append(g.key)
            else:
                references(g, out)
    elif c is Not:
        references(f.arg, out)  # type: ignore[union-attr]
    elif c is Ge or c is Sum:
        for _, g in f.terms:  # type: ignore[union-attr]
            references(g, out)
    elif c is If:
        references(f.cond, out)  # type: ignore[union-attr]
        references(f.then, out)  # type: ignore[union-attr]
        references(f.other, out)  # type: ignore[union-attr]
    elif c is not bool and c is not int:  # (a subclass of a node, or of int)
        _references_slow(f, out)
    return out


def _references_slow(f: Definition, out: list[Key]) -> None:
    if isinstance(f, int):
        return
    if isinstance(f, (Var, IntVar)):
        out.append(f.key)
    elif isinstance(f, Not):
        references(f.arg, out)
    elif isinstance(f, (And, Or, Min, Max)):
        for g in f.args:
            references(g, out)
    elif isinstance(f, (Ge, Sum)):
        for _, g in f.terms:
            references(g, out)
    elif isinstance(f, If):
        references(f.cond, out)
        references(f.then, out)
        references(f.other, out)


def variables(f: Definition, out: Optional[set[Key]] = None) -> set[Key]:
    """Every decision a formula or integer expression refers to."""
    if out is None:
        out = set()
    out.update(references(f, []))
    return out


def evaluate(f: Formula, values: Mapping[Key, Value]) -> bool:
    """The truth of a formula under known values (every decision it refers to must be known)."""
    c = f.__class__
    if c is bool:
        return f  # type: ignore[return-value]
    if c is Var:
        return bool(values[f.key])  # type: ignore[union-attr]
    if c is And:
        for g in f.args:  # type: ignore[union-attr]
            if not (bool(values[g.key]) if g.__class__ is Var else evaluate(g, values)):
                return False
        return True
    if c is Or:
        for g in f.args:  # type: ignore[union-attr]
            if bool(values[g.key]) if g.__class__ is Var else evaluate(g, values):
                return True
        return False
    if c is Not:
        return not evaluate(f.arg, values)  # type: ignore[union-attr]
    if c is Ge:
        total = 0
        for w, g in f.terms:  # type: ignore[union-attr]
            gc = g.__class__
            if gc is Var:
                if values[g.key]:  # type: ignore[union-attr]
                    total += w
            elif gc is bool:
                if g:
                    total += w
            else:
                total += w * value_of(g, values)
        return total >= f.k  # type: ignore[union-attr]
    if isinstance(f, Var):
        return bool(values[f.key])
    if isinstance(f, Not):
        return not evaluate(f.arg, values)
    if isinstance(f, And):
        return all(evaluate(g, values) for g in f.args)
    if isinstance(f, Or):
        return any(evaluate(g, values) for g in f.args)
    if isinstance(f, Ge):
        return sum(w * value_of(g, values) for w, g in f.terms) >= f.k
    if f is True or f is False:
        return f
    raise TypeError(f"not a boolean formula: {f!r}")


def value_of(e: Term, values: Mapping[Key, Value]) -> int:
    """The value of an integer expression (a boolean formula counts 0 or 1)."""
    c = e.__class__
    if c is int or c is bool:
        return int(e)  # type: ignore[arg-type]
    if c is IntVar:
        return int(values[e.key])  # type: ignore[union-attr]
    if c is Sum:
        return e.const + sum(w * value_of(g, values) for w, g in e.terms)  # type: ignore[union-attr, misc, operator]
    if c in _FORMULA_CLASSES:
        return int(evaluate(e, values))  # type: ignore[arg-type]
    if isinstance(e, int):  # constants, True and False
        return int(e)
    if isinstance(e, IntVar):
        return int(values[e.key])
    if isinstance(e, Sum):
        return e.const + sum(w * value_of(g, values) for w, g in e.terms)
    if isinstance(e, Min):
        return min(value_of(g, values) for g in e.args)
    if isinstance(e, Max):
        return max(value_of(g, values) for g in e.args)
    if isinstance(e, If):
        return value_of(e.then if evaluate(e.cond, values) else e.other, values)
    return int(evaluate(e, values))


def substitute(f: Formula, values: Mapping[Key, Value]) -> Formula:
    """Replace known decisions by constants and fold."""
    if isinstance(f, bool):
        return f
    if isinstance(f, Var):
        v = values.get(f.key)
        return f if v is None else bool(v)
    if isinstance(f, Not):
        return NOT(substitute(f.arg, values))
    if isinstance(f, And):
        return AND(*(substitute(g, values) for g in f.args))
    if isinstance(f, Or):
        return OR(*(substitute(g, values) for g in f.args))
    return GE(((w, substitute_term(g, values)) for w, g in f.terms), f.k)


def substitute_int(e: IntExpr, values: Mapping[Key, Value]) -> IntExpr:
    """Replace known decisions by constants and fold (integer expressions)."""
    if isinstance(e, int):
        return e
    if isinstance(e, IntVar):
        v = values.get(e.key)
        return e if v is None else int(v)
    if isinstance(e, Sum):
        return SUM(((w, substitute_term(g, values)) for w, g in e.terms), e.const)
    if isinstance(e, Min):
        return MIN(*(substitute_int(g, values) for g in e.args))
    if isinstance(e, Max):
        return MAX(*(substitute_int(g, values) for g in e.args))
    return IF(substitute(e.cond, values), substitute_int(e.then, values), substitute_int(e.other, values))


def substitute_term(t: Term, values: Mapping[Key, Value]) -> Term:
    return substitute(t, values) if is_formula(t) else substitute_int(t, values)


def substitute_def(d: Definition, values: Mapping[Key, Value]) -> Definition:
    return substitute_term(d, values)


def bounds_of(e: Term, domains: Mapping[Key, tuple[int, int]]) -> tuple[int, int]:
    """Interval bounds of an integer expression (a boolean formula: 0..1, or its constant)."""
    if e is True or e is False:
        return int(e), int(e)
    if isinstance(e, int):
        return e, e
    if isinstance(e, IntVar):
        d = domains.get(e.key)
        if d is None:
            raise KeyError(e.key)
        return d
    if isinstance(e, Sum):
        lo = hi = e.const
        for w, g in e.terms:
            a, b = bounds_of(g, domains)
            lo += min(w * a, w * b)
            hi += max(w * a, w * b)
        return lo, hi
    if isinstance(e, (Min, Max)):
        bs = [bounds_of(g, domains) for g in e.args]
        pick = min if isinstance(e, Min) else max
        return pick(b[0] for b in bs), pick(b[1] for b in bs)
    if isinstance(e, If):
        then, other = bounds_of(e.then, domains), bounds_of(e.other, domains)
        return min(then[0], other[0]), max(then[1], other[1])
    return 0, 1
