"""Rule research: every reading of a turn, presets side by side, and why an order ends as it does.

* :func:`explore` — every consistent resolution of a movement turn's equations before any backup
  rule (CP-SAT enumeration), the orders on which they differ, and which rule picks which.
* :func:`compare` — a corpus under several presets, or under each value of a variant's own rule
  options (:func:`option_settings`), order by order, listing where they differ.
* :func:`why` — what one order's outcome hinges on: the decisions that force it (an unsatisfiable
  core of CP-SAT assumptions, shrunk to a minimal one), the other orders (counterfactual: the
  order left out), and the rule options (counterfactual: each other value).

Research solves every part of a turn with CP-SAT (``all_cpsat``), where plain adjudication
evaluates the acyclic parts directly; the outcomes are the same.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any, Callable, Optional

from dipsat.game.request import TurnRequest
from dipsat.io.corpus import PlayedGame, adjudicate_case, case_files, dislodged_units, load_case
from dipsat.io.files import file_access
from dipsat.engine.formulas import Key, Value, Var
from dipsat.errors import DipsatError
from dipsat.models import Convoy, Move, OrderBody, Support
from dipsat.outcomes import Outcome
from dipsat.board.encoding import Encoding, _name, _unit_of
from dipsat.game.pipeline import Pipeline, Prepared
from dipsat.records import dataclass
from dipsat.rules import RuleOptions

if TYPE_CHECKING:
    from dipsat.limits import Limits
    from dipsat.board.notation import Notation
    from dipsat.game.pipeline import PhaseResult
    from dipsat.game.variant import Variant


# -- shared ------------------------------------------------------------------------------------


@dataclass
class Research:
    """A movement turn made ready for research: its pipeline (variant and rules), the prepared
    request, and the equations of its bound orders."""

    pipe: Pipeline
    turn: Prepared
    enc: Encoding


def _prepare(req: TurnRequest, rules: str | RuleOptions | None = None) -> Research:
    if req.phase != "movement":
        raise DipsatError(f"research commands work on movement turns; this file's phase is {req.phase!r}")
    pipe = Pipeline.for_request(req, rules)
    turn = pipe.prepare(req)
    return Research(pipe, turn, pipe.encode(pipe.bind(turn.position, turn.orders)))


def describe_decision(enc: Encoding, name: Key, value: Value) -> str:
    text = enc.bound.orders[_unit_of(name)].text
    kind = name.kind
    if kind == "move":
        return f"{text}: {'moves' if value else 'fails'}"
    if kind == "support":
        return f"{text}: {'support given' if value else 'support cut'}"
    if kind == "convoy":
        return f"{text}: {'convoy carried out' if value else 'convoy fails'}"
    if kind == "path":
        return f"{text}: {'a convoy path exists' if value else 'no convoy path'}"
    if kind == "force":
        return f"{text}: {'its force gets in' if value else 'its force does not get in'}"
    if isinstance(value, bool):
        return f"{text}: {kind} {'holds' if value else 'does not hold'}"
    return f"{text}: {kind} = {value}"


# -- explore -----------------------------------------------------------------------------------


@dataclass
class Exploration:
    resolutions: list[dict[Key, Value]]
    capped: bool
    differing: list[Key]  # decisions whose value differs between resolutions
    picks: list[tuple[str, str, Optional[int], dict[Key, Value]]]  # (rule, backup used, index of matching resolution, values)
    enc: Encoding


READING_RULES = {
    "the rules as given": {},
    "all hold": {"convoy_paradox_rule": "all_hold"},
    "1971 paradox rule": {"convoy_paradox_rule": "1971"},
    "1982 paradox rule": {"convoy_paradox_rule": "1982"},
    "2000 paradox rule": {"convoy_paradox_rule": "2000"},
}


def explore(req: TurnRequest, limit: int = 64) -> Exploration:
    """Every consistent resolution of a movement turn before any backup rule (up to ``limit``;
    ``capped`` says when there were more), the decisions on which they differ, and which
    resolution each paradox rule picks (``picks``).  ``dipsat explore FILE`` prints it.

        >>> from dipsat import explore, load_request
        >>> len(explore(load_request("tests/corpora/datc/6.F.14.toml")).resolutions)
        2
    """
    r = _prepare(req)
    pipe, enc = r.pipe, r.enc
    sols = pipe.enumerate(enc, limit=limit + 1)
    capped = len(sols) > limit
    sols = sols[:limit]
    names = list(enc.system.defs)
    differing = [n for n in names if len({s[n] for s in sols}) > 1]
    picks = []
    for label, over in READING_RULES.items():
        pipe2 = pipe.with_rules(pipe.rules.with_(**over))
        sol = pipe2.solve(pipe2.encode(enc.bound), "cpsat")
        used = "; ".join(c.backup[1] for c in sol.components if c.backup) or "no backup rule needed"
        match = None
        for i, s in enumerate(sols):
            if all(sol.values.get(n) == s[n] for n in names if n in sol.values):
                match = i
                break
        picks.append((label, used, match, sol.values))
    return Exploration(sols, capped, differing, picks, enc)


def format_exploration(ex: Exploration) -> str:
    enc = ex.enc
    n = len(ex.resolutions)
    lines = [f"Consistent resolutions before any backup rule: {n}{'+' if ex.capped else ''}"]
    if n == 0:
        lines.append("  none: the orders form a paradox (no reading satisfies every rule at once)")
    for i, s in enumerate(ex.resolutions, start=1):
        if ex.differing:
            lines.append(f"  #{i}: " + "; ".join(describe_decision(enc, d, s[d]) for d in ex.differing))
    if n == 1:
        lines.append("  exactly one: the rules decide the turn without a backup rule")
    if ex.differing:
        lines.append("Orders on which they differ: " + ", ".join(sorted({enc.bound.orders[_unit_of(d)].text for d in ex.differing})))
    lines.append("What each rule picks:")
    for label, used, match, values in ex.picks:
        where = f"resolution #{match + 1}" if match is not None else "no resolution of the unmodified rules (the rule changes the equations)"
        keys = ex.differing or [d for d in enc.system.defs if d.kind == "move"]
        detail = "; ".join(describe_decision(enc, d, values[d]) for d in keys if d in values)
        lines.append(f"  {label}: {where} — {used}")
        if detail:
            lines.append(f"      {detail}")
    return "\n".join(lines)


# -- compare -----------------------------------------------------------------------------------


@dataclass
class Difference:
    case: str
    order: str
    results: dict[str, str]  # preset (or setting's label) -> result
    own: bool = False  # a case of another game family, under its family's settings


@dataclass(frozen=True)
class Setting:
    """One set of rules a comparison runs a case under: a label, a preset (None: the variant's
    own rules) and option overrides."""

    label: str
    rules: Optional[str] = None
    options: tuple[tuple[str, Any], ...] = ()


def option_values(annotation: Any) -> tuple[Any, ...]:
    """The values an option field may take, when they can be listed (a Literal, a bool)."""
    import typing

    if annotation is bool:
        return (False, True)
    if typing.get_origin(annotation) is typing.Literal:
        return typing.get_args(annotation)
    return ()


def option_settings(variant: "Variant") -> list[Setting]:
    """The variant's rules, then each value of each of its own options (the fields its options
    model adds to the core's :class:`RuleOptions`) other than the variant's choice, one option
    changed at a time."""
    model = variant.options_model
    base = variant.rules()
    out = [Setting(variant.name)]
    for name, f in model.model_fields.items():
        if name in RuleOptions.model_fields:
            continue
        for value in option_values(f.annotation):
            if value != getattr(base, name):
                out.append(Setting(f"{name}={value}", None, ((name, value),)))
    if len(out) == 1:
        raise DipsatError(f"the {variant.name} variant has no rule options of its own to compare "
                          "('dipsat compare --rules PRESET' compares the core's presets)")
    return out


def compare(paths: list[str], presets: "list[str] | list[Setting]",
            on_progress: Optional[Callable[[], None]] = None,
            variant: Optional[str] = None, own_settings: bool = False,
            counts: Optional[dict[str, int]] = None, limits: Optional["Limits"] = None) -> tuple[list[Difference], list[str], int]:
    """Run every case of ``paths`` under each preset (or :class:`Setting`); return the
    order-level differences, the errors, and the number of cases compared.  ``variant``: only
    cases of that variant are compared (others are errors).  ``on_progress`` is called once per
    case file.  A case of another game family runs through its game protocol
    (:func:`compare_game_case`): under ``presets``, or with ``own_settings`` under the settings
    its family names (``GameProtocol.settings``).  ``counts``, when given, is filled with the
    number of cases compared of the Diplomacy boards (``board``) and of other families (``own``).
    ``limits``: each case is read within them and compared within their wall-clock limit (a case
    beyond them is an error of the comparison, and the others are compared)."""
    from dipsat.game.registry import find_record

    from dipsat.limits import DEFAULT_LIMITS, TurnTimeout, deadline

    limits = limits or DEFAULT_LIMITS
    settings = [p if isinstance(p, Setting) else Setting(p, p) for p in presets]
    diffs: list[Difference] = []
    errors: list[str] = []
    n = 0
    for f in case_files(paths):
        with file_access(origin=f):  # paths inside the case resolve against it
            if on_progress is not None:
                on_progress()
            try:
                case = load_case(f, limits)
                record = find_record(case.variant)
            except DipsatError as exc:
                errors.append(str(exc))
                continue
            if variant is not None and record.name != find_record(variant).name:
                errors.append(f"{f}: a case of the {case.variant} variant, not {variant}")
                continue
            n += 1
            try:
                with deadline(limits.turn_time_limit):
                    diffs += _compare_case(case, record, str(f), settings, own_settings, counts, errors, limits)
            except TurnTimeout as exc:
                errors.append(f"{case.id}: {exc}")
    return diffs, errors, n


def _compare_case(case: Any, record: Any, path: str, settings: list[Setting], own_settings: bool,
                  counts: Optional[dict[str, int]], errors: list[str], limits: "Limits") -> list[Difference]:
    """One case's differences (see :func:`compare`)."""
    from dipsat.game.variant import Variant

    if counts is not None:
        key = "board" if isinstance(record, Variant) else "own"
        counts[key] = counts.get(key, 0) + 1
    if not isinstance(record, Variant):
        from dipsat.game.families import game_of

        return compare_game_case(game_of(record), case, path, None if own_settings else settings, errors, limits)
    per: dict[str, dict[str, str]] = {}
    for st in settings:
        try:
            res = adjudicate_case(case, st.rules, dict(st.options), mode="cpsat")
        except DipsatError as exc:
            errors.append(f"{case.id} under {st.label}: {exc}")
            continue
        outs = list(getattr(res, "movement", res).outcomes) + (list(res.outcomes) if hasattr(res, "movement") else [])
        for o in outs:
            per.setdefault(f"{o.power}: {o.text}", {})[st.label] = o.result
        mv = getattr(res, "movement", res)
        if hasattr(mv, "dislodged") or isinstance(res, PlayedGame):  # who must retreat is part of the result too
            gone = sorted(u.label() for u in dislodged_units(res))
            per.setdefault("(dislodged)", {})[st.label] = ", ".join(gone) or "none"
    return [Difference(case.id, order, res_by) for order, res_by in per.items() if len(set(res_by.values())) > 1]


