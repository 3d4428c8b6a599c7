#!/usr/bin/env bash
# The test suite: the local virtual environment (made, or brought up to date with
# pyproject.toml), the lint and type checks, then pytest. The default run leaves out tests
# marked slow; run those with: .venv/bin/python -m pytest -m slow.
set -euo pipefail
cd "$(dirname "$0")/.."

# .venv is reused while it matches pyproject.toml: the stamp holds the hash of the
# pyproject.toml it was installed from (the package itself is installed editable, so code
# changes need no reinstall). A missing or broken .venv, or a changed pyproject.toml,
# installs again; `rm -r .venv` forces a fresh one.
stamp=.venv/.installed-from
wanted="$(python3 -c 'import hashlib; print(hashlib.sha256(open("pyproject.toml", "rb").read()).hexdigest())')"
if [ -x .venv/bin/python ] && .venv/bin/python -c '' 2>/dev/null && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
    echo "tests: .venv is up to date with pyproject.toml"
else
    echo "tests: installing handfoot with the dev and interop extras into .venv (a few minutes the first time)"
    [ -x .venv/bin/python ] && .venv/bin/python -c '' 2>/dev/null || python3 -m venv --clear .venv
    .venv/bin/pip install --quiet --upgrade pip >/dev/null
    .venv/bin/pip install --quiet -e '.[dev,interop]'
    echo "$wanted" >"$stamp"
fi

echo "tests: compiling the kernels (about a minute, once per change of their source)"
.venv/bin/handfoot warmup

# Lint and types: ruff on everything, mypy on handfoot_env, agents, train and handfoot_lab (pyproject.toml's [tool.mypy]).
echo "tests: ruff (lint, format) and mypy"
.venv/bin/ruff check --quiet .
.venv/bin/ruff format --check --quiet .
.venv/bin/mypy

# On every core (at most 4; pytest-xdist), a test file per worker at a time, so that a module's
# fixtures (the Ray instance) start once; a plain `pytest` runs in one process. The 15 slowest
# tests are listed at the end, to keep the run's length in view.
.venv/bin/python -m pytest -n auto --maxprocesses 4 --dist loadfile --durations=15 "$@"
