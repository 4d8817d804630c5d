"""Data in and out (layer 5): requests and the public Python API, corpus cases and their
checks, batch runs, saved games (dipsat's and MILA's), request files and outputs, schemas."""