def compare_game_case(game: Any, case: Any, path: str, settings: Optional[list[Setting]],
                      errors: list[str], limits: Optional["Limits"] = None) -> list[Difference]:
    """A case of another game family under each setting, through its game protocol: the
    outcome of each order, the position after (``(units after)``), the next phase (none when the
    game is won), an error, and for a phase
    without orders its facts (``(facts)``: the result's details), where they differ.  The case is
    read as a request of its own (its map, a game of several phases), under the options of its
    first expectation (its seed, ...) and each setting over them."""
    import json

    from dipsat.io.case_check import case_data
    from dipsat.limits import DEFAULT_LIMITS

    first = dict(case.expect[0].options)  # the case's first reading (a seed of its draws, ...)
    try:
        req = game.read(case_data(case), path, limits or DEFAULT_LIMITS)
        base = game.options(req, None, first)
        runs = ([(st.label, game.options(req, st.rules, {**first, **dict(st.options)})) for st in settings]
                if settings is not None else game.settings(base))
    except DipsatError as exc:
        errors.append(f"{case.id}: {exc}")
        return []
    per: dict[str, dict[str, str]] = {}
    for label, opts in runs:
        try:
            res = game.adjudicate(req, opts)
        except DipsatError as exc:
            per.setdefault("(error)", {})[label] = str(exc)
            continue
        per.setdefault("(error)", {})[label] = "none"
        for o in res.outcomes:
            per.setdefault(f"{o.power}: {o.order}", {})[label] = o.result
        per.setdefault("(units after)", {})[label] = json.dumps(res.units_after, sort_keys=True)
        per.setdefault("(next phase)", {})[label] = res.next_phase or "none (the game is over)"
        if not res.outcomes:  # a phase without orders (a drill, a set-up): its facts
            facts = {k: v for k, v in (res.details or {}).items() if k != "state"}
            per.setdefault("(facts)", {})[label] = json.dumps(facts, sort_keys=True, default=str)[:150]
    return [Difference(case.id, order, by, own=settings is None) for order, by in per.items() if len(set(by.values())) > 1]


