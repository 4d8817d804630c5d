"""Explanations in batch output: outcomes and culprits always; reasons and strength terms only
when asked for (``--explain``, or ``"explain": true`` on a line)."""

import io
import json

from dipsat.io.batch import BatchSettings, Line, adjudicate_line
from dipsat.io.batch_pool import run_pool
from dipsat.face.cli import main
from dipsat.io.schemas import BatchLineJSON

TURN = {"units": {"France": ["A Par", "A Mar"], "Germany": ["A Mun"]},
        "orders": {"France": ["A Par - Bur", "A Mar S A Par - Bur"], "Germany": ["A Mun - Bur"]}}


def outcome(line: dict, order: str) -> dict:
    return next(o for o in line["outcomes"] if o["order"] == order)


def test_a_line_is_not_explained_by_default():
    out = adjudicate_line(json.dumps(TURN), 1)
    o = outcome(out, "A Mun - Bur")
    assert o["result"] == "bounced" and o["by"] == ["A Par - Bur"] and o["culprits"][0]["power"] == "France"
    assert "reason" not in o and "strengths" not in o and "details" not in o
    BatchLineJSON.model_validate(out)


def test_explain_on_a_line_or_for_the_run():
    asked = adjudicate_line(json.dumps({**TURN, "explain": True}), 1)
    flag = adjudicate_line(json.dumps(TURN), 1, explain=True)
    assert asked == flag
    o = outcome(asked, "A Mun - Bur")
    assert o["reason"] == "fails — attack 1 (A Mun) bounced by A Par - Bur: prevent 2 (A Par + support A Mar)"
    assert [s["name"] for s in o["strengths"]] == ["attack", "prevent"]
    assert o["details"]["obstacles"][0]["by"]["order"] == "A Par - Bur"
    # a line may also decline what the run asks for
    assert "reason" not in outcome(adjudicate_line(json.dumps({**TURN, "explain": False}), 1, explain=True), "A Mun - Bur")
    BatchLineJSON.model_validate(asked)
    lean = adjudicate_line(json.dumps(TURN), 1)
    for o in asked["outcomes"]:
        del o["reason"], o["strengths"], o["details"]
    assert asked == lean


def test_a_bad_explain_field_is_the_lines_own_error():
    out = adjudicate_line(json.dumps({**TURN, "explain": "yes", "id": 4}), 3)
    assert out == {"line": 3, "ok": False, "id": 4, "error": {
        "kind": "invalid_request", "message": 'line 3: field explain: expected true or false, got "yes"'}}


def test_batch_explain_flag(tmp_path, capsys):
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps(TURN) + "\n" + json.dumps({**TURN, "explain": True}) + "\n")
    assert main(["batch", str(inp), "-q", "-j", "1"]) == 0
    first, second = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert "reason" not in first["outcomes"][0] and "reason" in second["outcomes"][0]
    assert main(["batch", str(inp), "-q", "-j", "1", "--explain"]) == 0
    assert all("reason" in json.loads(x)["outcomes"][0] for x in capsys.readouterr().out.splitlines())


def test_the_pool_passes_the_setting_to_its_workers():
    out = io.StringIO()
    run_pool([Line(1, json.dumps(TURN).encode())], out, BatchSettings(explain=True), jobs=1)
    assert "reason" in json.loads(out.getvalue())["outcomes"][0]
