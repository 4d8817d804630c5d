"""The Diplomacy board's rules (layer 3): notation, order legality and binding, coasts and
destinations, the movement equations and their explanations, stacks, retreats, adjustments.
Imports the engine and the shared models (``dipsat.models``, ``dipsat.rules``,
``dipsat.outcomes``), nothing above."""
