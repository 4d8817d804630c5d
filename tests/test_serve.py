"""The sandbox's endpoints (``dipsat serve``), through Starlette's test client: set-up (opening,
cases by name, pasted positions), adjudication with reasons, paradoxes and the next phase,
readings, why, export, completion, and the safety rules (limits, time limit, hosts, no paths).
The calls run in the real worker process, as the server runs them."""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install '.[serve]' or '.[test]')")
pytest.importorskip("httpx", reason="Starlette's test client needs httpx (pip install '.[test]')")

from starlette.testclient import TestClient  # noqa: E402

from dipsat.limits import Limits  # noqa: E402
from dipsat.face.serve.app import make_app  # noqa: E402
from dipsat.face.serve.library import Library  # noqa: E402
from dipsat.face.serve.worker import Runner  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PANDIN = ROOT / "tests/corpora/datc/6.F.16.toml"
BASE = "http://127.0.0.1"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    mine = tmp_path_factory.mktemp("named") / "mine.toml"
    mine.write_text('variant = "standard"\n[units]\nFrance = ["A Paris"]\n[orders]\nFrance = ["A Paris - Picardy"]\n')
    runner = Runner(Limits(max_orders=200))
    with TestClient(make_app(runner, Library([str(mine)])), base_url=BASE) as c:
        c.named = str(mine)  # type: ignore[attr-defined]
        yield c
    runner.close()


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> Any:
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    return r.json()


def pandin(client: TestClient) -> dict[str, Any]:
    r = client.get("/api/case", params={"name": "6.F.16"})
    assert r.status_code == 200, r.text
    state: dict[str, Any] = r.json()
    return state


def outcome(res: dict[str, Any], order: str) -> dict[str, Any]:
    hits = [o for o in res["result"]["outcomes"] if o["order"] == order]
    assert len(hits) == 1, order
    return hits[0]


def test_the_page_and_its_assets_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "dipsat sandbox" in page.text and "/static/sandbox.js" in page.text
    js = client.get("/static/sandbox.js")
    assert js.status_code == 200 and "/api/adjudicate" in js.text
    assert "/static/families.js" in page.text and "/api/order" in client.get("/static/families.js").text
    assert client.get("/static/../app.py").status_code == 404


def test_variants_list_every_variant_with_its_presets_and_places(client: TestClient) -> None:
    vs = {v["name"]: v for v in client.get("/api/variants").json()}
    assert set(vs) == {"standard", "multiplomacy", "multinational", "supremacy", "continents", "multiplicity"}
    std = vs["standard"]
    assert std["board"] and "1982" in std["presets"] and std["places"]["eng"] == "English Channel"
    assert std["places"]["spa/nc"] == "Spain(nc)" and std["unit_kinds"] == ["A", "F"]
    assert any(o["name"] == "convoy_paradox_rule" and "1982" in o["values"] for o in std["options"])
    assert not vs["continents"]["board"]


def test_cases_by_name_bundled_and_named_on_the_command_line(client: TestClient) -> None:
    names = {c["name"] for c in client.get("/api/cases").json()}
    assert {"6.F.16", "6.A.1", "examples/pandin", "multiplomacy/" + "ex01_simple_stack"} & names >= {"6.F.16", "examples/pandin"}
    assert client.named in names  # type: ignore[attr-defined]
    state = pandin(client)
    datc = tomllib.loads(PANDIN.read_text(encoding="utf-8"))
    assert state["units"] == datc["units"] and state["orders"] == datc["orders"]
    assert state["meta"]["title"] == "Pandin's paradox" and "expect" not in state
    mine = client.get("/api/case", params={"name": client.named}).json()  # type: ignore[attr-defined]
    assert mine["orders"] == {"France": ["A Paris - Picardy"]}


