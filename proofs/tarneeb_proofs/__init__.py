"""Z3 encodings of the Tarneeb invariants, built from spec/ (see proofs/README.md)."""

import z3

# Z3 installs its own SIGINT handler during many calls (check, simplify, substitute, ...) and answers Ctrl-C by
# cancelling that call quietly: outside ``checks.solve`` the run went on and the interrupt was lost. Turned off,
# Ctrl-C reaches Python, which raises KeyboardInterrupt as soon as the current Z3 call returns (each is short).
z3.set_param("ctrl_c", False)
