"""Hypothesis strategies for standard turns.

``rich_turns`` draws from the benchmark generator (seeded random legal turns: supports, swaps,
rings, convoys); ``small_turns`` builds small positions with arbitrary (often illegal) orders.
"""

from hypothesis import strategies as st

from benchmarks import workload
from dipsat.variants import find_variant

MAP = find_variant("standard").map
POWERS = sorted(MAP.powers)
ARMY_LOCS = sorted(p for p, d in MAP.provinces.items() if d.terrain in ("land", "coast"))
FLEET_LOCS = sorted(MAP.fleet_graph.nodes)


def _turn(seed: int, index: int) -> dict:
    t = workload.generate_turn(seed, index)
    t.pop("id", None)
    return t


def rich_turns():
    return st.builds(_turn, st.integers(0, 10**9), st.integers(0, 1000))


@st.composite
def small_turns(draw):
    n = draw(st.integers(min_value=2, max_value=18))
    used: set[str] = set()
    units = []
    for _ in range(n):
        kind = draw(st.sampled_from("AF"))
        loc = draw(st.sampled_from(ARMY_LOCS if kind == "A" else FLEET_LOCS))
        prov = loc.split("/")[0]
        if prov in used:
            continue
        used.add(prov)
        units.append((draw(st.sampled_from(POWERS)), kind, loc))
    orders: dict[str, list[str]] = {}
    for power, kind, loc in units:
        nbrs = sorted(MAP.neighbours(kind, loc))
        choice = draw(st.sampled_from(["hold", "move", "move", "support", "convoy"]))
        me = f"{kind} {loc}"
        if choice == "move" and nbrs:
            text = f"{me} - {draw(st.sampled_from(nbrs))}"
        elif choice == "support" and len(units) > 1:
            _, k2, l2 = draw(st.sampled_from(units))
            n2 = sorted(MAP.neighbours(k2, l2))
            if n2 and draw(st.booleans()):
                text = f"{me} S {k2} {l2} - {draw(st.sampled_from(n2)).split('/')[0]}"
            else:
                text = f"{me} S {k2} {l2}"
        elif choice == "convoy" and kind == "F":
            armies = [u for u in units if u[1] == "A"]
            text = f"{me} C A {draw(st.sampled_from(armies))[2]} - {draw(st.sampled_from(ARMY_LOCS))}" if armies else f"{me} H"
        else:
            text = f"{me} H"
        orders.setdefault(power, []).append(text)
    spec: dict[str, list[str]] = {}
    for power, kind, loc in units:
        spec.setdefault(power, []).append(f"{kind} {loc}")
    return {"units": spec, "orders": orders}


def any_turns():
    return st.one_of(rich_turns(), small_turns())


# -- rule options of the seed variants ----------------------------------------------------------

def option_spaces(model: type, base: type | None = None) -> dict[str, tuple]:
    """Every field of an options model (less those of ``base``) with the values its ``Literal``
    type allows: what :func:`option_draws` draws from, field by field."""
    from typing import Literal, get_args, get_origin

    skip = set(base.model_fields) if base is not None else set()
    return {name: get_args(f.annotation) for name, f in model.model_fields.items()
            if name not in skip and get_origin(f.annotation) is Literal}


def option_draws(model: type, base: type | None = None):
    """A dict of option values, one per field of ``model`` (less ``base``'s), each drawn from
    all its values: property tests run under every reading, not only the defaults."""
    return st.fixed_dictionaries({name: st.sampled_from(values) for name, values in option_spaces(model, base).items()})


def multiplicity_options():
    from dipsat.rules import RuleOptions
    from dipsat.variants.multiplicity.options import MultiplicityOptions

    return option_draws(MultiplicityOptions, RuleOptions)


def continents_options():
    from dipsat.variants.continents.rules import ContinentsRules

    return option_draws(ContinentsRules)
