"""The engine (layer 1): boolean and integer formulas, exact equation systems and their solving,
the one CP-SAT service, the space of rule options, seeded chance.  Knows no game: imports only
the root modules ``dipsat.errors``, ``dipsat.limits`` and ``dipsat.seams``."""
