"""``python -m mjfast``: the same command line as the ``mjfast`` script (see :mod:`mjfast.cli`)."""

import sys

from mjfast.cli import main

if __name__ == "__main__":
    sys.exit(main())
