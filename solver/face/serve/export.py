"""A page's position kept: as a corpus case file (TOML, ``dipsat corpus`` runs it) with its
expectations filled from dipsat's own results, or as one line of ``dipsat batch``.

The expectations say what dipsat decides under each preset the user chose, grouped: presets that
decide alike share one ``[[expect]]`` (``rules = ["1971", "1982", "2000"]``), as the corpus's own
cases are written.  They are a starting point to check against the rules, not a second opinion:
the notes of the exported case say so.
"""

from __future__ import annotations

import json
import re
from typing import Any, Sequence

from dipsat.errors import DipsatError
from dipsat.limits import DEFAULT_LIMITS, Limits
from dipsat.game.protocol import Engine, PhaseResult

from dipsat.face.serve.sandbox import is_board, read_state

REJECTED = ("invalid", "illegal", "ambiguous")
NOTE = ("Exported from the dipsat sandbox (dipsat serve): each expectation is dipsat's own result under its "
        "rules; check it against the rule text before the case joins a corpus.")


def batch_line(state: Any, limits: Limits = DEFAULT_LIMITS) -> str:
    """The state as one line of ``dipsat batch`` (JSON), checked first."""
    read_state(state, limits)
    data = {k: v for k, v in state.items() if k != "meta" and v not in ({}, [], None)}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def expectation(game: Any, res: PhaseResult, data: dict[str, Any]) -> dict[str, Any]:
    """What a case expects of a result: the outcome of each order written (succeeds, fails,
    illegal, partial), and for a board the units dislodged, the backup rule used and the
    position after (a retreat phase: the movement's orders, then the retreats)."""
    board = res.board or {}
    out: dict[str, Any] = {}
    movement = board.get("movement") if res.phase == "retreat" else None
    if movement is not None:
        out["orders"] = _outcomes(movement["outcomes"], data.get("orders"))
        out["retreats"] = _outcomes([o.to_json() for o in res.outcomes], data.get("retreat_orders"))
    else:
        out["orders"] = _outcomes([o.to_json() for o in res.outcomes], data.get("orders"))
    if is_board(game):
        out["dislodged"] = [d["unit"] for d in (movement or board).get("dislodged", [])]
        kinds = sorted({b["kind"] for b in (movement or board).get("backups", [])})
        if kinds:
            out["backup"] = kinds[0]
    out["units_after"] = {p: list(us) for p, us in sorted(res.units_after.items())}
    return out


def _outcomes(outcomes: list[dict[str, Any]], written: Any) -> dict[str, str]:
    """Each written order's expected outcome, by its text (``Power: text`` where two powers wrote
    the same text); the holds of units without an order are left out."""
    texts = {(str(p).lower(), t) for p, ts in (written or {}).items() if isinstance(ts, list) for t in ts}
    mine = [o for o in outcomes if (str(o["power"]).lower(), o["order"]) in texts]
    counts: dict[str, int] = {}
    for o in mine:
        counts[o["order"]] = counts.get(o["order"], 0) + 1
    out: dict[str, str] = {}
    for o in mine:
        key = o["order"] if counts[o["order"]] == 1 else f"{o['power']}: {o['order']}"
        out[key] = ("illegal" if o["kind"] == "rejected" or o["result"] in REJECTED else
                    "partial" if o["result"] == "partial" else "succeeds" if o["succeeded"] else "fails")
    return out


