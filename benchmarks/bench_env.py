"""Throughput of the rules engine and of ``boon_v0`` (the logic lives in :mod:`boon_env.bench`).

Run: ``python benchmarks/bench_env.py [--rounds N] [--env-rounds N] [--players 3 4 5]``, or
``boon bench`` with the same options.
"""

from boon_env.bench import main

if __name__ == "__main__":
    main()
