"""Training configs: validated on load, unknown keys and bad values named, --set overrides."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

from handfoot_env.rules import Rules
from train.config import TrainConfig, load_config

ROOT = Path(__file__).resolve().parents[2]


CONFIGS = ROOT / "configs"
# Every config in the repository: the few a user starts from, and the run records in experiments/.
EVERY_CONFIG = sorted(str(p.relative_to(CONFIGS)) for p in CONFIGS.rglob("*.yaml"))
TABLES = {"classic": ("classic", 2), "house": ("house", 4)}


def test_configs_holds_at_most_eight_a_user_starts_from_each_saying_what_it_is_for():
    top = sorted(CONFIGS.glob("*.yaml"))
    assert 1 <= len(top) <= 8, [p.name for p in top]
    for path in top:
        first = path.read_text().splitlines()[0]
        assert first.startswith("# ") and ("minute" in first or "hour" in first), (path.name, first)


@pytest.mark.parametrize("name", EVERY_CONFIG)
def test_every_config_loads_for_the_table_its_name_says(name):
    config = load_config(CONFIGS / name)
    rules = config.make_rules()
    stem = Path(name).stem
    table = next((t for key, t in TABLES.items() if key in stem), ("partnership", 4))
    assert isinstance(config, TrainConfig) and (rules.preset_name, rules.num_players) == table


MODELS = ROOT / "agents" / "models"
# Each shipped model and the config in configs/ whose run it is (its copy sits beside the model).
SHIPPED_RECIPES = {
    "ppo_partnership": "ppo_partnership.yaml",
    "ppo_classic": "ppo_classic.yaml",
    "ppo_house": "ppo_house.yaml",
    "scratch_partnership": "scratch.yaml",
    "scratch_house": "scratch.yaml",
    "scratch_family": "scratch.yaml",
}
# What a shipped model's run may change in its recipe: its name and seed; the scratch models also
# their table, and the time limit (the step size falls by steps, so it changes nothing
# before the run stops).
MAY_DIFFER = {"name", "seed"}
TABLE_RUN_MAY_DIFFER = MAY_DIFFER | {"preset", "rules", "time_limit_minutes"}


def test_every_shipped_model_has_a_recipe():
    assert sorted(path.stem for path in MODELS.glob("*.pt")) == sorted(SHIPPED_RECIPES)


@pytest.mark.parametrize("agent,recipe", SHIPPED_RECIPES.items())
def test_a_shipped_models_config_is_its_recipe_and_matches_the_file(agent, recipe):
    """``agents/models/<agent>.yaml`` is its recipe in configs/ (but for the run's name and seed,
    and another table's), and the model beside it was saved for that config's rules and network."""
    beside = load_config(MODELS / f"{agent}.yaml")
    original = load_config(ROOT / "configs" / recipe).to_dict()
    differ = {key for key, value in beside.to_dict().items() if original[key] != value}
    assert differ <= (TABLE_RUN_MAY_DIFFER if agent.startswith("scratch_") else MAY_DIFFER)
    saved = torch.load(MODELS / f"{agent}.pt", map_location="cpu", weights_only=False)
    assert Rules.from_dict(saved["rules"]) == beside.make_rules()
    network = beside.network
    assert (saved["arch"], saved["shared"], saved["clip"], saved["advisor"]) == (
        network.arch,
        network.shared,
        network.clip,
        network.advisor,
    )
    assert saved.get("advisor_prior", 0.0) == network.advisor_prior


@pytest.mark.parametrize(
    "ray_name,twin", [("ray_quick.yaml", "quick.yaml"), ("experiments/ray_full.yaml", "experiments/full.yaml")]
)
def test_ray_configs_are_their_local_twins_on_workers(ray_name, twin):
    """A Ray config trains exactly what its local twin trains; only the name and the workers differ."""
    on_ray, local = load_config(ROOT / "configs" / ray_name).to_dict(), load_config(ROOT / "configs" / twin).to_dict()
    assert on_ray["ray"]["workers"] > 0 and on_ray["env"]["num_envs"] % on_ray["ray"]["workers"] == 0
    differ = {key for key in local if local[key] != on_ray[key]}
    assert differ == {"name", "ray"} and on_ray["ray"] == dict(local["ray"], workers=on_ray["ray"]["workers"])


@pytest.mark.parametrize(
    "longer,base",
    [
        ("experiments/residual_classic_anneal100.yaml", "experiments/residual_classic_anneal.yaml"),
        ("ppo_classic.yaml", "experiments/residual_classic_anneal.yaml"),
        ("ppo_house.yaml", "experiments/residual_house_anneal.yaml"),
    ],
)
def test_a_longer_schedule_is_its_base_recipe_with_more_steps(longer, base):
    """The shipped classic and house recipes are their 65M and 30M recipes trained longer: only the
    name, the step count (where the step size reaches 0) and the time limit's backstop differ."""
    long, short = load_config(ROOT / "configs" / longer).to_dict(), load_config(ROOT / "configs" / base).to_dict()
    assert {key for key in short if short[key] != long[key]} == {"name", "total_timesteps", "time_limit_minutes"}
    assert long["total_timesteps"] > short["total_timesteps"]


def test_the_220m_scratch_schedule_is_scratch_fast_with_a_falling_step_size_and_deal_rewards():
    recipe = load_config(ROOT / "configs" / "experiments" / "scratch_220m.yaml").to_dict()
    fast = load_config(ROOT / "configs" / "experiments" / "scratch_fast.yaml").to_dict()
    assert {key for key in fast if fast[key] != recipe[key]} == {"name", "total_timesteps", "ppo", "env"}
    assert recipe["ppo"] == dict(fast["ppo"], anneal_lr=True) and not fast["ppo"]["anneal_lr"]
    assert recipe["env"] == dict(fast["env"], reward_mode="deal") and fast["env"]["reward_mode"] == "win_prob"


def test_the_scratch_recipe_is_the_220m_schedule_three_times_longer_kept_against_tuned():
    """configs/scratch.yaml changes the 220M schedule in its length (and the time limit and
    checkpoints that go with it) and its evaluations alone: nothing the learner does per step."""
    recipe = load_config(ROOT / "configs" / "scratch.yaml").to_dict()
    short = load_config(ROOT / "configs" / "experiments" / "scratch_220m.yaml").to_dict()
    differ = {key for key in short if short[key] != recipe[key]}
    assert differ == {"name", "total_timesteps", "time_limit_minutes", "checkpoint_every", "eval"}
    assert recipe["total_timesteps"] == 3 * short["total_timesteps"] and recipe["time_limit_minutes"] == 360
    assert recipe["eval"]["keep_best_vs"] == "tuned" and "tuned" in recipe["eval"]["opponents"]


def test_overrides():
    config = load_config(
        ROOT / "configs" / "quick.yaml",
        ["total_timesteps=1000", "league.opponents.greedy=0.9", "network.arch=[64, 64]", "ppo.learning_rate=1e-3"],
    )
    assert config.total_timesteps == 1000
    assert config.league.opponents == {"greedy": 0.9, "heuristic": 0.4, "random": 0.2}  # the file's, one changed
    assert config.network.arch == [64, 64] and config.ppo.learning_rate == 0.001
    # a section the file leaves out starts from its defaults
    assert load_config(ROOT / "configs" / "quick.yaml", ["dmc.epsilon=0.1"]).dmc.batch_size == 4096


@pytest.mark.parametrize(
    "key,new",
    [
        ("tune_generations=3", "tune: {generations: ...}"),
        ("net_arch=[64]", "network: {arch: ...}"),
        ("keep_best_vs=heuristic", "eval: {keep_best_vs: ...}"),
        ("ray_workers=2", "ray: {workers: ...}"),
    ],
)
def test_flat_keys_of_0_4_are_refused_with_their_new_name(key, new):
    with pytest.raises(ValueError, match=f"moved in handfoot 0.5: write it as {re.escape(new)}"):
        load_config(ROOT / "configs" / "quick.yaml", [key])


@pytest.mark.parametrize(
    "overrides,message",
    [
        (["colour=red"], "unknown config key 'colour'"),
        (["ppo.colour=red"], "unknown config key 'ppo.colour'"),
        (["ppo=3"], "'ppo' is a section"),
        (["total_timesteps=lots"], "config key 'total_timesteps': expected int"),
        (["env.num_envs=0"], "'env.num_envs': must be at least 1"),
        (["algorithm=sarsa"], "'algorithm': must be one of ppo, dmc"),
        (["algorithm=dmc"], "dmc learns Q-values from scratch"),
        (["network.shared=true", "network.privileged_critic=true"], "needs a critic of its own"),
        (["dmc.horizon=forever"], "'dmc.horizon'"),
        (["eval.select_pairs=0"], "'eval.select_pairs': must be at least 1"),
        (["device=gpu"], "'device': must be auto, cpu or cuda"),
        (["imitation.passes=0"], "'imitation.passes': must be at least 1"),
        (["imitation.learning_rate=-0.1"], "'imitation.learning_rate': must be between 0 and 1"),
        (["imitation.teacher=genius"], "'imitation.teacher': must be empty, tuned or tuned:PATH"),
        (["imitation.teacher=tuned", "tune.generations=2"], "the heuristic search finds the teacher"),
        (["preset=bridge"], "'preset'"),
        (["preset=house", "rules={num_players: 3}"], "'rules': .*2 players alone or 4 in two teams"),
        (["rules={handsize: 13}"], "'rules': unknown rules field 'handsize'"),
        (["league.opponents.genius=1"], "unknown agent 'genius'"),
        (["league.opponents.self=0.5"], "snapshot_every"),
        (["env.reward_mode=points"], "'env.reward_mode'"),
        (["network.arch=[0]"], "'network.arch'"),
        (["tune.generations=-1"], "'tune.generations'"),
        (["tune.generations=2", "tune.population=3", "tune.elite=4"], "'tune.elite': must not exceed"),
        (["tune.generations=2", "tune.fitness=elo"], "'tune.fitness': must be win_rate or score_diff"),
        (["tune.generations=2", "tune.validate_generations=3"], "'tune.validate_generations': must be between 0"),
        (["tune.generations=2", "tune.pairs=0"], "'tune.pairs': must be at least 1"),
        (["tune.generations=2", "preset=house", "rules={num_players: 4}", "tune.pair_positions=10"], "without one"),
        (["ray.workers=-1"], "'ray.workers': must be 0"),
        (["ray.workers=3"], "'ray.workers': must divide env.num_envs"),
        (["ray.address=nonsense"], "'ray.address': a Ray address is HOST:PORT"),
        (["total_timesteps"], "key=value"),
        (["ppo.clip_range=-1"], "'ppo.clip_range': must be positive"),
        (["ppo.ent_coef=-0.1"], "'ppo.ent_coef': must be 0 or more"),
        (["env.shaping=.inf"], "'env.shaping'"),
        (["time_limit_minutes=.nan"], "'time_limit_minutes'"),
        (["ppo.max_grad_norm=.nan"], "'ppo.max_grad_norm'"),
        (["network.clip=0.5"], "'network.clip': .*at least 1"),
        (["network.advisor_prior=1"], "'network.advisor_prior': is the advisor's chance under the prior, in"),
        (["network.advisor=false", "network.advisor_prior=0.9"], "needs network.advisor: true"),
        (["imitation.decisions=0", "ppo.anchor_coef=0.1"], "needs imitation.decisions > 0 or network.advisor_prior"),
        (
            [
                "algorithm=dmc",
                "imitation.decisions=0",
                "tune.generations=0",
                "network.advisor=false",
                "ppo.anchor_coef=0",
                "env.reward_mode=game",
            ],
            "'dmc.horizon': with env.reward_mode game",
        ),
        (["eval.every=0"], "'eval.keep_best_vs': selects at each evaluation"),
        (["eval.pairs=900001"], "'eval.pairs': must be at most 900,000"),
    ],
)
def test_bad_configs_name_the_key(overrides, message):
    with pytest.raises(ValueError, match=message):
        load_config(ROOT / "configs" / "quick.yaml", overrides)


def test_bad_files(tmp_path):
    with pytest.raises(ValueError, match="cannot read config"):
        load_config(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed")
    with pytest.raises(ValueError, match="not valid YAML"):
        load_config(bad)


def test_cuda_without_a_gpu_is_refused_in_one_line():
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(ValueError, match="'device': cuda: this machine has no CUDA GPU"):
        load_config(ROOT / "configs" / "quick.yaml", ["device=cuda"])
    assert load_config(ROOT / "configs" / "quick.yaml", ["device=auto"]).device == "auto"


def test_the_gpu_check_script_stops_at_once_without_a_gpu():
    import os
    import subprocess
    import sys

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU: the script would run for minutes")
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "gpu_check.sh")],
        check=False,
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": path},
    )
    assert done.returncode == 1 and done.stderr.strip() == "no CUDA GPU that torch can use"
