"""`python -m graphlint`: the same command line as the `graphlint` console script."""

from __future__ import annotations

import sys

from graphlint.cli import main

if __name__ == "__main__":
    sys.exit(main())
