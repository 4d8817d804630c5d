"""The ``dipsat`` program loads no pydantic plugin unless ``PYDANTIC_DISABLE_PLUGINS`` is set (and
then does as pydantic does); it does not import ``importlib.metadata`` to look for them; a library
user's process (``import dipsat``) keeps pydantic's own behaviour.  A plugin is installed for the
test (a distribution's metadata with a ``pydantic`` entry point, on ``PYTHONPATH``) that says on
standard error when it is loaded and when it sees a validation."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

from conftest import ROOT

PLUGIN = '''import sys
print("plugin loaded", file=sys.stderr)


class _Plugin:
    def new_schema_validator(self, schema, schema_type, schema_type_path, schema_kind, config, settings):
        print("plugin sees", schema_type_path.name, file=sys.stderr)
        return None, None, None


plugin = _Plugin()
'''


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("plugin")
    (where / "dipsat_test_plugin.py").write_text(PLUGIN)
    info = where / "dipsat_test_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dipsat-test-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pydantic]\nwatch = dipsat_test_plugin:plugin\n")
    return where


def _run(args: list[str], plugin_path: Path, switch: Optional[str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    env["PYTHONPATH"] = os.pathsep.join([str(plugin_path), str(ROOT)])
    if switch is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = switch
    return subprocess.run([sys.executable, "-X", "importtime", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True)


def _said(run: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in run.stderr.splitlines() if line.startswith("plugin ")]


ADJUDICATE = ["-m", "dipsat.face.cli", "adjudicate", "examples/spring1901.toml"]


def test_the_program_loads_no_plugin_and_imports_no_metadata_reader(plugin_path: Path) -> None:
    plain = _run(ADJUDICATE, plugin_path, None)
    assert plain.returncode == 0 and "A Mun - Bur" in plain.stdout
    assert _said(plain) == []
    assert "importlib.metadata" not in plain.stderr and "pydantic.plugin._loader" in plain.stderr
    # the environment's word goes: empty (every plugin), or naming other plugins than this one
    for switch in ("", "another"):
        run = _run(ADJUDICATE, plugin_path, switch)
        assert run.returncode == 0 and run.stdout == plain.stdout
        assert _said(run)[0] == "plugin loaded" and "plugin sees TurnRequest" in _said(run)
    for switch in ("__all__", "true", "watch"):
        run = _run(ADJUDICATE, plugin_path, switch)
        assert run.returncode == 0 and run.stdout == plain.stdout and _said(run) == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_batch_loads_no_plugin_either(plugin_path: Path, tmp_path: Path, jobs: str) -> None:
    """Nor does any process of a batch (``-j 2``: the forkserver and the workers inherit the
    switch, and ``import dipsat`` defers the import there; ``-X importtime`` reports them all)."""
    inp = tmp_path / "in.jsonl"
    inp.write_text('{"units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}}\n' * 3)
    run = _run(["-m", "dipsat.face.cli", "batch", "-j", jobs, str(inp)], plugin_path, None)
    assert run.returncode == 0 and run.stdout.startswith('{"line":1,"ok":true,') and len(run.stdout.splitlines()) == 3
    assert "dipsat.board.movement" in run.stderr
    assert _said(run) == [] and "importlib.metadata" not in run.stderr


def test_a_library_user_keeps_pydantics_behaviour(plugin_path: Path) -> None:
    code = ("from dipsat import adjudicate, load_request\n"
            "print(len(adjudicate(load_request('examples/spring1901.toml')).outcomes))\n")
    run = _run(["-c", code], plugin_path, None)
    assert run.returncode == 0 and run.stdout.strip() == "22"
    assert _said(run)[0] == "plugin loaded" and "importlib.metadata" in run.stderr
    # a user's process whose environment switches plugins off: nothing looks for them
    run = _run(["-c", code], plugin_path, "__all__")
    assert run.returncode == 0 and run.stdout.strip() == "22"
    assert _said(run) == [] and "importlib.metadata" not in run.stderr
