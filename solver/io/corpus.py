"""Corpora: test cases as data files, and the one runner used by pytest and ``dipsat corpus``.

The format is documented in ``tests/corpora/FORMAT.md``; its JSON Schema is generated from
:class:`CorpusCase` (``dipsat schema corpus``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Sequence


from dipsat.game.request import TurnRequest
from dipsat.io.cases import (
    CaseRun,
    CorpusCase,
    Expectation,
    Expected,
    check_facts,
    fact_at,
    load_case,
)
from dipsat.errors import DipsatError, InputFileError
from dipsat.io.files import file_access
from dipsat.game.game import Game, SavedGame, StartSpec, replay
from dipsat.limits import DEFAULT_LIMITS, Limits
from dipsat.models import Position, Unit
from dipsat.models import dislodged_units as dislodged_units_of
from dipsat.outcomes import MovementResult, Outcome
from dipsat.game.pipeline import Pipeline
from dipsat.records import dataclass
from dipsat.rules import RuleOptions

if TYPE_CHECKING:
    from dipsat.game.variant import Variant

# (the case model is dipsat.io.cases; its names are read from here too)
__all__ = ["CaseRun", "CorpusCase", "Expectation", "Expected", "PlayedGame", "adjudicate_case", "case_files",
           "case_request", "check_facts", "compare", "corpus_schema", "dislodged_units", "fact_at", "load_case",
           "play_case", "run_corpus", "run_expectation", "runs_of"]

@dataclass(frozen=True)
class PlayedGame:
    """A game case's result: the game its steps played (through :class:`~dipsat.game.game.Game`,
    the variant's calendar), read as one result: every phase's outcomes, the units its
    movements dislodged, the position before the first phase and after the last."""

    game: Game
    position: Position

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        return tuple(o for rec in self.game.history for o in rec.outcomes)

    @property
    def after(self) -> Position:
        return self.game.position

    @property
    def movements(self) -> list[MovementResult]:
        out: list[MovementResult] = []
        for rec in self.game.history:
            stack = [rec.result]
            while stack:  # a phase of several parts (a calendar's combined phase) holds its parts
                r = stack.pop(0)
                if isinstance(r, MovementResult):
                    out.append(r)
                stack.extend(getattr(r, "parts", ()))
        return out

    @property
    def backups(self) -> tuple[Any, ...]:
        return tuple(b for mv in self.movements for b in mv.backups)

    @property
    def last(self) -> Any:
        """The last phase's result (what a picture of the case shows)."""
        return self.game.history[-1].result


def dislodged_units(res: Any) -> list[Unit]:
    """The units a result's movement dislodged; a game's: those of every movement of it."""
    moves = res.movements if isinstance(res, PlayedGame) else [getattr(res, "movement", None) or res]
    return [unit for mv in moves for _, unit in dislodged_units_of(mv.position, mv.dislodged)]


def case_request(case: CorpusCase, rules: Optional[str] = None, options: Optional[dict[str, object]] = None) -> TurnRequest:
    """The turn of a case that is one phase (not a game case)."""
    return TurnRequest(variant=case.variant, rules=rules, options=dict(options or {}), phase=case.phase,
                       units=case.units, orders=case.orders, owners=case.owners, retreat_orders=case.retreat_orders)


def play_case(case: CorpusCase, rules: "str | RuleOptions | None", options: Optional[dict[str, object]] = None) -> PlayedGame:
    """A game case played: its steps through the game runner (:func:`dipsat.game.game.replay`, each
    step's name and position checked when given), from its units, owners, year and season
    (without units, the calendar's opening: a placement phase where the variant has one)."""
    start = StartSpec(year=case.year, season=case.season or "spring", units=case.units, owners=case.owners)
    saved = SavedGame(variant=case.variant, options=dict(options or {}), start=start, phases=list(case.steps))
    # no clock per phase: the corpus runs a whole case within one (nested timers would stop it)
    game = replay(saved, rules=rules, where="steps", limits=replace(DEFAULT_LIMITS, turn_time_limit=None))
    first = game.history[0].result.position if game.history and hasattr(game.history[0].result, "position") else game.position
    return PlayedGame(game, first)


def adjudicate_case(case: CorpusCase, rules: "str | RuleOptions | None", options: Optional[dict[str, object]] = None,
                    mode: Literal["direct", "cpsat"] = "direct") -> Any:
    """The result of a Diplomacy-family case: its phase (:meth:`Pipeline.adjudicate`), or for a
    game case the game its steps play (:class:`PlayedGame`)."""
    if case.phase == "game":
        return play_case(case, rules, options)
    req = case_request(case, rules if isinstance(rules, str) else None, options)
    pipe = Pipeline.for_request(req, rules if isinstance(rules, RuleOptions) else None)
    return pipe.adjudicate(pipe.prepare(req), mode)


