"""PPO's loss and update against numbers worked out by hand and against CleanRL's formulas
(``ppo.py``: ``pg_loss = max(-adv * ratio, -adv * clip(ratio))``, ``v_loss = 0.5 * (v - R)^2``,
``approx_kl = (ratio - 1) - log ratio``), computed here in numpy; then the update's direction:
one step raises the chance of actions with a positive advantage and lowers it for a negative
one, the entropy bonus spreads the policy, the critic moves towards the returns, the anchor
pulls towards its policy."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest
import torch

from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.rules import Rules
from train.algorithms.ppo import PPO, normalise, ppo_loss, ppo_terms
from train.config import load_config
from train.loop import make_policy

RULES = Rules.preset("classic", num_players=2, num_deals=1)
CLIP = 0.2


def config(*overrides: str):
    return load_config(
        None,
        [
            "preset=classic",
            "rules={num_players: 2, num_deals: 1}",
            "network.arch=[32]",
            "ppo.n_epochs=1",
            "ppo.ent_coef=0.0",
            "ppo.learning_rate=0.001",
            *overrides,
        ],
    )


def two_actions(p_taken: np.ndarray) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Log-probabilities ``[B, NUM_ACTIONS]`` with actions 0 (chance ``p_taken``) and 1 legal,
    the masks, and the taken actions (all 0)."""
    rows = len(p_taken)
    probs = np.zeros((rows, NUM_ACTIONS))
    probs[:, 0], probs[:, 1] = p_taken, 1 - p_taken
    masks = torch.as_tensor(probs > 0)
    with np.errstate(divide="ignore"):
        log_probs = torch.as_tensor(np.log(probs), dtype=torch.float32)
    return log_probs, masks, torch.zeros(rows, dtype=torch.int64)


# ---------------------------------------------------------------------------- the terms
def test_the_terms_on_numbers_worked_by_hand():
    # The taken action has chance 1/2 now; at collection it had 1/2 / ratio.
    ratios = np.array([1.5, 1.5, 0.5, 0.5, 1.1])
    advantages = torch.tensor([1.0, -1.0, 1.0, -1.0, 2.0])
    log_probs, masks, actions = two_actions(np.full(5, 0.5))
    old = torch.as_tensor(np.log(0.5 / ratios), dtype=torch.float32)
    anchor, _, _ = two_actions(np.full(5, 0.25))
    values, returns = torch.tensor([1.0, 2, 3, 4, 5]), torch.tensor([1.0, 2, 3, 4, 7])
    terms = ppo_terms(log_probs, masks, actions, old, advantages, values, returns, CLIP, anchor)
    # row by row, the larger of -A * r and -A * clip(r, 0.8, 1.2):
    #   r 1.5, A +1: -1.5 or -1.2 -> -1.2     r 1.5, A -1: 1.5 or 1.2 -> 1.5
    #   r 0.5, A +1: -0.5 or -0.8 -> -0.5     r 0.5, A -1: 0.5 or 0.8 -> 0.8
    #   r 1.1, A +2: -2.2 either way
    assert float(terms.policy_loss) == pytest.approx((-1.2 + 1.5 - 0.5 + 0.8 - 2.2) / 5)
    assert float(terms.value_loss) == pytest.approx(0.5 * 2.0**2 / 5)
    assert float(terms.entropy) == pytest.approx(math.log(2))  # two legal actions at 1/2 each
    assert float(terms.anchor_kl) == pytest.approx(0.25 * math.log(0.25 / 0.5) + 0.75 * math.log(0.75 / 0.5))
    assert float(terms.clip_fraction) == pytest.approx(4 / 5)
    k3 = [r - 1 - math.log(r) for r in ratios]
    assert float(terms.approx_kl) == pytest.approx(sum(k3) / 5, rel=1e-5)


