import json

from dipsat.face.cli import main

from conftest import ROOT


def test_adjudicate_example_prints_outcomes(capsys):
    assert main(["adjudicate", str(ROOT / "examples" / "spring1901.toml")]) == 0
    out = capsys.readouterr().out
    assert "A Mun - Bur" in out and "bounced by A Par - Bur: prevent 2 (A Par + support A Mar)" in out
    assert "Position after:" in out and "France: A Bur, F Mao, A Mar" in out


def test_adjudicate_json(capsys):
    assert main(["adjudicate", "--json", str(ROOT / "examples" / "spring1901.toml")]) == 0
    data = json.loads(capsys.readouterr().out)
    res = {o["order"]: o for o in data["outcomes"]}
    assert res["F Sev - Bla"]["result"] == "bounced"
    assert data["contested"] == ["bla"]


def test_batch_keeps_going_after_bad_lines(tmp_path, capsys):
    good = {"units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}}
    lines = [json.dumps(good), "{not json", json.dumps({"units": {"France": ["A Atlantis"]}}),
             json.dumps({**good, "id": "last"})]
    inp = tmp_path / "in.jsonl"
    inp.write_text("\n".join(lines) + "\n")
    outp = tmp_path / "out.jsonl"
    assert main(["batch", str(inp), "-o", str(outp)]) == 1
    res = [json.loads(x) for x in outp.read_text().splitlines()]
    assert [r["ok"] for r in res] == [True, False, False, True]
    assert [r["line"] for r in res] == [1, 2, 3, 4]
    assert res[3]["id"] == "last" and res[3]["units_after"] == {"France": ["A Bur"]}
    assert "Atlantis" in res[2]["error"]["message"]


def test_corpus_exit_code_on_failure(tmp_path, capsys):
    case = tmp_path / "wrong.toml"
    case.write_text('id = "x"\n[units]\nFrance = ["A Par"]\n[orders]\nFrance = ["A Par - Bur"]\n'
                    '[[expect]]\nrules = ["datc"]\norders = { "A Par - Bur" = "fails" }\ndislodged = []\n')
    assert main(["corpus", str(case)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "expected fails, got moved" in out and "0 passed, 1 failed" in out


def test_broken_case_file_is_reported(tmp_path, capsys):
    (tmp_path / "broken.toml").write_text("id = \n")
    assert main(["corpus", str(tmp_path)]) == 1
    assert "not valid TOML" in capsys.readouterr().out


def test_missing_file_error(capsys):
    assert main(["adjudicate", "/nonexistent/x.toml"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_published_corpus_schema_is_current(capsys):
    assert main(["schema", "corpus"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads((ROOT / "tests" / "corpus.schema.json").read_text())


def test_rules_lists_presets_and_variant_rules(capsys):
    assert main(["rules", "multinational"]) == 0
    out = capsys.readouterr().out
    assert "name = multinational" in out and "multi_route_disruption = any_route" in out


def test_the_program_collects_rarely_and_freezes_what_is_left_at_its_end(tmp_path):
    """The console script (``run``) is ``main`` in a process that ends with it: the collector's
    first generation is 50,000 objects and what is left at the end is frozen (the exit does not
    walk it); the answer and the exit status are main's, and a file written is whole."""
    import subprocess
    import sys
    import tomllib

    script = ("import gc, sys\nfrom dipsat.face.cli import run\ncode = run()\n"
              "print('#', gc.get_threshold(), gc.get_freeze_count() > 10_000, code)\n")
    spring = str(ROOT / "examples" / "spring1901.toml")
    done = subprocess.run([sys.executable, "-c", script, "adjudicate", spring], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.endswith("# (50000, 10, 10) True 0\n") and "France: A Bur, F Mao, A Mar" in done.stdout
    bad = subprocess.run([sys.executable, "-c", script, "adjudicate", str(tmp_path / "none.toml")], capture_output=True,
                         text=True, cwd=ROOT)
    assert bad.stdout.endswith("True 2\n") and "cannot read" in bad.stderr
    out = tmp_path / "play.json"
    saved = subprocess.run([sys.executable, "-c", script, "play", str(ROOT / "examples" / "game.toml"), "--save", str(out)],
                           capture_output=True, text=True, cwd=ROOT)
    assert saved.stdout.endswith("True 0\n"), saved.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["phases"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts["dipsat"] == "dipsat.face.cli:run"


def test_adjudicate_in_words_imports_and_builds_only_what_the_turn_needs():
    """The cold start of ``dipsat adjudicate`` of a movement turn: no other command's parser, no
    retreat or adjustment phase, no OR-Tools or networkx, no typed PhaseResult (the words come
    from the pipeline's result), no saved-game model and no TOML parse of the bundled map."""
    import subprocess
    import sys

    script = ("import sys, tomllib\nfrom dipsat.face.cli import main\n"
              "parsed = []\nloads = tomllib.loads\ntomllib.loads = lambda text, **k: parsed.append(text[:40]) or loads(text, **k)\n"
              "code = main(['adjudicate', sys.argv[1]])\n"
              "from dipsat.game.protocol import PhaseResult, PhaseOutcome\nfrom dipsat.game.request import SavedGame\n"
              "print('#', code, PhaseResult.__pydantic_complete__, PhaseOutcome.__pydantic_complete__, "
              "SavedGame.__pydantic_complete__, len(parsed), sorted(m for m in sys.modules if m.startswith(("
              "'dipsat.face.serve', 'dipsat.board.retreats', 'dipsat.board.adjustments', 'ortools', 'networkx', "
              "'dipsat.engine.cpsat', 'dipsat.face.render', 'dipsat.research'))))\n")
    done = subprocess.run([sys.executable, "-c", script, str(ROOT / "examples" / "spring1901.toml")], capture_output=True,
                          text=True, cwd=ROOT)
    assert "France: A Bur, F Mao, A Mar" in done.stdout, done.stderr
    assert done.stdout.splitlines()[-1] == "# 0 False False False 1 []"  # one TOML parsed: the turn's file


def test_batch_parent_process_never_imports_pydantic(tmp_path):
    """``dipsat batch -j 2`` reads lines and writes results in the parent; the requests are
    validated and adjudicated in the workers (the forkserver preloads what they need), so the
    parent's start does without pydantic, about a fifth of a pool's start-up in instructions.
    (``-j 1`` answers in the one process, which imports what a line needs.)"""
    import subprocess
    import sys

    turns = tmp_path / "turns.jsonl"
    turns.write_text('{"id": 1, "variant": "standard", "units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}}\n'
                     "not json\n", encoding="utf-8")
    script = ("import sys\nfrom dipsat.face.cli import main\n"
              "code = main(['batch', sys.argv[1], '-o', sys.argv[2], '-q', '-j', '2'])\n"
              "print('#', code, sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'))\n")
    out = tmp_path / "out.jsonl"
    proc = subprocess.run([sys.executable, "-c", script, str(turns), str(out)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    last = [line for line in proc.stdout.splitlines() if line.startswith("#")][-1]
    assert last == "# 1 []", (last, proc.stderr[-2000:])
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["ok"] for line in lines] == [True, False]
    assert lines[0]["units_after"] == {"France": ["A Bur"]}
    assert lines[1]["error"]["kind"] == "invalid_json"