def case_files(paths: Sequence[str | Path]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(x for x in p.rglob("*") if x.suffix in (".toml", ".json") and x.is_file()))
        elif p.exists():
            out.append(p)
        else:
            raise InputFileError(f"{p}: no such file or folder")
    return out


def runs_of(case: CorpusCase) -> list[tuple[str, Expectation]]:
    return [(r, e) for e in case.expect for r in e.rules]


def run_expectation(case: CorpusCase, rules: str, exp: Expectation, path: str = "",
                    limits: Optional[Limits] = None) -> CaseRun:
    label = rules + ("+" + ",".join(f"{k}={v}" for k, v in sorted(exp.options.items())) if exp.options else "")
    run = CaseRun(case.id, label, path, passed=False, case=case, expectation=exp)
    from dipsat.game.registry import variant_names

    if case.variant not in variant_names():
        run.problems.append(f"unknown variant {case.variant!r}; known variants: {', '.join(sorted(variant_names()))}")
        return run
    from dipsat.game.registry import find_record

    from dipsat.game.variant import Variant

    variant = find_record(case.variant)
    if not isinstance(variant, Variant):  # another game family: through the game protocol
        from dipsat.io.case_check import run_case
        from dipsat.game.families import game_of

        return run_case(game_of(variant), case, rules, exp, path, limits)
    try:
        res = adjudicate_case(case, rules, exp.options)
    except DipsatError as exc:
        run.problems.append(f"error: {exc}")
        return run
    run.problems = compare(case, exp, res, variant)
    run.passed = not run.problems
    run.result = res
    return run


def _find_outcome(case: CorpusCase, outcomes: Sequence[Outcome], key: str) -> list[Outcome]:
    power = None
    text = key
    if ":" in key:
        head, _, rest = key.partition(":")
        if head.strip() in case.orders or head.strip() in case.retreat_orders or any(head.strip() in st.orders for st in case.steps):
            power, text = head.strip(), rest.strip()
    hits = [o for o in outcomes if o.text == text.strip() and (power is None or o.power.lower() == power.lower())]
    return hits


UnitKey = tuple[str, str, str, int]  # a unit as compared: power, kind, location, count