def test_the_terms_equal_cleanrls_formulas_on_a_random_batch():
    rng = np.random.default_rng(0)
    rows = 64
    masks = rng.random((rows, NUM_ACTIONS)) < 0.05
    masks[np.arange(rows), rng.integers(NUM_ACTIONS, size=rows)] = True
    logits = np.where(masks, rng.normal(size=masks.shape) * 2, -np.inf)
    anchor_logits = np.where(masks, rng.normal(size=masks.shape), -np.inf)

    def log_softmax(z):
        top = z.max(axis=1, keepdims=True)
        return z - top - np.log(np.exp(z - top).sum(axis=1, keepdims=True))

    logp, anchor_logp = log_softmax(logits), log_softmax(anchor_logits)
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    old = logp[np.arange(rows), actions] + rng.normal(scale=0.3, size=rows)  # ratios around 1, some clipped
    raw_adv = rng.normal(size=rows) * 3 + 1
    values, returns = rng.normal(size=rows), rng.normal(size=rows)

    # CleanRL's ppo.py, in numpy
    adv = (raw_adv - raw_adv.mean()) / (raw_adv.std(ddof=1) + 1e-8)
    logratio = logp[np.arange(rows), actions] - old
    ratio = np.exp(logratio)
    pg_loss = np.maximum(-adv * ratio, -adv * np.clip(ratio, 1 - CLIP, 1 + CLIP)).mean()
    v_loss = 0.5 * ((values - returns) ** 2).mean()
    p = np.exp(logp)
    entropy = -np.where(masks, p * np.where(masks, logp, 0), 0).sum(axis=1).mean()
    pa = np.exp(anchor_logp)
    anchor_kl = np.where(masks, pa * (np.where(masks, anchor_logp, 0) - np.where(masks, logp, 0)), 0).sum(1).mean()
    approx_kl = ((ratio - 1) - logratio).mean()
    clipfrac = (np.abs(ratio - 1) > CLIP).mean()

    def t(a):
        return torch.as_tensor(a, dtype=torch.float32)

    normalised = normalise(t(raw_adv))
    np.testing.assert_allclose(normalised.numpy(), adv, rtol=1e-5, atol=1e-6)
    terms = ppo_terms(
        t(logp), torch.as_tensor(masks), torch.as_tensor(actions), t(old), normalised, t(values), t(returns), CLIP,
        t(anchor_logp),
    )  # fmt: skip
    assert 0.1 < clipfrac < 0.9  # both kinds of rows are in the batch
    for name, expected in (
        ("policy_loss", pg_loss),
        ("value_loss", v_loss),
        ("entropy", entropy),
        ("anchor_kl", anchor_kl),
        ("approx_kl", approx_kl),
        ("clip_fraction", clipfrac),
    ):
        assert float(getattr(terms, name)) == pytest.approx(expected, rel=1e-4, abs=1e-6), name


def test_a_one_row_minibatch_keeps_its_advantage():
    assert normalise(torch.tensor([3.0])).tolist() == [3.0]
    assert normalise(torch.tensor([1.0, 3.0])).tolist() == pytest.approx([-1 / math.sqrt(2), 1 / math.sqrt(2)])


def test_the_loss_adds_the_terms_with_their_signs_and_weights():
    log_probs, masks, actions = two_actions(np.array([0.5, 0.5]))
    terms = ppo_terms(
        log_probs, masks, actions, log_probs[:, 0], torch.tensor([1.0, -1.0]), torch.zeros(2), torch.ones(2), CLIP
    )
    policy, value, entropy = float(terms.policy_loss), float(terms.value_loss), float(terms.entropy)
    assert float(ppo_loss(terms, 0.5, 0.01, 3.0, train_actor=True)) == pytest.approx(
        policy + 0.5 * value - 0.01 * entropy
    )
    assert float(ppo_loss(terms, 0.5, 0.01, 3.0, train_actor=False)) == pytest.approx(0.5 * value)
    anchored = terms._replace(anchor_kl=torch.tensor(0.25))
    assert float(ppo_loss(anchored, 0.5, 0.01, 3.0, train_actor=True)) == pytest.approx(
        policy + 0.5 * value - 0.01 * entropy + 0.75
    )


@pytest.mark.parametrize(
    "advantage, ratio, pulls",
    [
        # a good action: pulled up until its ratio passes 1 + clip, and below 1 - clip still
        (1.0, 0.70, True),
        (1.0, 0.79, True),
        (1.0, 1.00, True),
        (1.0, 1.19, True),
        (1.0, 1.21, False),
        (1.0, 1.50, False),
        # a bad action: pushed down until its ratio passes 1 - clip, and above 1 + clip still
        (-1.0, 1.50, True),
        (-1.0, 1.21, True),
        (-1.0, 1.00, True),
        (-1.0, 0.81, True),
        (-1.0, 0.79, False),
        (-1.0, 0.50, False),
    ],
)
def test_clipping_stops_the_pull_exactly_past_the_clip_range(advantage, ratio, pulls):
    """The gradient of the policy loss on the taken action's log-probability: -A * ratio where
    the surrogate pulls (the pessimistic bound is the unclipped term), 0 once the ratio is past
    the clip range in the direction the advantage pushes it."""
    log_probs, masks, actions = two_actions(np.array([0.5]))
    log_probs.requires_grad_(True)
    old = torch.tensor([math.log(0.5 / ratio)])
    terms = ppo_terms(log_probs, masks, actions, old, torch.tensor([advantage]), torch.zeros(1), torch.zeros(1), CLIP)
    terms.policy_loss.backward()
    gradient = float(log_probs.grad[0, 0])
    assert gradient == pytest.approx(-advantage * ratio if pulls else 0.0, rel=1e-5, abs=1e-9)
    assert float(terms.clip_fraction) == (abs(ratio - 1) > CLIP)


