"""``python -m nile_align.cli``: the same as ``nile-align``."""

import sys

from . import main

sys.exit(main())