def test_a_saved_games_phases_load_one_by_one(client: TestClient) -> None:
    last = client.get("/api/case", params={"name": "examples/game"}).json()
    assert last["meta"]["phases"][:3] == ["S1901M", "F1901M", "W1901A"] and last["meta"]["phase"] == "W1902A"
    assert last["phase"] == "adjustment" and last["orders"]["Russia"] == ["Build A Mos"]
    fall = client.get("/api/case", params={"name": "examples/game@F1901M"}).json()
    assert (fall["phase"], fall["season"], fall["year"]) == ("movement", "fall", 1901)
    assert "A Bur" in fall["units"]["France"] and fall["orders"]["France"] == ["F Mao - Por", "A Bur - Bel", "A Spa H"]
    res = post(client, "/api/adjudicate", {"state": fall})
    assert outcome(res, "A Bur - Bel")["result"] == "moved" and res["next"]["phase"] == "adjustment"
    retreat = client.get("/api/case", params={"name": "examples/game", "phase": "S1902R"}).json()
    assert retreat["phase"] == "retreat" and retreat["retreat_orders"] and retreat["orders"]
    r = client.get("/api/case", params={"name": "examples/game@X1999M"})
    assert r.status_code == 400 and "its phases: S1901M" in r.json()["error"]


def test_no_endpoint_reads_a_path(client: TestClient) -> None:
    for name in ("/etc/passwd", "../../pyproject.toml", str(PANDIN)):
        r = client.get("/api/case", params={"name": name})
        assert r.status_code == 400 and "no case called" in r.json()["error"]
    # a position naming a map file of its own: refused by the file rules, nothing read
    st = {"variant": "continents", "map": "/etc/passwd", "units": {"A": ["3 Yug"]}, "orders": {}}
    res = post(client, "/api/adjudicate", {"state": st})
    assert res["result"] is None and "names only a bundled map" in res["error"]


def test_opening_and_errors_of_set_up(client: TestClient) -> None:
    st = client.get("/api/opening", params={"variant": "standard"}).json()
    assert sum(len(u) for u in st["units"].values()) == 22 and st["season"] == "spring" and st["year"] == 1901
    r = client.get("/api/opening", params={"variant": "supremacy"})  # another family: its empty position
    assert r.status_code == 200 and r.json()["data"]["kind"] == "drill", r.text
    r = client.get("/api/opening", params={"variant": "chess"})
    assert r.status_code == 400 and "unknown variant" in r.json()["error"]


def test_pasted_positions_toml_and_json(client: TestClient) -> None:
    st = post(client, "/api/paste", {"text": PANDIN.read_text(encoding="utf-8")})
    assert st["units"]["France"] == ["A Brest", "F English Channel"] and st["meta"]["id"] == "6.F.16"
    st = post(client, "/api/paste", {"text": json.dumps({"units": {"France": ["A Par"]}, "orders": {}})})
    assert st["variant"] == "standard"
    bad = post(client, "/api/paste", {"text": "units = [1, 2"}, status=400)
    assert "not valid TOML" in bad["error"]
    bad = post(client, "/api/paste", {"text": '{"units": {"France": "A Par"}}'}, status=400)
    assert "the pasted text: field units.France" in bad["error"]


def test_adjudicate_pandin_paradox_and_the_1982_rulebook(client: TestClient) -> None:
    st = pandin(client)
    res = post(client, "/api/adjudicate", {"state": st})
    convoy = "F English Channel Convoys A Brest - London"
    assert outcome(res, convoy)["result"] == "disrupted" and "Szykman" in outcome(res, convoy)["reason"]
    wales = outcome(res, "F Wales - English Channel")
    assert wales["result"] == "bounced" and wales["culprits"][0]["order"] == "F Belgium - English Channel"
    assert wales["strengths"] and "attack 2" in wales["reason"]
    assert [b["kind"] for b in res["result"]["backups"]] == ["convoy_paradox"]
    assert res["resolutions"]["count"] == 0 and 'class="dipsat-map"' in res["svg"]
    res82 = post(client, "/api/adjudicate", {"state": st | {"rules": "1982"}})
    assert res82["rules"] == "1982" and res82["resolutions"]["count"] == 1
    assert outcome(res82, convoy)["result"] == "convoyed" and not res82["result"]["backups"]
    opt = post(client, "/api/adjudicate", {"state": st | {"options": {"convoy_paradox_rule": "1982"}}})
    assert outcome(opt, convoy)["result"] == "convoyed"


