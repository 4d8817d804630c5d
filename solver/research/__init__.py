"""Research (layer 6): readings (outcomes as a function of the rule options), explore, why,
compare, coverage of the options by a corpus."""
