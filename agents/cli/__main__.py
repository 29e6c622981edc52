"""``python -m agents.cli``: the ``boon`` command."""

import sys

from agents.cli.commands import main

sys.exit(main())
