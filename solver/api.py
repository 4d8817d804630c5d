"""The public entry points: a turn request in, a result out.

A *turn request* (file, batch line or Python dict) is::

    {"variant": "standard", "rules": "datc", "options": {"convoy_paradox_rule": "1982"},
     "year": 1901, "season": "spring",
     "units":  {"England": ["F London", "F Edinburgh", "A Liverpool"], ...},
     "orders": {"England": ["F London - North Sea", ...], ...}}

``units`` holds every unit on the board in order notation ("F Spain(nc)", "A Par"); ``orders``
the orders as written.  Units without an order hold.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .errors import InputFileError, OrderError, PositionError
from .limits import DEFAULT_LIMITS, LimitExceeded, Limits, check_request_size, parse_data
from .models import Position, Unit, canonical_units, dislodged_units
from .outcomes import OrderRef, Outcome
from .rules import RuleOptions

if TYPE_CHECKING:
    from .pipeline import PhaseResult
    from .variant import Variant


class TurnRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    variant: str = "standard"
    rules: Optional[str] = None
    options: dict[str, Any] = Field(default_factory=dict)
    year: Optional[int] = Field(default=None, ge=1, le=9999)
    season: Optional[str] = None
    phase: str = "movement"
    units: dict[str, list[str]] = Field(default_factory=dict)
    orders: dict[str, list[str]] = Field(default_factory=dict)
    owners: dict[str, list[str]] = Field(default_factory=dict, description="supply centres owned, per power (adjustments)")
    retreat_orders: dict[str, list[str]] = Field(default_factory=dict, description="retreat phase: orders after the movement")

    @field_validator("phase")
    @classmethod
    def _phase(cls, v: str) -> str:
        if v == "game":
            raise ValueError("phase 'game' is a corpus case of several phases in turn: 'dipsat corpus' plays it "
                             "(this command reads one phase: movement, retreat, adjustment or placement)")
        if v not in ("movement", "retreat", "adjustment", "placement"):
            raise ValueError(f"phase {v!r} is not one of movement, retreat, adjustment, placement")
        return v


def power_name(variant: Variant, name: str, where: str) -> str:
    """The power a name or adjective means on the variant's map ("france", "French" -> France);
    a :class:`PositionError` naming ``where`` otherwise.  Public for variants' own phases."""
    if name in variant.map.powers:  # the power's own name, as written on the map
        return name
    for p in variant.map.powers:
        if p.lower() == name.strip().lower() or variant.map.powers[p].adjective.lower() == name.strip().lower():
            return p
    raise PositionError(f"{where}: unknown power {name!r}; powers of the {variant.name} map: {', '.join(variant.map.powers)}")


_power_name = power_name  # the name the core's modules use


def build_position(variant: Variant, req: TurnRequest, seasons: Optional[tuple[str, ...]] = None) -> Position:
    """The request's position, checked; ``seasons``: those the variant's calendar has (by
    default, under the variant's own rules)."""
    units: list[Unit] = []
    unit_specs = variant.notation.unit_specs
    for power, specs in sorted(req.units.items()):
        pname = _power_name(variant, power, "units")
        for spec in specs:
            try:
                units.extend(unit_specs(pname, spec))
            except OrderError as exc:
                raise PositionError(f"units.{power}: bad unit {spec!r}: {exc.reason}") from None
    if req.season is not None:
        if seasons is None:
            seasons = variant.calendar(variant, variant.rules()).seasons
        if req.season not in seasons:
            raise PositionError(f"season: {req.season!r} is not one of {', '.join(seasons)} (the {variant.name} variant's seasons)")
    # Checked before units are merged into stacks: two identical units are two units.
    # (built from the validated request and engine-made units: no second validation pass)
    variant.check_position(variant, Position.build(variant=variant.name, year=req.year, season=req.season, units=tuple(units)))
    pos = Position.build(variant=variant.name, year=req.year, season=req.season, units=canonical_units(units),
                         owners=build_owners(variant, req))
    if len(pos.units) != len(units):  # units were merged into stacks: check the stacks too
        variant.check_position(variant, pos)
    if not pos.units and not (req.phase == "adjustment" and req.owners) and req.phase != "placement":
        raise PositionError("units: the position is empty (no units given); nothing to adjudicate")
    return pos


