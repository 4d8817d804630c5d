"""Benchmarks and the test-support code they share with the test suite.

Not part of the installed product: this package is imported from a checkout, with the
repository root on ``sys.path`` -- ``python -m benchmarks.run`` (or ``.differential``,
``.workload``, ``.mila_games``) from the repository root, and ``pytest`` from the repository root
(``pythonpath = ["."]`` in ``pyproject.toml``).  dipsat itself must be installed
(``pip install -e ".[test]"``).

* :mod:`benchmarks.workload` -- seeded random legal movement turns and converters to the peers;
* :mod:`benchmarks.peers` -- the peer adjudicators (MILA ``diplomacy``, ``pydip``) as engines,
  their documented deviations from DATC 3.0 and the classifier of disagreements;
* ``run``, ``differential``, ... -- the command-line scripts (see ``benchmarks/README.md``).
"""
