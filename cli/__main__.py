"""``python -m cli`` is the same as the ``cardwise`` command."""

import sys

from cli.main import main

sys.exit(main())
