"""Z3 encodings of the Tarneeb invariants, built from spec/ (see proofs/README.md)."""