def corpus_case(state: Any, presets: Sequence[str], case_id: str = "", title: str = "",
                limits: Limits = DEFAULT_LIMITS) -> str:
    """The state as a corpus case file (TOML), with one expectation per group of ``presets``
    that decide alike (a family of its own: its preset, whatever is asked)."""
    game, req, data = read_state(state, limits)
    meta = state.get("meta") if isinstance(state.get("meta"), dict) else {}
    board = is_board(game)
    chosen = [p for p in dict.fromkeys(presets) if isinstance(p, str) and p.strip()] if board else [None]
    if not chosen:
        raise DipsatError("export: choose at least one rulebook the expectations are for")
    options = dict(data.get("options") or {})
    groups: list[tuple[list[str], dict[str, Any]]] = []
    for preset in chosen:
        if board:
            opts = game.options(req, preset)
        else:
            opts = game.options(req)
        res = game.adjudicate(req, opts, Engine(time_limit=limits.turn_time_limit))
        exp = expectation(game, res, data)
        label = preset or res.rules or game.name
        same = next((g for g in groups if g[1] == exp), None)
        if same is not None:
            same[0].append(label)
        else:
            groups.append(([label], exp))
    cid = case_id.strip() or str(meta.get("id") or "sandbox")
    case: dict[str, Any] = {"id": cid, "title": title.strip() or str(meta.get("title") or "a position from the sandbox")}
    for k in ("source", "url"):
        if meta.get(k):
            case[k] = meta[k]
    case["variant"] = game.name
    notes = str(meta.get("notes") or "").strip()
    case["notes"] = (notes + "\n\n" if notes else "") + NOTE
    if board:
        case["phase"] = req.phase
    for k in ("units", "owners", "orders", "retreat_orders"):
        if data.get(k):
            case[k] = data[k]
    # a family's own request fields (a map of its own, a state) go in [data]
    own = {k: v for k, v in data.items() if k not in CASE_FIELDS and v not in (None, {}, [])}
    if own or data.get("data"):
        case["data"] = {**(data.get("data") or {}), **own}
    case["expect"] = [{"rules": rules, **({"options": options} if options else {}), **exp} for rules, exp in groups]
    problems = self_check(case, cid)
    if problems and any("units_after" in p for p in problems):  # a family whose cases state no position
        for e in case["expect"]:
            e.pop("units_after", None)
        problems = self_check(case, cid)
    if problems:
        raise DipsatError("export: the case would not pass 'dipsat corpus': " + "; ".join(problems[:5]))
    return to_toml(case)


CASE_FIELDS = {"variant", "rules", "options", "phase", "year", "season", "units", "owners", "orders", "retreat_orders",
               "data"}


def self_check(case: dict[str, Any], where: str) -> list[str]:
    """The problems ``dipsat corpus`` would find running the case (none: it passes)."""
    from pydantic import ValidationError

    from dipsat.game.request import describe_validation
    from dipsat.io.cases import CorpusCase
    from dipsat.io.corpus import run_expectation, runs_of

    try:
        model = CorpusCase.model_validate(case)
    except ValidationError as exc:
        return [describe_validation(exc)]
    return [f"{rules}: {p}" for rules, exp in runs_of(model) for p in run_expectation(model, rules, exp, where).problems]


def to_toml(case: dict[str, Any]) -> str:
    """A case as TOML, written as the corpus's own cases are: its fields, its tables, then each
    expectation."""
    lines = [f"{_key(k)} = {_value(v)}" for k, v in case.items() if not isinstance(v, (dict, list)) or k == "notes"]
    for k in ("units", "owners", "orders", "retreat_orders", "data"):
        if k in case:
            lines += ["", f"[{k}]"] + [f"{_key(p)} = {_value(v)}" for p, v in case[k].items()]
    for exp in case["expect"]:
        lines += ["", "[[expect]]", f"rules = {_value(exp['rules'])}"]
        for k in ("options", "dislodged", "backup"):
            if k in exp:
                lines.append(f"{k} = {_value(exp[k])}")
        for k in ("orders", "retreats", "units_after"):
            if k in exp:
                lines += ["", f"[expect.{k}]"] + [f"{_key(o)} = {_value(v)}" for o, v in exp[k].items()]
    return "\n".join(lines) + "\n"


_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(k: str) -> str:
    return k if _BARE.fullmatch(k) else json.dumps(k, ensure_ascii=False)


def _value(v: Any) -> str:
    """A TOML value (strings, numbers, booleans, lists and inline tables of them)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        if "\n" in v:
            return '"""\n' + v.replace("\\", "\\\\").replace('"""', '\\"""') + '\n"""'
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(str(k))} = {_value(x)}" for k, x in v.items()) + " }"
    if v is None:
        raise DipsatError("export: a field without a value")
    return json.dumps(str(v), ensure_ascii=False)
