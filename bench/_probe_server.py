"""``python -m bench._probe_server --port P``: the real app plus the adapter probe routes
(``tests/hardening/probes.py``), for attacking body handling whatever capability routes exist."""

from __future__ import annotations

import argparse

from aiohttp import web

from api import logs
from api.app import create_app
from api.settings import load_settings
from tests.hardening.probes import add_probes

if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    args = ap.parse_args()
    settings = load_settings()
    logs.configure(settings.log_level, settings.log_format)
    web.run_app(add_probes(create_app(settings)), host="127.0.0.1", port=args.port, access_log=None, print=None)