def test_invalid_and_illegal_orders_are_marked_with_the_message(client: TestClient) -> None:
    st = {"variant": "standard", "units": {"France": ["A Paris", "A Marseilles"]},
          "orders": {"France": ["A Paris - Munich", "A Marseilles xx Spain"]}}
    res = post(client, "/api/adjudicate", {"state": st})
    illegal = outcome(res, "A Paris - Munich")
    assert illegal["result"] == "illegal" and "does not border" in illegal["reason"]
    invalid = outcome(res, "A Marseilles xx Spain")
    assert invalid["result"] == "invalid" and "unknown word 'xx'" in invalid["reason"]


def test_a_position_that_cannot_be_read_still_shows_the_board(client: TestClient) -> None:
    res = post(client, "/api/adjudicate", {"state": {"variant": "standard", "units": {"Narnia": ["A Par"]}}})
    assert res["result"] is None and "unknown power 'Narnia'" in res["error"]
    assert 'class="dipsat-map"' in res["svg"] and "unit-token" not in res["svg"]
    empty = post(client, "/api/adjudicate", {"state": {"variant": "standard", "units": {}}})
    assert "empty" in empty["error"] and 'data-id="eng"' in empty["svg"]


def test_retreats_and_adjustments_continue_from_the_result(client: TestClient) -> None:
    st = {"variant": "standard", "year": 1901, "season": "fall",
          "units": {"Germany": ["A Munich", "A Ruhr"], "France": ["A Burgundy"]},
          "owners": {"Germany": ["Munich", "Berlin", "Kiel"], "France": ["Paris", "Brest", "Marseilles"]},
          "orders": {"Germany": ["A Munich - Burgundy", "A Ruhr Supports A Munich - Burgundy"]}}
    res = post(client, "/api/adjudicate", {"state": st})
    nxt = res["next"]
    assert nxt["phase"] == "retreat" and nxt["orders"] == st["orders"] and nxt["retreat_orders"] == {}
    nxt["retreat_orders"] = {"France": ["A Burgundy - Paris"]}
    ret = post(client, "/api/adjudicate", {"state": nxt})
    assert ret["result"]["outcomes"][0]["result"] in ("retreated", "moved") and ret["next"]["phase"] == "adjustment"
    adj = ret["next"]
    assert adj["units"] == {"France": ["A Par"], "Germany": ["A Bur", "A Ruh"]}
    assert {p: sorted(c) for p, c in adj["owners"].items()} == {p: sorted(c) for p, c in st["owners"].items()}
    assert adj["year"] == 1901 and adj["season"] == "winter"
    built = post(client, "/api/adjudicate", {"state": adj | {"orders": {"Germany": ["Build A Munich"]}}})
    assert built["result"]["outcomes"][0]["succeeded"] is True
    assert built["next"]["phase"] == "movement" and built["next"]["year"] == 1902


def test_readings_say_which_orders_change_under_which_reading(client: TestClient) -> None:
    rd = post(client, "/api/readings", {"state": pandin(client)})
    assert rd["current"]["convoy_paradox_rule"] == "szykman" and "convoy_paradox_rule" in rd["depends"]
    s82 = next(s for s in rd["switches"] if s["option"] == "convoy_paradox_rule" and s["value"] == "1982")
    changed = {c["order"]: (c["from"], c["to"]) for c in s82["changes"]}
    assert changed["France: F English Channel Convoys A Brest - London"] == ("disrupted", "convoyed")
    # under an override the page chose, the same option is still offered (now from 1982's side)
    rd82 = post(client, "/api/readings", {"state": pandin(client) | {"options": {"convoy_paradox_rule": "1982"}}})
    assert rd82["current"]["convoy_paradox_rule"] == "1982"
    assert any(s["option"] == "convoy_paradox_rule" and s["value"] == "szykman" for s in rd82["switches"])


def test_why_of_an_order(client: TestClient) -> None:
    ans = post(client, "/api/why", {"state": pandin(client), "order": "A Brest - London"})
    assert ans["text"].startswith("A Brest - London: no_path") and "backup rule" in ans["text"]
    bad = post(client, "/api/why", {"state": pandin(client), "order": "A Kiel - Berlin"}, status=400)
    assert "not one of the file's orders" in bad["error"]


