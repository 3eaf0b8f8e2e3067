"""``python -m tarneeb.cli``: the same as the ``tarneeb`` command."""

import sys

from tarneeb.cli import main

sys.exit(main())
