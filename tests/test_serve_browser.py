"""The sandbox as a new user meets it, in a real headless Chromium (driven by Playwright): run
``dipsat serve``, open the address it prints, and

* load the opening, type two orders, see their outcomes and the map change;
* reproduce DATC 6.F.16 (Pandin's paradox) by clicking: place the six units on an empty board,
  draw the six orders; see that no resolution is consistent and that the convoy paradox rule
  decided; switch a reading and see the convoy change; switch to the 1982 rulebook and see its
  single resolution; export the case for both rulebooks: ``dipsat corpus`` passes it and its
  expectations are those of ``tests/corpora/datc/6.F.16.toml``;
* reload the page's address and find the same position (the state lives in the address).

The browser is the system's Chromium (Debian: ``apt-get install chromium``; ``.ci/run`` installs
it), driven by the ``playwright`` package of the test extra, which downloads no browser of its
own.  Without a Chromium the tests skip and say so, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dipsat.face.render import find_browser

ROOT = Path(__file__).resolve().parent.parent
BROWSER = find_browser()
WHY_NOT = None
try:
    from playwright.sync_api import Page, sync_playwright
except ImportError:  # pragma: no cover - the test extra has it
    WHY_NOT = "the playwright package is not installed (pip install '.[test]')"
if WHY_NOT is None and BROWSER is None:
    WHY_NOT = "no headless Chromium installed (Debian: apt-get install chromium); .ci/run installs it"
try:
    import starlette  # noqa: F401
    import uvicorn  # noqa: F401
except ImportError:  # pragma: no cover
    WHY_NOT = WHY_NOT or "the serve extra is not installed (pip install '.[serve]')"

if WHY_NOT is not None and os.environ.get("CI"):
    pytest.fail(f"CI must run the sandbox's browser test: {WHY_NOT}", pytrace=False)
pytestmark = pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    """``dipsat serve --port 0`` running, and the address it printed: the command a user types,
    this environment's ``dipsat`` (``python -m dipsat.face.cli`` where none is installed beside
    this Python)."""
    script = Path(sys.executable).parent / "dipsat"
    ours = script.is_file() and script.read_text(encoding="utf-8", errors="replace").startswith(f"#!{sys.executable}")
    command = [str(script)] if ours else [sys.executable, "-m", "dipsat.face.cli"]
    proc = subprocess.Popen(command + ["serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert m, f"dipsat serve printed no address: {line!r} {proc.stderr.read() if proc.poll() is not None else ''}"
        yield m.group(0)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=BROWSER, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, address: str) -> Iterator["Page"]:
    pg = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(address)
    pg.wait_for_selector('body[data-ready="yes"]')
    settle(pg)
    yield pg
    pg.close()
    assert not errors, f"the page's script failed: {errors}"


def settle(pg: "Page") -> None:
    """Wait until the page has decided the current position (and its readings)."""
    pg.wait_for_timeout(50)
    pg.wait_for_selector('body[data-busy="no"]', timeout=60_000)


def result_of(pg: "Page", order: str) -> str:
    row = pg.locator(f'#orders tr[data-order="{order}"]')
    assert row.count() == 1, f"no row for {order!r}: {pg.inner_text('#orders')}"
    return str(row.get_attribute("data-result"))


def click_unit(pg: "Page", label: str) -> None:
    pg.locator(f'#map g.unit-token[data-unit="{label}"]').first.click()


def click_province(pg: "Page", pid: str) -> None:
    """A click where the province is drawn (on the unit standing there, if any: as a user would)."""
    pg.locator(f'#map g.province[data-id="{pid}"]').first.click(force=True)


def test_opening_two_typed_orders_are_decided_and_drawn(page: "Page") -> None:
    pg = page
    assert pg.locator("#map g.unit-token").count() == 22
    before = pg.inner_html("#map")
    pg.select_option("#order-power", "France")
    for text in ("A Paris - Burgundy", "F Brest - Mid-Atlantic Ocean"):
        pg.fill("#order-text", text)
        pg.press("#order-text", "Enter")
        settle(pg)
    assert result_of(pg, "A Paris - Burgundy") == "moved"
    assert result_of(pg, "F Brest - Mid-Atlantic Ocean") == "moved"
    assert "moves" in pg.inner_text("#orders")  # each order's reason
    assert pg.inner_html("#map") != before
    assert pg.locator("#map g.o.move").count() == 2  # the two moves drawn
    # an illegal order is marked at once with dipsat's message
    pg.fill("#order-text", "A Marseilles - Munich")
    pg.press("#order-text", "Enter")
    settle(pg)
    assert result_of(pg, "A Marseilles - Munich") == "illegal"
    assert "does not border" in pg.inner_text("#orders")


def test_pandin_by_clicking_paradox_readings_rulebooks_and_export(page: "Page", tmp_path: Path) -> None:
    pg = page
    pg.click("#clear")
    settle(pg)
    assert pg.locator("#map g.unit-token").count() == 0
    pg.check("#mode-place")
    for power, kind, pids in (("England", "F", ("lon", "wal")), ("France", "A", ("bre",)), ("France", "F", ("eng",)),
                              ("Germany", "F", ("nth", "bel"))):
        pg.select_option("#place-power", power)
        pg.select_option("#place-kind", kind)
        for pid in pids:
            click_province(pg, pid)
            settle(pg)
    assert pg.locator("#map g.unit-token").count() == 6
    pg.select_option("#place-power", "France")
    pg.select_option("#place-kind", "A")
    click_province(pg, "pic")  # one too many: placed, then removed by clicking it
    settle(pg)
    assert pg.locator('#map g.unit-token[data-unit="France: A Pic"]').count() == 1
    pg.check("#mode-remove")
    click_unit(pg, "France: A Pic")
    settle(pg)
    assert pg.locator("#map g.unit-token").count() == 6
    assert "Picardy" not in pg.inner_text("#units")
    pg.check("#mode-orders")
    drawn = [("support", ["England: F Lon", "England: F Wal", "England: F Wal"], "eng"),
             ("move", ["England: F Wal"], "eng"),
             ("move", ["France: A Bre"], "lon"),
             ("convoy", ["France: F Eng", "France: A Bre"], "lon"),
             ("support", ["Germany: F Nth", "Germany: F Bel"], "eng"),
             ("move", ["Germany: F Bel"], "eng")]
    for kind, units, dest in drawn:
        pg.select_option("#order-kind", kind)
        pg.check("#mode-orders")
        for label in units[:2]:
            click_unit(pg, label)
        click_province(pg, dest)
        settle(pg)
    case = tomllib.loads((ROOT / "tests/corpora/datc/6.F.16.toml").read_text(encoding="utf-8"))
    written = sorted(t for ts in case["orders"].values() for t in ts)
    rows = sorted(str(r.get_attribute("data-order")) for r in pg.locator("#orders tr:not(.implied)").all())
    assert rows == written, "the clicked orders are the DATC's, word for word"
    # no consistent resolution; the convoy paradox rule (Szykman) decided
    assert pg.get_attribute("#resolution-count", "data-count") == "0"
    assert pg.locator('#paradox .backup[data-kind="convoy_paradox"]').count() == 1
    assert "Szykman" in pg.inner_text("#paradox")
    convoy = "F English Channel Convoys A Brest - London"
    assert result_of(pg, convoy) == "disrupted"
    # a reading switched: the convoy is carried out under the 1982 paradox rule
    pg.locator('#readings button.switch[data-option="convoy_paradox_rule"][data-value="1982"]').click()
    settle(pg)
    assert result_of(pg, convoy) == "convoyed"
    pg.locator('#overrides .chip[data-option="convoy_paradox_rule"] button').click()
    settle(pg)
    assert result_of(pg, convoy) == "disrupted"
    # the 1982 rulebook: a single consistent resolution, no backup rule
    pg.select_option("#rules", "1982")
    settle(pg)
    assert pg.get_attribute("#resolution-count", "data-count") == "1"
    assert pg.locator('#paradox .backup[data-kind="none"]').count() == 1
    assert result_of(pg, convoy) == "convoyed"
    # why, on any order
    pg.locator(f'#orders tr[data-order="{convoy}"] button.why').click()
    pg.wait_for_function("document.getElementById('why').textContent.length > 5")
    assert convoy in pg.inner_text("#why")
    # export for both rulebooks
    pg.click("#export-open")
    pg.check('#export-rules input[value="datc"]')
    pg.check('#export-rules input[value="1982"]')
    pg.fill("#export-id", "6.F.16")
    pg.click("#export-run")
    pg.wait_for_function("document.getElementById('export-text').value.includes('[[expect]]')")
    text = pg.input_value("#export-text")
    out = tmp_path / "pandin.toml"
    out.write_text(text, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "dipsat.face.cli", "corpus", str(out)], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert_same_expectations(tomllib.loads(text), case, ["datc", "1982"])
    # the address holds the position: opened again, the page shows the same orders
    url = pg.url
    pg.goto("about:blank")
    pg.goto(url)
    pg.wait_for_selector('body[data-ready="yes"]')
    settle(pg)
    assert result_of(pg, convoy) == "convoyed" and pg.input_value("#rules") == "1982"


def expectation_for(case: dict[str, Any], rules: str) -> dict[str, Any]:
    hits = [e for e in case["expect"] if rules in e["rules"]]
    assert len(hits) == 1, f"{rules}: {len(hits)} expectations"
    return hits[0]


def assert_same_expectations(exported: dict[str, Any], datc: dict[str, Any], presets: list[str]) -> None:
    """The exported expectation of each rulebook says what the DATC case's says: each order's
    outcome, the units dislodged, the backup rule, the position after (as units)."""
    from dipsat.game.registry import find_variant

    v = find_variant("standard")

    def units(table: dict[str, list[str]]) -> list[tuple[str, str, str]]:
        return sorted((u.power, u.kind, u.location) for p, specs in table.items() for s in specs
                      for u in v.notation.unit_specs(p, s))

    for rules in presets:
        got, want = expectation_for(exported, rules), expectation_for(datc, rules)
        assert got["orders"] == want["orders"], rules
        assert got.get("dislodged", []) == want.get("dislodged", []), rules
        assert got.get("backup", "none") == want.get("backup", "none"), rules
        assert units(got["units_after"]) == units(want["units_after"]), rules


FALL = """variant = "standard"
year = 1901
season = "fall"
[units]
Germany = ["A Munich", "A Ruhr"]
France = ["A Burgundy"]
[owners]
Germany = ["Munich", "Berlin", "Kiel"]
France = ["Paris", "Brest", "Marseilles"]
[orders]
Germany = ["A Munich - Burgundy", "A Ruhr Supports A Munich - Burgundy"]
"""


def test_a_pasted_fall_continues_to_retreats_and_adjustments_by_clicking(page: "Page") -> None:
    pg = page
    pg.click("#paste-open")
    pg.fill("#paste-text", FALL)
    pg.click("#paste-load")
    settle(pg)
    assert result_of(pg, "A Munich - Burgundy") == "moved"
    assert pg.locator("#map g.unit-token.dislodged").count() == 1
    pg.click("#continue")
    settle(pg)
    assert "retreat" in pg.inner_text("#phase")
    pg.select_option("#order-kind", "move")
    click_unit(pg, "France: A Bur")
    click_province(pg, "par")
    settle(pg)
    assert result_of(pg, "A Burgundy - Paris") in ("moved", "retreated")
    pg.click("#continue")
    settle(pg)
    assert "adjustment" in pg.inner_text("#phase") and "winter 1901" in pg.inner_text("#phase")
    pg.select_option("#place-power", "Germany")
    pg.select_option("#place-kind", "F")
    click_province(pg, "kie")
    settle(pg)
    assert result_of(pg, "Build F Kiel") == "built"
    pg.click("#continue")
    settle(pg)
    assert "spring 1902" in pg.inner_text("#phase")
    assert pg.locator('#map g.unit-token[data-unit="Germany: F Kie"]').count() == 1


STACKS = """variant = "multiplicity"
phase = "movement"
[units]
France = ["A Par"]
Germany = ["A Mun"]
"""


def test_stacked_units_placed_removed_and_ordered_by_clicking(page: "Page") -> None:
    """Multiplicity Plus (seed 003): units of one power and kind in one space are one stack
    ('2A(Bur)'); placing where one stands makes the stack larger, removing makes it smaller; a
    stack clicked offers how much of it the order is for (rule 10: 'a player may split a
    multiple unit ... by ordering the units to different locations'), the whole stack first."""
    pg = page
    pg.click("#paste-open")
    pg.fill("#paste-text", STACKS)
    pg.click("#paste-load")
    settle(pg)
    pg.check("#mode-place")
    pg.select_option("#place-power", "France")
    for kind, pid in (("A", "par"), ("A", "bre"), ("A", "bre"), ("A", "bre"), ("F", "bre")):
        pg.select_option("#place-kind", kind)
        click_province(pg, pid)
        settle(pg)
    labels = sorted(str(t.get_attribute("data-unit")) for t in pg.locator("#map g.unit-token").all())
    assert labels == ["France: 2 A Par", "France: 3 A Bre", "France: F Bre", "Germany: A Mun"], labels
    pg.check("#mode-remove")
    click_unit(pg, "France: 3 A Bre")  # one army off the stack
    settle(pg)
    assert pg.locator('#map g.unit-token[data-unit="France: 2 A Bre"]').count() == 1
    assert "2 A Bre" in pg.inner_text("#units") and "3 A Bre" not in pg.inner_text("#units")
    pg.check("#mode-orders")
    pg.select_option("#order-kind", "move")
    # the whole stack of armies moves: the chooser offers it first
    click_unit(pg, "France: 2 A Par")
    assert pg.is_visible("#order-count") and pg.input_value("#order-count") == "2 A"
    click_province(pg, "bur")
    settle(pg)
    assert result_of(pg, "2 A Paris - Burgundy") == "moved"
    # a split: one army to Picardy, one to Gascony, the fleet holds (rule 10)
    brest_armies = '#map g.unit-token[data-unit^="France: "][data-unit$=" A Bre"]'  # a split stack: a token a part
    for dest in ("pic", "gas"):
        pg.locator(brest_armies).first.click()
        assert pg.input_value("#order-count") == "2A&F"  # an army and a fleet: the whole stack first
        pg.select_option("#order-count", "A")
        click_province(pg, dest)
        settle(pg)
    click_unit(pg, "France: F Bre")
    pg.select_option("#order-count", "F")
    click_unit(pg, "France: F Bre")
    settle(pg)
    assert result_of(pg, "A Brest - Picardy") == "moved" and result_of(pg, "A Brest - Gascony") == "moved"
    assert result_of(pg, "F Brest Hold") == "held"
    # the whole stack, army and fleet, moves: its order replaces the parts' orders
    pg.locator(brest_armies).first.click()
    click_province(pg, "pic")
    settle(pg)
    rows = sorted(str(r.get_attribute("data-order")) for r in pg.locator("#orders tr:not(.implied)").all())
    assert rows == ["2 A Paris - Burgundy", "2A&F Brest - Picardy"], rows
    assert result_of(pg, "2A&F Brest - Picardy") == "moved"
    # a single unit offers no chooser
    click_unit(pg, "Germany: A Mun")
    assert not pg.is_visible("#order-count")
    click_province(pg, "bur")
    settle(pg)
    assert result_of(pg, "A Munich - Burgundy") == "bounced"


def test_continents_set_up_and_ordered_by_clicking(page: "Page") -> None:
    """Continents (seed 004): an empty round from the variant menu; units placed one a click (one
    player a country) and removed one a click; the seed's defence-support example (the corpus's
    continents.rule.12: 'A 4 Dis-Pie', 'SD Pie 2 Ciu') drawn by clicking, with the number of
    units chosen, and decided."""
    pg = page
    pg.select_option("#variant", "continents")
    settle(pg)
    assert pg.locator("#map g.province[data-node]").count() > 20 and pg.locator("#map g.unit-token").count() == 0

    def place_at(player: str, node: str, times: int) -> None:
        pg.select_option("#place-power", player)
        for _ in range(times):
            pg.locator(f'#map g.province[data-node="{node}"]').first.click(force=True)
            settle(pg)

    pg.check("#mode-place")
    for player, node, n in (("A", "dis", 4), ("B", "pie", 4), ("C", "ciu", 2)):
        place_at(player, node, n)
    token = '#map g.unit-token[data-node="{}"]'
    assert pg.get_attribute(token.format("pie"), "data-count") == "4"
    place_at("C", "pie", 1)  # B holds Pietes: one player per country
    assert "held by B" in pg.inner_text("#error")
    pg.check("#mode-remove")
    pg.locator(token.format("pie")).click()
    settle(pg)
    assert pg.get_attribute(token.format("pie"), "data-count") == "3" and pg.get_attribute(token.format("pie"), "data-player") == "B"
    assert "3 Pie" in pg.inner_text("#units")
    pg.check("#mode-orders")
    assert pg.locator('#order-kind option[value="convoy"]').get_attribute("hidden") is not None  # no convoys here
    pg.select_option("#order-kind", "move")
    pg.locator(token.format("dis")).click()
    assert pg.is_visible("#order-count") and pg.input_value("#order-count") == "4"  # all of them first
    pg.locator('#map g.province[data-node="pie"]').first.click(force=True)
    settle(pg)
    pg.select_option("#order-kind", "support")
    pg.locator(token.format("ciu")).click()
    pg.locator(token.format("pie")).click()
    pg.locator(token.format("pie")).click()  # the ally's country again: support its defence
    settle(pg)
    case = tomllib.loads((ROOT / "tests/corpora/continents/rule_12_defence_support.toml").read_text(encoding="utf-8"))
    rows = sorted(str(r.get_attribute("data-order")) for r in pg.locator("#orders tr:not(.implied)").all())
    assert rows == sorted(t for ts in case["orders"].values() for t in ts), rows
    assert result_of(pg, "A 4 Dis-Pie") == "lost" and result_of(pg, "SD Pie 2 Ciu") == "supported"
    assert "B: 1 Pie" in str(pg.text_content("#text"))  # the case's units_after: B keeps one unit in Pietes
    # fewer than all: a count chosen
    pg.select_option("#order-kind", "move")
    pg.locator(token.format("dis")).click()
    pg.select_option("#order-count", "2")
    pg.locator(token.format("dis")).click()  # the place again: a hold
    settle(pg)
    assert result_of(pg, "H Dis") != ""


def test_supremacy_drill_set_up_and_ordered_by_clicking(page: "Page") -> None:
    """Supremacy (seed 002): an empty battle drill from the variant menu; armies and navies placed
    and removed by clicking; the assault drawn from the attacking armies (how many, chosen) to
    the target, and decided (its facts shown)."""
    pg = page
    pg.select_option("#variant", "supremacy")
    settle(pg)
    assert pg.locator("#map g.province[data-zone]").count() > 20
    pg.check("#mode-place")

    def place_at(power: str, kind: str, zone: str, times: int = 1) -> None:
        pg.select_option("#place-power", power)
        pg.select_option("#place-kind", kind)
        for _ in range(times):
            pg.locator(f'#map g.province[data-zone="{zone}"]').first.click(force=True)
            settle(pg)

    place_at("USA", "army", "us_west", 3)
    place_at("CSA", "army", "mexico")
    place_at("USA", "navy", "caribbean")
    token = '#map g.unit-token[data-power="{}"][data-zone="{}"]'
    assert pg.get_attribute(token.format("USA", "us_west"), "data-armies") == "3"
    assert pg.locator(token.format("USA", "caribbean")).count() == 1
    place_at("USA", "navy", "mexico")  # a navy on land: refused with the reason
    assert "a navy stands at sea" in pg.inner_text("#error")
    pg.check("#mode-remove")
    pg.locator(token.format("USA", "caribbean")).click()
    settle(pg)
    assert pg.locator(token.format("USA", "caribbean")).count() == 0
    pg.check("#mode-orders")
    pg.locator(token.format("USA", "us_west")).click()
    assert pg.input_value("#order-count") == "3"
    pg.select_option("#order-count", "2")
    pg.locator('#map g.province[data-zone="mexico"]').first.click(force=True)
    settle(pg)
    assert not pg.is_visible("#error")
    text = str(pg.text_content("#text"))
    assert '"defender": "CSA"' in text and '"attacker_dice": 2' in text, text[:400]  # 1 + 1 for most forces, 2 to 1
    assert pg.locator("#map g.o.move").count() == 1  # the assault's arrow


ADJUST = """variant = "multiplicity"
phase = "adjustment"
year = 1901
season = "winter"
[units]
France = ["3A(Bre)"]
[owners]
France = ["Brest"]
"""


def test_a_stack_disbands_one_unit_a_click_in_the_adjustments(page: "Page") -> None:
    """Multiplicity Plus rule 2: 'Each component part of a multiple unit requires a supply centre
    to support it': one centre, a stack of three: each click on the stack disbands one unit."""
    pg = page
    pg.click("#paste-open")
    pg.fill("#paste-text", ADJUST)
    pg.click("#paste-load")
    settle(pg)
    for _ in range(2):
        click_unit(pg, "France: 3 A Bre")
        settle(pg)
    rows = pg.locator('#orders tr[data-order="Disband A Brest"]')
    assert rows.count() == 2 and {r.get_attribute("data-result") for r in rows.all()} == {"disbanded"}
    assert "Position after:\n  France: A Bre" in str(pg.text_content("#text"))  # one army left, on its one centre