def build_owners(variant: Variant, req: TurnRequest) -> dict[str, str]:
    """The centres each power owns, from ``[owners]``; without it, the variant's default."""
    if not req.owners:
        return variant.default_owners(variant)
    owners: dict[str, str] = {}
    for power, provs in sorted(req.owners.items()):
        pname = _power_name(variant, power, "owners")
        for text in provs:
            pid = variant.map.lookup_province(text)
            if pid is None or not variant.map.provinces[pid].supply_centre:
                raise PositionError(f"owners.{power}: {text!r} is not a supply centre of the {variant.name} map")
            if pid in owners and owners[pid] != pname:
                raise PositionError(f"owners: {variant.map.provinces[pid].name} is owned by both {owners[pid]} and {pname}")
            owners[pid] = pname
    return owners


def resolve_rules(variant: Variant, req: TurnRequest, rules: str | RuleOptions | None = None) -> RuleOptions:
    if isinstance(rules, RuleOptions):
        return variant.rules(rules)  # as the variant's options model
    return variant.rules(rules or req.rules, **req.options)


def adjudicate(req: TurnRequest | dict[str, Any], rules: str | RuleOptions | None = None,
               time_limit: float | None = None, all_cpsat: bool = False, explain: bool = True) -> PhaseResult:
    """Adjudicate one turn.  ``all_cpsat`` is an engine setting, not a rule: every part of the
    movement equations goes to CP-SAT instead of only the cycles (the outcome is the same).
    ``explain=False`` skips what only explanations need: a movement result then has the outcome
    kinds and their culprits but no strength terms (``explained`` is False, and
    :func:`result_to_json` leaves out reasons and strengths); the outcomes are the same."""
    from dipsat.variants import find_record

    from .variant import Variant

    if isinstance(req, dict) and isinstance(req.get("variant"), str):
        record = find_record(req["variant"])
        if not isinstance(record, Variant):  # another game family: its game protocol's PhaseResult
            from .protocol import Engine, game_of

            game = game_of(record)
            request = game.read(req, "request", DEFAULT_LIMITS)
            return game.adjudicate(request, game.options(request, rules if isinstance(rules, str) else None),
                                   Engine(time_limit=time_limit, all_cpsat=all_cpsat, explain=explain))
    if isinstance(req, dict):
        try:
            req = TurnRequest.model_validate(req)
        except ValidationError as exc:
            raise InputFileError(describe_validation(exc)) from None
    from .pipeline import Pipeline

    pipe = Pipeline.for_request(req, rules)
    return pipe.adjudicate(pipe.prepare(req), "cpsat" if all_cpsat else "direct", time_limit, explain=explain)


def describe_validation(exc: ValidationError) -> str:
    parts = []
    for e in exc.errors():
        loc = ".".join(str(x) for x in e["loc"]) or "(top level)"
        parts.append(f"field {loc}: {e['msg']}")
    return "; ".join(parts)


def read_data_file(path: str | Path, limits: Limits = DEFAULT_LIMITS, max_bytes: int | None = None) -> Any:
    """A TOML file (or JSON, by its suffix), read with the safe standard loaders within
    ``limits`` (size: ``max_bytes``, default the request limit; nesting depth). ``-`` reads
    standard input: JSON when its first character is ``{``, else TOML."""
    if str(path) == "-":
        import sys

        cap = limits.max_request_bytes if max_bytes is None else max_bytes
        raw = sys.stdin.buffer.read(cap + 1)
        if len(raw) > cap:
            raise LimitExceeded(f"standard input: more than the limit of {cap:,} bytes")
        fmt = "json" if raw.lstrip()[:1] == b"{" else "toml"
        return parse_data(raw, fmt, "standard input", limits, max_bytes=cap)
    p = Path(path)
    cap = limits.max_request_bytes if max_bytes is None else max_bytes
    try:
        with p.open("rb") as f:
            raw = f.read(cap + 1)
    except OSError as exc:
        raise InputFileError(f"{p}: cannot read: {exc.strerror}") from None
    if len(raw) > cap:
        raise LimitExceeded(f"{p}: more than the limit of {cap:,} bytes")
    return parse_data(raw, "json" if p.suffix.lower() == ".json" else "toml", str(p), limits, max_bytes=cap)


_Model = TypeVar("_Model", bound=BaseModel)


def load_model(path: str | Path, model: type[_Model], data: Any = None) -> _Model:
    """A data file validated as ``model``; errors name the file and the fields."""
    p = Path(path)
    if data is None:
        data = read_data_file(p)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InputFileError(f"{p}: {describe_validation(exc)}") from None


