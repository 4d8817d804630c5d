"""A phase's result as JSON: the output of ``adjudicate --json`` and of a ``batch`` line (the
published ``result`` schema, ``docs/schemas/``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from dipsat.models import Position, dislodged_units
from dipsat.outcomes import OrderRef, Outcome, Strength

if TYPE_CHECKING:
    from dipsat.game.pipeline import PhaseResult


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
    out: dict[str, Any] = {}
    for name, default in _own_fields(type(o)):
        value = getattr(o, name)
        if value != default:
            out[name] = _detail_json(value, pos)
    for d in o.details:  # a variant's details, by their tags (a kind of several: a list)
        value_: object = {k: _detail_json(getattr(d, k), pos) for k in _field_names(type(d)) if k != "kind"} or True
        if type(d).MANY:
            out.setdefault(d.kind, []).append(value_)
        else:
            out[d.kind] = value_
    return out


def _own_fields(cls: type[Outcome]) -> tuple[tuple[str, Any], ...]:
    """The fields an outcome class adds to :class:`Outcome`'s, each with its default (a
    factory's value made once: it is only compared with), read once per class."""
    own = _OWN_FIELDS.get(cls)
    if own is None:
        base = Outcome.model_fields
        own = _OWN_FIELDS[cls] = tuple((name, f.get_default(call_default_factory=True))
                                       for name, f in cls.model_fields.items() if name not in base)
    return own


def _field_names(cls: type[Any]) -> tuple[str, ...]:
    """A model class's field names, in order, read once per class."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(cls.model_fields)
    return names


# memos of the classes' field definitions (pydantic's ``model_fields`` is a property that builds
# its answer on every read)
_OWN_FIELDS: dict[type, tuple[tuple[str, Any], ...]] = {}
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


_SCALARS = frozenset({str, int, float, bool, type(None)})  # written as they are


def _detail_json(v: Any, pos: Position) -> Any:
    if type(v) in _SCALARS:
        return v
    if isinstance(v, OrderRef):
        return order_json(v, pos)
    if isinstance(v, Strength):
        return strength_json(v)
    if isinstance(v, BaseModel):
        return {k: _detail_json(getattr(v, k), pos) for k in _field_names(type(v))}
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
