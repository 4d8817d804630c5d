"""The core's seeded random source (lots and dice) and Multinational's lots (rule 8)."""

import os
import subprocess
import sys

import pytest

from dipsat.game.api import adjudicate
from dipsat.engine.chance import DrawError, RandomSource, draw_key

KEYS = [draw_key(1992, "retreat", f"E {p}") for p in ("Mon", "Alb", "Sas", "Wyo", "Ida")]


def test_draws_depend_on_seed_and_key_only():
    a = RandomSource(7)
    forward = [a.index(k, 5) for k in KEYS]
    b = RandomSource(7)
    b.roll("noise", 6)  # other draws before do not matter, nor the order
    backward = [b.index(k, 5) for k in reversed(KEYS)][::-1]
    assert forward == backward
    assert all(0 <= v < 5 for v in forward)
    assert [d.key for d in a.drawn] == KEYS and not any(d.given for d in a.drawn)
    others = [[RandomSource(seed).index(k, 5) for k in KEYS] for seed in range(8)]
    assert len({tuple(o) for o in others}) > 1, "the seed changes the draws"
    assert len({RandomSource(3).roll(f"die {i}") for i in range(60)}) == 6
    assert RandomSource(7).index("only one", 1) == 0


def test_draws_do_not_depend_on_the_hash_seed():
    code = ("from dipsat.engine.chance import RandomSource as R; s = R(11); "
            "print(([s.index(f'k{i}', 7) for i in range(12)], [s.roll(f'd{i}', 20) for i in range(5)]))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(outs) == 1
    s = RandomSource(11)
    assert outs.pop().strip() == str(([s.index(f"k{i}", 7) for i in range(12)], [s.roll(f"d{i}", 20) for i in range(5)]))


def test_given_draws_replace_drawn_ones():
    by_key = RandomSource(1, {"b": 2})
    assert by_key.choice("b", ["x", "y", "z"]) == "z"
    assert by_key.drawn[-1].given
    listed = RandomSource(1, [1, 2])  # used in the order of the draws, then drawn again
    assert [listed.index("p", 3), listed.roll("q", 2), listed.index("r", 4)] == [1, 2, RandomSource(1).index("r", 4)]
    assert [d.given for d in listed.drawn] == [True, True, False]
    with pytest.raises(DrawError, match=r"given draw for 'c' is 5; it must be a whole number from 0 to 2"):
        RandomSource(1, {"c": 5}).index("c", 3)


def _retreat(options=None):
    req = {"variant": "multinational", "phase": "retreat", "units": {"IB": ["E Mon"], "AT": ["M Wyo", "E Neb"]},
           "orders": {"AT": ["M Wyo – Mon", "E Neb S M Wyo – Mon"]}, "retreat_orders": {}}
    if options:
        req["options"] = options
    out = [o for o in adjudicate(req).outcomes if o.text.startswith("(default)")]
    assert len(out) == 1
    return out[0]


def test_multinational_default_retreat_draws_lots_by_seed_or_given_draw():
    o = _retreat()
    assert "lots drawn among Clm, Sas, Sda" in o.text and "draw 'retreat/E Mon'" in o.text
    assert _retreat().text == o.text, "the same position draws the same"
    picks = {_retreat({"random_seed": s}).reason for s in range(12)}
    assert picks == {"retreats to Clm", "retreats to Sas", "retreats to Sda"}
    assert _retreat({"random_seed": 3}).text == _retreat({"random_seed": 3}).text
    for i, prov in enumerate(["Clm", "Sas", "Sda"]):
        assert _retreat({"random_draws": {"retreat/E Mon": i}}).reason == f"retreats to {prov}"
        assert _retreat({"random_draws": [i]}).reason == f"retreats to {prov}"
