"""Games saved by MILA's ``diplomacy`` engine, replayed by dipsat phase by phase.

MILA (the ``diplomacy`` package on PyPI) saves a game as JSON (its
``diplomacy.utils.export.to_saved_game_format``; one such object per line in its ``.jsonl``
files)::

    {"id": "...", "map": "standard", "rules": [...],
     "phases": [{"name": "S1901M",
                 "state": {"units": {"FRANCE": ["A PAR", "F BRE", ...], ...},
                           "centers": {"FRANCE": ["BRE", "MAR", "PAR"], ...}, ...},
                 "orders": {"FRANCE": ["A PAR - BUR", "F BRE - MAO", ...], ...},
                 "results": {...}}, ...]}

Each phase's ``state`` is the position *before* its orders; the next phase's state is the
position after them (in a retreat phase the dislodged units are listed with a ``*``: ``*A MUN``).
The last phase is the one to be played next (no orders).  MILA's order notation (``A PAR - BUR``,
``A LON - NWY VIA``, ``F NTH C A LON - NWY``, ``A MUN R KIE``, ``A PAR B``, ``A PAR D``,
``WAIVE``) is read by dipsat's own order parser.

:func:`replay_mila` starts a dipsat game at the first phase's state and plays every phase with
MILA's orders; after each phase it compares dipsat's position (units, dislodged units, supply
centre owners, the name of the next phase) with MILA's next state, and stops at the first phase
where they differ.  With ``resync``, it goes on from MILA's state after a difference (at the next
movement or adjustment phase: a retreat phase cannot be started from a saved state), so that
every later phase is compared too.

MILA's rules differ from DATC 3.0 in places where dipsat has a rule option; :data:`MILA_OPTIONS`
are those readings, used unless the caller gives other options.  Differences that no option
covers are MILA's deviations from DATC 3.0 (``tests/corpora/peers/``).
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dipsat.errors import DipsatError, InputFileError, OrderError
from dipsat.records import dataclass

if TYPE_CHECKING:
    from dipsat.limits import Limits

#: dipsat's rule options for MILA's readings (``diplomacy`` 1.1.2), where dipsat has an option:
#:
#: * ``civil_disorder = "home_centres"``: MILA removes the units farthest from a *home* centre
#:   (armies over land and sea, fleets by sea; ties: fleets first, then alphabetically), the
#:   1971-2000 rulebooks' rule (``Game._get_distance_to_home``), not the 2023 rule;
#: * ``adjacent_convoy = "2000_fallback"``: MILA convoys an army to an adjacent province when
#:   the order says ``VIA`` and falls back to the land route when no convoy route is ordered
#:   (the DATC 2 preference of 4.A.3).  MILA differs from it in one more case: an army ordered
#:   to an adjacent province *without* ``VIA`` always goes over land, even when a fleet of its
#:   own power is ordered to convoy it there (dipsat's ``"dptg"`` reading for that order).
MILA_OPTIONS: dict[str, Any] = {"civil_disorder": "home_centres", "adjacent_convoy": "2000_fallback"}


class MilaState(BaseModel):
    model_config = ConfigDict(extra="ignore")

    units: dict[str, list[str]] = Field(default_factory=dict)
    centers: dict[str, list[str]] = Field(default_factory=dict)


class MilaPhase(BaseModel):
    model_config = ConfigDict(extra="ignore")

    name: str
    state: MilaState
    orders: dict[str, Optional[list[str]]] = Field(default_factory=dict)


class MilaGame(BaseModel):
    """A MILA saved game (the fields dipsat reads; the others are ignored)."""

    model_config = ConfigDict(extra="ignore")

    id: Optional[str] = None
    map: str = "standard"
    rules: list[str] = Field(default_factory=list)
    phases: list[MilaPhase]


def read_mila_game(data: Any, where: str = "game") -> MilaGame:
    """A MILA saved game from its JSON value; a clear error when it is not one."""
    if not isinstance(data, dict) or "phases" not in data:
        raise InputFileError(f"{where}: not a MILA saved game (a JSON object with 'phases', as written by "
                             "diplomacy.utils.export.to_saved_game_format)")
    try:
        game = MilaGame.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise InputFileError(f"{where}: {loc}: {err['msg']}") from None
    if game.map != "standard":
        raise InputFileError(f"{where}: map {game.map!r}: only MILA games on the standard map can be replayed")
    if not game.phases:
        raise InputFileError(f"{where}: the game has no phases")
    return game


def load_mila_game(path: str | Path, limits: Optional[Limits] = None) -> MilaGame:
    """Read a MILA saved game from a ``.json`` file (or the first line of a ``.jsonl`` file),
    within the saved-game size limit and the nesting limit of ``limits`` (default the defaults)."""
    from dipsat.limits import DEFAULT_LIMITS, LimitExceeded, parse_data

    limits = limits or DEFAULT_LIMITS
    p = Path(path)
    cap = limits.max_file_bytes
    try:
        with p.open("rb") as f:
            raw = f.read(cap + 1)
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read: {exc.strerror}") from None
    if len(raw) > cap:
        raise LimitExceeded(f"{path}: more than the limit of {cap:,} bytes")
    if p.suffix.lower() == ".jsonl":
        raw = next((line for line in raw.splitlines() if line.strip()), b"")
    return read_mila_game(parse_data(raw, "json", str(path), limits, max_bytes=cap), str(path))


# ----------------------------------------------------------------------------------------------
# comparing


Loc = tuple[str, str, str]  # (power, "A"/"F", location such as "stp/sc")


@dataclass
class PhaseCheck:
    """One phase played by dipsat with MILA's orders, compared with MILA's next state."""

    phase: str  # the phase played, e.g. "F1903M"
    mila_next: str  # MILA's next phase, e.g. "F1903R"
    dipsat_next: str  # dipsat's next phase
    units_mila_only: list[Loc] = field(default_factory=list)
    units_dipsat_only: list[Loc] = field(default_factory=list)
    dislodged_mila_only: list[Loc] = field(default_factory=list)
    dislodged_dipsat_only: list[Loc] = field(default_factory=list)
    owners_differ: dict[str, tuple[Optional[str], Optional[str]]] = field(default_factory=dict)  # centre -> (mila, dipsat)
    outcomes: list[dict[str, Any]] = field(default_factory=list)  # dipsat's outcomes when the phase differs

    @property
    def agree(self) -> bool:
        return not (self.units_mila_only or self.units_dipsat_only or self.dislodged_mila_only
                    or self.dislodged_dipsat_only or self.owners_differ or self.mila_next != self.dipsat_next)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"phase": self.phase, "agree": self.agree, "mila_next": self.mila_next,
                               "dipsat_next": self.dipsat_next}
        if not self.agree:
            out.update({
                "units_mila_only": [_loc_text(x) for x in self.units_mila_only],
                "units_dipsat_only": [_loc_text(x) for x in self.units_dipsat_only],
                "dislodged_mila_only": [_loc_text(x) for x in self.dislodged_mila_only],
                "dislodged_dipsat_only": [_loc_text(x) for x in self.dislodged_dipsat_only],
                "owners_differ": {c: {"mila": m, "dipsat": d} for c, (m, d) in self.owners_differ.items()},
                "outcomes": self.outcomes})
        return out


@dataclass
class MilaReplay:
    game_id: Optional[str]
    rules: str
    options: dict[str, Any]
    phases: list[PhaseCheck]  # the phases compared, in order
    total: int  # phases with orders in the file
    skipped: list[str] = field(default_factory=list)  # phases not compared (after a difference)

    @property
    def first_difference(self) -> Optional[PhaseCheck]:
        return next((c for c in self.phases if not c.agree), None)

    @property
    def agreed(self) -> int:
        return sum(c.agree for c in self.phases)

    def to_json(self) -> dict[str, Any]:
        first = self.first_difference
        return {"game": self.game_id, "rules": self.rules, "options": self.options, "phases_in_file": self.total,
                "phases_compared": len(self.phases), "phases_agreeing": self.agreed,
                "first_difference": first.to_json() if first else None,
                "phases": [c.to_json() for c in self.phases], "skipped": self.skipped}


def _loc_text(x: Loc) -> str:
    prov, _, coast = x[2].partition("/")
    return f"{x[0]} {x[1]} {prov.capitalize()}{f'({coast})' if coast else ''}"


def _season(name: str) -> str:
    return {"S": "spring", "F": "fall", "W": "winter"}[name[0]]


def _check_name(name: str, where: str) -> None:
    if len(name) != 6 or name[0] not in "SFW" or not name[1:5].isdigit() or name[5] not in "MRA":
        raise InputFileError(f"{where}: phase name {name!r} is not a MILA phase such as 'S1901M', 'F1901R', 'W1901A'")


def _units(variant: Any, state: MilaState, where: str) -> tuple[dict[str, list[str]], set[Loc]]:
    """The units of a MILA state for a dipsat start (dislodged ones left out), and the
    dislodged ones (``*A MUN``) as (power, kind, location)."""
    from dipsat.game.positions import _power_name
    from dipsat.board.notation import parse_unit_spec

    units: dict[str, list[str]] = {}
    dislodged: set[Loc] = set()
    for power, specs in sorted(state.units.items()):
        pname = _power_name(variant, power, f"{where}.units")
        for spec in specs:
            try:
                u = parse_unit_spec(variant.notation, pname, spec.lstrip("*"))
            except OrderError as exc:
                raise InputFileError(f"{where}.units.{power}: bad unit {spec!r}: {exc.reason}") from None
            if spec.startswith("*"):
                dislodged.add((pname, u.kind, u.location))
            else:
                units.setdefault(pname, []).append(spec)
    return units, dislodged


def _owners(variant: Any, state: MilaState, where: str) -> dict[str, str]:
    from dipsat.game.positions import _power_name

    out: dict[str, str] = {}
    for power, centres in sorted(state.centers.items()):
        pname = _power_name(variant, power, f"{where}.centers")
        for c in centres:
            pid = variant.map.lookup_province(c)
            if pid is None:
                raise InputFileError(f"{where}.centers.{power}: unknown province {c!r}")
            out[pid] = pname
    return out


def _start(variant_name: str, rules: Optional[str], options: dict[str, Any], ph: MilaPhase, where: str) -> Any:
    from dipsat.game.game import Game, StartSpec
    from dipsat.game.registry import find_variant

    variant = find_variant(variant_name)
    units, _ = _units(variant, ph.state, where)
    owners: dict[str, list[str]] = {}
    for pid, power in sorted(_owners(variant, ph.state, where).items()):
        owners.setdefault(power, []).append(pid)
    start = StartSpec(year=int(ph.name[1:5]), season=_season(ph.name), units=units, owners=owners)
    return Game(variant, rules, options, start)


def replay_mila(game: MilaGame, rules: Optional[str] = None, options: Optional[dict[str, Any]] = None,
                resync: bool = False, where: str = "game") -> MilaReplay:
    """Play ``game``'s phases in dipsat with MILA's orders and compare every position.

    ``options`` default to :data:`MILA_OPTIONS`; ``rules`` is the preset they modify (default
    the standard variant's).  Without ``resync`` the replay stops at the first difference."""
    from dipsat.game.registry import find_variant

    opts = dict(MILA_OPTIONS if options is None else options)
    variant = find_variant("standard")
    phases = game.phases
    for i, ph in enumerate(phases):
        if not (ph.name == "COMPLETED" and i == len(phases) - 1):  # MILA's name after a game's end
            _check_name(ph.name, f"{where}: phases[{i}]")
    checks: list[PhaseCheck] = []
    skipped: list[str] = []
    total = len(phases) - 1
    dg: Any = None
    i = 0
    while i < total:
        ph, nxt = phases[i], phases[i + 1]
        here = f"{where}: phases[{i}] ({ph.name})"
        if dg is None:
            if ph.name.endswith("R"):  # cannot start at a retreat phase: go on at the next phase
                skipped.append(ph.name)
                i += 1
                continue
            dg = _start("standard", rules, opts, ph, here)
        if dg.phase_name != ph.name:
            raise InputFileError(f"{here}: dipsat's game is at {dg.phase_name} here")
        orders = {p: list(os or []) for p, os in ph.orders.items() if os}
        try:
            rec = dg.step(orders)
        except DipsatError as exc:
            raise InputFileError(f"{here}: {exc}") from None
        stranded = _stranded(dg, rec)
        if stranded is not None and not nxt.name.endswith("R"):
            # MILA disbands at once a dislodged unit that cannot retreat, and has no retreat
            # phase when no other unit was dislodged: play dipsat's retreat phase without orders
            dg.step({})
        check = _compare(variant, dg, rec, nxt, f"{where}: phases[{i + 1}] ({nxt.name})")
        check.phase = ph.name
        checks.append(check)
        i += 1
        if not check.agree:
            check.outcomes = [{"power": o.power, "order": o.text, "result": o.result, "reason": o.reason}
                              for o in rec.outcomes]
            if not resync:
                skipped.extend(p.name for p in phases[i:total])
                break
            dg = None
        elif dg.winner:
            skipped.extend(p.name for p in phases[i:total])
            break
    return MilaReplay(game.id, dg.rules.name if dg is not None else (rules or "datc"), opts, checks, total, skipped)


def _stranded(dg: Any, rec: Any) -> Optional[set[Loc]]:
    """After a movement phase that leads to a retreat phase: the dislodged units that have
    nowhere to retreat, or None when every dislodged unit may retreat somewhere (or nothing
    was dislodged)."""
    if dg.phase != "retreat":
        return None
    from dipsat.board.retreats import retreat_options

    before = rec.result.position.units
    out = {(before[o.unit].power, before[o.unit].kind, before[o.unit].location)
           for o in retreat_options(dg.variant.map, dg.rules, rec.result) if not o.open}
    return out if len(out) == len(rec.result.dislodged) else None


def _compare(variant: Any, dg: Any, rec: Any, nxt: MilaPhase, where: str) -> PhaseCheck:
    mila_units, mila_dislodged = _units(variant, nxt.state, where)
    from dipsat.game.positions import _power_name
    from dipsat.board.notation import parse_unit_spec

    want: set[Loc] = set()
    for power, specs in mila_units.items():
        for spec in specs:
            u = parse_unit_spec(variant.notation, _power_name(variant, power, where), spec)
            want.add((u.power, u.kind, u.location))
    got = {(u.power, u.kind, u.location) for u in rec.after.units}
    dislodged: set[Loc] = set()
    res = rec.result
    if dg.phase == "retreat" and getattr(res, "dislodged", None):
        # MILA lists a dislodged unit (``*A MUN``) only when it may retreat somewhere
        from dipsat.board.retreats import retreat_options

        before = res.position.units
        dislodged = {(before[o.unit].power, before[o.unit].kind, before[o.unit].location)
                     for o in retreat_options(dg.variant.map, dg.rules, res) if o.open}
    mila_owners = _owners(variant, nxt.state, where)
    owners = dict(dg.position.owners)
    differ = {c: (mila_owners.get(c), owners.get(c)) for c in sorted(set(mila_owners) | set(owners))
              if mila_owners.get(c) != owners.get(c)}
    dipsat_next = "COMPLETED" if dg.winner else dg.phase_name
    return PhaseCheck(rec.name, nxt.name, dipsat_next,
                      units_mila_only=sorted(want - got), units_dipsat_only=sorted(got - want),
                      dislodged_mila_only=sorted(mila_dislodged - dislodged),
                      dislodged_dipsat_only=sorted(dislodged - mila_dislodged), owners_differ=differ)


def _concerned(check: PhaseCheck) -> set[str]:
    """The provinces where a phase's results differ (MILA's orders name them by abbreviation)."""
    locs = (check.units_mila_only + check.units_dipsat_only + check.dislodged_mila_only
            + check.dislodged_dipsat_only)
    return {x[2].split("/")[0] for x in locs} | set(check.owners_differ)


def format_replay(rep: MilaReplay) -> str:
    """The replay as text: one line per phase compared, then the first difference in full."""
    out = [f"MILA game {rep.game_id or '(no id)'}: {rep.total} phases with orders; dipsat rules {rep.rules}"
           + (f" with {', '.join(f'{k}={v}' for k, v in sorted(rep.options.items()))}" if rep.options else "")]
    for c in rep.phases:
        out.append(f"  {c.phase}: {'same' if c.agree else 'DIFFERENT'}")
    first = rep.first_difference
    if first is None:
        out.append(f"Every phase agrees ({rep.agreed} of {rep.total}).")
        return "\n".join(out)
    out.append(f"First difference: after {first.phase} (MILA's next phase {first.mila_next}).")
    for label, xs in (("only in MILA", first.units_mila_only), ("only in dipsat", first.units_dipsat_only),
                      ("dislodged only in MILA", first.dislodged_mila_only),
                      ("dislodged only in dipsat", first.dislodged_dipsat_only)):
        if xs:
            out.append(f"  units {label}: {', '.join(_loc_text(x) for x in xs)}")
    for centre, (m, d) in first.owners_differ.items():
        out.append(f"  centre {centre}: MILA {m or 'unowned'}, dipsat {d or 'unowned'}")
    if first.mila_next != first.dipsat_next:
        out.append(f"  next phase: MILA {first.mila_next}, dipsat {first.dipsat_next}")
    concerned = _concerned(first)
    shown = [o for o in first.outcomes if concerned & {w.split("/")[0] for w in o["order"].lower().split()}]
    if shown:
        out.append(f"  dipsat's outcomes in {first.phase} for the orders concerned (--json: all):")
        for o in shown:
            out.append(f"    {o['power']}: {o['order']}: {o['result']} — {o['reason']}")
    if rep.skipped:
        out.append(f"Not compared: {len(rep.skipped)} later phase(s).")
    return "\n".join(out)
