"""Pure, deterministic game logic: no I/O, no clock, no global random."""
