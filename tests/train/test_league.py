"""The league's pool: the scripted agents at their weights, the ``self`` weight shared by the
snapshots, and the oldest snapshot the one to leave a full pool."""

from __future__ import annotations

import pytest

from handfoot_env.rules import Rules
from train.config import load_config
from train.league import League
from train.loop import make_policy

RULES = Rules.preset("classic", num_players=2, num_deals=1)


@pytest.fixture
def policy():
    return make_policy(
        load_config(None, ["preset=classic", "rules={num_players: 2, num_deals: 1}", "network.arch=[8]"]), RULES
    )


def test_the_self_weight_is_shared_by_the_snapshots(policy):
    league = League({"random": 0.5, "greedy": 0.3, "self": 0.2}, max_snapshots=4, rules=RULES)
    agents, weights = league.pool()
    assert [agent.name for agent in agents] == ["random", "greedy"] and weights == [0.5, 0.3]  # no snapshot yet
    for step in (100, 200):
        league.add_snapshot(policy, RULES, step)
    agents, weights = league.pool()
    assert [agent.name for agent in agents] == ["random", "greedy", "snapshot@100", "snapshot@200"]
    assert weights == pytest.approx([0.5, 0.3, 0.1, 0.1])  # the config's 0.2 for self, in all


def test_a_full_pool_replaces_its_oldest_snapshot_in_place(policy):
    league = League({"random": 0.5, "self": 0.5}, max_snapshots=3, rules=RULES)
    for step in (100, 200, 300, 400, 500):
        league.add_snapshot(policy, RULES, step)
    # 400 took 100's place, then 500 took 200's: the games seated with an index keep a valid one
    assert league.snapshot_steps == [400, 500, 300]
    assert [agent.name for agent in league.snapshots] == ["snapshot@400", "snapshot@500", "snapshot@300"]
