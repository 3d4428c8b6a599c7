#!/usr/bin/env bash
# The training config's `device` on a GPU machine: the trainer's throughput on cpu and on cuda
# side by side (`handfoot bench --train`), then short runs on cuda that cross every part the
# device touches: PPO with the KL anchor and the advisor (checkpoints, then --resume), Deep
# Monte-Carlo with self-play snapshots as opponents, and the main job's recipe (heuristic
# search, imitation, PPO) under `device: auto`. Each run ends with its evaluation tables; the
# models they write load on any machine (handfoot eval ... --team ppo:RUNS/cuda_ppo/model.pt).
#
#   bash scripts/gpu_check.sh [RUNS_FOLDER]     (about 6 minutes on an H200 machine, kernels compiled)
#
# Figures from one H200 machine: docs/run_summaries/gpu_check_h200.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-runs/gpu_check}
steps=600000
bench=500000
short=(--set "run_dir=$runs" --set env.win_prob_games=2000 --set network.scaling_positions=20000
    --set eval.every=$((steps / 2)) --set eval.pairs=50 --set eval.select_pairs=50 --set eval.final_pairs=50)
say() { echo; echo "=== $*"; }

python -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 'no CUDA GPU that torch can use')"
handfoot warmup

say "the classic recipe ([128, 128], 512 games): cpu with 1 torch thread, then cuda"
handfoot bench --train --config configs/experiments/residual_classic_anneal.yaml --set device=cpu --train-steps $bench
handfoot bench --train --config configs/experiments/residual_classic_anneal.yaml --set device=cuda --train-steps $bench
say "a wide network ([1024, 1024], partnership from scratch): cpu with 8 torch threads, then cuda"
handfoot bench --train --config configs/experiments/scratch.yaml --set 'network.arch=[1024,1024]' --set threads=8 \
    --set device=cpu --train-steps $((bench / 2))
handfoot bench --train --config configs/experiments/scratch.yaml --set 'network.arch=[1024,1024]' --set device=cuda \
    --train-steps $((bench / 2))

say "PPO on cuda with checkpoints, then resumed"
handfoot train --config configs/experiments/residual_classic_anneal.yaml --set name=cuda_ppo --set device=cuda \
    --set total_timesteps=$steps --set checkpoint_every=$((steps / 3)) "${short[@]}"
handfoot train --config configs/experiments/residual_classic_anneal.yaml --set name=cuda_ppo --set device=cuda \
    --set total_timesteps=$((steps * 4 / 3)) --set checkpoint_every=$((steps / 3)) "${short[@]}" --resume
say "Deep Monte-Carlo on cuda, self-play snapshots among the opponents"
handfoot train --config configs/experiments/scratch_dmc.yaml --set name=cuda_dmc --set device=cuda \
    --set total_timesteps=$steps --set league.snapshot_every=$((steps / 3)) "${short[@]}"
say "the main job's recipe under device auto (search and imitation shortened)"
handfoot train --config configs/quick.yaml --set name=cuda_quick --set device=auto --set total_timesteps=$((steps / 3)) \
    --set tune.generations=2 --set tune.population=4 --set tune.elite=1 --set tune.pairs=50 \
    --set imitation.decisions=50000 "${short[@]}"