def _orders(diffs: list[Difference]) -> int:
    """How many orders differ (the rows of dislodged units, positions and errors are not orders)."""
    return sum(1 for d in diffs if not d.order.startswith("("))


def format_option_compare(diffs: list[Difference], settings: list[Setting], n: int) -> str:
    """A comparison over a variant's option values: per order that differs, the result under
    the variant's rules and the settings that change it; then how often each option mattered."""
    base = settings[0].label
    cases = sorted({d.case for d in diffs}, key=_case_key)
    lines = [f"{n} cases under {base} and {len(settings) - 1} other option values: {len(cases)} cases differ, "
             f"{_orders(diffs)} orders"]
    mattered: dict[str, set[str]] = {}
    for c in cases:
        lines.append(f"\n{c}")
        for d in diffs:
            if d.case != c:
                continue
            here = d.results.get(base, "-")
            changed = [(st.label, d.results.get(st.label, "-")) for st in settings[1:]
                       if d.results.get(st.label, "-") != here]
            for label, _ in changed:
                mattered.setdefault(label, set()).add(c)
            lines.append(f"  {d.order}")
            lines.append(f"      {base}: {here}; " + ", ".join(f"{label}: {r}" for label, r in changed))
    lines.append("")
    for st in settings[1:]:
        k = len(mattered.get(st.label, ()))
        lines.append(f"{st.label}: " + (f"changes {k} case(s)" if k else "changes no case"))
    return "\n".join(lines)


