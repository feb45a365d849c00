"""``python -m api`` is the same as the ``cardwise`` command."""

import sys

from api.cli import main

sys.exit(main())