def load_request(path: str | Path, limits: Limits = DEFAULT_LIMITS, data: Any = None) -> TurnRequest:
    """Read a position-plus-orders file (TOML or JSON) within ``limits`` (or take its ``data``
    when it was read already)."""
    p = Path(path)
    if data is None:
        data = read_data_file(p, limits)
    if isinstance(data, dict):
        check_request_size(data, str(p), limits)
    if isinstance(data, dict) and "expect" in data:  # a corpus case: take its position and orders
        keep = {"variant", "phase", "units", "orders", "owners", "retreat_orders"}
        data = {k: v for k, v in data.items() if k in keep}
    return load_model(p, TurnRequest, data)


def result_to_json(res: PhaseResult) -> dict[str, Any]:
    """A result as JSON (the output of ``adjudicate --json`` and of a ``batch`` line).  A result
    adjudicated without explanations (``explained`` False) has no ``reason`` and ``strengths``
    in its outcomes."""
    pos: Position = res.position
    explained = getattr(res, "explained", True)

    def unit_label(i: int) -> str:
        return pos.units[i].label()

    def outcome(o: Any) -> dict[str, Any]:
        out = {"power": o.power, "order": o.text, "unit": unit_label(o.unit) if o.unit is not None else None,
               "kind": o.order_kind, "result": o.result, "succeeded": o.succeeded}
        if explained:
            out["reason"] = o.reason
        out |= {"by": [r.text for r in o.by], "dislodged_by": o.dislodged_by.text if o.dislodged_by else None,
                "culprits": [order_json(r, pos) for r in o.by]}
        if explained:
            out["strengths"] = [strength_json(s) for s in o.strengths]
            out["details"] = outcome_details(o, pos)
        return out

    return {
        "outcomes": [outcome(o) for o in res.outcomes],
        "dislodged": [{"unit": unit.label(), "by": unit_label(res.dislodged_by[u]) if u in res.dislodged_by else None}
                      for u, unit in dislodged_units(pos, res.dislodged)],
        "contested": list(res.contested),
        "backups": [b.model_dump() for b in res.backups],
        "units_after": _units_by_power(res.after),
    } | ({"retreat_options": [{"unit": unit_label(o.unit), "open": list(o.open), "closed": o.closed} for o in res.options],
          "movement": result_to_json(res.movement)} if hasattr(res, "movement") else {})


def strength_json(s: Any) -> dict[str, Any]:
    """A strength as JSON: its name, owner, value and the terms that count."""
    return {"name": s.name, "owner": s.owner, "value": s.value,
            "terms": [{"label": t.label, "weight": t.weight} for t in s.terms if t.active]}


def outcome_details(o: Outcome, pos: Position) -> dict[str, Any]:
    """The typed fields an outcome's kind adds to the fields every outcome has (a move's
    obstacles, the lots drawn, ...), those that are not at their default, and a variant's details
    (a rulebook's tallies, a merge, a cut budget, ...) by their tags, as JSON values: culprits as in
    ``culprits``, strengths as in ``strengths``, records as objects of their fields (a detail
    without fields: true)."""
    fields = type(o).model_fields
    out: dict[str, Any] = {name: _detail_json(getattr(o, name), pos) for name, f in fields.items()
           if name not in Outcome.model_fields and getattr(o, name) != f.get_default(call_default_factory=True)}
    for d in o.details:  # a variant's details, by their tags (a kind of several: a list)
        value: object = {k: _detail_json(getattr(d, k), pos) for k in type(d).model_fields if k != "kind"} or True
        if type(d).MANY:
            out.setdefault(d.kind, []).append(value)
        else:
            out[d.kind] = value
    return out


def _detail_json(v: Any, pos: Position) -> Any:
    from pydantic import BaseModel

    from .outcomes import Strength

    if isinstance(v, OrderRef):
        return order_json(v, pos)
    if isinstance(v, Strength):
        return strength_json(v)
    if isinstance(v, BaseModel):
        return {k: _detail_json(getattr(v, k), pos) for k in type(v).model_fields}
    if isinstance(v, (tuple, list)):
        return [_detail_json(x, pos) for x in v]
    if isinstance(v, (set, frozenset)):
        return sorted(_detail_json(x, pos) for x in v)
    return v


def order_json(ref: OrderRef, pos: Position) -> dict[str, Any]:
    """A typed culprit reference as JSON: the order, its power, and the unit it was for."""
    return {"power": ref.power, "order": ref.text,
            "unit": pos.units[ref.unit].label() if ref.unit is not None and ref.unit < len(pos.units) else None}


def _units_by_power(pos: Position) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for u in pos.units:
        out.setdefault(u.power, []).append(u.short())
    return out
