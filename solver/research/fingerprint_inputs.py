"""The observations ``dipsat fingerprint`` reads: adjudicated phases whose outcome someone
recorded, each turned into a one-expectation corpus case (:class:`~dipsat.io.corpus.CorpusCase`)
so that the corpus's own comparison (:func:`dipsat.io.corpus.compare`) says what differs.

Inputs, by what a path holds:

* a **folder** (or a ``.toml`` case file): corpus cases; each case is one observation, its
  expectation the one listed first (or, with ``expectation=PRESET``, the one that names that
  preset; cases without one are left out).  The expectation's presets and categorical options
  are what is being asked, so they are ignored; its other options (seeds, draws) are kept.
  Game cases (``phase = "game"``) are one observation each;
* a ``.jsonl`` file: one ``batch`` request per line plus an ``expect`` object in the corpus
  vocabulary (``orders``, ``dislodged``, ``units_after``, ``retreat_options``, ``retreats``);
  the line's own ``rules`` and ``options`` are kept (its options are not enumerated).  A line
  holding a MILA saved game (one game a line, as MILA writes ``.jsonl``) is read as one;
* a ``.json`` file: a MILA saved game (``phases`` with ``state``), a dipsat saved game
  (``phases`` with ``orders``) or a corpus case.

A **MILA saved game** gives one observation per phase played: the phase's state and orders,
and the next phase's state as the position after (``units_after``; the units MILA stars as
dislodged are left out).  A **dipsat saved game** is one observation: its phases replayed from
its start, each phase's saved position (``expect_units``) checked in turn.

A bad item (unreadable line, unknown field, an ``expect`` of the wrong shape) is an
:class:`InputProblem` with its place; it never stops the others.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Any, Iterator, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dipsat.game.request import TurnRequest, describe_validation
from dipsat.io.corpus import CorpusCase, Expectation, Expected
from dipsat.errors import DipsatError
from dipsat.limits import DEFAULT_LIMITS, Limits, parse_data
from dipsat.records import dataclass


@dataclass
class Observation:
    """One recorded outcome: ``case`` holds the position, the orders and one expectation."""

    id: str  # the line's id, the case id, or "game S1901M"
    where: str  # "file:line", a case file, "game.json: S1901M"
    case: CorpusCase
    rules: Optional[str] = None  # the base preset for the options that are not enumerated
    fixed: dict[str, Any] = field(default_factory=dict)  # options given, not enumerated
    checks_dislodged: bool = True  # does the expectation state the dislodged units?
    phase_name: str = ""  # a saved game's phase ("S1901M"); else the case's phase
    step_names: tuple[str, ...] = ()  # a saved game's stretch: the name of each phase it plays

    @property
    def variant(self) -> str:
        return self.case.variant

    @property
    def phase(self) -> str:
        return self.phase_name or self.case.phase

    @property
    def expectation(self) -> Expectation:
        return self.case.expect[0]

    def orders(self) -> dict[str, list[str]]:
        """Every order of the observation, by power (a game's: phase-prefixed)."""
        if self.case.phase == "game":
            out: dict[str, list[str]] = {}
            for i, st in enumerate(self.case.steps):
                for p, texts in st.orders.items():
                    label = st.phase or (self.step_names[i] if i < len(self.step_names) else f"step {i + 1}")
                    out.setdefault(p, []).extend(f"{label}: {t}" for t in texts)
            return out
        out = {p: list(t) for p, t in self.case.orders.items()}
        for p, texts in self.case.retreat_orders.items():
            out.setdefault(p, []).extend(f"retreat: {t}" for t in texts)
        return out


@dataclass(frozen=True)
class InputProblem:
    where: str
    message: str


Item = Union[Observation, InputProblem]


class ObservedExpect(BaseModel):
    """A batch line's ``expect``: what was observed (the corpus vocabulary, no presets)."""

    model_config = ConfigDict(extra="forbid")

    orders: dict[str, Expected] = Field(default_factory=dict, description="order text -> observed outcome")
    dislodged: Optional[list[str]] = Field(default=None, description="'Power: unit' dislodged (omit: not observed)")
    units_after: Optional[dict[str, list[str]]] = None
    retreat_options: dict[str, list[str]] = Field(default_factory=dict)
    retreats: dict[str, Expected] = Field(default_factory=dict)


def read_inputs(paths: list[str], expectation: Optional[str] = None, limits: Limits = DEFAULT_LIMITS,
                turns: bool = False) -> Iterator[Item]:
    """Every observation (or problem) of ``paths``, in order.  With ``turns`` (a peer is to
    adjudicate them), a batch line needs no ``expect``: it is a turn, observed by the peer."""
    from dipsat.io.corpus import case_files

    for raw in paths:
        p = Path(raw)
        if not p.exists():
            yield InputProblem(raw, "no such file or folder")
            continue
        if p.is_dir():
            for f in case_files([p]):
                yield from _file(f, expectation, limits, turns)
        else:
            yield from _file(p, expectation, limits, turns)


def _file(p: Path, expectation: Optional[str], limits: Limits, turns: bool = False) -> Iterator[Item]:
    from dipsat.game.request import read_data_file

    if p.suffix.lower() == ".jsonl":
        yield from _jsonl(p, limits, turns)
        return
    try:
        data = read_data_file(p, limits, max_bytes=limits.max_file_bytes)
    except DipsatError as exc:
        yield InputProblem(str(p), str(exc))
        return
    yield from _document(data, str(p), p.stem, expectation)


def _document(data: Any, where: str, name: str, expectation: Optional[str]) -> Iterator[Item]:
    if not isinstance(data, dict):
        yield InputProblem(where, "expected a table (a corpus case, a saved game, or a MILA saved game)")
        return
    if str(data.get("$schema", "")).startswith(("http://json-schema.org", "https://json-schema.org")):
        return  # a schema beside the cases
    phases = data.get("phases")
    if isinstance(phases, list) and "expect" not in data:
        if phases and isinstance(phases[0], dict) and "state" in phases[0]:
            yield from mila_observations(data, where, name)
        else:
            yield from saved_game_observations(data, where, name)
        return
    from dipsat.io.rust_cases import is_rust_case_file, read_rust_cases

    if is_rust_case_file(data):
        try:
            cases = read_rust_cases(data, where)
        except DipsatError as exc:
            yield InputProblem(where, str(exc))
            return
        for case, skip in cases:
            if not skip:
                yield from _case(case, where, expectation, checks_dislodged=False)
        return
    try:
        case = CorpusCase.model_validate(data)
    except ValidationError as exc:
        yield InputProblem(where, describe_validation(exc))
        return
    yield from _case(case, where, expectation)


def _case(case: CorpusCase, where: str, expectation: Optional[str], checks_dislodged: bool = True) -> Iterator[Item]:
    exps = [e for e in case.expect if expectation is None or expectation in e.rules]
    if not exps:
        return
    exp = exps[0]
    kept = {k: v for k, v in exp.options.items() if not _categorical(case.variant, k)}
    one = exp.model_copy(update={"rules": [], "options": kept})
    yield Observation(case.id, where, case.model_copy(update={"expect": [one]}), fixed=kept,
                      checks_dislodged=checks_dislodged)


def _categorical(variant: str, name: str) -> bool:
    """Is ``name`` a categorical option of the variant (one the fingerprint enumerates)?"""
    from dipsat.game.registry import find_record

    from dipsat.engine.option_space import categorical_options
    from dipsat.game.variant import Variant

    try:
        record = find_record(variant)
    except DipsatError:
        return False
    return isinstance(record, Variant) and name in categorical_options(record.options_model)


def _jsonl(p: Path, limits: Limits, turns: bool = False) -> Iterator[Item]:
    try:
        f = p.open("rb")
    except OSError as exc:
        yield InputProblem(str(p), f"cannot read: {exc.strerror}")
        return
    with f:
        for n, raw in enumerate(f, 1):
            if not raw.strip() or raw.lstrip().startswith(b"#"):
                continue
            where = f"{p}:{n}"
            try:
                data = parse_data(raw.strip(), "json", f"line {n}", limits)
            except DipsatError as exc:
                yield InputProblem(where, str(exc))
                continue
            if isinstance(data, dict) and isinstance(data.get("phases"), list) and "expect" not in data:
                yield from _document(data, where, f"{p.stem}:{n}", None)
                continue
            yield _line(data, where, n, turns)


def _line(data: Any, where: str, n: int, turns: bool = False) -> Item:
    if not isinstance(data, dict):
        return InputProblem(where, "expected a JSON object (a batch request with an 'expect' object)")
    data = dict(data)
    ident = data.pop("id", None)
    data.pop("explain", None)
    expect = data.pop("expect", None)
    if expect is None and turns:
        expect = {}
    if expect is None:
        return InputProblem(where, "no 'expect' object: nothing was observed (give any of orders, dislodged, "
                                   "units_after, retreat_options)")
    if not isinstance(expect, dict):
        return InputProblem(where, f"field expect: expected an object, got {type(expect).__name__}")
    try:
        seen = ObservedExpect.model_validate(expect)
    except ValidationError as exc:
        return InputProblem(where, describe_validation(exc).replace("field ", "field expect.", 1))
    try:
        req = TurnRequest.model_validate(data)
    except ValidationError as exc:
        return InputProblem(where, describe_validation(exc))
    exp = Expectation(rules=[], orders=seen.orders, dislodged=seen.dislodged or [], units_after=seen.units_after,
                      retreat_options=seen.retreat_options, retreats=seen.retreats)
    ident_text = str(ident) if ident is not None else f"line {n}"
    try:
        case = CorpusCase(id=ident_text, variant=req.variant, phase=req.phase, units=req.units, orders=req.orders,  # type: ignore[arg-type]
                          owners=req.owners, retreat_orders=req.retreat_orders, expect=[exp])
    except ValidationError as exc:
        return InputProblem(where, describe_validation(exc))
    return Observation(ident_text, where, case, rules=req.rules, fixed=dict(req.options),
                       checks_dislodged=seen.dislodged is not None)


# -- saved games ----------------------------------------------------------------------------------


def saved_game_observations(data: Any, where: str, name: str) -> Iterator[Item]:
    """A dipsat saved game: one observation per checkpoint (``expect_units``), named by the
    game and the checkpoint's phase, each played from the recorded position before it
    (:func:`dipsat.game.recorded.recorded_stretches`: a retreat phase with the movement before
    it, a phase after missing checkpoints from the last one recorded), the checkpoint its
    ``units_after``."""
    from dipsat.game.game import SavedGame
    from dipsat.game.recorded import BadCheckpoint, recorded_stretches

    try:
        saved = SavedGame.model_validate(data)
    except ValidationError as exc:
        yield InputProblem(where, describe_validation(exc))
        return
    if not any(st.expect_units is not None for st in saved.phases):
        yield InputProblem(where, "the saved game records no position after any phase (expect_units): nothing was "
                                  "observed (dipsat play --save writes them)")
        return
    try:
        stretches = recorded_stretches(saved)
    except DipsatError as exc:
        yield InputProblem(where, str(exc))
        return
    for st in stretches:
        if isinstance(st, BadCheckpoint):
            yield InputProblem(f"{where}: {st.name or f'phases[{st.index + 1}]'}", st.message)
            continue
        names = [n or f"phases[{st.first + i + 1}]" for i, n in enumerate(st.names)]
        phase = names[-1]
        ident = f"game {name} {phase}" + (f" (from {names[0]})" if st.first < st.last else "")
        start = st.start
        steps = [ph.model_copy(update={"expect_units": None}) for ph in saved.phases[st.first:st.last + 1]]
        try:
            case = CorpusCase(id=ident, variant=saved.variant, phase="game",
                              units=start.units if start else {}, owners=start.owners if start else {},
                              year=start.year if start else None, season=start.season if start else None,
                              steps=steps, expect=[Expectation(rules=[], units_after=saved.phases[st.last].expect_units)])
        except ValidationError as exc:
            yield InputProblem(f"{where}: {phase}", describe_validation(exc))
            continue
        yield Observation(ident, f"{where}: {phase}", case, rules=saved.rules, fixed=dict(saved.options),
                          checks_dislodged=False, phase_name=phase, step_names=tuple(names))


def mila_observations(data: Any, where: str, name: str) -> Iterator[Item]:
    """A MILA saved game: one observation per phase played (its state and orders, the next
    phase's state as the position after)."""
    from dipsat.io.mila import read_mila_game

    try:
        game = read_mila_game(data, where)
    except DipsatError as exc:
        yield InputProblem(where, str(exc))
        return
    phases = game.phases
    for i in range(len(phases) - 1):
        ph, nxt = phases[i], phases[i + 1]
        here = f"{where}: {ph.name}"
        kind = ph.name[-1:]
        orders = {p: list(os) for p, os in ph.orders.items() if os}
        after = _plain_units(nxt.state.units)
        exp = Expectation(rules=[], units_after=after)
        try:
            if kind == "M":
                case = CorpusCase(id=f"game {ph.name}", phase="movement", units=_plain_units(ph.state.units),
                                  orders=orders, expect=[exp])
            elif kind == "R":
                prev = phases[i - 1] if i > 0 else None
                if prev is None or not prev.name.endswith("M"):
                    yield InputProblem(here, "a retreat phase without the movement phase before it")
                    continue
                mv = {p: list(os) for p, os in prev.orders.items() if os}
                case = CorpusCase(id=f"game {ph.name}", phase="retreat", units=_plain_units(prev.state.units),
                                  orders=mv, retreat_orders=orders, expect=[exp])
            elif kind == "A":
                case = CorpusCase(id=f"game {ph.name}", phase="adjustment", units=_plain_units(ph.state.units),
                                  owners={p: list(c) for p, c in ph.state.centers.items() if c}, orders=orders,
                                  expect=[exp])
            else:
                yield InputProblem(here, f"phase name {ph.name!r} is not a MILA phase such as 'S1901M'")
                continue
        except ValidationError as exc:
            yield InputProblem(here, describe_validation(exc))
            continue
        ident = f"{game.id or name} {ph.name}"
        yield Observation(ident, here, case.model_copy(update={"id": ident}), checks_dislodged=False, phase_name=ph.name)


def _plain_units(units: dict[str, list[str]]) -> dict[str, list[str]]:
    """A MILA state's units, those it stars as dislodged left out."""
    return {p: [u for u in us if not u.startswith("*")] for p, us in units.items() if us}


def observation_json(o: Observation) -> dict[str, Any]:
    return {"id": o.id, "where": o.where, "phase": o.phase, "orders": o.orders()}
