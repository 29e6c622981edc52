"""``python -m agents.web ARGS``: the same as ``boon serve ARGS``."""

import sys

from agents.web.start import main

if __name__ == "__main__":
    sys.exit(main())
