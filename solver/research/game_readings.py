"""Every reading of a game case of a Diplomacy board (``dipsat readings CASE`` where the case's
phase is ``game``): its steps replayed once per class of the options the replay reads
(:func:`dipsat.engine.option_space.split_by_reads`), as :func:`dipsat.research.readings.protocol_readings`
does for another family's request.  Several phases are not one equation system, so there is no
one model; each order's outcome is keyed by its phase (``F1901M: Germany: A Kie - Ber``).

The case's saved positions (its steps' ``expect_units``) are expectations, not input: they are
not checked here.  The options its first expectation sets that are not readings (seeds, draws)
are kept; so are those given with ``--option``; every other categorical option is enumerated.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from dipsat.engine.option_space import categorical_options, recording, split_by_reads
from dipsat.errors import DipsatError
from dipsat.research.readings import OrderOutcome, Reading, Readings, _tabulate
from dipsat.rules import parse_overrides

GAME_RUNS = "a game of several phases: its phases are not one equation system"


def kept_options(model: Any, exp_options: dict[str, Any]) -> dict[str, Any]:
    """The options of a case's expectation that are not readings (not enumerated)."""
    cats = set(categorical_options(model))
    return {k: v for k, v in exp_options.items() if k not in cats}


def game_case_readings(case: Any, rules: Optional[str] = None, options: Sequence[str] = ()) -> Readings:
    """Every reading of the game case ``case`` (a :class:`~dipsat.io.corpus.CorpusCase` whose
    phase is ``game``) of a board variant."""
    from dipsat.game.registry import find_variant
    from dipsat.io.corpus import play_case

    variant = find_variant(case.variant)
    model = variant.options_model
    given = parse_overrides(list(options), model)
    keep = {**(kept_options(model, case.expect[0].options) if case.expect else {}), **given}
    base = variant.rules(rules, **keep)
    cands = [n for n in categorical_options(model) if n not in keep]
    plain = case.model_copy(update={"steps": [s.model_copy(update={"expect_units": None}) for s in case.steps]})
    out = Readings(model, cands, [], family=True, runs_note=GAME_RUNS)

    def run(scope: Any) -> tuple[tuple[OrderOutcome, ...], tuple[str, ...]]:
        try:
            played = play_case(plain, recording(base))
        except DipsatError as exc:
            return (OrderOutcome("error", str(exc), ""),), ()
        out.solves += 1
        rows = tuple(OrderOutcome(f"{rec.name}: {o.power}: {o.text}", o.result, o.reason)
                     for rec in played.game.history for o in rec.outcomes)
        return rows, tuple(sorted(u.label() for u in played.after.units))

    for leaf in split_by_reads(run, model, cands):
        out.classes.append(Reading(dict(leaf.assignment), *leaf.result))
    _tabulate(out, model)
    return out