# ---------------------------------------------------------------------------- the update
def decision_batch(policy, steps: int = 8, envs: int = 16, seed: int = 0) -> dict[str, np.ndarray]:
    """A rollout of decisions on random inputs (several legal actions each), the actions and
    their log-probabilities and values as ``explore`` keeps them; every decision ends its game
    (its advantage is its reward less its value)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(steps, envs, policy.width)).astype(np.float32)
    masks = rng.random((steps, envs, NUM_ACTIONS)) < 0.04
    masks[..., :3] = True  # at least three legal actions in every row
    with torch.no_grad():
        logits, values = policy(
            torch.as_tensor(x.reshape(-1, policy.width)), torch.as_tensor(masks.reshape(-1, NUM_ACTIONS))
        )
        log_probs = torch.log_softmax(logits, -1)
        actions = torch.multinomial(log_probs.exp(), 1, generator=torch.Generator().manual_seed(seed)).squeeze(1)
    return {
        "x": x,
        "masks": masks,
        "actions": actions.numpy().reshape(steps, envs),
        "logprobs": log_probs.gather(1, actions[:, None]).squeeze(1).numpy().reshape(steps, envs),
        "values": values.numpy().reshape(steps, envs),
        "rewards": values.numpy().reshape(steps, envs).copy(),
        "dones": np.ones((steps, envs), dtype=np.float32),
        "deal_ends": np.ones((steps, envs), dtype=np.float32),
        "last_x": x[-1],
        "last_masks": masks[-1],
    }


def chosen_log_probs(policy, batch) -> np.ndarray:
    width = policy.width
    with torch.no_grad():
        logits = policy.logits(
            torch.as_tensor(batch["x"].reshape(-1, width)), torch.as_tensor(batch["masks"].reshape(-1, NUM_ACTIONS))
        )
    chosen = torch.log_softmax(logits, -1).gather(1, torch.as_tensor(batch["actions"].reshape(-1, 1))).squeeze(1)
    return chosen.numpy().reshape(batch["actions"].shape)


def entropy_of(policy, batch) -> float:
    with torch.no_grad():
        logits = policy.logits(
            torch.as_tensor(batch["x"].reshape(-1, policy.width)),
            torch.as_tensor(batch["masks"].reshape(-1, NUM_ACTIONS)),
        )
    log_probs = torch.log_softmax(logits, -1)
    return float(-(log_probs.exp() * log_probs.masked_fill(torch.isinf(log_probs), 0)).sum(-1).mean())


def test_one_update_raises_good_actions_and_lowers_bad_ones():
    cfg = config()
    policy = make_policy(cfg, RULES)
    batch = decision_batch(policy)
    good = np.indices(batch["actions"].shape)[1] % 2 == 0  # every other game went well
    batch["rewards"] = batch["values"] + np.where(good, 1.0, -1.0).astype(np.float32)
    before = chosen_log_probs(policy, batch)
    PPO(cfg, policy).update(batch, 0)
    change = chosen_log_probs(policy, batch) - before
    # Rows share the network, so a row can be carried along by the others: on the whole, and
    # for almost every row, the good went up and the bad down.
    assert change[good].mean() > 0.005 and change[~good].mean() < -0.005
    assert (change[good] > 0).mean() > 0.9 and (change[~good] < 0).mean() > 0.9


def test_the_advantage_is_the_reward_less_the_value_where_each_decision_ends_its_game():
    cfg = config("ppo.gamma=0.9", "ppo.gae_lambda=0.5")
    policy = make_policy(cfg, RULES)
    batch = decision_batch(policy)
    batch["rewards"] = np.random.default_rng(1).normal(size=batch["rewards"].shape).astype(np.float32)
    advantages, returns = PPO(cfg, policy).targets(batch)
    np.testing.assert_allclose(advantages, batch["rewards"] - batch["values"], rtol=1e-6)
    np.testing.assert_allclose(returns, batch["rewards"], rtol=1e-6, atol=1e-6)


def test_the_entropy_bonus_spreads_the_policy():
    cfg = config("ppo.ent_coef=0.5", "ppo.learning_rate=0.01")
    policy = make_policy(cfg, RULES)
    with torch.no_grad():  # start from a peaked policy
        policy.actor_layer.weight.mul_(300)
    batch = decision_batch(policy)  # every advantage 0: the bonus alone moves the actor
    before = entropy_of(policy, batch)
    PPO(cfg, policy).update(batch, 0)
    assert entropy_of(policy, batch) > before + 0.01


def test_the_critic_moves_towards_the_returns_and_alone_while_it_warms_up():
    cfg = config("ppo.value_warmup_rollouts=1", "ppo.learning_rate=0.01")
    policy = make_policy(cfg, RULES)
    batch = decision_batch(policy)
    good = np.indices(batch["actions"].shape)[1] % 2 == 0
    batch["rewards"] = batch["values"] + np.where(good, 1.0, -1.0).astype(np.float32)
    algorithm = PPO(cfg, policy)
    actor = [p.detach().clone() for p in policy.actor_parameters()]

    def value_error() -> float:
        with torch.no_grad():
            _, values = policy(
                torch.as_tensor(batch["x"].reshape(-1, policy.width)),
                torch.as_tensor(batch["masks"].reshape(-1, NUM_ACTIONS)),
            )
        return float(np.abs(values.numpy() - batch["rewards"].reshape(-1)).mean())

    before = value_error()
    algorithm.update(batch, 0)  # the warm-up rollout: only the critic learns
    assert value_error() < before - 0.05
    assert all(torch.equal(p, q) for p, q in zip(policy.actor_parameters(), actor))
    before_actor = chosen_log_probs(policy, batch)
    algorithm.update(batch, 0)  # then the actor too
    assert not np.allclose(chosen_log_probs(policy, batch), before_actor)


def test_the_anchor_pulls_the_policy_towards_its_own():
    cfg = config("ppo.anchor_coef=10", "ppo.learning_rate=0.01", "imitation.decisions=1000")
    policy = make_policy(cfg, RULES)
    batch = decision_batch(policy)  # advantages 0: the anchor alone moves the actor
    algorithm = PPO(cfg, policy)
    anchor = copy.deepcopy(policy)
    with torch.no_grad():
        anchor.actor_layer.weight.add_(
            torch.randn_like(anchor.actor_layer.weight, generator=torch.Generator().manual_seed(3))
        )
    algorithm.anchor = anchor.eval()
    x = torch.as_tensor(batch["x"].reshape(-1, policy.width))
    masks = torch.as_tensor(batch["masks"].reshape(-1, NUM_ACTIONS))

    def kl() -> float:
        with torch.no_grad():
            a, p = torch.log_softmax(anchor.logits(x, masks), -1), torch.log_softmax(policy.logits(x, masks), -1)
        return float(torch.where(masks, a.exp() * (a - p), 0.0).sum(-1).mean())

    before = kl()
    stats = algorithm.update(batch, 0)
    assert stats["anchor_kl"] == pytest.approx(before, rel=1e-4)  # one minibatch: read before its step
    assert kl() < before - 0.01


def test_the_update_normalises_the_advantages_of_each_minibatch():
    """Advantages of +-1 or of +-100 shifted by 5 normalise to the same numbers: the actor
    takes the same step (the critic, whose targets differ, learns apart from it)."""
    steps = []
    for scale, shift in ((1.0, 0.0), (100.0, 5.0)):
        cfg = config()
        torch.manual_seed(0)
        policy = make_policy(cfg, RULES)
        batch = decision_batch(policy)
        good = np.indices(batch["actions"].shape)[1] % 2 == 0
        batch["rewards"] = batch["values"] + (np.where(good, scale, -scale) + shift).astype(np.float32)
        before = [p.detach().clone() for p in policy.actor_parameters()]
        PPO(cfg, policy).update(batch, 0)
        steps.append([p.detach() - b for p, b in zip(policy.actor_parameters(), before)])
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(*steps))
    assert any(a.abs().max() > 1e-4 for a in steps[0])  # and the actor did move