def test_export_as_a_corpus_case_that_dipsat_corpus_passes(client: TestClient, tmp_path: Path) -> None:
    from dipsat.io.corpus import run_corpus

    out = post(client, "/api/export", {"state": pandin(client), "format": "case", "rules": ["datc", "1971", "1982", "2000"]})
    case = tomllib.loads(out["text"])
    assert case["id"] == "6.F.16" and [e["rules"] for e in case["expect"]] == [["datc"], ["1971", "1982", "2000"]]
    datc = tomllib.loads(PANDIN.read_text(encoding="utf-8"))
    for got, want in zip(case["expect"], datc["expect"]):
        assert got["orders"] == want["orders"] and got.get("backup") == want.get("backup")
    f = tmp_path / "case.toml"
    f.write_text(out["text"], encoding="utf-8")
    runs = run_corpus([f])
    assert len(runs) == 4 and all(r.passed for r in runs), [r.problems for r in runs]


def test_export_a_retreat_phase_and_a_batch_line(client: TestClient, tmp_path: Path) -> None:
    from dipsat import adjudicate
    from dipsat.io.corpus import run_corpus

    st = {"variant": "standard", "phase": "retreat", "units": {"Germany": ["A Munich", "A Ruhr"], "France": ["A Burgundy"]},
          "orders": {"Germany": ["A Munich - Burgundy", "A Ruhr Supports A Munich - Burgundy"]},
          "retreat_orders": {"France": ["A Burgundy - Paris"]}}
    text = post(client, "/api/export", {"state": st, "format": "case", "id": "r1", "title": "a retreat"})["text"]
    case = tomllib.loads(text)
    assert case["expect"][0]["retreats"] == {"A Burgundy - Paris": "succeeds"}
    assert case["expect"][0]["dislodged"] == ["France: A Bur"]
    f = tmp_path / "r1.toml"
    f.write_text(text, encoding="utf-8")
    assert all(r.passed for r in run_corpus([f]))
    line = post(client, "/api/export", {"state": pandin(client) | {"rules": "1982"}, "format": "batch"})["text"]
    assert "\n" not in line and "meta" not in json.loads(line)
    assert adjudicate(json.loads(line)).rules.name == "1982"


def test_completion_lists_each_units_orders(client: TestClient) -> None:
    import re

    legal = post(client, "/api/legal", {"state": pandin(client)})

    def orders_of(power: str, unit: str) -> list[str]:
        hits = [v for k, v in legal[power].items() if k.endswith(unit)]  # "F Eng" or "France: F Eng"
        assert len(hits) == 1, (unit, list(legal[power]))
        return list(hits[0])

    fleet = orders_of("France", "F Eng")
    assert any(re.fullmatch(r"F Eng (C|Convoys) A Bre - Lon", o) for o in fleet), fleet
    assert "F Eng - Mao" in fleet and any(re.fullmatch(r"F Eng (H|Hold)", o) for o in fleet)
    assert any(re.fullmatch(r"F Lon (S|Supports) F Wal - Eng", o) for o in orders_of("England", "F Lon"))
    assert not any("Mun" in o for o in fleet)


def test_units_placed_and_removed_by_clicking_stack_on_a_board_that_stacks(client: TestClient) -> None:
    def click(state: dict[str, Any], power: str, place: str, kind: str | None, delta: int, status: int = 200) -> Any:
        return post(client, "/api/units", {"state": state, "power": power, "place": place, "kind": kind, "delta": delta},
                    status)

    state: dict[str, Any] = {"variant": "multiplicity", "phase": "movement", "units": {"France": ["2A(Par)", "A Bur"]},
                             "orders": {}, "meta": {"title": "mine"}}
    state = click(state, "France", "bre", "A", 1)
    state = click(state, "France", "bre", "A", 1)
    state = click(state, "France", "bre", "F", 1)
    assert state["units"]["France"] == ["2A(Par)", "A Bur", "2 A Bre", "F Bre"] and state["meta"] == {"title": "mine"}
    state = click(state, "France", "par", "A", -1)  # one army off the stack written 2A(Par)
    assert state["units"]["France"] == ["A Par", "A Bur", "2 A Bre", "F Bre"]
    state = click(state, "France", "bre", "A", -1)
    assert state["units"]["France"] == ["A Par", "A Bur", "A Bre", "F Bre"]
    res = post(client, "/api/adjudicate", {"state": state | {"orders": {"France": ["A&F Brest - Picardy"]}}})
    assert outcome(res, "A&F Brest - Picardy")["result"] == "moved"
    state = click(state, "France", "bur", None, -1)
    assert state["units"]["France"] == ["A Par", "A Bre", "F Bre"]
    state = click(state, "France", "spa/sc", "F", 1)
    assert "F Spa/sc" in state["units"]["France"]
    assert "no unit in Burgundy" in click(state, "France", "bur", "A", -1, 400)["error"]
    assert "not a place" in click(state, "France", "xyz", "A", 1, 400)["error"]
    assert "cannot be placed there" in click(state, "France", "bur", "F", 1, 400)["error"]  # a fleet inland


