#!/usr/bin/env bash
# The speed comparison (docs/speed.md, "Against OpenSpiel and PettingZoo"), side by side in one run: handfoot's PettingZoo env and
# vector engine against OpenSpiel's C++ gin_rummy (with its observation tensor) and
# PettingZoo's gin_rummy_v4.  The references install into a scratch venv (.venv-compare),
# never into the project's: open_spiel, and pettingzoo 1.24.3 with rlcard and pygame (later PettingZoo
# releases dropped gin rummy).  Prints one JSON row per line, then a table.
#     bash scripts/compare_speed.sh [--load N]   (N busy processes beside every row)
set -euo pipefail
cd "$(dirname "$0")/.."
load=0
if [ "${1:-}" = "--load" ]; then load="$2"; fi
if [ ! -x .venv-compare/bin/python ]; then
  echo "compare: creating .venv-compare with open_spiel, pettingzoo==1.24.3 and rlcard (a minute)" >&2
  python3 -m venv .venv-compare
  .venv-compare/bin/pip install --quiet --upgrade pip >/dev/null
  .venv-compare/bin/pip install --quiet open_spiel "pettingzoo==1.24.3" rlcard pygame numpy
fi
busy=()
for _ in $(seq 1 "$load"); do python3 -c "while True: pass" & busy+=($!); done
trap 'for p in "${busy[@]:-}"; do kill "$p" 2>/dev/null || true; done' EXIT
rows=$(
  .venv/bin/python scripts/compare_speed.py handfoot-aec
  .venv/bin/python scripts/compare_speed.py handfoot-vector 1
  .venv/bin/python scripts/compare_speed.py handfoot-vector 1024
  .venv-compare/bin/python scripts/compare_speed.py openspiel-gin-rummy
  .venv-compare/bin/python scripts/compare_speed.py pettingzoo-gin-rummy
)
echo "$rows"
echo "$rows" | python3 -c '
import json, sys
rows = [json.loads(line) for line in sys.stdin if line.strip()]
base = next(r["steps_per_sec"] for r in rows if r["what"] == "openspiel-gin-rummy")
print("\n| what | batch | steps/s (median of 3) | vs OpenSpiel gin_rummy |\n|---|---|---|---|")
for r in rows:
    what, batch, speed = r["what"], r["batch"], r["steps_per_sec"]
    print(f"| {what} | {batch} | {speed:,.0f} | {speed / base:.2f}x |")
'
