"""Set-up for the sandbox's worker processes in the tests: it runs in each worker (spawned), so
it lives in a module the worker can import by name."""

from __future__ import annotations

import signal
import time
from typing import Any


def stall_marked_calls() -> None:
    """Make the worker's adjudication get stuck where the time limit's alarm cannot reach it (as a
    call stuck in native code, inside a solver, would) when the state's ``meta`` says ``stall``;
    every other state is adjudicated as usual."""
    from dipsat.face.serve import sandbox

    real = sandbox.adjudicate

    def adjudicate(state: Any, limits: Any = None, **kw: Any) -> Any:
        if isinstance(state, dict) and (state.get("meta") or {}).get("stall"):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # the alarm never arrives
            time.sleep(120)
        return real(state, limits, **kw) if limits is not None else real(state, **kw)

    sandbox.adjudicate = adjudicate  # type: ignore[assignment]