def test_units_placed_and_removed_by_clicking_on_a_board_of_one_unit_a_province(client: TestClient) -> None:
    state: dict[str, Any] = {"variant": "standard", "units": {"France": ["A Paris"]}, "orders": {}}
    state = post(client, "/api/units", {"state": state, "power": "England", "place": "spa/nc", "kind": "F", "delta": 1})
    assert state["units"] == {"France": ["A Paris"], "England": ["F Spa/nc"]}
    state = post(client, "/api/units", {"state": state, "power": "France", "place": "par", "kind": "A", "delta": -1})
    assert state["units"] == {"England": ["F Spa/nc"]}
    bad = post(client, "/api/units", {"state": state, "power": "England", "place": "spa", "kind": "F", "delta": 2}, 400)
    assert "delta" in bad["error"]


def test_continents_units_and_orders_by_clicking(client: TestClient) -> None:
    """Continents (seed 004): its empty round, its units placed and removed one a click (one
    player a country, at most its capacity), its orders written in the seed's notation."""
    vs = {v["name"]: v for v in client.get("/api/variants").json()}
    assert vs["continents"]["clicks"]["place"] == "node" and vs["continents"]["blank"]["units"] == {}
    state = client.get("/api/opening", params={"variant": "continents"}).json()
    assert state["units"] == {} and state["variant"] == "continents"

    def click(power: str, place: str, delta: int, status: int = 200) -> Any:
        return post(client, "/api/units", {"state": state, "power": power, "place": place, "delta": delta}, status)

    for power, place in (("A", "Yug"), ("A", "yug"), ("A", "Yugant"), ("B", "tar"), ("C", "dis")):
        state = click(power, place, 1)
    assert state["units"] == {"A": ["3 Yug"], "B": ["1 Tar"], "C": ["1 Dis"]}
    assert "held by A" in click("B", "yug", 1, 400)["error"]
    assert "nobody has a unit in" in click("B", "pie", -1, 400)["error"]
    state = click("A", "yug", -1)
    assert state["units"]["A"] == ["2 Yug"]

    def order(action: str, origin: str, target: str, count: int | None = None, ally: str | None = None,
              status: int = 200) -> Any:
        return post(client, "/api/order", {"state": state, "action": action, "origin": origin, "target": target,
                                           "count": count, "ally": ally}, status)

    state = order("move", "yug", "tar", 1)
    state = order("support", "dis", "pie", ally="tar")  # Tar's attack on Pietes, all of Dis's units
    state = order("support", "dis", "tar", 1, ally="tar")  # Tar's defence
    state = order("move", "tar", "tar")
    assert state["orders"] == {"A": ["A 1 Yug-Tar"], "C": ["SA Tar-Pie 1 Dis", "SD Tar 1 Dis"], "B": ["H Tar"]}
    res = post(client, "/api/adjudicate", {"state": state})
    assert {o["order"] for o in res["result"]["outcomes"]} >= {"A 1 Yug-Tar", "SD Tar 1 Dis", "H Tar"}
    assert "nobody has a unit in" in order("move", "pie", "tar", status=400)["error"]
    assert "count" in order("move", "yug", "tar", 0, status=400)["error"]
    board = {"variant": "standard", "units": {"France": ["A Par"]}}
    bad = post(client, "/api/order", {"state": board, "action": "move", "origin": "par", "target": "bur"}, 400)
    assert "not drawn by clicking here" in bad["error"]


