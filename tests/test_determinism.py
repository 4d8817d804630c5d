"""The same turn gives the same result whatever the order of units and orders."""

import random
import tomllib

from dipsat.game.api import adjudicate, result_to_json

from conftest import ROOT


def _load():
    return tomllib.loads((ROOT / "examples" / "spring1901.toml").read_text())


def test_order_of_submission_does_not_matter():
    base = _load()
    ref = result_to_json(adjudicate(base))
    rng = random.Random(7)
    for _ in range(5):
        req = _load()
        powers = list(req["units"])
        rng.shuffle(powers)
        req["units"] = {p: rng.sample(req["units"][p], len(req["units"][p])) for p in powers}
        req["orders"] = {p: rng.sample(req["orders"][p], len(req["orders"][p])) for p in reversed(powers)}
        assert result_to_json(adjudicate(req)) == ref


def test_circular_movement_is_reported():
    res = adjudicate({"units": {"Turkey": ["F Ankara", "A Constantinople", "A Smyrna"]},
                      "orders": {"Turkey": ["F Ank - Con", "A Con - Smy", "A Smy - Ank"]}})
    assert [o.result for o in res.outcomes] == ["moved"] * 3
    (b,) = res.backups
    assert b.kind == "circular_movement" and b.resolutions == 2
    assert set(b.orders) == {"F Ank - Con", "A Con - Smy", "A Smy - Ank"}
    assert "all moves succeed" in b.rule
