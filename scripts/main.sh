#!/usr/bin/env bash
# The main job: set up the local virtual environment, train a partnership agent with the
# quick config (a heuristic search, imitation and PPO: about 2.5 minutes of training on 2 cores),
# then print its evaluation table against the scripted baselines (duplicate deals, 95% intervals).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "main job: creating .venv and installing handfoot with the training extras (a minute or two the first time)"
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip >/dev/null
.venv/bin/pip install --quiet -e '.[train]'
echo "main job: compiling the kernels (about a minute, once per install)"
.venv/bin/handfoot warmup
echo "main job: training with configs/quick.yaml"
.venv/bin/handfoot train --config configs/quick.yaml "$@"
