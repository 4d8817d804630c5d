"""``dipsat fingerprint`` over a stream: the input read one item at a time, each observation's
verdict (:func:`dipsat.research.fingerprint.judge`) made in this process or in ``batch``'s
worker pool (:func:`dipsat.io.batch_pool.run_pool`, ``--jobs N``) or on a Dask cluster
(:func:`~dipsat.io.batch_dask.run_dask`, ``--dask ADDRESS``), and tallied as it comes
(:class:`~dipsat.research.fingerprint.Tally`): what is kept is one table per distinct verdict
(with its count), the ids of the observations some assignment does not explain, and the
evidence of those no assignment explains.  When the final model leaves observations unexplained
that some assignment would explain (the records contradict each other), the input is read a
second time for exactly those, to say what differs.

Observations go to the workers pickled (the parent reads the input, the workers adjudicate);
verdicts come back pickled in base64 text (a worker's own error comes back as ``batch``'s JSON
error line, and is reported as that observation's problem).
"""

from __future__ import annotations

import base64
import json
import pickle
from typing import Any, Callable, Iterable, Iterator, Optional

from dipsat.errors import DipsatError
from dipsat.io.batch import BatchSettings, Line
from dipsat.limits import DEFAULT_LIMITS, Limits
from dipsat.research.fingerprint import Fingerprint, Tally, combine, evidence, judge
from dipsat.research.fingerprint_inputs import InputProblem, Item, Observation

Source = Callable[[], Iterable[Item]]  # the input's items; called again for a second reading


def judge_line(line: Line, settings: BatchSettings) -> str:
    """A worker's answer to one observation (``line.raw``: the pickled observation, ``line.number``:
    its index + 1): its index and verdict, pickled, in base64."""
    obs: Observation = pickle.loads(line.raw)
    verdict = judge(line.number - 1, obs, settings.limits.turn_time_limit)
    return base64.b64encode(pickle.dumps((line.number - 1, verdict), protocol=pickle.HIGHEST_PROTOCOL)).decode("ascii")


class _Collect:
    """Where the pool writes its answers (in input order): each is tallied at once."""

    def __init__(self, tally: Tally, where: dict[int, Observation]) -> None:
        self.tally = tally
        self.where = where  # index -> observation, while in flight (for an error's place)

    def write(self, text: str, /) -> int:
        text = text.strip()
        if not text:
            return 0
        if text.startswith("{"):  # the pool's own answer: a worker failed on this observation
            data = json.loads(text)
            index = int(data.get("line", 0)) - 1
            obs = self.where.pop(index, None)
            err = data.get("error") or {}
            message = err.get("message", str(data)) if isinstance(err, dict) else str(err)
            self.tally.add(index, InputProblem(obs.where if obs else f"item {index + 1}",
                                               f"{obs.id if obs else ''}: {message}"))
            return len(text)
        index, verdict = pickle.loads(base64.b64decode(text))
        self.where.pop(index, None)
        self.tally.add(index, verdict)
        return len(text)

    def flush(self) -> None:
        pass


def run_fingerprint(source: Source, variant: Optional[str] = None, limits: Limits = DEFAULT_LIMITS, jobs: int = 1,
                    dask: Optional[str] = None, on_progress: Optional[Callable[[], None]] = None) -> Fingerprint:
    """The fingerprint of ``source``'s observations of one board variant (``variant``, or the
    first observation's: an observation of another then stops with an error that asks for a
    choice).  ``jobs`` > 1 or ``dask``: the verdicts are made in other processes."""
    tally = Tally(variant.lower() if variant else None)
    chosen = variant is not None
    tick = on_progress or (lambda: None)

    def observations() -> Iterator[tuple[int, Observation]]:
        for i, it in enumerate(source()):
            if isinstance(it, InputProblem):
                tally.add(i, it)
            elif tally.wants(it.variant):
                yield i, it
            elif not chosen:
                raise DipsatError(f"the input holds observations of several variants ({tally.variant}, then "
                                  f"{it.variant} at {it.where}): fingerprint one at a time with --variant NAME")

    if jobs <= 1 and dask is None:
        for i, obs in observations():
            tally.add(i, judge(i, obs, limits.turn_time_limit))
            tick()
    else:
        _in_workers(observations(), tally, limits, jobs, dask, tick)

    def again(indices: set[int]) -> dict[int, Any]:
        out = {}
        for i, it in enumerate(source()):
            if i in indices and isinstance(it, Observation):
                out[i] = evidence(it)
        return out

    return combine(tally, again)


def _in_workers(observations: Iterator[tuple[int, Observation]], tally: Tally, limits: Limits, jobs: int,
                dask: Optional[str], tick: Callable[[], None]) -> None:
    from dipsat.io.batch_dask import run_dask
    from dipsat.io.batch_pool import run_pool

    settings = BatchSettings(variant=tally.variant, limits=limits)
    where: dict[int, Observation] = {}
    failure: list[BaseException] = []

    def lines() -> Iterator[Line]:
        try:
            for i, obs in observations:
                where[i] = obs
                yield Line(i + 1, pickle.dumps(obs, protocol=pickle.HIGHEST_PROTOCOL))
        except DipsatError as exc:  # read by the pool's input thread: raised again here once it is done
            failure.append(exc)

    out = _Collect(tally, where)
    if dask is not None:
        report = run_dask(lines(), out, settings, dask, jobs, on_result=tick, handler=judge_line)
    else:
        report = run_pool(lines(), out, settings, jobs, on_result=tick, handler=judge_line)
    if failure:
        raise failure[0]
    if report.interrupted:
        raise KeyboardInterrupt