def format_compare(diffs: list[Difference], presets: list[str], n: int) -> str:
    cases = sorted({d.case for d in diffs}, key=_case_key)
    lines = [f"{n} cases under {', '.join(presets)}: {len(cases)} cases differ, {_orders(diffs)} orders"]
    for c in cases:
        lines.append(f"\n{c}")
        for d in diffs:
            if d.case == c:
                lines.append(f"  {d.order}")
                lines.append("      " + " | ".join(f"{p}: {d.results.get(p, '-')}" for p in presets))
    return "\n".join(lines)


def _case_key(cid: str) -> list[tuple[int, int, str]]:
    return [(0, int(x), "") if x.isdigit() else (1, 0, x) for x in cid.replace("-", ".").split(".")]


# -- why ---------------------------------------------------------------------------------------


@dataclass
class WhyAnswer:
    order: str
    outcome: str
    reason: str
    forced_by: list[str] = field(default_factory=list)
    orders: list[tuple[str, str]] = field(default_factory=list)  # (order, result without it)
    options: list[tuple[str, Any, Any, str]] = field(default_factory=list)  # (option, here, other, result)
    backup: Optional[str] = None
    culprits: list[str] = field(default_factory=list)  # the orders the outcome names as its cause
    details: list[str] = field(default_factory=list)  # its typed details, as "name: value"


def _target(res: PhaseResult, text: str, notation: Optional[Notation] = None) -> list[Outcome]:
    """The outcome of the order written ``text``: the same text, else the order of the same unit."""
    hits = [o for o in res.outcomes if o.text.strip().lower() == text.strip().lower()]
    if not hits and notation is not None:
        try:
            prov = notation.parse(text).unit.loc.province
        except DipsatError:
            return []
        pos = res.position
        hits = [o for o in res.outcomes if o.unit is not None and pos.units[o.unit].province == prov]
        if len(hits) > 1:
            hits = [o for o in hits if o.order_kind != "rejected"] or hits
    return hits


