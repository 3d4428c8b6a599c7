"""The rollout's bookkeeping: every buffer row is what the games showed and returned at that
step.  A scripted stand-in for the learner's games hands the collector known observations,
masks, hidden cards, rewards, game ends and deal ends (deals and games ending mid-rollout), and
records the actions it is given; then the real games, whose rewards over a finished game add
up to the learner side's result."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import torch

from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.baselines import make_baseline
from handfoot_env.observation import OBS_SIZE
from handfoot_env.rules import Rules
from handfoot_env.seating.rewards import game_result, margin
from train.algorithms.dmc import DMC
from train.algorithms.ppo import PPO
from train.collect import RolloutCollector
from train.config import load_config
from train.loop import make_policy

RULES = Rules.preset("classic", num_players=2, num_deals=2)
STEPS, ENVS = 10, 6


class ScriptedGames:
    """Stands in for ``LearnerGames``: what it shows and returns at each step is drawn in
    advance, and the actions it is given are kept."""

    def __init__(self, steps: int, envs: int, hidden_width: int, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.batch_size = envs
        self.observations = rng.integers(0, 3, size=(steps + 1, envs, OBS_SIZE)).astype(np.float32)
        self.masks = rng.random((steps + 1, envs, NUM_ACTIONS)) < 0.05
        self.masks[..., 7] = True  # at least one legal action, most rows several
        self.hidden = rng.integers(0, 3, size=(steps + 1, envs, hidden_width)).astype(np.float32)
        self.rewards = rng.normal(size=(steps, envs)).astype(np.float32)
        self.deal_ends = rng.random((steps, envs)) < 0.3
        self.dones = self.deal_ends & (rng.random((steps, envs)) < 0.5)  # a game ends as its deal does
        assert self.deal_ends.sum() > self.dones.sum() > 0
        self.received: list[np.ndarray] = []
        self.deal_ended = np.zeros(envs, dtype=bool)
        self.seating = SimpleNamespace(agent_seconds=0.0)

    @property
    def t(self) -> int:
        return len(self.received)

    def observe(self) -> np.ndarray:
        return self.observations[self.t].copy()

    def action_masks(self) -> np.ndarray:
        return self.masks[self.t].copy()

    def hidden_cards(self) -> np.ndarray:
        return self.hidden[self.t].copy()

    def step(self, actions, observe: bool = True):
        actions = np.asarray(actions).copy()
        assert self.masks[self.t][np.arange(self.batch_size), actions].all(), "an illegal action"
        t = self.t
        self.received.append(actions)
        self.deal_ended = self.deal_ends[t].copy()
        return self.observe() if observe else None, self.rewards[t].copy(), self.dones[t].copy(), {}


def collect(algorithm_name: str, *overrides: str):
    config = load_config(
        None,
        [
            "preset=classic",
            "rules={num_players: 2, num_deals: 2}",
            "network.arch=[16]",
            "network.mask_input=true",  # the legal actions are inputs too: x shows the step's masks
            f"algorithm={algorithm_name}",
            *overrides,
        ],
    )
    torch.manual_seed(0)
    policy = make_policy(config, RULES)
    algorithm = (PPO if algorithm_name == "ppo" else DMC)(config, policy)
    collector = RolloutCollector(RULES, [make_baseline("random", rules=RULES)], [1.0], seed=0, num_envs=ENVS)
    games = ScriptedGames(STEPS, ENVS, max(policy.critic_extra, 1))
    collector.games = games
    return policy, games, collector.collect(policy, algorithm.explore, STEPS)


def inputs_at(policy, games: ScriptedGames, t: int) -> np.ndarray:
    return policy.inputs(games.observations[t], games.masks[t], RULES)


@pytest.mark.parametrize("privileged", [False, True])
def test_every_ppo_row_is_what_the_games_showed_and_returned_at_its_step(privileged):
    policy, games, batch = collect("ppo", f"network.privileged_critic={str(privileged).lower()}")
    assert batch is not None and len(games.received) == STEPS
    for t in range(STEPS):
        x = inputs_at(policy, games, t)
        np.testing.assert_array_equal(batch["x"][t], x)
        np.testing.assert_array_equal(batch["masks"][t], games.masks[t])
        np.testing.assert_array_equal(batch["actions"][t], games.received[t])
        np.testing.assert_array_equal(batch["rewards"][t], games.rewards[t])
        np.testing.assert_array_equal(batch["dones"][t], games.dones[t])
        np.testing.assert_array_equal(batch["deal_ends"][t], games.deal_ends[t])
        extra = torch.as_tensor(games.hidden[t]) if privileged else None
        if privileged:
            np.testing.assert_array_equal(batch["extra"][t], games.hidden[t])
        with torch.no_grad():
            logits, values = policy(torch.as_tensor(x), torch.as_tensor(games.masks[t]), extra)
        log_probs = torch.log_softmax(logits, -1)[torch.arange(ENVS), torch.as_tensor(games.received[t])]
        np.testing.assert_allclose(batch["logprobs"][t], log_probs.numpy(), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(batch["values"][t], values.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(batch["last_x"], inputs_at(policy, games, STEPS))
    np.testing.assert_array_equal(batch["last_masks"], games.masks[STEPS])
    if privileged:
        np.testing.assert_array_equal(batch["last_extra"], games.hidden[STEPS])
    else:
        assert "extra" not in batch and "last_extra" not in batch
    # the sampled actions differ between rows and steps: the rows are not one row repeated
    assert len(np.unique(batch["actions"])) > 5


def test_every_dmc_row_is_what_the_games_showed_and_its_greedy_action():
    policy, games, batch = collect("dmc", "dmc.epsilon=0.0")
    assert batch is not None
    assert set(batch) == {"x", "masks", "actions", "rewards", "dones", "deal_ends", "last_x", "last_masks"}
    for t in range(STEPS):
        x = inputs_at(policy, games, t)
        np.testing.assert_array_equal(batch["x"][t], x)
        np.testing.assert_array_equal(batch["masks"][t], games.masks[t])
        np.testing.assert_array_equal(batch["actions"][t], games.received[t])
        with torch.no_grad():
            best = policy.logits(torch.as_tensor(x), torch.as_tensor(games.masks[t])).argmax(-1).numpy()
        np.testing.assert_array_equal(batch["actions"][t], best)  # epsilon 0: the best Q
        np.testing.assert_array_equal(batch["rewards"][t], games.rewards[t])
        np.testing.assert_array_equal(batch["dones"][t], games.dones[t])
        np.testing.assert_array_equal(batch["deal_ends"][t], games.deal_ends[t])
    np.testing.assert_array_equal(batch["last_x"], inputs_at(policy, games, STEPS))


@pytest.mark.parametrize(
    "preset, players, reward_mode", [("classic", 2, "deal"), ("partnership", 4, "deal"), ("classic", 3, "game")]
)
def test_a_finished_games_rewards_add_up_to_the_learner_sides_result(preset, players, reward_mode):
    """Real games: each column's first game, from the rollout's first step to the step that
    ended it, earns in all the learner side's result from the final totals (its deal margins'
    sum, or +1 / 0 / -1), with a deal end at each of its deals' ends."""
    rules = Rules.preset(preset, num_players=players, num_deals=2 if reward_mode == "deal" else 1)
    config = load_config(
        None,
        [f"preset={preset}", f"rules={{num_players: {players}, num_deals: {rules.num_deals}}}", "network.arch=[16]"],
    )
    policy = make_policy(config, rules)
    collector = RolloutCollector(
        rules, [make_baseline("greedy", rules=rules)], [1.0], seed=3, num_envs=8, reward_mode=reward_mode
    )
    games = collector.games
    finished: dict[int, dict] = {}
    step = games.step

    def recording_step(actions, **options):
        out = step(actions, **options)
        for b, end in out[3].items():
            finished.setdefault(b, end)  # the column's first game
        return out

    games.step = recording_step
    batch = collector.collect(policy, PPO(config, policy).explore, 200)
    assert batch is not None
    checked = 0
    for b, end in finished.items():
        last = int(np.flatnonzero(batch["dones"][:, b])[0])
        earned = float(batch["rewards"][: last + 1, b].sum())
        totals, side = np.array([end["final_totals"]]), np.array([end["learner_side"]])
        result = margin(totals, side)[0] if reward_mode == "deal" else game_result(totals, side)[0]
        assert earned == pytest.approx(result, abs=1e-4), (b, earned, end)
        assert batch["deal_ends"][last, b] == 1
        assert batch["deal_ends"][:last, b].sum() == rules.num_deals - 1  # the deals before the last
        checked += 1
    assert checked >= 6


def test_a_new_opponent_pool_plays_the_new_games():
    """After ``set_opponents`` (a league snapshot joining the pool) the games that start draw
    from the new pool, and its agents are the ones asked to move."""
    asked = []

    class Recording:
        name = "recording"

        def act(self, observations, masks):
            asked.append(len(masks))
            return masks.argmax(axis=1)

    rules = Rules.preset("classic", num_players=2, num_deals=1)
    config = load_config(None, ["preset=classic", "rules={num_players: 2, num_deals: 1}", "network.arch=[16]"])
    policy = make_policy(config, rules)
    random_agent = make_baseline("random", rules=rules)
    collector = RolloutCollector(rules, [random_agent], [1.0], seed=0, num_envs=4)
    collector.set_opponents([random_agent, Recording()], [0.0, 1.0])
    collector.games.reset()
    assert collector.collect(policy, PPO(config, policy).explore, 5) is not None
    assert sum(asked) >= 4 * 5  # every game's opponent, every turn