def test_supremacy_drill_units_and_assault_by_clicking(client: TestClient) -> None:
    """Supremacy (seed 002): a battle drill's armies and navies placed and removed a click at a
    time, the assault drawn from forces to target; other kinds of case are refused by name."""
    vs = {v["name"]: v for v in client.get("/api/variants").json()}
    assert vs["supremacy"]["unit_kinds"] == ["army", "navy"] and "USA" in vs["supremacy"]["clicks"]["players"]
    state = client.get("/api/opening", params={"variant": "supremacy"}).json()
    assert state["data"]["kind"] == "drill" and state["data"]["drill"]["forces"] == []

    def click(power: str, place: str, kind: str | None, delta: int, status: int = 200) -> Any:
        return post(client, "/api/units", {"state": state, "power": power, "place": place, "kind": kind, "delta": delta},
                    status)

    for power, place, kind in (("USA", "us_west", "army"), ("usa", "American West", "army"), ("CSA", "mexico", None),
                               ("USA", "caribbean", None), ("USA", "caribbean", "navy")):
        state = click(power, place, kind, 1)
    usa = state["data"]["state"]["powers"]["USA"]
    assert usa["armies"] == {"us_west": 2} and usa["navies"] == [{"sea": "caribbean"}, {"sea": "caribbean"}]
    assert "a navy stands at sea" in click("USA", "mexico", "navy", 1, 400)["error"]
    assert "is a sea" in click("USA", "caribbean", "army", 1, 400)["error"]
    state = click("USA", "caribbean", None, -1)
    assert state["data"]["state"]["powers"]["USA"]["navies"] == [{"sea": "caribbean"}]
    assert "has no army in" in click("CSA", "us_west", "army", -1, 400)["error"]

    def order(origin: str, target: str, count: int | None = None, status: int = 200) -> Any:
        return post(client, "/api/order", {"state": state, "action": "move", "origin": origin, "target": target,
                                           "count": count}, status)

    state = order("us_west", "mexico", 1)
    assert state["data"]["drill"] == {"attacker": "USA", "target": "mexico", "forces": ["1 army us_west"]}
    state = order("caribbean", "mexico")  # forces of another zone join the assault
    assert state["data"]["drill"]["forces"] == ["1 army us_west", "1 navy caribbean"]
    state = order("caribbean", "caribbean")  # the forces' own zone: taken out
    state = order("us_west", "mexico")  # all of them: the zone's force written anew
    assert state["data"]["drill"]["forces"] == ["2 army us_west"]
    res = post(client, "/api/adjudicate", {"state": state})
    assert "error" not in res and res["result"]["details"]["defender"] == "CSA", res
    assert res["result"]["details"]["attacker_dice"] == 2  # 1, and 1 for the most forces (2 to 1)
    assert "no forces in" in order("brazil", "mexico", status=400)["error"]
    stage = {"variant": "supremacy", "data": {"kind": "wealth", "state": {"powers": {}}}}
    bad = post(client, "/api/units", {"state": stage, "power": "USA", "place": "us_west", "kind": "army", "delta": 1}, 400)
    assert "battle drill" in bad["error"] and "'wealth'" in bad["error"]


def test_request_limits_apply_to_every_call(client: TestClient) -> None:
    big = {"state": {"variant": "standard", "units": {"France": ["A Par"] * 201}}}
    res = post(client, "/api/adjudicate", big)
    assert "the limit is 200" in res["error"]
    r = client.post("/api/readings", json=big)
    assert r.status_code == 400 and "the limit is 200" in r.json()["error"]
    huge = client.post("/api/adjudicate", content=b'{"state": "' + b"x" * (1 << 20) + b'"}',
                       headers={"content-type": "application/json"})
    assert huge.status_code == 413 and "limit" in huge.json()["error"]
    deep = client.post("/api/adjudicate", content=b"[" * 100 + b"]" * 100, headers={"content-type": "application/json"})
    assert deep.status_code == 413 and "nested" in deep.json()["error"]
    assert client.post("/api/adjudicate", json={"state": []}).status_code == 400


