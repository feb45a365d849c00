# Shared by scripts/run and scripts/test: create .venv with Python 3.11+ and install Cardwise.
# EXTRAS=test (scripts/test, CI) adds the test tools; scripts/run installs only what serving needs.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
EXTRAS="${EXTRAS:-}"
say() { echo "cardwise: $*" >&2; }
if [ ! -x .venv/bin/python ]; then
  say "creating the virtual environment .venv ($("$PY" --version 2>&1))"
  "$PY" -m venv .venv
fi
STAMP=".venv/.cardwise-installed${EXTRAS:+-$EXTRAS}"
if [ ! -f "$STAMP" ] || [ pyproject.toml -nt "$STAMP" ]; then
  say "installing Cardwise${EXTRAS:+ and its $EXTRAS tools} into .venv (the first time takes a few minutes)"
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
  .venv/bin/python -m pip install -q --progress-bar on -e ".${EXTRAS:+[$EXTRAS]}"
  touch "$STAMP"
  say "installed"
fi
