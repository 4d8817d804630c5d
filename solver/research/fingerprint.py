"""A rules fingerprint: which readings of the rules did a game, a corpus or an adjudicator follow?
(``dipsat fingerprint INPUT...``)

Each observation (:mod:`dipsat.fingerprint_inputs`: a recorded phase, a corpus case, a saved
game) constrains the space of the variant's categorical rule options:

1. **One observation.**  The plain adjudicator is run under one assignment, recording what it
   reads (:func:`dipsat.engine.option_space.explore_reads`: through :meth:`RuleOptions.pick`
   and its kin an option is read only as far as its values act differently here), and again
   only inside the regions where a read would go otherwise: one adjudication per class of
   outcomes, compared with the observation by the corpus's own comparison
   (:func:`dipsat.io.corpus.compare`): the class explains it or names what differs.  A turn
   that reads no option is one adjudication.  (The readings' one model,
   :func:`dipsat.research.readings.turn_readings`, gives the same table; ``evidence(obs,
   quick=False)`` takes that way, and a test compares the two.)  What is kept is the options
   the verdict depends on and the assignments of them that explain the observation
   (:class:`Evidence`, reduced to a :class:`Verdict`).
2. **All of them.**  Each distinct verdict is a table constraint over its options, counted as
   often as observations give it (:class:`Tally`; a stream's in
   :mod:`dipsat.research.fingerprint_run`, in worker processes too); one CP-SAT model
   (:func:`dipsat.engine.cpsat.most_satisfied`) finds the assignments that explain as many
   observations as any assignment does — every observation when they agree — so one bad record
   is reported, never allowed to empty the answer: it is *unexplained* (no optimal assignment
   explains it), with what differs under the answer.
3. **The answer.**  Per option, the values of the optimal assignments; the assignments
   themselves as conditions (the form ``dipsat readings`` prints); and the nearest preset: the
   presets (the core's editions and the variant's own rules) whose values differ from an
   optimal assignment in the fewest options, with every smallest set of changes.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, Iterable, Optional

from dipsat.io.corpus import adjudicate_case, case_request, compare, play_case
from dipsat.errors import DipsatError
from dipsat.records import dataclass
from dipsat.research.fingerprint_inputs import InputProblem, Item, Observation
from dipsat.research.option_conditions import _w, conditions, depends_on, describe_condition
from dipsat.engine.option_space import (Assignment, assignments, categorical_options, explore_reads, option_values, recording,
                                        split_by_reads)
from dipsat.rules import RuleOptions

MAX_ASSIGNMENTS = 20000  # optimal assignments listed (beyond: per-option values asked one by one)


@dataclass
class Evidence:
    """What one observation says about the options: it is explained exactly by the assignments
    of ``names`` in ``allowed`` (every assignment of the others alike)."""

    obs: Observation
    touched: list[str]  # the options some class of its outcome was split on
    rows: list[tuple[tuple[Any, ...], list[str]]]  # each assignment of ``touched``: what differs ([]: explained)
    names: list[str]  # the options its verdict depends on
    allowed: set[tuple[Any, ...]]  # the assignments of ``names`` that explain it

    def problems_under(self, a: Assignment) -> list[str]:
        key = tuple(a[n] for n in self.touched)
        return next((p for t, p in self.rows if t == key), [])

    def explained_by(self, a: Assignment) -> bool:
        return tuple(a[n] for n in self.names) in self.allowed


def evidence(obs: Observation, quick: bool = True) -> Evidence:
    """The evidence of one observation (a :class:`DipsatError` when it cannot be read: another
    game family, an unknown option, a unit not on the board, ...).  ``quick``: the plain
    adjudicator, once per class of what it reads (:func:`_read_table`); else a phase through
    the readings' one model (:func:`_turn_table`), a game split on its reads (:func:`_game_table`)
    — the same table, the quick path tested against the others."""
    from dipsat.game.registry import find_record

    from dipsat.game.variant import Variant

    record = find_record(obs.variant)
    if not isinstance(record, Variant):
        raise DipsatError(f"the {record.name} variant is another game family: fingerprint reads the Diplomacy "
                          f"boards' observations")
    model = record.options_model
    base = record.rules(obs.rules, **obs.fixed)
    cands = [n for n in categorical_options(model) if n not in obs.fixed]
    if quick:
        touched, table = _read_table(obs, record, base, cands)
    elif obs.case.phase == "game":
        touched, table = _game_table(obs, record, base, cands)
    else:
        touched, table = _turn_table(obs, record, base, cands)
    rows = [(tuple(a[n] for n in touched), p) for a, p in table]
    names = depends_on(model, touched, [(a, not p) for a, p in table])
    allowed = {tuple(a[n] for n in names) for a, p in table if not p}
    return Evidence(obs, touched, rows, names, allowed)


def _problems(obs: Observation, run: Callable[[], Any], variant: Any) -> list[str]:
    try:
        res = run()
    except DipsatError as exc:
        return [f"error: {exc}"]
    return _verdict(obs, res, variant)


def _verdict(obs: Observation, res: Any, variant: Any) -> list[str]:
    """What differs between a result and the observation ([]: it explains it)."""
    probs = compare(obs.case, obs.expectation, res, variant)
    if not obs.checks_dislodged:
        probs = [p for p in probs if not p.startswith("dislodged: ")]
    return probs


def _read_table(obs: Observation, variant: Any, base: RuleOptions,
                cands: list[str]) -> tuple[list[str], list[tuple[Assignment, list[str]]]]:
    """The quick path: the plain adjudicator run under ``base``, recording the options it reads
    (:func:`dipsat.engine.option_space.explore_reads`), and again only where another value of a
    read option could be read otherwise.  A turn that reads no option is one adjudication, the
    same verdict for every assignment."""
    model = type(base)
    opts = recording(base)

    def run(scope: Any) -> "list[str] | DipsatError":
        try:
            res = adjudicate_case(obs.case, opts)
        except DipsatError as exc:
            return exc
        return _verdict(obs, res, variant)

    classes = explore_reads(run, model, cands, {n: getattr(base, n) for n in cands})
    touched = [n for n in cands if any(n in c.within for c in classes)]
    if len(classes) == 1:  # no reading changes it: one adjudication
        res = classes[0].result
        if isinstance(res, DipsatError):  # not read under any reading: the input's problem
            raise res
        return touched, [({}, res)]
    return touched, [(full, _said(next(c.result for c in classes if c.holds(full)))) for full in assignments(model, touched)]


def _said(res: "list[str] | DipsatError") -> list[str]:
    return [f"error: {res}"] if isinstance(res, DipsatError) else res


def _turn_table(obs: Observation, variant: Any, base: RuleOptions,
                cands: list[str]) -> tuple[list[str], list[tuple[Assignment, list[str]]]]:
    """One phase: its readings (one model), each class compared once."""
    from dipsat.research.readings import turn_readings

    rd = turn_readings(case_request(obs.case), rules=base, candidates=cands)
    # classes with the same outcomes (their words included) and the same position after are
    # the same result to compare: one adjudication each
    verdicts: dict[Any, list[str]] = {}
    table = []
    for a, r in rd.table:
        sig = (r.outcomes, r.after)
        if sig not in verdicts:
            rules = base.with_(**a)
            verdicts[sig] = _problems(obs, lambda: adjudicate_case(obs.case, rules), variant)
        table.append((a, verdicts[sig]))
    return rd.options, table


def _game_table(obs: Observation, variant: Any, base: RuleOptions,
                cands: list[str]) -> tuple[list[str], list[tuple[Assignment, list[str]]]]:
    """A game of several phases: replayed once per class of the options it reads."""
    model = type(base)

    def run(scope: Any) -> list[str]:
        return _problems(obs, lambda: play_case(obs.case, recording(base)), variant)

    try:
        leaves = split_by_reads(run, model, cands)
    except RuntimeError as exc:  # too many classes
        raise DipsatError(f"{obs.where}: {exc}") from None
    touched = [n for n in cands if any(n in leaf.assignment for leaf in leaves)]
    table = []
    for full in assignments(model, touched):
        leaf = next(lf for lf in leaves if all(full[n] == v for n, v in lf.assignment.items()))
        table.append((full, leaf.result))
    return touched, table


# -- all observations together ---------------------------------------------------------------------


@dataclass
class PresetDistance:
    name: str
    values: Assignment  # its value of every categorical option
    distance: int  # options differing from the nearest optimal assignment
    changes: list[Assignment]  # every smallest set of changes (option -> value)


@dataclass
class Fingerprint:
    variant: str
    model: type[RuleOptions]
    observations: int  # observations fingerprinted
    problems: list[InputProblem]  # items that could not be read or adjudicated
    names: list[str]  # the options some observation constrains
    best: int  # observations the optimal assignments explain
    solutions: list[Assignment]  # the optimal assignments of ``names``
    complete: bool  # is ``solutions`` every one of them?
    values: dict[str, list[Any]]  # every categorical option: its values in some optimal assignment
    unexplained: list[tuple[Evidence, list[str]]]  # explained by no optimal assignment; what differs
    contested: list[str] = field(default_factory=list)  # ids of those explained by some optimal assignments, not all
    presets: list[PresetDistance] = field(default_factory=list)  # nearest first

    @property
    def nearest(self) -> list[PresetDistance]:
        return [p for p in self.presets if p.distance == self.presets[0].distance] if self.presets else []

    def condition(self) -> Optional[str]:
        """The optimal assignments as conditions on the options (the options with one value
        first, then the others' cubes, as ``dipsat readings`` states them); None when there are
        too many to tabulate."""
        if not self.complete:
            return None
        fixed = [n for n in self.names if len(self.values[n]) == 1]
        multi = [n for n in self.names if len(self.values[n]) > 1]
        size = 1
        for n in multi:
            size *= len(option_values(self.model, n))
        if size > MAX_ASSIGNMENTS:
            return None
        parts = [f"{n} = {_w(self.values[n][0])}" for n in fixed]
        if multi:
            chosen = {tuple(s[n] for n in multi) for s in self.solutions}
            table = [(a, tuple(a[n] for n in multi) in chosen) for a in assignments(self.model, multi)]
            deps, covers = conditions(self.model, multi, table)
            text = describe_condition(self.model, deps, covers[True])
            if text != "always":
                parts.append(f"({text})" if " or " in text and parts else text)
        return " and ".join(parts) or "always"


# -- one observation's verdict, and the tally of them all ----------------------------------------


@dataclass
class Verdict:
    """What is kept of one observation's evidence: which assignments explain it — every one
    (``names`` empty, ``allowed`` {()}), none (then the evidence itself, to report), or those
    of ``names`` in ``allowed``."""

    index: int  # its place in the input's items
    id: str
    variant: str
    names: tuple[str, ...]
    allowed: frozenset[tuple[Any, ...]]
    evidence: Optional[Evidence] = None  # kept only when no assignment explains it

    @property
    def everywhere(self) -> bool:
        return not self.names and bool(self.allowed)


def judge(index: int, obs: Observation, time_limit: Optional[float] = None) -> "Verdict | InputProblem":
    """One observation's verdict (or the problem that it could not be read), within ``time_limit``."""
    from dipsat.limits import deadline

    try:
        with deadline(time_limit):
            e = evidence(obs)
    except DipsatError as exc:
        return InputProblem(obs.where, f"{obs.id}: {exc}")
    return Verdict(index, obs.id, obs.variant, tuple(e.names), frozenset(e.allowed), e if not e.allowed else None)


@dataclass
class Tally:
    """The verdicts of a stream of observations, grouped by what they allow: the final model
    needs one table a group (weighted by its size); an observation explained by every
    assignment is only counted, one explained by none is kept to be reported."""

    variant: Optional[str] = None  # the variant fingerprinted (the first observation's, unless chosen)
    observations: int = 0
    everywhere: int = 0
    groups: dict[tuple[tuple[str, ...], frozenset[tuple[Any, ...]]], list[int]] = field(default_factory=dict)
    ids: dict[int, str] = field(default_factory=dict)  # the grouped observations' ids
    nowhere: list[tuple[int, Evidence]] = field(default_factory=list)
    problems: list[tuple[int, InputProblem]] = field(default_factory=list)
    others: dict[str, int] = field(default_factory=dict)  # observations of other variants (not fingerprinted)

    def wants(self, variant: str) -> bool:
        """Is an observation of ``variant`` one to fingerprint (counted aside if not)?"""
        if self.variant is None:
            self.variant = variant
        if variant == self.variant:
            return True
        self.others[variant] = self.others.get(variant, 0) + 1
        return False

    def add(self, index: int, v: "Verdict | InputProblem") -> None:
        if isinstance(v, InputProblem):
            self.problems.append((index, v))
            return
        self.observations += 1
        if v.everywhere:
            self.everywhere += 1
        elif not v.allowed:
            assert v.evidence is not None
            self.nowhere.append((index, v.evidence))
        else:
            self.groups.setdefault((v.names, v.allowed), []).append(index)
            self.ids[index] = v.id

    def check_one_variant(self) -> None:
        if self.others:
            counts = {self.variant or "": self.observations, **self.others}
            seen = sorted(counts)
            raise DipsatError(f"the input holds observations of {len(seen)} variants "
                              f"({', '.join(f'{v} {counts[v]}' for v in seen)}): fingerprint one at a time with --variant NAME")


def fingerprint(items: Iterable[Item], variant: Optional[str] = None,
                on_progress: Optional[Callable[[], None]] = None, time_limit: Optional[float] = None) -> Fingerprint:
    """The fingerprint of the observations of one board variant (``variant``, or the one the
    observations share: several need a choice); ``time_limit``: seconds per observation (past
    it, the observation is reported as not read).  In this process, one observation at a time
    (:mod:`dipsat.research.fingerprint_run` streams a file's, in worker processes too)."""
    kept = list(items)
    tally = Tally(variant.lower() if variant else None)
    if variant is None:  # several variants: said before any work
        seen = Tally()
        for it in kept:
            if not isinstance(it, InputProblem):
                seen.observations += seen.wants(it.variant)
        seen.check_one_variant()
    for i, it in enumerate(kept):
        if isinstance(it, InputProblem):
            tally.add(i, it)
        elif tally.wants(it.variant):
            if on_progress is not None:
                on_progress()
            tally.add(i, judge(i, it, time_limit))
    tally.check_one_variant()

    def again(indices: set[int]) -> dict[int, Evidence]:
        return {i: evidence(kept[i]) for i in sorted(indices)}  # type: ignore[arg-type]

    return combine(tally, again)


def combine(tally: Tally, again: Callable[[set[int]], dict[int, Evidence]]) -> Fingerprint:
    """The optimal assignments of the tallied verdicts, and what follows from them.  ``again``
    gives the evidence of observations of the groups no optimal assignment explains (a stream's
    are not kept: the input is read again for them)."""
    from dipsat.engine.tables import most_satisfied

    from dipsat.game.registry import find_record

    from dipsat.game.variant import Variant

    record = find_record(tally.variant or "standard")
    if not isinstance(record, Variant):
        raise DipsatError(f"the {record.name} variant is another game family: fingerprint reads the Diplomacy boards")
    model = record.options_model
    order = categorical_options(model)
    groups = list(tally.groups.items())
    names = [n for n in order if any(n in key[0] for key, _ in groups)]
    index = {n: i for i, n in enumerate(names)}
    vals = {n: option_values(model, n) for n in names}
    tables = [([index[n] for n in gn], sorted(tuple(vals[n].index(v) for n, v in zip(gn, t)) for t in allowed))
              for (gn, allowed), _ in groups]
    best, found, per_var, complete = most_satisfied([len(vals[n]) for n in names], tables, MAX_ASSIGNMENTS,
                                                    label="fingerprint", weights=[len(ix) for _, ix in groups])
    solutions = [{n: vals[n][t[i]] for i, n in enumerate(names)} for t in found]
    values = {n: list(option_values(model, n)) for n in order}
    for i, n in enumerate(names):
        values[n] = [vals[n][v] for v in per_var[i]]
    fp = Fingerprint(record.name, model, tally.observations, [p for _, p in sorted(tally.problems, key=lambda x: x[0])],
                     names, best + tally.everywhere, solutions, complete, values, [])
    fp.presets = _presets(record, fp)
    reference = _reference(fp)
    lost: set[int] = set()
    contested: list[int] = []
    for (gn, allowed), ix in groups:
        by = [tuple(s[n] for n in gn) in allowed for s in solutions]
        if not any(by):
            lost.update(ix)
        elif not all(by):
            contested.extend(ix)
    found_again = again(lost) if lost else {}
    unexplained = sorted([*tally.nowhere, *found_again.items()], key=lambda x: x[0])
    fp.unexplained = [(e, e.problems_under(reference)) for _, e in unexplained]
    fp.contested = [tally.ids[i] for i in sorted(contested)]
    return fp


def _presets(record: Any, fp: Fingerprint) -> list[PresetDistance]:
    from dipsat.rules import PRESETS

    order = categorical_options(fp.model)
    seen: list[tuple[Any, ...]] = []
    out: list[PresetDistance] = []
    for name in [*(n for n in PRESETS if n != "2023"), record.name]:
        opts = record.rules(None if name == record.name else name)
        values = {n: getattr(opts, n) for n in order}
        sig = tuple(values.values())
        if sig in seen:
            continue
        seen.append(sig)
        best: Optional[int] = None
        changes: list[Assignment] = []
        for s in fp.solutions or [{}]:
            diff = {n: v for n, v in s.items() if values[n] != v}
            if best is None or len(diff) < best:
                best, changes = len(diff), []
            if len(diff) == best and diff not in changes:
                changes.append(diff)
        out.append(PresetDistance(name, values, best or 0, sorted(changes, key=lambda d: sorted(d.items(), key=str))))
    out.sort(key=lambda p: p.distance)  # stable: the editions' order among equals
    return out


def _reference(fp: Fingerprint) -> Assignment:
    """The assignment the differences are shown under: the nearest preset with its first
    smallest set of changes."""
    if not fp.presets:
        return {}
    p = fp.presets[0]
    return {**p.values, **(p.changes[0] if p.changes else {})}
