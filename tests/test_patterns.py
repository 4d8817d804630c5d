"""Patterns that read user text (issue 26): none may take long whatever the text holds.

``2A(`` followed by 3,000 spaces took 31 s in one pattern of the Multiplicity notation (it could
split the spaces three ways); ``render`` and ``compare`` hung on it.  Now every order (and unit)
text is at most :data:`dipsat.board.notation.MAX_ORDER_CHARS` characters, the patterns read white
space as single spaces where they can split it, and the patterns that re-read runs were
rewritten.  These tests run every module-level pattern of the code on long hostile strings, and
each family's parsers on texts far over the limit.  Their bounds are on this process's processor
time, not the wall clock: other processes on a loaded machine (a load of 10 on two cores made a
0.3 s answer take 3.4 s of wall time) do not make them fail, a cubic pattern still does."""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import time

import pytest

import dipsat
import dipsat.maps
import dipsat.variants
from dipsat.io.batch import BatchSettings, answer_line
from dipsat.board.notation import MAX_ORDER_CHARS


def module_patterns() -> dict[str, re.Pattern]:
    found: dict[str, re.Pattern] = {}

    def walk(obj: object, where: str, depth: int = 0) -> None:
        if isinstance(obj, re.Pattern):
            found.setdefault(where, obj)
        elif depth < 3 and isinstance(obj, (list, tuple)):
            for i, x in enumerate(obj):
                walk(x, f"{where}[{i}]", depth + 1)
        elif depth < 3 and isinstance(obj, dict):
            for k, x in obj.items():
                walk(x, f"{where}[{k!r}]", depth + 1)

    for pkg in (dipsat, dipsat.variants, dipsat.maps):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            mod = importlib.import_module(info.name)
            for name, value in vars(mod).items():
                walk(value, f"{info.name}.{name}")
    return found


WORDS = ["2A(", "A(", "(", " ", "\t", "a", "1", "A ", "2 ", "merge ", "with ", "S ", "sup ", "attack ", "and ",
         ", ", "cutting ", "- ", "-", "x-", "/", "A/F", "&", "A&", "1A", "army ", "navy ", "navy #", "via ", ": ",
         "build ", "disband ", "hold ", "H ", "support ", "Par ", "A(Par) ", " merge with FRENCH ", "S FRENCH MERGE "]


def hostile(n: int) -> list[str]:
    out = [w * (n // len(w)) for w in WORDS]
    out += ["2A(" + " " * n, "1" * n + "A(", "A(" + "x" * n, " " * n + "x", "2A(" + " " * n + "x", "A(" + "x " * (n // 2)]
    return [h[:n] for h in out]


def test_there_are_patterns_to_check():
    pats = module_patterns()
    assert len(pats) > 40
    assert any("multiplicity.notation._BRACKET" in k for k in pats)


def test_every_pattern_is_quick_on_hostile_text_of_the_longest_order():
    """At the order limit every pattern answers in well under a second on the worst strings we
    know (the cubic ones took seconds at this length; the worst now takes about 0.1 s on an idle
    machine, on text not yet reduced to single spaces)."""
    slow = []
    for where, pat in module_patterns().items():
        for h in hostile(MAX_ORDER_CHARS):
            t = time.process_time()
            pat.search(h)
            took = time.process_time() - t
            if took > 1.0:
                slow.append(f"{where} on {h[:12]!r}...: {took:.2f} s")
    assert not slow, "\n".join(slow)


def test_the_bracket_pattern_is_linear_on_its_own():
    """The pattern that took 31 s: now linear whatever it is given (100,000 characters)."""
    from dipsat.variants.multiplicity.notation import _BRACKET, _COMBO

    for pat in (_BRACKET, _COMBO):
        for h in hostile(100_000):
            t = time.process_time()
            pat.search(h)
            assert time.process_time() - t < 1.0, (pat.pattern, h[:12])
    assert _BRACKET.sub(lambda m: f"<{m.group(1)}|{m.group(2)}>", "2A( Bur ) and A&F(ENG)") == "<2A|Bur> and <A&F|ENG>"


LINES = {
    "standard": {"units": {"France": ["A Par"]}, "orders": {"France": ["ORDER"]}},
    "multiplicity": {"variant": "multiplicity", "units": {"France": ["2A Par"]}, "orders": {"France": ["ORDER"]}},
    "multinational": {"variant": "multinational", "units": {"CC": ["E Clm"]}, "orders": {"CC": ["ORDER"]}},
    "multiplomacy": {"variant": "multiplomacy", "units": {"France": ["2 A Par"]}, "orders": {"France": ["ORDER"]}},
    "continents": {"variant": "continents", "units": {"P1": ["4 yug"]}, "orders": {"P1": ["ORDER"]}},
    "continents-unit": {"variant": "continents", "units": {"P1": ["ORDER"]}, "orders": {}},
}


@pytest.mark.parametrize("family", sorted(LINES))
def test_orders_far_over_the_limit_are_refused_at_once(family):
    for text in ("2A(" + " " * 900_000, "A(" + "x " * 400_000, "merge " * 150_000):  # within the request limit
        line = json.dumps(LINES[family]).replace('"ORDER"', json.dumps(text))
        t = time.process_time()
        res = answer_line(line, 1, BatchSettings(explain=True))  # with the reasons
        assert time.process_time() - t < 5.0
        assert "Traceback" not in json.dumps(res)
        words = json.dumps(res)
        assert f"at most {MAX_ORDER_CHARS:,}" in words, words[:500]


@pytest.mark.parametrize("family", sorted(LINES))
def test_hostile_orders_at_the_limit_are_answered_quickly(family):
    for text in hostile(MAX_ORDER_CHARS):
        line = json.dumps(LINES[family]).replace('"ORDER"', json.dumps(text))
        t = time.process_time()
        res = answer_line(line, 1)
        assert time.process_time() - t < 3.0, (family, text[:12])
        assert res.get("error", {}).get("kind") != "internal_error", res


# -- wall-clock limits on the commands that had none ------------------------------------------

def test_render_compare_and_coverage_have_a_wall_clock_limit(tmp_path, capsys):
    """render: the whole drawing; compare and coverage: per case."""
    from dipsat.face.cli import main

    from conftest import CORPORA, ROOT

    turn = str(ROOT / "examples" / "spring1901.toml")
    assert main(["render", turn, "-o", str(tmp_path / "x.svg"), "--time-limit", "0.000001"]) == 2
    assert "time limit of 1e-06 s" in capsys.readouterr().err
    assert main(["render", turn, "-o", str(tmp_path / "x.svg")]) == 0
    for argv in (["compare", str(CORPORA / "datc" / "6.A.01.toml"), "-q"], ["coverage", str(CORPORA / "readings"), "-q"],
                 ["compare", str(CORPORA / "continents" / "rule_01_equal_forces.toml"), "-q"]):
        assert main([*argv, "--time-limit", "0.000001"]) in (1, 2), argv  # per case: that case fails
        cap = capsys.readouterr()
        assert "time limit" in cap.out + cap.err
