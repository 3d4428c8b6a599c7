"""Training configs: validated on load, unknown keys and bad values named, --set overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from train.config import TrainConfig, load_config

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "name,preset,players",
    [
        ("quick.yaml", "partnership", 4),
        ("full.yaml", "partnership", 4),
        ("classic.yaml", "classic", 2),
        ("house.yaml", "house", 4),
        ("ray_quick.yaml", "partnership", 4),
        ("ray_full.yaml", "partnership", 4),
    ],
)
def test_shipped_configs_load(name, preset, players):
    config = load_config(ROOT / "configs" / name)
    rules = config.make_rules()
    assert isinstance(config, TrainConfig) and (rules.preset_name, rules.num_players) == (preset, players)


@pytest.mark.parametrize("ray_name,twin", [("ray_quick.yaml", "quick.yaml"), ("ray_full.yaml", "full.yaml")])
def test_ray_configs_are_their_local_twins_on_workers(ray_name, twin):
    """A Ray config trains exactly what its local twin trains; only the name and the workers differ."""
    on_ray, local = load_config(ROOT / "configs" / ray_name).to_dict(), load_config(ROOT / "configs" / twin).to_dict()
    assert on_ray["ray_workers"] > 0 and on_ray["num_envs"] % on_ray["ray_workers"] == 0
    differ = {key for key in local if local[key] != on_ray[key]}
    assert differ == {"name", "ray_workers"}


def test_overrides():
    config = load_config(
        ROOT / "configs" / "quick.yaml",
        ["total_timesteps=1000", "opponents.greedy=0.9", "net_arch=[64, 64]", "learning_rate=1e-3"],
    )
    assert config.total_timesteps == 1000 and config.opponents["greedy"] == 0.9
    assert config.net_arch == [64, 64] and config.learning_rate == 0.001


@pytest.mark.parametrize(
    "overrides,message",
    [
        (["colour=red"], "unknown config key 'colour'"),
        (["total_timesteps=lots"], "config key 'total_timesteps': expected int"),
        (["num_envs=0"], "'num_envs': must be at least 1"),
        (["preset=bridge"], "'preset'"),
        (["preset=house", "rules={num_players: 3}"], "'rules': .*2 players alone or 4 in two teams"),
        (["rules={handsize: 13}"], "'rules': unknown rules field 'handsize'"),
        (["opponents.genius=1"], "unknown opponent 'genius'"),
        (["opponents.self=0.5"], "snapshot_every"),
        (["reward_mode=points"], "reward_mode"),
        (["net_arch=[0]"], "net_arch"),
        (["tune_generations=-1"], "'tune_generations'"),
        (["tune_generations=2", "tune_population=3", "tune_elite=4"], "'tune_elite': must not exceed"),
        (["tune_generations=2", "tune_fitness=elo"], "'tune_fitness': must be win_rate or score_diff"),
        (["tune_generations=2", "tune_validate_generations=3"], "'tune_validate_generations': must be between 0"),
        (["tune_generations=2", "tune_pairs=0"], "'tune_pairs': must be at least 1"),
        (["tune_generations=2", "preset=house", "rules={num_players: 4}", "tune_pair_positions=10"], "without one"),
        (["ray_workers=-1"], "'ray_workers': must be 0"),
        (["ray_workers=3"], "'ray_workers': must divide num_envs"),
        (["ray_address=nonsense"], "'ray_address': a Ray address is HOST:PORT"),
        (["total_timesteps"], "key=value"),
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
