#!/usr/bin/env bash
# The test suite: set up the local virtual environment, then run pytest (the default run
# leaves out tests marked slow; run those with: .venv/bin/python -m pytest -m slow).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "tests: creating .venv and installing handfoot with the dev and interop extras (a few minutes the first time)"
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip >/dev/null
.venv/bin/pip install --quiet -e '.[dev,interop]'
echo "tests: compiling the kernels (about a minute, once per install)"
.venv/bin/handfoot warmup
.venv/bin/python -m pytest "$@"
