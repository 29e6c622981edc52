"""Throughput of the batched engine beside the scalar one and ``env()``: ``boon bench``.

Run: ``python benchmarks/bench_vector.py [--tables 1024] [--players 3 4 5] [--repeats 5]
[--json]``, the same as ``boon bench``; the measurements are in ``agents/eval/bench.py``.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"  # one core: set before numpy is imported

from agents.eval.bench import main  # noqa: E402

if __name__ == "__main__":
    main()
