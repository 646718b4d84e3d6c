"""``python -m app``: the same as the ``companion`` command."""

import sys

from app.main import main

if __name__ == "__main__":
    sys.exit(main())
