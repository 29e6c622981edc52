"""Throughput of the rules engine and of ``boon_v0`` or ``bon_v0`` (the logic lives in
:mod:`agents.eval.bench`).

Run: ``python benchmarks/bench_env.py [--rounds N] [--env-rounds N] [--players 3 4 5]
[--game boon|bon]``, or ``boon bench`` with the same options.
"""

from agents.eval.bench import main

if __name__ == "__main__":
    main()