def compare(case: CorpusCase, exp: Expectation, res: Any, variant: "Variant") -> list[str]:
    """The problems found comparing a result with an expectation: outcome kinds, dislodged
    units, the position after, retreat options, backup rules (all typed values), and the
    ``reasons`` expectations, the one check of the rendered words."""
    problems: list[str] = []
    game = isinstance(res, PlayedGame)
    if not game and (exp.phases is not None or exp.next_phase is not None):
        problems.append("phases, next_phase: given for a case whose phase is not 'game'")
    if game and exp.phases is not None and [r.name for r in res.game.history] != exp.phases:
        problems.append(f"phases: expected {', '.join(exp.phases)}, got {', '.join(r.name for r in res.game.history)}")
    if game and exp.next_phase is not None and res.game.phase_name != exp.next_phase.upper():
        problems.append(f"next_phase: expected {exp.next_phase}, got {res.game.phase_name}")
    movement = getattr(res, "movement", None) or res
    checks = [(key, want, movement.outcomes, "order") for key, want in exp.orders.items()]
    if movement is not res:
        checks += [(key, want, res.outcomes, "retreat") for key, want in exp.retreats.items()]
    elif exp.retreats:
        problems.append("retreats: given for a case whose phase is not 'retreat'")
    def in_phase(key: str, outcomes: Any) -> tuple[str, Any]:
        """A game case's key may name its phase first ("F1901M: A(Tri)-Alb"): that phase's
        outcomes only (the same order may be written in several phases)."""
        head, sep, rest = key.partition(":")
        if game and sep:
            rec = next((r for r in res.game.history if r.name == head.strip().upper()), None)
            if rec is not None:
                return rest.strip(), rec.outcomes
        return key, outcomes

    for key, want, outcomes, what in checks:
        text, outcomes = in_phase(key, outcomes)
        hits = _find_outcome(case, outcomes, text)
        if not hits:
            problems.append(f"{what} {key!r}: not among the orders of the case")
            continue
        if len(hits) > 1:
            problems.append(f"{what} {key!r}: written more than once; prefix it with 'Power: '"
                            + (" or its phase ('S1901M: ')" if game else ""))
            continue
        o = hits[0]
        if want == "illegal":
            ok = o.order_kind == "rejected" and o.result in ("illegal", "ambiguous", "invalid")
        elif want == "partial":
            ok = o.result == "partial"
        elif want == "succeeds":
            ok = o.succeeded
        else:
            ok = not o.succeeded
        if not ok:
            problems.append(f"{what} {key!r}: expected {want}, got {o.result} ({o.reason})")
    for key, want_texts in exp.reasons.items():
        text, scope = in_phase(key, list(movement.outcomes) + (list(res.outcomes) if movement is not res else []))
        hits = _find_outcome(case, scope, text)
        if len(hits) != 1:
            problems.append(f"reasons: order {key!r} {'not found' if not hits else 'is ambiguous'}")
            continue
        for t in [want_texts] if isinstance(want_texts, str) else want_texts:
            if t not in hits[0].reason:
                problems.append(f"reason of {key!r}: expected it to contain {t!r}, got {hits[0].reason!r}")
    pos = res.position

    def units_of(specs: dict[str, list[str]] | list[str]) -> list[UnitKey]:
        out: list[UnitKey] = []
        if not isinstance(specs, dict):
            bad = [s for s in specs if ":" not in s]
            if bad:
                raise DipsatError(f"{bad[0]!r}: expected 'Power: unit' (e.g. 'France: F English Channel')")
        items = specs.items() if isinstance(specs, dict) else [(s.split(":", 1)[0], [s.split(":", 1)[1]]) for s in specs]
        for power, lst in items:
            pname = next((p for p in variant.map.powers if p.lower() == power.strip().lower()), power.strip())
            for s in lst:
                out.extend((u.power, u.kind, u.location, u.count) for u in variant.notation.unit_specs(pname, s))
        return sorted(out)

    try:
        want_dis = units_of(exp.dislodged)
    except DipsatError as exc:
        return problems + [f"dislodged: bad unit: {exc}"]
    got_dis = sorted((u.power, u.kind, u.location, u.count) for u in dislodged_units(res))
    if want_dis != got_dis:
        problems.append(f"dislodged: expected {_fmt(want_dis)}, got {_fmt(got_dis)}")
    if exp.units_after is not None:
        try:
            want_after = units_of(exp.units_after)
        except DipsatError as exc:
            return problems + [f"units_after: bad unit: {exc}"]
        got_after = sorted((u.power, u.kind, u.location, u.count) for u in res.after.units)
        if want_after != got_after:
            missing = [x for x in want_after if x not in got_after]
            extra = [x for x in got_after if x not in want_after]
            problems.append(f"units_after: missing {_fmt(missing)}, unexpected {_fmt(extra)}")
    if exp.retreat_options:
        opts = {o.unit: o for o in getattr(res, "options", ())}
        for key, provs in exp.retreat_options.items():
            try:
                (power, kind, loc, _), = units_of([key])
            except (DipsatError, ValueError) as exc:
                problems.append(f"retreat_options: bad unit {key!r}: {exc}")
                continue
            idx = [i for i in res.dislodged if (pos.units[i].power, pos.units[i].kind, pos.units[i].location) == (power, kind, loc)]
            if not idx:
                problems.append(f"retreat_options: {key} is not dislodged")
                continue
            if idx[0] not in opts:
                problems.append("retreat_options: given for a case whose phase is not 'retreat'")
                break
            wanted: set[str] = set()
            for t in provs:
                pid = variant.map.lookup_province(t)
                if pid is None:
                    problems.append(f"retreat_options: unknown province {t!r}")
                    continue
                wanted.add(pid)
            got = {variant.map.province_of(l) for l in opts[idx[0]].open}
            if wanted != got:
                problems.append(f"retreat_options of {key}: expected {sorted(wanted)}, got {sorted(got)} (closed: {opts[idx[0]].closed})")
    if exp.backup is not None:
        kinds = sorted({b.kind for b in res.backups})
        want_kinds = [] if exp.backup == "none" else [exp.backup]
        if kinds != want_kinds:
            problems.append(f"backup: expected {exp.backup}, got {', '.join(kinds) or 'none'}")
    return problems


def _fmt(units: list[UnitKey]) -> str:
    if not units:
        return "none"
    return ", ".join(f"{p}: {f'{n} ' if n > 1 else ''}{k} {loc}" for p, k, loc, n in units)