def why(req: TurnRequest, order: str) -> WhyAnswer:
    """What the outcome of ``order`` (as written in the request) hinges on: the other decisions
    that force it (a minimal unsatisfiable core), the other orders (each left out in turn: the
    outcome without it) and the rule options (each other value).  ``dipsat why FILE --order``
    prints it; a :class:`DipsatError` lists the orders when ``order`` is not one of them.

        >>> from dipsat import load_request, why
        >>> why(load_request("tests/corpora/datc/6.F.14.toml"), "F Wales - English Channel").outcome
        'moved'
    """
    r = _prepare(req)
    pipe, enc, opts = r.pipe, r.enc, r.pipe.rules
    sol = pipe.solve(enc, "cpsat")
    res = pipe.explain(enc, sol)
    hits = _target(res, order, pipe.variant.notation)
    if not hits:
        raise DipsatError(f"order {order!r} is not one of the file's orders: " + "; ".join(o.text for o in res.outcomes))
    if len(hits) > 1:
        raise DipsatError(f"order {order!r} matches several orders: " + "; ".join(o.text for o in hits))
    target = hits[0]
    ans = WhyAnswer(target.text, target.result, target.reason)
    if target.unit is None or target.order_kind == "rejected":
        ans.forced_by = [f"the order itself: {target.reason}"]
        return ans
    # 1. the decisions that force it: the order's own rule, every other decision free and tied
    #    to its value by an assumption; a minimal unsatisfiable core of those assumptions
    settled: set[Key] = set()
    for c in sol.components:
        if c.backup:
            settled.update(c.decisions)
            if any(_unit_of(n) == target.unit for n in c.decisions):
                ans.backup = f"{c.backup[0].replace('_', ' ')} ({c.resolutions} resolutions): {c.backup[1]}"
    u = target.unit
    body = enc.bound.orders[u].body
    prefixes: dict[type[OrderBody], str] = {Move: "M", Support: "S", Convoy: "C"}
    tname = prefixes.get(type(body))
    key = _name(tname, u) if tname else None
    if key is None and target.result == "dislodged":
        # a holding unit: explain the move that dislodged it
        prov = enc.bound.position.units[u].province
        attacker = next((m for m in sorted(enc.moves) if enc.dest[m] == prov and sol.values.get(_name("M", m))), None)
        if attacker is not None:
            key = _name("M", attacker)
            ans.forced_by = [describe_decision(enc, key, True) + ", because:"]
    while key is not None and isinstance(sol.defs.get(key), Var):
        # the outcome's decision is defined as another one (a variant's move that is its force's
        # entry): what forces that one forces the outcome
        alias = sol.defs[key]
        assert isinstance(alias, Var)
        key = alias.key
    if key is not None and key in sol.defs and key not in settled:  # a backup rule explains a settled cycle
        found = pipe.forcing(sol, enc, key)
        core = [describe_decision(enc, n, sol.values[n]) for n in found]
        if ans.forced_by and not core:
            ans.forced_by = [ans.forced_by[0].replace(", because:", ", which the orders and the board alone force")]
        else:
            ans.forced_by = ans.forced_by + core
    # 2. counterfactual orders
    base = target.succeeded
    for power, texts in sorted(req.orders.items()):
        for t in texts:
            if t.strip() == target.text:
                continue
            alt = {p: [x for x in ts if not (p == power and x == t)] for p, ts in req.orders.items()}
            turn2 = pipe.prepare(req.model_copy(update={"orders": alt}))
            r2 = pipe.movement(turn2.position, turn2.orders, "cpsat")
            h2 = _target(r2, target.text)
            if h2 and h2[0].succeeded != base:
                ans.orders.append((f"{power}: {t}", f"without it: {h2[0].result} — {h2[0].reason}"))
    # 3. counterfactual rule options
    for fname, finfo in type(opts).model_fields.items():
        if fname == "name":
            continue
        here = getattr(opts, fname)
        values = [True, False] if finfo.annotation is bool else list(getattr(finfo.annotation, "__args__", ()))
        for v in values:
            if v == here:
                continue
            try:
                r2 = pipe.with_rules(opts.with_(**{fname: v})).movement(r.turn.position, r.turn.orders, "cpsat")
            except DipsatError:
                continue
            h2 = _target(r2, target.text)
            if h2 and h2[0].succeeded != base:
                ans.options.append((fname, here, v, f"{h2[0].result} — {h2[0].reason}"))
    return ans


def format_why(ans: WhyAnswer) -> str:
    lines = [f"{ans.order}: {ans.outcome} — {ans.reason}"]
    if ans.backup:
        lines.append(f"It is part of a cycle settled by a backup rule: {ans.backup}.")
    if ans.culprits:
        lines.append("Its culprits (the orders it names as its cause):")
        lines += [f"  - {x}" for x in ans.culprits]
    if ans.details:
        lines.append("Its details: " + "; ".join(ans.details))
    if ans.forced_by:
        lines.append("Given the orders, this outcome is forced once these hold:")
        lines += [f"  - {x}" for x in ans.forced_by]
    elif not ans.backup and not ans.culprits:
        lines.append("The orders and the board alone force it (no other decision is needed).")
    if ans.orders:
        lines.append("It hinges on these other orders:")
        lines += [f"  - {o}: {r}" for o, r in ans.orders]
    else:
        lines.append("Leaving out any single other order does not change it.")
    if ans.options:
        lines.append("It hinges on these rule options:")
        lines += [f"  - {f} = {h!r} here; with {v!r}: {r}" for f, h, v, r in ans.options]
    else:
        lines.append("No single rule option changes it.")
    return "\n".join(lines)
