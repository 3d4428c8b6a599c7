#!/usr/bin/env bash
# The main job: set up the local virtual environment, then run the demo (seeded games
# between scripted players with a score table).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip >/dev/null
.venv/bin/pip install --quiet -e '.[train]'
.venv/bin/handfoot demo "$@"
