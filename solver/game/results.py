"""A phase's result as JSON: the output of ``adjudicate --json`` and of a ``batch`` line (the
published ``result`` schema, ``docs/schemas/``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Mapping, cast

from dataclasses import fields

from pydantic import BaseModel

from dipsat.models import Position, Record, Unit, dislodged_units
from dipsat.outcomes import OrderRef, Outcome, Strength

if TYPE_CHECKING:
    from dipsat.game.pipeline import PhaseResult


def result_to_json(res: PhaseResult) -> dict[str, Any]:
    """A result as JSON (the output of ``adjudicate --json`` and of a ``batch`` line).  A result
    adjudicated without explanations (``explained`` False) has no ``reason`` and ``strengths``
    in its outcomes."""
    pos: Position = res.position
    explained = res.explained if _has(type(res), "explained") else True

    def unit_label(i: int) -> str:
        return pos.units[i].label()

    return {
        "outcomes": [outcome_json(o, pos, explained) for o in res.outcomes],
        "dislodged": [{"unit": unit.label(), "by": unit_label(res.dislodged_by[u]) if u in res.dislodged_by else None}
                      for u, unit in dislodged_units(pos, res.dislodged)],
        "contested": list(res.contested),
        "backups": [b.model_dump() for b in res.backups],
        "units_after": _units_by_power(res.after),
    } | ({"retreat_options": [{"unit": unit_label(o.unit), "open": list(o.open), "closed": o.closed} for o in res.options],
          "movement": result_to_json(res.movement)} if _has(type(res), "movement") else {})


def outcome_json(o: Any, pos: Position, explained: bool = True) -> dict[str, Any]:
    """One outcome as JSON (an item of a result's ``outcomes``)."""
    out = {"power": o.power, "order": o.text, "unit": pos.units[o.unit].label() if o.unit is not None else None,
           "kind": o.order_kind, "result": o.result, "succeeded": o.succeeded}
    if explained:
        out["reason"] = o.reason
    out |= {"by": [r.text for r in o.by], "dislodged_by": o.dislodged_by.text if o.dislodged_by else None,
            "culprits": [order_json(r, pos) for r in o.by]}
    if explained:
        out["strengths"] = [strength_json(s) for s in o.strengths]
        out["details"] = outcome_details(o, pos)
    return out


def _has(cls: type, name: str) -> bool:
    """Whether a result class's values have the attribute ``name`` (a field or a property), read
    once per class (``hasattr`` on a pydantic value without it raises and catches an error)."""
    key = (cls, name)
    has = _HAS.get(key)
    if has is None:
        has = _HAS[key] = any(name in getattr(c, "model_fields", {}) or name in vars(c) for c in cls.__mro__)
    return has


_HAS: dict[tuple[type, str], bool] = {}


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
    own = _own_fields(type(o))
    if own:
        values = vars(o)  # (a record's fields: its dict)
        for name, default in own:
            value = values[name] if name in values else getattr(o, name)
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
        base = {f.name for f in fields(Outcome)}
        own = _OWN_FIELDS[cls] = tuple((f.name, f.default) for f in fields(cls) if f.name not in base)  # (values: no factories)
    return own


def _field_names(cls: type[Any]) -> tuple[str, ...]:
    """A record's or a pydantic model's field names, in order, read once per class."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = (tuple(f.name for f in fields(cast(Any, cls))) if issubclass(cls, Record)
                                     else tuple(cls.model_fields))
    return names


# memos of the classes' field definitions (pydantic's ``model_fields`` is a property that builds
# its answer on every read; a dataclass's ``fields`` a tuple)
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
    if isinstance(v, (BaseModel, Record)):
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


# -- the same JSON as text, written straight from the result's fields ---------------------------
#
# ``result_fields_text(res)`` is ``json.dumps(result_to_json(res), separators=(",", ":"))`` less
# its braces, with a retreat's options and movement before the units after (the order of
# :meth:`dipsat.game.board_game.BoardGame.result_json`): what a ``batch`` line writes, without the
# dicts of every outcome made only to be encoded.  Strings are escaped by the json module's own
# function, so every byte is the encoder's.  An outcome's fields are read from its dict (a
# :class:`dipsat.models.DictRecord`'s, once for all); an outcome of a class that words its own result, a value of a type the text is not written for
# (``_esc`` raises TypeError), a variant's details or a backup goes through the encoder itself.
# (tests/test_golden_output.py compares the two ways on every line of its input.)

_encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
_esc = json.encoder.encode_basestring_ascii  # what the encoder writes for a str


def text_of(v: Any) -> str:
    """A value as compact JSON text (a str straight from the json module's escaping)."""
    return _esc(v) if type(v) is str else _encode(v)


def result_fields_text(res: PhaseResult) -> str:
    """The fields of a result's JSON as text (see above)."""
    pos: Position = res.position
    units = pos.units
    labels = _label_texts(units)
    n = len(units)
    cls = type(res)
    explained = res.explained if _has(cls, "explained") else True
    parts = []
    for o, d in zip(res.outcomes, map(vars, res.outcomes)):
        try:
            # '{"power":...,"order":' and ',"kind":...,"result":...,"succeeded":...' from memos
            head = _POWER_TEXTS.get(d["power"]) or _power_text(d["power"])
            tail = _KIND_TEXTS.get((type(o), d["order_kind"], d["kind"])) or _kind_text(type(o), d["order_kind"], d["kind"])
            i, by, dis = d["unit"], d["by"], d["dislodged_by"]
            if not by and not explained:  # (most outcomes of a plain result: one string made at once)
                parts.append(f'{head}{_esc(d["text"])},"unit":{"null" if i is None else labels[i]}{tail},"by":[],'
                             f'"dislodged_by":{"null" if dis is None else _esc(dis.text)},"culprits":[]}}')
                continue
            text = head + _esc(d["text"]) + ',"unit":' + ("null" if i is None else labels[i]) + tail
            if explained:
                text += ',"reason":' + _esc(o.reason)
            if by:
                refs = [vars(r) if type(r) is OrderRef else _no_dict() for r in by]
                text += (f',"by":[{",".join([_esc(r["text"]) for r in refs])}],'
                         f'"dislodged_by":{"null" if dis is None else _esc(dis.text)},"culprits":['
                         + ",".join([f'{{"power":{_esc(r["power"])},"order":{_esc(r["text"])},"unit":'
                                     f'{labels[r["unit"]] if r["unit"] is not None and r["unit"] < n else "null"}}}'
                                     for r in refs]) + "]")
            elif dis is None:
                text += ',"by":[],"dislodged_by":null,"culprits":[]'
            else:
                text += ',"by":[],"dislodged_by":' + _esc(dis.text) + ',"culprits":[]'
            if explained:
                strengths = d["strengths"]
                text += (f',"strengths":[{",".join([_strength_text(st) for st in strengths]) if strengths else ""}],'
                         f'"details":{_details_text(o, d, pos, labels, n)}}}')
                parts.append(text)
            else:
                parts.append(text + "}")
        except TypeError:  # a value of another type, or words of the outcome's own: the encoder
            parts.append(_encode(outcome_json(o, pos, explained)))
    dislodged_by = res.dislodged_by
    out = ['"outcomes":[', ",".join(parts), '],"dislodged":[',
           ",".join([f'{{"unit":{text_of(unit.label())},"by":{labels[dislodged_by[u]] if u in dislodged_by else "null"}}}'
                     for u, unit in dislodged_units(pos, res.dislodged)]),
           '],"contested":', _encode(list(res.contested)) if res.contested else "[]",
           ',"backups":', _encode([b.model_dump() for b in res.backups]) if res.backups else "[]"]
    if _has(cls, "movement"):
        out += [',"retreat_options":[',
                ",".join([f'{{"unit":{labels[o.unit]},"open":{_encode(list(o.open))},"closed":{_encode(o.closed)}}}'
                          for o in res.options]),
                '],"movement":{', result_fields_text(res.movement), "}"]
    out += [',"units_after":', units_text(res.after)]
    return "".join(out)


def _details_text(o: Any, d: Mapping[str, Any], pos: Position, labels: list[str], n: int) -> str:
    """``outcome_details(o, pos)`` as JSON text (``d``: the outcome's fields): its own fields
    written straight from their values; a variant's details through the encoder."""
    if d["details"]:
        details = outcome_details(o, pos)
        return _encode(details) if details else "{}"
    items = []
    for name, default in _own_fields(type(o)):
        value = d[name] if name in d else getattr(o, name)
        if value != default:
            items.append(f"{_esc(name)}:{_value_text(value, pos, labels, n)}")
    return "{" + ",".join(items) + "}"


def _value_text(v: Any, pos: Position, labels: list[str], n: int) -> str:
    """``_detail_json(v, pos)`` as JSON text: the values an outcome's own fields hold (text,
    integers, culprits, strengths, obstacles, ... and tuples of them) written straight; any other
    through the encoder."""
    t = type(v)
    if t is str:
        return _esc(v)
    if t is bool:
        return "true" if v else "false"
    if t is int:
        return int.__repr__(v)
    if v is None:
        return "null"
    if t is tuple or t is list:
        return "[" + ",".join([_value_text(x, pos, labels, n) for x in v]) + "]"
    if t is OrderRef:
        r = vars(v)
        i = r["unit"]
        return (f'{{"power":{_esc(r["power"])},"order":{_esc(r["text"])},"unit":'
                f'{labels[i] if i is not None and i < n else "null"}}}')
    if t is Strength:
        return _strength_text(v)
    if isinstance(v, (BaseModel, Record)):  # a record or model: its fields, as :func:`_detail_json` writes them
        return "{" + ",".join([f"{_esc(k)}:{_value_text(getattr(v, k), pos, labels, n)}" for k in _field_names(t)]) + "}"
    return _encode(_detail_json(v, pos))


def _no_dict() -> dict[str, Any]:
    raise TypeError  # a culprit of a class of its own: the outcome goes through the encoder


def _power_text(power: Any) -> str:
    """'{"power":...,"order":' of an outcome of ``power``."""
    text = '{"power":' + _esc(power) + ',"order":'  # (not a str: TypeError, the encoder)
    if len(_POWER_TEXTS) > 50_000:
        _POWER_TEXTS.clear()
    _POWER_TEXTS[power] = text
    return text


def _kind_text(cls: type, order_kind: Any, kind: Any) -> str:
    """',"kind":...,"result":...,"succeeded":...' of an outcome of class ``cls`` that keeps
    :class:`Outcome`'s words for its result and success (its kind, its class's ``SUCCEEDS``); a
    TypeError for one with words of its own (the encoder writes it)."""
    succeeds = getattr(cls, "SUCCEEDS", None)
    if (getattr(cls, "result", None) is not Outcome.__dict__["result"]
            or getattr(cls, "succeeded", None) is not Outcome.__dict__["succeeded"] or type(succeeds) is not bool):
        raise TypeError
    text = f',"kind":{_esc(order_kind)},"result":{_esc(kind)},"succeeded":{"true" if succeeds else "false"}'
    if len(_KIND_TEXTS) > 50_000:
        _KIND_TEXTS.clear()
    _KIND_TEXTS[(cls, order_kind, kind)] = text
    return text


def _label_texts(units: tuple[Any, ...]) -> list[str]:
    """Each unit's label (``Unit.label``) as JSON text, from a bounded memo."""
    out = []
    for u in units:
        if type(u) is Unit:
            key = (u.power, u.kind, u.location, u.count)
            text = _LABEL_TEXTS.get(key)
            if text is None:
                if len(_LABEL_TEXTS) > 50_000:
                    _LABEL_TEXTS.clear()
                text = _LABEL_TEXTS[key] = text_of(u.label())
        else:
            text = text_of(u.label())
        out.append(text)
    return out


def units_text(pos: Position) -> str:
    """``_units_by_power(pos)`` as JSON text."""
    by_power: dict[str, list[str]] = {}
    for u in pos.units:
        if type(u) is not Unit:
            return _encode(_units_by_power(pos))
        key = (u.kind, u.location, u.count)
        text = _SHORT_TEXTS.get(key)
        if text is None:
            if len(_SHORT_TEXTS) > 50_000:
                _SHORT_TEXTS.clear()
            text = _SHORT_TEXTS[key] = text_of(u.short())
        group = by_power.get(u.power)
        if group is None:
            by_power[u.power] = [text]
        else:
            group.append(text)
    try:
        return "{" + ",".join([f'{_esc(p)}:[{",".join(ts)}]' for p, ts in by_power.items()]) + "}"
    except TypeError:  # a power that is not a str: a key the encoder writes its own way
        return _encode(_units_by_power(pos))


# (power, kind, location, count) -> a unit's label as JSON text; (kind, location, count) -> its
# short text as JSON: pure memos of the texts every result writes, bounded as the notation's
_LABEL_TEXTS: dict[tuple[Any, ...], str] = {}
_SHORT_TEXTS: dict[tuple[Any, ...], str] = {}

# memos of texts every result writes (bounded as the notation's): an outcome's opening by its
# power; its kind, result and success by its class, order kind and kind
_POWER_TEXTS: dict[Any, str] = {}
_KIND_TEXTS: dict[tuple[Any, ...], str] = {}


def _strength_text(s: Any) -> str:
    """``strength_json(s)`` as JSON text (its value summed from the terms as :attr:`Strength.value`
    sums it)."""
    if type(s) is not Strength:
        return _encode(strength_json(s))
    value = 0
    terms = []
    for t in s.terms:
        if t.active:
            w = t.weight
            if type(w) is not int:
                return _encode(strength_json(s))
            value += w
            terms.append(f'{{"label":{text_of(t.label)},"weight":{w}}}')
    return f'{{"name":{text_of(s.name)},"owner":{text_of(s.owner)},"value":{value},"terms":[{",".join(terms)}]}}'
