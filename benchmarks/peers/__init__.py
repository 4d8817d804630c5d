"""Test support: dipsat against the peer adjudicators MILA ``diplomacy`` and ``pydip``.

Used by the test suite (``tests/test_differential.py``) and by the long runs in
``benchmarks/`` (``python -m benchmarks.differential``).  A turn is a dipsat request dict of
:mod:`benchmarks.workload`; for each peer the turn *agrees* when both give the same units after
the turn -- (power, army/fleet, location with the coast where the peer gives one) -- AND the
same set of dislodged units.  Every disagreement is then explained, where possible, by a
*documented deviation* of the peer from DATC 3.0, confirmed by re-running the peer with that
deviation corrected.

Modules:

* :mod:`.rich` -- the "rich" workload (plain turns with planted trouble spots), :func:`make_turn`;
* :mod:`.engines` -- ``Dipsat``, ``Mila``, ``Pydip`` (``run(request, fixes) -> Run``), :func:`load_peers`;
* :mod:`.fixes` -- the corrections of the peers, one per deviation;
* :mod:`.turn` -- the turn as the deviation triggers see it;
* :mod:`.deviations` -- :data:`DEVIATIONS` and :func:`classify`;
* :mod:`.differential` -- :func:`run_differential` and its report;
* :mod:`.mila_games` -- random full games played by MILA (saved-game JSON);
* :mod:`.mila_replay` -- those games replayed by dipsat (``dipsat.io.mila``), every difference classified.

Peers: ``diplomacy==1.1.2`` and ``pydip==0.1.8`` (the versions the corrections are written
for).  A peer that is not installed is reported by :func:`load_peers` and skipped.
"""

from .deviations import DEVIATION, DEVIATIONS, Deviation, Verdict, agree, classify, difference
from .engines import Dipsat, Mila, Pydip, Run, load_peers, request_for_dipsat, request_from_case, request_from_orders
from .fixes import MILA_FIXES, PYDIP_FIXES, PatchError
from .differential import TurnReport, compare_turn, format_report, problems, run_differential, verdict_json
from .rich import SITUATIONS, make_turn, rich_turn
from .turn import Evidence, Loc, Turn

__all__ = [
    "DEVIATION", "DEVIATIONS", "Deviation", "Dipsat", "Evidence", "Loc", "MILA_FIXES", "Mila",
    "PYDIP_FIXES", "PatchError", "Pydip", "Run", "SITUATIONS", "Turn", "TurnReport", "Verdict",
    "agree", "classify", "compare_turn", "difference", "format_report", "load_peers", "make_turn",
    "problems", "request_for_dipsat", "request_from_case", "request_from_orders", "rich_turn", "run_differential",
    "verdict_json",
]
