"""Which readings a corpus tells apart: ``dipsat coverage CORPUS...``.

Each expectation of a corpus case states the outcome of the case under some readings: its rule
presets with its option overrides, i.e. one value for every rule option of the variant.  Two
expectations of one case whose stated outcomes differ (an order's expected result, the units
dislodged, the position after, the backup rule, a variant's facts, ...) *tell apart* the
readings they hold under.  They tell apart one option's two values when that option is the only
one that differs between them among the options that could have mattered:

* for a Diplomacy-family case each expectation is run with a recording copy of its options
  (:mod:`dipsat.engine.option_space`): an option neither run read cannot have made the difference;
* for a case a variant checks itself (its own game family) every differing option counts.

An expectation that states an error or a refusal (its ``error`` fact) and one that states a result
differ too: a case refused under one value of an option and adjudicated under another tells
those values apart.

A pair of expectations that differ in several such options is reported as telling apart only
the options together (it does not count for any one of them).  Every pair of values of every
option of the variant's options model that no case tells apart is *untested* by the corpus.
"""

from __future__ import annotations

from dataclasses import field
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from pydantic import BaseModel, ValidationError

from dipsat.io.corpus import CorpusCase, Expectation, case_files, load_case, runs_of
from dipsat.io.files import file_access
from dipsat.errors import DipsatError
from dipsat.records import dataclass
from dipsat.rules import explain_options_error
from dipsat.engine.option_space import Assignment, Scope, categorical_options, option_values, recording, scoped

if TYPE_CHECKING:
    from dipsat.limits import Limits


@dataclass
class ExpectationRun:
    """One (case, preset, expectation): the options it holds under and what it states."""

    case: str
    label: str
    assignment: Assignment  # every categorical option of the variant -> its value
    stated: dict[tuple[str, ...], Any]  # what the expectation states, by item
    reads: Optional[set[str]]  # the options the adjudication read (None: not recorded)


@dataclass
class Pair:
    option: str
    a: Any
    b: Any
    cases: list[str] = field(default_factory=list)


@dataclass
class VariantCoverage:
    variant: str
    model: type[BaseModel]
    cases: int = 0
    expectations: int = 0
    pairs: dict[tuple[str, int, int], Pair] = field(default_factory=dict)  # (option, i, j) -> pair
    joint: list[tuple[str, list[tuple[str, Any, Any]]]] = field(default_factory=list)  # case, differing options
    errors: list[str] = field(default_factory=list)

    def untested(self) -> list[Pair]:
        return [p for p in self.pairs.values() if not p.cases]


def stated(exp: Expectation) -> dict[tuple[str, ...], Any]:
    """What an expectation states, item by item, normalised (case, spacing, order of lists)."""

    def norm(x: Any) -> Any:
        if isinstance(x, str):
            return " ".join(x.lower().split())
        if isinstance(x, list):
            return tuple(sorted((norm(y) for y in x), key=repr))
        if isinstance(x, dict):
            return tuple(sorted(((norm(k), norm(v)) for k, v in x.items()), key=repr))
        return x

    out: dict[tuple[str, ...], Any] = {}
    for k, v in exp.orders.items():
        out[("order", norm(k))] = v
    for k, v in exp.retreats.items():
        out[("retreat", norm(k))] = v
    for k, provs in exp.retreat_options.items():
        out[("retreat_options", norm(k))] = norm(provs)
    for k, fv in exp.facts.items():
        out[("fact", k)] = norm(fv)
    # an error or refusal under one reading and a result under another tell the readings apart
    # (their other items are not comparable: an error states nothing else)
    out[("error_or_result",)] = "error" if "error" in exp.facts else "result"
    out[("dislodged",)] = norm(exp.dislodged)
    if exp.units_after is not None:
        out[("units_after",)] = norm({p: u for p, u in exp.units_after.items() if u})
    for name in ("backup", "readings", "winners"):
        v = getattr(exp, name)
        if v is not None:
            out[(name,)] = norm(v)
    return out


def _assignment(variant: Any, model: type[BaseModel], rules: str, exp: Expectation) -> tuple[Assignment, Any]:
    """The values of every categorical option an expectation holds under, and the options object
    (None for a variant whose options are not the Diplomacy pipeline's)."""
    from dipsat.game.variant import Variant

    names = categorical_options(model)
    if isinstance(variant, Variant):
        opts = variant.rules(rules, **exp.options)
        return {n: getattr(opts, n) for n in names}, opts
    try:
        values = model.model_validate(dict(exp.options))
    except ValidationError as exc:  # a bad option in a case
        raise DipsatError(f"options {exp.options!r}: {explain_options_error(exc)}") from None
    return {n: getattr(values, n) for n in names}, None


def _reads(case: CorpusCase, opts: Any, model: type[BaseModel], assignment: Assignment) -> Optional[set[str]]:
    """The options an adjudication of ``case`` under ``opts`` reads (None when it fails)."""
    from dipsat.io.corpus import adjudicate_case

    scope = Scope(model, fixed=dict(assignment))
    try:
        with scoped(scope):
            adjudicate_case(case, recording(opts))
    except DipsatError:
        return None
    return set(scope.reads)


