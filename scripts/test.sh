#!/usr/bin/env bash
# The test suite: set up the local virtual environment, then run pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip >/dev/null
.venv/bin/pip install --quiet -e '.[dev]'
.venv/bin/python -m pytest "$@"
