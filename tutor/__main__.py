"""``python -m tutor``: see :mod:`tutor.cli`."""

import sys

from tutor.cli import main

sys.exit(main())
