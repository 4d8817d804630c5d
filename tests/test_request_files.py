"""Files named inside requests (issue 26): a continents ``map`` and a Supremacy ``board`` resolve
against the file that names them, never the current directory; a batch line names only bundled
files or files in the folders given with ``--allow-files``; only regular files within the size
limit are read; an error never says whether a file outside those folders exists.

The audit test drives every string field of the requests of every family (turn requests of the
three board families and a retreat, corpus cases, saved games, continents rounds and games,
Supremacy cases of every kind and games), and a ``map`` and a
``board`` field put into every table, with hostile paths -- as a request file and as a batch
line -- under an audit hook on ``open``, and checks every file opened lies where allowed."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tomllib
from pathlib import Path

import pytest

from dipsat.io.batch import BatchSettings, answer_line
from dipsat.face.cli import main
from dipsat.errors import NamedFileError
from dipsat.io.files import file_access, read_named

from conftest import ROOT

WORLD = ROOT / "variants" / "supremacy" / "world.toml"
SIX = ROOT / "maps" / "continents_six.toml"

# (sample file, the command that reads it as a file)
SAMPLES = [
    ("examples/spring1901.toml", "adjudicate"),
    ("tests/corpora/datc/6.A.01.toml", "adjudicate"),
    ("examples/multiplicity.toml", "adjudicate"),
    ("examples/game.toml", "play"),
    ("tests/corpora/continents/rule_36_victory_tie.toml", "adjudicate"),
    ("tests/corpora/continents/seed_01_four_way_battle.toml", "adjudicate"),
    ("examples/continents_game.toml", "play"),
    ("tests/corpora/supremacy/assault_basic.toml", "adjudicate"),
    ("tests/corpora/supremacy/move_board_port.toml", "adjudicate"),
    ("examples/supremacy_game.toml", "play"),
    # the other two board families, a retreat phase, and every other kind of Supremacy case, each
    # through a command that reads it
    ("examples/multiplomacy.toml", "adjudicate"),
    ("tests/corpora/multinational/mn_a.toml", "adjudicate"),
    ("examples/multinational_game.toml", "play"),
    ("examples/retreat.toml", "adjudicate"),
    ("tests/corpora/supremacy/readings_navy_start_ports_home.toml", "adjudicate"),  # setup
    ("tests/corpora/supremacy/bids_chits.toml", "adjudicate"),
    ("tests/corpora/supremacy/game_any_time.toml", "adjudicate"),
    ("tests/corpora/supremacy/loan_default.toml", "adjudicate"),  # stage 1
    ("tests/corpora/supremacy/blockade_production.toml", "render"),  # stage 2
    ("tests/corpora/supremacy/wealth_table.toml", "wealth"),
    ("tests/corpora/supremacy/assault_ties.toml", "odds"),
]


# -- the audit hook ---------------------------------------------------------------------------

OPENED: list[str] = []
RECORDING = [False]


def _hook(event: str, args: tuple) -> None:
    if RECORDING[0] and event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_hook)  # stays for the process (hooks cannot be removed): it records only when asked


def opened_during(run) -> list[Path]:
    OPENED.clear()
    RECORDING[0] = True
    try:
        run()
    finally:
        RECORDING[0] = False
    return [Path(os.path.realpath(p)) for p in OPENED]


def inside(p: Path, roots: list[Path]) -> bool:
    return any(p == r or r in p.parents for r in roots)


# the code and the bundled data, Python's own files and the installed packages, the system's
# time zone database (read by a library on first use)
CODE_ROOTS = [Path(os.path.realpath(p)) for p in {str(ROOT), sys.prefix, sys.base_prefix, sys.exec_prefix,
                                                  *(p for p in sys.path if p), "/usr/share/zoneinfo"}]


@pytest.fixture
def folders(tmp_path):
    """A request folder, a secret folder beside it (a file there, and a link to it from the
    request folder), and a folder the user allows."""
    req, secret, allowed = tmp_path / "req", tmp_path / "secret", tmp_path / "allowed"
    for d in (req, secret, allowed):
        d.mkdir()
    (secret / "secret.toml").write_text('password = "hunter2"\n')
    os.symlink(secret / "secret.toml", req / "link.toml")
    shutil.copy(SIX, allowed / "mine.toml")
    return req, secret, allowed


def hostile(secret: Path) -> list[str]:
    """Paths out of the request's folder (to the secret, by every road), devices, odd names; the
    first four go into every string field, all of them into the added map and board fields."""
    return [str(secret / "secret.toml"), "../secret/secret.toml", "link.toml", "/dev/zero",
            "sub/../../secret/secret.toml", "/etc/passwd", "/proc/self/environ", "..", "", "secret", "mine.toml",
            "~/x.toml", "a/" * 300 + "b.toml", "nul\x00.toml"]


def string_leaves(data, path=()):
    """Where ``data`` holds a string (the first item of each list only), and every table."""
    if isinstance(data, dict):
        yield path, None
        for k, v in data.items():
            yield from string_leaves(v, path + (k,))
    elif isinstance(data, list) and data:
        yield from string_leaves(data[0], path + (0,))
    elif isinstance(data, str):
        yield path, data


def mutations(data, values):
    """Copies of ``data`` with one string replaced by a hostile value (the first four), or a
    ``map`` and a ``board`` field added to one table (the first four; every value in the tables
    where requests name files: the top level, ``data``, ``state``, ``setup``); with whether it
    was added."""
    for path, leaf in string_leaves(data):
        where_files = leaf is None and (not path or path[-1] in ("data", "state", "setup"))
        for v in values if where_files else values[:4]:
            for key in ([None] if leaf is not None else ["map", "board"]):
                copy = json.loads(json.dumps(data))
                node = copy
                for k in path[:-1] if leaf is not None else path:
                    node = node[k]
                if leaf is not None:
                    node[path[-1]] = v
                else:
                    node[key] = v
                yield copy, leaf is None


def toml_value(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return json.dumps(v)  # strings, numbers, booleans: JSON's spelling is TOML's


def as_toml(data: dict) -> str:
    return "\n".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in data.items()) + "\n"


@pytest.mark.parametrize("sample,command", SAMPLES, ids=[Path(s).stem for s, _ in SAMPLES])
def test_every_string_field_with_hostile_paths_opens_only_allowed_files(folders, sample, command, capsys):
    req, secret, allowed = folders
    data = tomllib.loads((ROOT / sample).read_text())
    values = hostile(secret)
    n = 0
    for m, added in mutations(data, values):
        n += 1
        line = json.dumps(m).encode()
        # a batch line: bundled files only, or the allowed folder's
        for allow in ((), (str(allowed),)) if added else ((),):
            settings = BatchSettings(allow_files=allow)
            seen = opened_during(lambda: answer_line(line, 1, settings))
            bad = [p for p in seen if not inside(p, CODE_ROOTS + [Path(a) for a in allow])]
            assert not bad, (sample, m, bad)
        if not added and n % 4:
            continue  # a string field as a file: one hostile value in four (the batch line had them all)
        # a request file in req/: its own folder, and the allowed one
        f = req / f"case{Path(sample).suffix}"
        f.write_text(as_toml(m))
        seen = opened_during(lambda: main([command, str(f), "--allow-files", str(allowed)]))
        capsys.readouterr()
        bad = [p for p in seen if not inside(p, CODE_ROOTS + [req, allowed])]
        assert not bad, (sample, m, bad)
        assert not any(inside(p, [secret]) for p in seen)
    assert n > len(values)


def test_the_secret_is_never_read_and_its_existence_never_told(folders):
    req, secret, allowed = folders
    words = {}
    for name in (str(secret / "secret.toml"), str(secret / "missing.toml"), "../secret/secret.toml",
                 "../secret/missing.toml"):
        with file_access(origin=req / "case.toml", allowed=[allowed]):
            with pytest.raises(NamedFileError) as exc:
                read_named(name, "map", {})
        words[name] = str(exc.value).split("': ", 1)[1]  # what follows the name
        assert "hunter2" not in str(exc.value) and "password" not in str(exc.value)
    assert len(set(words.values())) == 1, words


def test_a_request_file_names_a_map_and_a_board_beside_it(tmp_path, capsys):
    shutil.copy(SIX, tmp_path / "six.toml")
    shutil.copy(WORLD, tmp_path / "world_copy.toml")
    case = tomllib.loads((ROOT / "tests/corpora/continents/rule_36_victory_tie.toml").read_text())
    case["data"]["map"] = "six.toml"
    (tmp_path / "round.toml").write_text(as_toml(case))
    sup = tomllib.loads((ROOT / "tests/corpora/supremacy/assault_basic.toml").read_text())
    sup["data"]["state"]["board"] = "world_copy.toml"
    (tmp_path / "drill.toml").write_text(as_toml(sup))
    elsewhere = tmp_path.parent
    cwd = os.getcwd()
    os.chdir(elsewhere)  # the current directory plays no part
    try:
        assert main(["adjudicate", str(tmp_path / "round.toml")]) == 0
        assert main(["adjudicate", str(tmp_path / "drill.toml")]) == 0
    finally:
        os.chdir(cwd)
    capsys.readouterr()


def test_a_batch_line_names_files_only_in_allowed_folders(tmp_path, capsys):
    shutil.copy(SIX, tmp_path / "six.toml")
    case = tomllib.loads((ROOT / "tests/corpora/continents/rule_36_victory_tie.toml").read_text())
    lines = []
    for name in ("continents_six", "six.toml", str(tmp_path / "six.toml"), "../six.toml", "/dev/zero"):
        case["data"]["map"] = name
        lines.append(json.dumps(case))
    inp = tmp_path / "in.jsonl"
    inp.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    cwd = os.getcwd()
    os.chdir(tmp_path)  # six.toml is in the current directory: still not named by a line
    try:
        assert main(["batch", str(inp), "-o", str(out), "-q", "-j", "1"]) == 1
        first = [json.loads(x) for x in out.read_text().splitlines()]
        assert main(["batch", str(inp), "-o", str(out), "-q", "-j", "1", "--allow-files", str(tmp_path)]) == 1
        second = [json.loads(x) for x in out.read_text().splitlines()]
    finally:
        os.chdir(cwd)
    assert [r["ok"] for r in first] == [True, False, False, False, False]
    assert all(r["error"]["kind"] == "NamedFileError" and "--allow-files" in r["error"]["message"] for r in first[1:])
    assert [r["ok"] for r in second] == [True, True, True, False, False]
    assert "outside the folders" in second[3]["error"]["message"]
    assert "outside the folders" in second[4]["error"]["message"]
    capsys.readouterr()


def test_only_regular_files_within_the_limit(tmp_path):
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)  # opening it to read would wait for a writer forever
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * 2000 + b"\n")
    (tmp_path / "dir.toml").mkdir()
    with file_access(allowed=[tmp_path, "/dev"], max_bytes=1000):
        for name, words in ((str(fifo), "not a regular file"), ("/dev/zero", "not a regular file"),
                            (str(tmp_path / "dir.toml"), "not a regular file"), (str(big), "more than the limit")):
            with pytest.raises(Exception) as exc:
                read_named(name, "map", {})
            assert words in str(exc.value), name


def test_bundled_names_are_names_not_paths():
    with pytest.raises(NamedFileError, match="no bundled map of that name"):
        read_named("standard", "map", {"continents_six": SIX})
    assert read_named("continents_six", "map", {"continents_six": SIX}).path == SIX