def test_requests_must_be_json_and_addressed_to_this_machine(client: TestClient) -> None:
    r = client.post("/api/adjudicate", content=b'{"state": {}}', headers={"content-type": "text/plain"})
    assert r.status_code == 400 and "Content-Type: application/json" in r.json()["error"]
    assert client.get("/api/variants", headers={"host": "evil.example"}).status_code == 400


def test_the_time_limit_applies_to_every_call() -> None:
    runner = Runner(Limits(turn_time_limit=0.001))
    try:
        with TestClient(make_app(runner, Library(bundled=False)), base_url=BASE) as c:
            r = c.post("/api/readings", json={"state": {"variant": "standard", "units": {"France": ["A Par"]}}})
            assert r.status_code == 504 and "time limit of 0.001 s" in r.json()["error"], r.text
            r = c.post("/api/adjudicate", json={"state": {"variant": "standard", "units": {"France": ["A Par"]}}})
            assert r.status_code == 504 and "time limit" in r.json()["error"], r.text
    finally:
        runner.close()


def test_a_stuck_worker_is_stopped_and_the_next_call_answers() -> None:
    """A call stuck where the time limit's alarm cannot reach it (the worker blocks the alarm and
    sleeps, as one stuck inside native code would) is answered with a time-out error once its
    limit and the grace have passed; its worker is killed and replaced, and the next call is
    answered as usual."""
    import time

    from serve_helpers import stall_marked_calls

    runner = Runner(Limits(turn_time_limit=3.0), grace=1.0, setup=stall_marked_calls)  # 3 s: room under load
    state = {"variant": "standard", "units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}}
    try:
        with TestClient(make_app(runner, Library(bundled=False)), base_url=BASE) as c:
            r = c.post("/api/adjudicate", json={"state": state})
            assert r.status_code == 200 and r.json()["result"] is not None, r.text
            pids = {p.pid for p in runner._pool._pool}  # type: ignore[union-attr]
            t0 = time.monotonic()
            r = c.post("/api/adjudicate", json={"state": state | {"meta": {"stall": True}}})
            took = time.monotonic() - t0
            assert r.status_code == 504, r.text
            message = r.json()["error"]
            assert "time limit of 3 s" in message and "worker process was stopped" in message, message
            assert 3.5 < took < 40, took  # stopped after the limit and the grace, not left to sleep its 120 s
            r = c.post("/api/adjudicate", json={"state": state})
            assert r.status_code == 200, r.text
            assert outcome(r.json(), "A Par - Bur")["result"] == "moved"
            assert not pids & {p.pid for p in runner._pool._pool}  # type: ignore[union-attr]  # a new worker
    finally:
        runner.close()


def test_ci_installs_the_browser_and_the_browser_test_fails_there_without_one() -> None:
    """.ci/run sets CI and installs Chromium; under CI, without a browser, the sandbox's browser
    test fails (it does not skip); elsewhere it skips and says why."""
    import os
    import subprocess

    ci = (ROOT / ".ci/run").read_text(encoding="utf-8")
    assert 'export CI="${CI:-true}"' in ci and "apt-get install -y -qq chromium" in ci
    env = {k: v for k, v in os.environ.items() if k != "CI"} | {"PATH": str(Path(sys.executable).parent)}  # no chromium
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_serve_browser.py", "-k", "opening"]
    under_ci = subprocess.run(cmd, env=env | {"CI": "true"}, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert under_ci.returncode != 0 and "CI must run the sandbox's browser test" in under_ci.stdout, under_ci.stdout
    elsewhere = subprocess.run(cmd + ["-rs"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert elsewhere.returncode == 0 and "no headless Chromium installed" in elsewhere.stdout, elsewhere.stdout


def test_serve_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from dipsat.face.cli import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn fails, as without the extra
    assert main(["serve"]) == 2
    assert "pip install 'dipsat[serve]'" in capsys.readouterr().err


def test_serve_refuses_a_missing_file_and_a_port_in_use(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    from dipsat.face.cli import main

    assert main(["serve", "no/such/file.toml"]) == 2
    assert "no/such/file.toml: no such file or folder" in capsys.readouterr().err
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert "cannot listen on 127.0.0.1" in capsys.readouterr().err
