"""The rules engines and the batch engines: scripted rounds, invariants, bit-identity."""
