"""Supremacy's answers to the core's commands (:class:`dipsat.family.Family`, the one seam of a
variant of another game family): ``adjudicate`` runs a file's data (a stage, a drill, a set-up,
...), ``why`` names a minimal conflicting set of a stage's actions, ``compare`` runs cases under
every value of each blank-rule option, ``play`` plays a game file, ``corpus`` checks a case's
facts, ``rules`` lists the options; ``odds`` and ``wealth`` are subcommands of its own."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from dipsat.errors import DipsatError
from dipsat.family import Family, VariantCommand
from dipsat.files import file_access

if TYPE_CHECKING:
    from dipsat.corpus import CaseRun, CorpusCase, Expectation


def _data(doc: Any) -> dict[str, Any]:
    d = doc.get("data", doc) if isinstance(doc, dict) else doc
    if not isinstance(d, dict):
        raise DipsatError("expected a [data] table")
    return d


def _file_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("file")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a Supremacy rule option")


def _lazy(name: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        from . import commands

        fn: Callable[[argparse.Namespace], int] = getattr(commands, name)
        return fn(args)

    return run


class SupremacyFamily(Family):
    variant = "supremacy"

    def commands(self) -> Sequence[VariantCommand]:
        # Collected when dipsat starts a command that is not the core's: the arguments are
        # declared here, the command module (state models, OR-Tools) is imported when one runs.
        return (
            VariantCommand("odds", "Supremacy: the exact outcome distribution of a battle drill", _file_args, _lazy("cmd_odds")),
            VariantCommand("wealth", "Supremacy: the wealth table of a state", _file_args, _lazy("cmd_wealth")),
        )

    def adjudicate(self, data: Any, where: str, rules: Optional[str] = None, options: tuple[str, ...] = ()) -> Any:
        """Run a file's data (a stage, a drill, a set-up, ...): the result as plain data."""
        from .cases import file_options, run_data
        from .options import make_options

        doc = data if isinstance(data, dict) else {}
        return run_data(_data(doc), make_options(file_options(doc, list(options) or None)))

    def format_result(self, result: Any, as_json: bool = False) -> str:
        return json.dumps(result, indent=2, default=str)

    def reading_base(self, data: Any, where: str, rules: Optional[str], options: tuple[str, ...]) -> Any:
        from .cases import file_options
        from .options import make_options

        doc = data if isinstance(data, dict) else {}
        return make_options(file_options(doc, list(options) or None))

    def reading_run(self, data: Any, where: str, opts: Any) -> dict[str, Any]:
        from .cases import run_data

        return run_data(_data(data if isinstance(data, dict) else {}), opts)

    def result_json(self, result: Any) -> dict[str, Any]:
        return dict(result) if isinstance(result, dict) else {"result": result}

    def why(self, data: Any, where: str, order: Optional[str], rules: Optional[str], options: tuple[str, ...]) -> str:
        """Why a stage's actions cannot all be carried out: a minimal conflicting set."""
        from .cases import file_options
        from .options import make_options
        from .stage import check_stage
        from .state import parse_state

        doc = data if isinstance(data, dict) else {}
        d = _data(doc)
        opts = make_options(file_options(doc, list(options) or None))
        state = parse_state(d.get("state", {}))
        power, stage = str(d.get("power", "")), int(d.get("stage", 0))
        chk = check_stage(state, power, stage, list(d.get("actions", [])), opts)
        if chk.feasible:
            return f"{power}, Stage {stage}: all {len(chk.actions)} actions can be carried out, in the order written."
        lines = [f"{power}, Stage {stage}: the actions cannot all be carried out.",
                 "A minimal conflicting set (every proper subset can be carried out):"]
        lines += [f"  - {a.text}" for a in chk.conflict]
        lines.append("It hinges on these resources:")
        lines += [f"  - {x}" for x in chk.detail]
        rest = [a.text for a in chk.actions if a not in chk.conflict]
        if rest:
            lines.append("Not involved: " + "; ".join(rest))
        return "\n".join(lines)

    def compare(self, files: list[Path], presets: list[str]) -> tuple[str, int]:
        """Every case under every value of each blank-rule option: the (case, option) pairs whose
        outcome differs."""
        from .cases import blank_options, file_options, load_data_file, outcome_summary

        opts = blank_options()
        n_diff = 0
        lines: list[str] = []
        for f in files:
            with file_access(origin=f):  # paths inside the case resolve against it
                doc = load_data_file(str(f))
                if str(doc.get("variant", "")).lower() != "supremacy":
                    continue
                d = _data(doc)
                base = file_options(doc)
                for name, values in opts:
                    if name in base:
                        continue
                    seen = {v: outcome_summary(d, {**base, name: v}) for v in values}
                    if len(set(seen.values())) > 1:
                        n_diff += 1
                        lines.append(f"{doc.get('id', f.stem)}: {name}")
                        for v, s in seen.items():
                            lines.append(f"    {v}: {s[:150]}")
        head = (f"{len(files)} cases, each under every value of {len(opts)} Supremacy rule options: "
                f"{n_diff} (case, option) pairs differ")
        return "\n".join([head, *lines]), 0

    def play(self, data: Any, where: str, check: bool = True, save: Optional[str] = None, as_json: bool = False,
             quiet: bool = False) -> str:
        from .cases import state_facts
        from .game import format_game, play_file, result_facts

        if save:
            raise DipsatError("play --save: a Supremacy game file is its own record; there is nothing to save")
        g = play_file(where)
        if as_json:
            return json.dumps({"setup": state_facts(g.setup), "turns": [
                {"turn": t.number, "stages": [{"stage": s.stage, "order": s.order, "log": s.lines} for s in t.stages],
                 "state": state_facts(t.state) if t.state else None} for t in g.turns],
                "state": state_facts(g.state), "result": result_facts(g.result)}, indent=2)
        return format_game(g, quiet=quiet)

    def run_case(self, case: "CorpusCase", rules: str, exp: "Expectation", path: str) -> "CaseRun":
        from dipsat.corpus import CaseRun

        from .cases import check_facts

        label = rules + ("+" + ",".join(f"{k}={v}" for k, v in sorted(exp.options.items())) if exp.options else "")
        problems = check_facts(dict(case.data), dict(exp.options), dict(exp.facts))
        return CaseRun(case.id, label, path, passed=not problems, problems=problems, case=case, expectation=exp)

    def describe_rules(self, preset: Optional[str] = None) -> str:
        from .options import describe_options

        return describe_options()

    def summary(self) -> str:
        return "the Supremacy house rules' own options (seed 002); see 'dipsat rules supremacy'"
