#!/usr/bin/env bash
# The main job: set up the local virtual environment, train a partnership agent with the
# quick config (a few minutes on 2 cores), then print its evaluation table against the
# scripted baselines (duplicate deals, 95% intervals).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip >/dev/null
.venv/bin/pip install --quiet -e '.[train]'
.venv/bin/handfoot train --config configs/quick.yaml "$@"