def coverage(paths: list[str | Path], on_progress: Optional[Callable[[], None]] = None,
             own: bool = False, limits: Optional["Limits"] = None) -> list[VariantCoverage]:
    """The coverage of the corpus files under ``paths``, per variant (in order of appearance).
    ``own``: count only the options a variant adds to the core's DATC options.  ``limits``: each
    case is read within them, and a case's runs keep to their wall-clock limit (a case beyond
    them is an error of its variant's coverage)."""
    from dipsat.limits import DEFAULT_LIMITS, TurnTimeout, deadline
    from dipsat.rules import RuleOptions
    from dipsat.game.variant import Variant

    limits = limits or DEFAULT_LIMITS

    from dipsat.game.registry import find_record

    from dipsat.game.families import game_of

    out: dict[str, VariantCoverage] = {}
    for f in case_files(paths):
        with file_access(origin=f):  # paths inside the case resolve against it
            if on_progress is not None:
                on_progress()
            if f.suffix.lower() != ".toml":
                continue  # JSON files: other programs' collections and schemas
            try:
                case = load_case(f, limits)
                variant = find_record(case.variant)
            except DipsatError as exc:
                out.setdefault("?", VariantCoverage("?", BaseModel)).errors.append(str(exc))
                continue
            game = game_of(variant)
            model = game.options_model()
            cov = out.get(variant.name)
            if cov is None:
                cov = out[variant.name] = VariantCoverage(variant.name, model)
                for n in categorical_options(model):
                    if own and n in RuleOptions.model_fields and model is not RuleOptions:
                        continue
                    vals = option_values(model, n)
                    for i, j in combinations(range(len(vals)), 2):
                        cov.pairs[(n, i, j)] = Pair(n, vals[i], vals[j])
            cov.cases += 1
            if not isinstance(variant, Variant):  # its request, read within the limits (a board's: by load_case)
                from dipsat.io.case_check import case_data

                try:
                    game.read(case_data(case), str(f), limits)
                except DipsatError as exc:
                    cov.errors.append(f"{case.id}: {exc}")
                    continue
            runs: list[ExpectationRun] = []
            try:
                with deadline(limits.turn_time_limit):
                    for rules, exp in runs_of(case):
                        cov.expectations += 1
                        try:
                            assignment, opts = _assignment(variant, model, rules, exp)
                        except DipsatError as exc:
                            cov.errors.append(f"{case.id} under {rules}: {exc}")
                            continue
                        reads = _reads(case, opts, model, assignment) if opts is not None else None
                        runs.append(ExpectationRun(case.id, rules, assignment, stated(exp), reads))
            except TurnTimeout as exc:
                cov.errors.append(f"{case.id}: {exc}")
                continue
            _pairs_of_case(cov, case.id, runs)
    return list(out.values())


def _pairs_of_case(cov: VariantCoverage, case_id: str, runs: list[ExpectationRun]) -> None:
    model = cov.model
    joint_seen: set[tuple[tuple[str, Any, Any], ...]] = set()
    for r, s in combinations(runs, 2):
        common = set(r.stated) & set(s.stated)
        if not any(r.stated[k] != s.stated[k] for k in common):
            continue
        differ = [n for n in r.assignment if r.assignment[n] != s.assignment[n]]
        if r.reads is not None and s.reads is not None:
            differ = [n for n in differ if n in r.reads or n in s.reads]
        if len(differ) == 1:
            n = differ[0]
            vals = option_values(model, n)
            i, j = sorted((vals.index(r.assignment[n]), vals.index(s.assignment[n])))
            pair = cov.pairs.get((n, i, j))
            if pair is not None and case_id not in pair.cases:
                pair.cases.append(case_id)
        elif differ:
            key = tuple((n, r.assignment[n], s.assignment[n]) for n in differ)
            if key not in joint_seen:
                joint_seen.add(key)
                cov.joint.append((case_id, list(key)))


def _v(x: Any) -> str:
    return str(x).lower() if isinstance(x, bool) else str(x)


def format_coverage(covs: list[VariantCoverage], paths: list[str]) -> str:
    lines: list[str] = []
    for cov in covs:
        if lines:
            lines.append("")
        lines.append(f"{cov.variant}: {cov.cases} cases, {cov.expectations} expectations in {', '.join(paths)}")
        by_option: dict[str, list[Pair]] = {}
        for p in cov.pairs.values():
            by_option.setdefault(p.option, []).append(p)
        lines.append("Pairs of readings told apart (option: value | value: the cases):")
        for name, pairs in by_option.items():
            told = [p for p in pairs if p.cases]
            for p in told:
                lines.append(f"  {name}: {_v(p.a)} | {_v(p.b)}: {', '.join(p.cases)}")
        if cov.joint:
            lines.append("Told apart only together with other options (counted for none of them):")
            for case_id, key in cov.joint:
                lines.append(f"  {case_id}: " + ", ".join(f"{n} {_v(a)} | {_v(b)}" for n, a, b in key))
        untested = cov.untested()
        if untested:
            lines.append(f"Untested: {len(untested)} of {len(cov.pairs)} pairs of values no case tells apart:")
        else:
            lines.append(f"Untested: 0 of {len(cov.pairs)} pairs of values (a case tells every pair apart)")
        for name, pairs in by_option.items():
            missing = [p for p in pairs if not p.cases]
            if missing:
                lines.append(f"  {name}: " + ", ".join(f"{_v(p.a)} | {_v(p.b)}" for p in missing))
        for e in cov.errors:
            lines.append(f"  error: {e}")
    return "\n".join(lines)


def coverage_json(covs: list[VariantCoverage]) -> list[dict[str, Any]]:
    return [{
        "variant": c.variant, "cases": c.cases, "expectations": c.expectations,
        "pairs": [{"option": p.option, "a": p.a, "b": p.b, "cases": p.cases} for p in c.pairs.values()],
        "joint": [{"case": case_id, "options": [{"option": n, "a": a, "b": b} for n, a, b in key]}
                  for case_id, key in c.joint],
        "untested": [{"option": p.option, "a": p.a, "b": p.b} for p in c.untested()],
        "errors": c.errors,
    } for c in covs]
