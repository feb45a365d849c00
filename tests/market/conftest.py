"""Market tests: ``CARDWISE_SHARED_DATA`` may point at the shared data sets when ../shared is elsewhere."""

from __future__ import annotations

import os
from pathlib import Path

from tests import conftest as root

if os.environ.get("CARDWISE_SHARED_DATA"):
    root.SHARED_DATA = Path(os.environ["CARDWISE_SHARED_DATA"])
