"""The ``dipsat`` command line: the parser and :func:`main`; the commands are in
:mod:`dipsat.face.cli_phase` (those that adjudicate) and :mod:`dipsat.face.cli_research`.

    dipsat adjudicate FILE [--json] [--rules PRESET] [--option NAME=VALUE ...]
    dipsat batch IN.jsonl [-o OUT.jsonl]
    dipsat corpus PATH... [--rules PRESET ...]
    dipsat play GAME [--json] [--save OUT]
    dipsat play GAME --from mila [--json] [--rules PRESET] [--option NAME=VALUE ...]
    dipsat explore FILE
    dipsat compare PATH... --rules A --rules B
    dipsat compare PATH... --variant NAME
    dipsat why FILE --order "..."
    dipsat render FILE [-o OUT.svg] [--png]
    dipsat rules [PRESET]
    dipsat schema corpus|turn
    dipsat serve [FILE ...] [--host 127.0.0.1] [--port 8765]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from dipsat.face.cli_phase import limits_of, cmd_adjudicate, cmd_batch, cmd_corpus, cmd_orders, cmd_play, cmd_render
from dipsat.face.cli_research import (cmd_compare, cmd_coverage, cmd_explore, cmd_fingerprint, cmd_readings, cmd_rules,
                                      cmd_schema, cmd_why)
from dipsat.errors import DipsatError, OutputError
from dipsat.io.outputs import discard_stdout, guarded_stdout

if TYPE_CHECKING:
    pass


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dipsat")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown (not installed)"


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {text!r}")
    return n


def _positive_seconds(text: str) -> float:
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (t > 0 and math.isfinite(t)):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return t


def _limit_arguments(p: argparse.ArgumentParser, saved_game: bool = False) -> None:
    """The limit options; ``saved_game``: the file is a whole saved game (``play``), whose size
    is capped by ``--max-file-bytes`` and whose time and orders limits apply per phase."""
    from dipsat.limits import DEFAULT_LIMITS as d

    turn = "phase" if saved_game else "turn"
    g = p.add_argument_group("limits")
    g.add_argument("--time-limit", type=_positive_seconds, default=d.turn_time_limit, metavar="SECONDS",
                   help=f"wall-clock limit per {turn}: parsing, checking and solving (default {d.turn_time_limit:g})")
    if saved_game:
        g.add_argument("--max-file-bytes", type=_positive_int, default=d.max_file_bytes, metavar="N",
                       help=f"largest saved game in bytes (default {d.max_file_bytes:,})")
    else:
        g.add_argument("--max-request-bytes", type=_positive_int, default=d.max_request_bytes, metavar="N",
                       help=f"largest request (file, line or corpus case) in bytes (default {d.max_request_bytes:,})")
    g.add_argument("--max-orders", type=_positive_int, default=d.max_orders, metavar="N",
                   help=f"most units, orders and centres in one {'phase' if saved_game else 'request'} (default {d.max_orders:,})")
    g.add_argument("--max-depth", type=_positive_int, default=d.max_depth, metavar="N",
                   help=f"deepest nesting of arrays and tables (default {d.max_depth})")


def _folder(text: str) -> str:
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a folder")
    return text


def _file_arguments(p: argparse.ArgumentParser, batch: bool = False) -> None:
    """``--allow-files DIR``: where the files a request names (a variant's map or board) may be,
    besides the bundled ones (and, for a request file, its own folder)."""
    where = "a line may name" if batch else "a request may name besides those beside its file"
    p.add_argument("--allow-files", action="append", type=_folder, metavar="DIR",
                   help=f"a folder whose files (maps, boards) {where} (repeatable; default: only bundled names)")


class _VersionAction(argparse.Action):
    """``--version``: the installed version, looked up only when asked (importlib.metadata is
    slow to import, and every other command starts without it)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(option_strings, dest=dest, nargs=0, default=argparse.SUPPRESS,
                         help="show the program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: Optional[str] = None) -> None:
        print(f"dipsat {_version()}")
        parser.exit()


# the core's subcommands: a command line naming one of these needs no variant's own subcommands
CORE_COMMANDS = frozenset({"adjudicate", "batch", "corpus", "play", "explore", "compare", "readings", "fingerprint",
                           "coverage", "why", "render", "orders", "rules", "schema", "serve"})


def _names_core_command(argv: Optional[list[str]]) -> bool:
    """Does the command line name a core subcommand?  (Its first word that is not an option:
    the parser has no option before the subcommand that takes a value.)"""
    words = sys.argv[1:] if argv is None else argv
    first = next((w for w in words if not w.startswith("-")), None)
    return first in CORE_COMMANDS


_FILE_HELP = "a turn: the position and its orders, or a corpus case (TOML or JSON; '-': standard input)"
_PATHS_HELP = "corpus case files, or folders of them (searched recursively for .toml and .json)"
_OPTION_HELP = "set one rule option for this run, e.g. convoy_paradox_rule=1982 (repeatable; dipsat rules lists them)"

# one or two examples per command, shown under its --help
EXAMPLES = {
    "adjudicate": """dipsat adjudicate examples/spring1901.toml
  dipsat adjudicate examples/pandin.toml --rules 1982
  dipsat adjudicate turn.json --json --option convoy_paradox_rule=all_hold
  cat turn.toml | dipsat adjudicate -""",
    "batch": """dipsat batch turns.jsonl -o results.jsonl
  dipsat batch turns.jsonl -o results.jsonl --resume      (after an interruption)
  generate-turns | dipsat batch - -j 2 --explain""",
    "corpus": """dipsat corpus tests/corpora/datc
  dipsat corpus tests/corpora/datc --rules 1982 -q
  dipsat corpus tests/corpora --report report.html""",
    "play": """dipsat play examples/game.toml
  dipsat play examples/game.toml --save checked.json
  dipsat play examples/mila_game.json --from mila""",
    "explore": """dipsat explore tests/corpora/datc/6.F.14.toml
  dipsat explore examples/pandin.toml --option convoy_path=allowed""",
    "compare": """dipsat compare tests/corpora/datc --rules datc --rules 1982
  dipsat compare --variant VARIANT PATH...     (each value of a variant's own options)""",
    "readings": """dipsat readings tests/corpora/datc/6.F.16.toml
  dipsat readings tests/corpora/datc/6.F.16.toml --option convoy_path=ignored --json""",
    "fingerprint": """dipsat fingerprint examples/mila_game.json
  dipsat fingerprint tests/corpora/datc/6.F.14.toml tests/corpora/datc/6.F.24.toml --json
  dipsat fingerprint observed.jsonl --variant standard     (batch lines with an 'expect' object)
  dipsat fingerprint turns.jsonl --peer mila     (MILA's readings: the peer adjudicates the turns)""",
    "coverage": """dipsat coverage tests/corpora/datc -q
  dipsat coverage tests/corpora/datc tests/corpora/readings --json""",
    "why": """dipsat why tests/corpora/datc/6.F.14.toml --order "F Wales - English Channel"
  dipsat why examples/pandin.toml --order "A Bre - Lon" --rules 1982""",
    "render": """dipsat render examples/pandin.toml -o pandin.svg
  dipsat render tests/corpora/datc/6.F.21.toml --crop -o 6.F.21.png
  dipsat render examples/game.toml --phase F1901M -o f1901.svg""",
    "orders": """dipsat orders examples/spring1901.toml
  dipsat orders examples/pandin.toml --json""",
    "rules": """dipsat rules
  dipsat rules 1982
  dipsat rules VARIANT     (a variant's own options and fixed readings)""",
    "serve": """dipsat serve      (then open the address it prints: http://127.0.0.1:8765/)
  dipsat serve mycases/ --port 9000     (your own case files too, loadable by name)
  dipsat serve --time-limit 5 --max-orders 500""",
    "schema": """dipsat schema turn > turn.schema.json
  dipsat schema result
  dipsat schema readings""",
}


def _command(sub: Any, name: str, text: str, examples: Optional[str] = None) -> argparse.ArgumentParser:
    """A subcommand whose --help starts with what it does and ends with examples."""
    examples = examples or EXAMPLES.get(name)
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=text, description=text[:1].upper() + text[1:] + ".",
        epilog=f"examples:\n  {examples}" if examples else None,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    return parser


def _adjudicate_command(sub: Any) -> None:
    a = _command(sub, "adjudicate", "adjudicate one turn (movement, retreat or adjustment) from a position-plus-orders file")
    a.add_argument("file", help=_FILE_HELP)
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.add_argument("--all-cpsat", action="store_true",
                   help="solve every part of the turn with CP-SAT (default: only cycles too large to count by trying a few decisions' values; the rest is evaluated directly, same result)")
    a.add_argument("--variant", help="variant (overrides the file's; e.g. standard; see dipsat rules)")
    a.add_argument("--rules", help="rules preset (datc, 1971, 1982, 2000, dptg); default: the file's, else the variant's")
    a.add_argument("--option", action="append", metavar="NAME=VALUE", help=_OPTION_HELP)
    _limit_arguments(a)
    _file_arguments(a)
    a.set_defaults(func=cmd_adjudicate)


def _batch_command(sub: Any) -> None:
    b = _command(sub, "batch", "adjudicate one JSON turn request per line; one JSON result per line, same order")
    b.add_argument("input", help="the requests, one JSON object per line ('-': standard input)")
    b.add_argument("-o", "--output", help="write results here instead of standard output ('-': standard output)")
    b.add_argument("--variant", help="variant for lines that do not name one (default standard)")
    b.add_argument("-j", "--jobs", type=_positive_int, metavar="N",
                   help="worker processes (default: all cores; 1: answer in this process, no worker to restart "
                   "if a line crashes the interpreter; with --dask local: Dask workers, default 2)")
    b.add_argument("--dask", metavar="ADDRESS", help="run on a Dask cluster (scheduler address, or 'local' to start one); "
                   "needs the extra dipsat[dask]")
    b.add_argument("--resume", action="store_true", help="keep the results already in the output file and skip "
                   "as many input lines (results are in input order); append the rest")
    b.add_argument("--explain", action="store_true", help="reasons and strength terms in every result (default: "
                   "outcomes and culprits only, unless a line says \"explain\": true)")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no summary")
    _limit_arguments(b)
    _file_arguments(b, batch=True)
    b.set_defaults(func=cmd_batch)


def _corpus_command(sub: Any) -> None:
    c = _command(sub, "corpus", "run corpus case files or folders; print a pass/fail table")
    c.add_argument("paths", nargs="+", metavar="PATH", help=_PATHS_HELP)
    c.add_argument("--rules", action="append", help="only run the expectations of this preset (repeatable)")
    c.add_argument("-q", "--quiet", action="store_true", help="list only failures")
    c.add_argument("--variant", help="only run the cases of this variant")
    c.add_argument("--report", metavar="REPORT.html", help="also write one self-contained HTML page: every case with its map, "
                   "expected against actual outcomes, filterable by status and section")
    _limit_arguments(c)
    _file_arguments(c)
    c.set_defaults(func=cmd_corpus)


def _play_command(sub: Any) -> None:
    g = _command(sub, "play", "replay a saved game (TOML or JSON) phase by phase; check its saved positions")
    g.add_argument("file", help="a saved game: its variant, rules and each phase's orders (TOML or JSON; '-': standard input)")
    g.add_argument("--json", action="store_true", help="machine-readable output")
    g.add_argument("--save", metavar="OUT.json", help="write the game with the position after every phase (checkpoints)")
    g.add_argument("--no-check", action="store_true", help="do not compare the file's saved positions")
    g.add_argument("-q", "--quiet", action="store_true", help="only centres per phase and the final position")
    g.add_argument("--from", dest="source", choices=("dipsat", "mila"), default="dipsat",
                   help="the file's format: dipsat's saved game (default) or MILA's (diplomacy package) saved-game "
                        "JSON, replayed with MILA-compatible options up to the first phase that differs (exit 1)")
    g.add_argument("--rules", help="with --from mila: the preset under the MILA options (default the variant's)")
    g.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="with --from mila: override one rule option (repeatable)")
    _limit_arguments(g, saved_game=True)
    _file_arguments(g)
    g.set_defaults(func=cmd_play)


def _explore_command(sub: Any) -> None:
    e = _command(sub, "explore", "every consistent resolution of a movement turn, and which rule picks which")
    e.add_argument("file", help=_FILE_HELP)
    e.add_argument("--rules", help="rules preset for the base equations (datc, 1971, 1982, 2000, dptg; default the file's)")
    e.add_argument("--option", action="append", metavar="NAME=VALUE", help=_OPTION_HELP)
    e.add_argument("--limit", type=int, default=64, help="stop counting after this many resolutions")
    _limit_arguments(e)
    _file_arguments(e)
    e.set_defaults(func=cmd_explore)


def _compare_command(sub: Any) -> None:
    k = _command(sub, "compare", "run corpus cases under several presets; list the orders whose outcomes differ")
    k.add_argument("paths", nargs="+", metavar="PATH", help=_PATHS_HELP)
    k.add_argument("--rules", action="append", help="a preset to compare (repeat; default: all editions)")
    k.add_argument("--variant", help="compare under each value of this variant's own rule options instead of presets")
    k.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    _limit_arguments(k)
    _file_arguments(k)
    k.set_defaults(func=cmd_compare)


def _readings_command(sub: Any) -> None:
    rd = _command(sub, "readings", "every reading of the rule options at once: each order's outcome as the "
                  "smallest conditions on the options, the distinct outcomes of the turn, the options that never matter")
    rd.add_argument("file", help=_FILE_HELP)
    rd.add_argument("--order", help="only this order (as written in the file)")
    rd.add_argument("--json", action="store_true", help="the full table: every assignment of the options that touch the turn")
    rd.add_argument("--rules", help="rules preset for the options that are not enumerated")
    rd.add_argument("--option", action="append", metavar="NAME=VALUE", help="fix an option (it is not enumerated)")
    _limit_arguments(rd)
    _file_arguments(rd)
    rd.set_defaults(func=cmd_readings)


def _fingerprint_command(sub: Any) -> None:
    fp = _command(sub, "fingerprint", "which readings of the rule options a game, a corpus or an adjudicator "
                  "followed: the values consistent with every observation, the nearest preset, the observations "
                  "no reading explains")
    fp.add_argument("paths", nargs="+", metavar="INPUT", help="a batch JSONL file with an 'expect' object per line, a "
                    "corpus folder or case, a dipsat saved game, a MILA saved game (.json, or .jsonl: one a line)")
    fp.add_argument("--json", action="store_true", help="machine-readable output (schema: dipsat schema fingerprint)")
    fp.add_argument("--variant", help="only the observations of this variant (needed when the input holds several)")
    fp.add_argument("--expectation", metavar="PRESET", help="corpus cases: observe the expectation that names this "
                    "preset (default: each case's first); cases without one are left out")
    fp.add_argument("--peer", choices=["mila", "pydip"], help="adjudicate every observation's turn with this peer "
                    "adjudicator (standard movement turns; a batch line needs no 'expect') and fingerprint the peer; "
                    "needs the extra: pip install 'dipsat[mila]' or 'dipsat[pydip]'")
    fp.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    fp.add_argument("-j", "--jobs", type=_positive_int, metavar="N",
                    help="worker processes for the observations (default 1: this process; with --dask local: Dask workers)")
    fp.add_argument("--dask", metavar="ADDRESS", help="judge the observations on a Dask cluster (scheduler address, "
                    "or 'local' to start one); needs the extra dipsat[dask]")
    _limit_arguments(fp)
    _file_arguments(fp)
    fp.set_defaults(func=cmd_fingerprint)


def _coverage_command(sub: Any) -> None:
    cv = _command(sub, "coverage", "which pairs of rule readings the corpus tells apart (cases whose expected "
                  "outcomes differ), and the pairs no case tests")
    cv.add_argument("paths", nargs="+", metavar="PATH", help=_PATHS_HELP)
    cv.add_argument("--json", action="store_true", help="the full table as JSON")
    cv.add_argument("--own", action="store_true", help="only the options a variant adds to the core's DATC options")
    cv.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    _limit_arguments(cv)
    _file_arguments(cv)
    cv.set_defaults(func=cmd_coverage)


def _why_command(sub: Any) -> None:
    w = _command(sub, "why", "what one order's outcome hinges on: decisions, other orders, rule options")
    w.add_argument("file", help=_FILE_HELP)
    w.add_argument("--order", help="the order, as written in the file (required for order-based variants; "
                   "a variant whose items are actions may explain each one that failed without it)")
    w.add_argument("--rules", help="rules preset (datc, 1971, 1982, 2000, dptg; default the file's)")
    w.add_argument("--option", action="append", metavar="NAME=VALUE", help=_OPTION_HELP)
    _limit_arguments(w)
    _file_arguments(w)
    w.set_defaults(func=cmd_why)


def _render_command(sub: Any) -> None:
    d = _command(sub, "render", "draw a turn as an SVG map: the position, every order coloured by outcome")
    d.add_argument("file", help="a turn, a corpus case or a saved game (TOML or JSON; '-': standard input)")
    d.add_argument("-o", "--output", metavar="OUT.svg", help="write the SVG here (default: standard output); OUT.png writes a PNG")
    d.add_argument("--png", action="store_true", help="also write OUT with .png (needs cairosvg, rsvg-convert or chromium)")
    d.add_argument("--title", help="title over the map (default: map, date and phase)")
    d.add_argument("--crop", action="store_true", help="show only the part of the map the units and orders are in")
    d.add_argument("--phase", help="for a saved game: the phase to draw, e.g. F1901M (default: the last)")
    d.add_argument("--variant", help="variant (overrides the file's; e.g. standard; see dipsat rules)")
    d.add_argument("--rules", help="rules preset the turn is adjudicated under (default the file's)")
    d.add_argument("--option", action="append", metavar="NAME=VALUE", help=_OPTION_HELP)
    _limit_arguments(d)
    _file_arguments(d)
    d.set_defaults(func=cmd_render)


def _orders_command(sub: Any) -> None:
    lo = _command(sub, "orders", "list every legal order of every unit of a position (movement phases of a Diplomacy board)")
    lo.add_argument("file", help=_FILE_HELP + "; its orders are ignored")
    lo.add_argument("--json", action="store_true", help="power -> unit -> its legal orders, as JSON")
    lo.add_argument("--variant", help="variant (overrides the file's; e.g. standard; see dipsat rules)")
    lo.add_argument("--rules", help="rules preset the orders are checked under (default the file's)")
    lo.add_argument("--option", action="append", metavar="NAME=VALUE", help=_OPTION_HELP)
    _limit_arguments(lo)
    _file_arguments(lo)
    lo.set_defaults(func=cmd_orders)


def _rules_command(sub: Any) -> None:
    r = _command(sub, "rules", "list rule presets and options, or show one preset or one variant's options")
    r.add_argument("preset", nargs="?", metavar="PRESET|VARIANT",
                   help="a preset (datc, 1971, ...) or a variant's name; default: every preset and option")
    r.set_defaults(func=cmd_rules)


def _schema_command(sub: Any) -> None:
    s = _command(sub, "schema", "print a JSON Schema: corpus (case file), turn (request), result "
                 "(adjudicate --json), batch (an output line), play (play --json), readings (readings --json), "
                 "coverage (coverage --json), fingerprint (fingerprint --json)")
    s.add_argument("what", choices=["corpus", "turn", "result", "batch", "play", "readings", "coverage", "fingerprint"],
                   metavar="KIND",
                   help="corpus (a case file), turn (an adjudicate file or batch line), result (adjudicate --json), "
                        "batch (one output line), play (play --json), readings (readings --json), coverage "
                        "(coverage --json), fingerprint (fingerprint --json)")
    s.set_defaults(func=cmd_schema)


def _serve_command(sub: Any) -> None:
    sv = _command(sub, "serve", "the sandbox: a local web page to set up a position, write orders and watch dipsat "
                  "decide (needs the extra dipsat[serve])")
    from dipsat.face.serve import configure

    configure(sv)
    _limit_arguments(sv)
    _file_arguments(sv)
    sv.set_defaults(func=_cmd_serve)


# the core's subcommands, each added to the parser by its function, in the order --help lists them
_CORE_PARSERS: dict[str, Callable[[Any], None]] = {
    "adjudicate": _adjudicate_command,
    "batch": _batch_command,
    "corpus": _corpus_command,
    "play": _play_command,
    "explore": _explore_command,
    "compare": _compare_command,
    "readings": _readings_command,
    "fingerprint": _fingerprint_command,
    "coverage": _coverage_command,
    "why": _why_command,
    "render": _render_command,
    "orders": _orders_command,
    "rules": _rules_command,
    "schema": _schema_command,
    "serve": _serve_command,
}


def build_parser(variant_commands: bool = True, only: Optional[str] = None) -> argparse.ArgumentParser:
    """The parser.  ``variant_commands=False`` leaves out the subcommands variants contribute
    (which imports every variant): :func:`main` does so when the command line names a core
    command, so that ``dipsat adjudicate`` starts fast.  ``only``: the one core subcommand to
    add (:func:`main` gives it when the command line starts with its name, so that no other
    part of the parser is read: its help and its errors are that subcommand's own)."""
    p = argparse.ArgumentParser(prog="dipsat", description="CP-SAT adjudicator for Diplomacy and its variants.",
                                epilog="examples:\n  dipsat adjudicate examples/spring1901.toml\n  dipsat corpus "
                                       "tests/corpora/datc -q\n  dipsat COMMAND --help   (every command's arguments)",
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action=_VersionAction)
    sub = p.add_subparsers(dest="command", required=True)

    for name, add in _CORE_PARSERS.items():
        if only is None or name == only:
            add(sub)

    if not variant_commands:
        return p
    from dipsat.game.registry import all_records

    from dipsat.game.protocol import GameRecord

    for variant in all_records():  # subcommands contributed by variants (tools of their own games)
        for vc in variant.commands() if isinstance(variant, GameRecord) else ():
            v = _command(sub, vc.name, vc.help, vc.examples.replace("\n", "\n  "))
            vc.configure(v)
            v.set_defaults(func=vc.run)
    return p


def _cmd_serve(args: argparse.Namespace) -> int:
    from dipsat.face.serve import cmd_serve

    return cmd_serve(args)


def _command_time_limit(args: argparse.Namespace) -> Optional[float]:
    """The wall-clock limit of the whole command, where one applies: explore, why and readings
    answer one turn (compare and coverage apply it per case themselves)."""
    limit: Optional[float] = getattr(args, "time_limit", None)
    return limit if args.command in ("explore", "why", "readings") else None


def main(argv: Optional[list[str]] = None) -> int:
    """Run one command; returns the exit status (0 ok, 1 some item failed, 2 bad invocation or
    unreadable input, 3 internal error, 130 interrupted)."""
    try:
        words = sys.argv[1:] if argv is None else argv
        only = words[0] if words and words[0] in CORE_COMMANDS else None
        args = build_parser(variant_commands=not _names_core_command(argv), only=only).parse_args(argv)
    except SystemExit as exc:  # argparse: usage error (2) or --help/--version (0)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        from dipsat.io.files import file_access
        from dipsat.limits import deadline

        # paths inside a request resolve against the file named on the command line (the corpus
        # commands set each case file as they go); explore and why answer one turn: their
        # wall-clock limit covers the whole command
        origin = getattr(args, "file", None) if args.command != "batch" else None
        if origin == "-":  # standard input names only bundled files and --allow-files folders, as a batch line
            origin = None
        if _command_time_limit(args) is not None:  # these solve with CP-SAT: load it before the clock starts
            import dipsat.engine.cpsat  # noqa: F401
        limit = _command_time_limit(args)
        with file_access(origin=origin, allowed=getattr(args, "allow_files", None) or (),
                         max_bytes=limits_of(args).max_request_bytes), \
                guarded_stdout():  # a full disk or an unwritable output names the output
            if limit is None:
                code: int = args.func(args)  # every command returns its exit status
                return code
            # a command under a wall-clock limit prints its whole answer or nothing: what it prints
            # is held until it has finished in time (a limit passing while it printed left an answer
            # on standard output and a time-out on standard error, status 2)
            answer = io.StringIO()
            with deadline(limit), contextlib.redirect_stdout(answer):
                code = args.func(args)
            sys.stdout.write(answer.getvalue())
            return code
    except DipsatError as exc:
        print(f"dipsat: error: {exc}", file=sys.stderr)
        if isinstance(exc, OutputError) and exc.stdout:
            discard_stdout()
        return 2
    except KeyboardInterrupt:
        print("dipsat: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into head: what is left has no reader
        discard_stdout()
        return 0
    except Exception as exc:  # a bug, not bad input: say so, without a traceback
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1]
        print(f"dipsat: internal error: {type(exc).__name__}: {str(exc)[:300]} (at {Path(where.filename).name}:"
              f"{where.lineno}); please report it with the input that caused it", file=sys.stderr)
        return 3


def run() -> int:
    """The ``dipsat`` program (the console script, ``python -m dipsat.face.cli``): :func:`main` in
    a process that ends with it.  The collector runs rarely (a first generation of 50,000 objects,
    not 700: a command's start builds tens of thousands of objects that live as long as the
    process, so early collections find nothing to free), and what is left when the command has
    finished is frozen, so that the interpreter's exit does not walk it once more (the
    collector's passes and the exit's were about a tenth of a cold ``adjudicate``'s
    instructions).  Every file a command writes is closed before it returns; the exit still
    flushes the standard streams and runs the exit handlers.  Pydantic's plugins are not looked
    for, unless the environment sets ``PYDANTIC_DISABLE_PLUGINS`` (:mod:`dipsat.pydantic_plugins`)."""
    import gc

    from dipsat.pydantic_plugins import skip_pydantic_plugins

    skip_pydantic_plugins()
    gc.set_threshold(50_000, 10, 10)
    code = main()
    gc.freeze()
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
