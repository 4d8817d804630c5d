"""A game (layer 4): the board variant record, the phase calendar and the game runner, the phase
pipeline, the game protocol every family implements and the registry that finds a variant's
record.  Imports the board, the engine and the shared models."""