def run_corpus(paths: list[str | Path], only_rules: Optional[list[str]] = None, variant: Optional[str] = None,
               on_progress: Optional[Callable[[], None]] = None, limits: Optional[Limits] = None) -> list[CaseRun]:
    """Run every case file of ``paths``, optionally only the expectations of some presets or one
    variant; ``on_progress`` is called once per file (progress bars).  A broken file, an unknown
    variant or a case id used twice is a failed run; so is a case beyond ``limits`` (size,
    nesting, orders; given ``limits``, each expectation also runs against their wall-clock
    ``turn_time_limit``, as ``dipsat corpus`` does; without, the default limits and no clock)."""
    from dipsat.limits import DEFAULT_LIMITS

    if limits is None:
        limits = replace(DEFAULT_LIMITS, turn_time_limit=None)
    runs: list[CaseRun] = []
    seen: dict[str, Path] = {}
    for f in case_files(paths):
        with file_access(origin=f):  # paths inside the case resolve against it
            if on_progress is not None:
                on_progress()
            if f.suffix.lower() == ".json":  # another program's collection of cases, or a schema?
                try:
                    foreign = _foreign_json(f, only_rules, variant, seen, limits)
                except DipsatError as exc:
                    runs.append(CaseRun(f.stem, "-", str(f), False, [str(exc)]))
                    continue
                if foreign is not None:
                    runs.extend(foreign)
                    continue
            try:
                case = load_case(f, limits)
            except DipsatError as exc:
                runs.append(CaseRun(f.stem, "-", str(f), False, [str(exc)]))
                continue
            duplicate, selected = _selected(case, f, seen, variant, only_rules)
            if duplicate:
                runs.append(duplicate)
            runs.extend(_timed_run(case, rules, exp, str(f), limits) for rules, exp in selected)
    return runs


def _selected(case: CorpusCase, f: Path, seen: dict[str, Path], variant: Optional[str],
              only_rules: Optional[list[str]]) -> tuple[Optional[CaseRun], list[tuple[str, Expectation]]]:
    """The expectations of ``case`` that the filters keep, or a failed run when its id repeats
    one seen before (recorded in ``seen``)."""
    if case.id in seen:
        return CaseRun(case.id, "-", str(f), False, [f"case id {case.id!r} is also used by {seen[case.id]}"]), []
    seen[case.id] = f
    if variant and case.variant != variant.lower():
        return None, []
    return None, [(rules, exp) for rules, exp in runs_of(case) if not only_rules or rules in only_rules]


def _timed_run(case: CorpusCase, rules: str, exp: Expectation, path: str, limits: Limits) -> CaseRun:
    """:func:`run_expectation` within the wall-clock limit; running past it is a failed run."""
    from dipsat.limits import TurnTimeout, deadline

    try:
        with deadline(limits.turn_time_limit):
            return run_expectation(case, rules, exp, path, limits)
    except TurnTimeout as exc:
        return CaseRun(case.id, rules, path, False, [f"error: {exc}"], case=case, expectation=exp)


def _foreign_json(f: Path, only_rules: Optional[list[str]], variant: Optional[str],
                  seen: dict[str, Path], limits: Limits) -> Optional[list[CaseRun]]:
    """The runs of a JSON file that is not one dipsat case: a collection of cases in the Rust
    ``diplomacy`` crate's schema (``rust_cases``), or a JSON Schema (nothing to run); None for
    anything else (read as a dipsat case)."""
    from dipsat.game.request import read_data_file
    from dipsat.io.rust_cases import is_rust_case_file, read_rust_cases

    data = read_data_file(f, limits, max_bytes=limits.max_file_bytes)
    if isinstance(data, dict) and str(data.get("$schema", "")).startswith(("http://json-schema.org", "https://json-schema.org")):
        return []
    if not is_rust_case_file(data):
        return None
    runs: list[CaseRun] = []
    for case, skip in read_rust_cases(data, str(f)):
        duplicate, selected = _selected(case, f, seen, variant, only_rules)
        if duplicate:
            runs.append(duplicate)
        for rules, exp in selected:
            if skip:
                runs.append(CaseRun(case.id, rules, str(f), False, skipped=f"ignored by its file: {skip}"))
                continue
            run = _timed_run(case, rules, exp, str(f), limits)
            # the crate's cases do not state which units are dislodged: that is not checked
            run.problems = [p for p in run.problems if not p.startswith("dislodged: ")]
            run.passed = not run.problems
            runs.append(run)
    return runs


def corpus_schema() -> dict[str, Any]:
    return CorpusCase.model_json_schema()
