"""``dipsat serve``: the sandbox, a local web page to set up a position, write orders and watch
dipsat decide.

One command starts it (``dipsat serve``, on 127.0.0.1 unless ``--host`` says otherwise) and prints
the address to open.  The page sets up a position (a board's opening, a DATC or corpus case by
name, a pasted position, a file named on the command line; units placed and removed by clicking
the map), takes orders in any notation dipsat reads (typed, with completion, or drawn by
clicking a unit and its destination), and re-adjudicates on every change: the picture of
``dipsat render``, each order's outcome with its reason (culprits and strengths), the backup rule
and every consistent resolution of a paradox, the readings of the rules (which orders change
under which reading, a click to switch), ``why`` of any order; the state lives in the page's
address, exports as a corpus case (with the expectations of the chosen rulebooks) or a batch
line, and retreats and adjustments continue from the result.

The pieces: :mod:`.sandbox` (the answers, plain functions of a state), :mod:`.export`,
:mod:`.legal` (completion), :mod:`.library` (the cases by name), :mod:`.worker` (each call in a
worker process within the command's limits), :mod:`.app` (the Starlette application) and
``static/`` (the page: HTML, a script and a style sheet, no build step).

The web framework is Starlette, served by uvicorn: both small, pure-Python and well kept;
Starlette's test client tests the endpoints without a server.  They are the optional extra
``dipsat[serve]``: an adjudicator used from the command line, in batch or as a library needs no
web server, and ``dipsat serve`` says how to install them when they are missing.
"""

from __future__ import annotations

import argparse
import socket
import sys

from dipsat.errors import DipsatError

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
MISSING = ("dipsat serve needs the web framework, which is the optional extra 'serve': "
           "pip install 'dipsat[serve]' (Starlette and uvicorn)")


def configure(p: argparse.ArgumentParser) -> None:
    """``dipsat serve``'s own arguments (the limits and --allow-files are the CLI's shared ones)."""
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="case or position files, or folders of them, the page may load by name besides the "
                        "bundled DATC, corpora and examples (nothing else is read)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only; another exposes the "
                        "sandbox to the network)")
    p.add_argument("--port", type=int, default=8765, help="the port (default 8765; 0: any free port)")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                   help="worker processes the calls run in (default 1)")


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        raise DipsatError(MISSING) from None
    from dipsat.face.cli_phase import limits_of

    from dipsat.face.serve.app import make_app
    from dipsat.face.serve.library import Library
    from dipsat.face.serve.worker import CallFailed, Runner

    if not 0 <= args.port <= 65535:
        raise DipsatError(f"--port {args.port}: not a port number (0 to 65535)")
    if args.jobs < 1:
        raise DipsatError(f"--jobs {args.jobs}: at least 1")
    limits = limits_of(args)
    library = Library(args.files, limits=limits)
    runner = Runner(limits, tuple(args.allow_files or ()), jobs=args.jobs)
    hosts: tuple[str, ...] = ("127.0.0.1", "localhost", args.host)
    if args.host not in LOCAL_HOSTS:
        print(f"dipsat serve: listening on {args.host}: the sandbox is reachable from the network", file=sys.stderr)
        hosts = ("*",)
    app = make_app(runner, library, hosts)
    sock = _listen(args.host, args.port)
    config = uvicorn.Config(app, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    try:
        runner.start()
    except CallFailed as exc:
        runner.close()
        sock.close()
        raise DipsatError(f"the worker process did not start: {exc.message}") from None
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"dipsat sandbox: http://{host}:{port}/  ({len(library.entries)} cases by name; Ctrl-C stops it)", flush=True)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        runner.close()
        sock.close()
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` (0: a free port), or a clear error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise DipsatError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock
