# Masked PPO in CleanRL's single-file style (ppo.py, with the invalid-action masking of
# ppo_gridnet.py), on Hand and Foot's Gymnasium vector env: N games on the vector engine, the
# opponents built in.  The one handfoot-specific line is the env's creation; the masks come in
# infos["action_mask"].
#
#     python examples/cleanrl_ppo_masked.py                                   # classic, 2 players, 1 deal
#     python examples/cleanrl_ppo_masked.py --preset partnership --deals 0 --total-timesteps 2000000
#     python examples/cleanrl_ppo_masked.py --save classic.pt     # then: handfoot benchmark \
#         py:examples/policy_agent.py:make:classic.pt             # (docs/benchmark.md, "From another framework")
#
# Prints one line per iteration and, at the end, a JSON summary with the mean return of the
# untrained and the trained policy over the same evaluation deals (against the same opponent).
import argparse
import json
import random
import time

import gymnasium as gym
import numpy as np
import torch
from torch import nn, optim
from torch.distributions.categorical import Categorical

from handfoot_env import Rules  # importing handfoot_env registers handfoot/HandFoot-v0 and its vector entry point


def parse_args():
    # fmt: off
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1, help="seed of the experiment")
    parser.add_argument("--torch-deterministic", type=int, default=1, help="torch.backends.cudnn.deterministic")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (one is fastest on a busy CPU)")
    parser.add_argument("--preset", type=str, default="classic", help="classic, partnership or house")
    parser.add_argument("--num-players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=1, help="deals per game (0: the preset's)")
    parser.add_argument("--opponent", type=str, default="random", help="random, greedy or heuristic")
    parser.add_argument("--total-timesteps", type=int, default=500_000, help="learner steps in all")
    parser.add_argument("--learning-rate", type=float, default=2.5e-4)
    parser.add_argument("--num-envs", type=int, default=64, help="games stepped together")
    parser.add_argument("--num-steps", type=int, default=128, help="steps per game per rollout")
    parser.add_argument("--anneal-lr", type=int, default=1)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--num-minibatches", type=int, default=4)
    parser.add_argument("--update-epochs", type=int, default=4)
    parser.add_argument("--norm-adv", type=int, default=1)
    parser.add_argument("--clip-coef", type=float, default=0.2)
    parser.add_argument("--clip-vloss", type=int, default=1)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--vf-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    parser.add_argument("--target-kl", type=float, default=None)
    parser.add_argument("--eval-episodes", type=int, default=256, help="games played by each evaluation")
    parser.add_argument("--save", type=str, default=None, help="save the trained policy here (examples/policy_agent.py plays it)")
    args = parser.parse_args()
    # fmt: on
    args.batch_size = int(args.num_envs * args.num_steps)
    args.minibatch_size = int(args.batch_size // args.num_minibatches)
    args.num_iterations = args.total_timesteps // args.batch_size
    return args


def make_rules(args):
    return Rules.preset(args.preset, num_players=args.num_players, **({"num_deals": args.deals} if args.deals else {}))


def make_envs(args, num_envs):
    rules = make_rules(args)
    return gym.make_vec(
        "handfoot/HandFoot-v0",
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        rules=rules,
        opponent=args.opponent,
        # Same-step autoreset, as CleanRL asks of Gymnasium's own vector envs: the observation
        # after a game ends is the next game's first, and its mask always has a legal action.
        autoreset_mode=gym.vector.AutoresetMode.SAME_STEP,
    )


def layer_init(layer, std=2**0.5, bias_const=0.0):
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class CategoricalMasked(Categorical):
    """A categorical over the legal actions only (ppo_gridnet.py's invalid-action masking)."""

    def __init__(self, logits, masks):
        self.masks = masks
        super().__init__(logits=torch.where(masks, logits, torch.tensor(-1e8, dtype=logits.dtype)))

    def entropy(self):
        p_log_p = torch.where(self.masks, self.logits * self.probs, torch.tensor(0.0))
        return -p_log_p.sum(-1)


class Agent(nn.Module):
    def __init__(self, envs):
        super().__init__()
        obs_size = np.prod(envs.single_observation_space.shape)
        self.critic = nn.Sequential(
            layer_init(nn.Linear(obs_size, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 1), std=1.0),
        )
        self.actor = nn.Sequential(
            layer_init(nn.Linear(obs_size, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, envs.single_action_space.n), std=0.01),
        )

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, masks, action=None):
        probs = CategoricalMasked(self.actor(x), masks)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


def evaluate(agent, args):
    """Mean return of the policy (sampling) over the same eval_episodes games, one per env."""
    envs = make_envs(args, args.eval_episodes)
    obs, infos = envs.reset(seed=10**6)  # deals no training game sees
    returns, finished = np.zeros(args.eval_episodes), np.zeros(args.eval_episodes, dtype=bool)
    generator_state = torch.get_rng_state()
    torch.manual_seed(0)
    while not finished.all():
        with torch.no_grad():
            masks = torch.as_tensor(infos["action_mask"], dtype=torch.bool)
            action, _, _, _ = agent.get_action_and_value(torch.as_tensor(obs), masks)
        obs, reward, terminations, _, infos = envs.step(action.numpy())
        returns += np.where(finished, 0.0, reward)
        finished |= terminations
    torch.set_rng_state(generator_state)
    return float(returns.mean())


if __name__ == "__main__":
    args = parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.backends.cudnn.deterministic = bool(args.torch_deterministic)
    torch.set_num_threads(args.threads)
    device = torch.device("cpu")

    envs = make_envs(args, args.num_envs)
    agent = Agent(envs).to(device)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    untrained_return = evaluate(agent, args)

    # ALGO Logic: Storage setup
    obs = torch.zeros((args.num_steps, args.num_envs) + envs.single_observation_space.shape).to(device)
    masks = torch.zeros((args.num_steps, args.num_envs, envs.single_action_space.n), dtype=torch.bool).to(device)
    actions = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long).to(device)
    logprobs = torch.zeros((args.num_steps, args.num_envs)).to(device)
    rewards = torch.zeros((args.num_steps, args.num_envs)).to(device)
    dones = torch.zeros((args.num_steps, args.num_envs)).to(device)
    values = torch.zeros((args.num_steps, args.num_envs)).to(device)

    # TRY NOT TO MODIFY: start the game
    global_step = 0
    start_time = time.time()
    next_obs, infos = envs.reset(seed=args.seed)
    next_obs = torch.Tensor(next_obs).to(device)
    next_masks = torch.as_tensor(infos["action_mask"], dtype=torch.bool).to(device)
    next_done = torch.zeros(args.num_envs).to(device)
    running_returns, episode_returns, history = np.zeros(args.num_envs), [], []

    for iteration in range(1, args.num_iterations + 1):
        # Annealing the rate if instructed to do so.
        if args.anneal_lr:
            frac = 1.0 - (iteration - 1.0) / args.num_iterations
            optimizer.param_groups[0]["lr"] = frac * args.learning_rate

        for step in range(args.num_steps):
            global_step += args.num_envs
            obs[step] = next_obs
            masks[step] = next_masks
            dones[step] = next_done

            # ALGO LOGIC: action logic
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs, next_masks)
                values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob

            # TRY NOT TO MODIFY: execute the game and log data.
            next_obs, reward, terminations, truncations, infos = envs.step(action.cpu().numpy())
            next_done = np.logical_or(terminations, truncations)
            rewards[step] = torch.tensor(reward).to(device).view(-1)
            next_obs, next_done = torch.Tensor(next_obs).to(device), torch.Tensor(next_done).to(device)
            next_masks = torch.as_tensor(infos["action_mask"], dtype=torch.bool).to(device)
            running_returns += reward
            for b in np.flatnonzero(terminations | truncations):
                episode_returns.append(running_returns[b])
                running_returns[b] = 0.0

        # bootstrap value if not done
        with torch.no_grad():
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages = torch.zeros_like(rewards).to(device)
            lastgaelam = 0
            for t in reversed(range(args.num_steps)):
                if t == args.num_steps - 1:
                    nextnonterminal = 1.0 - next_done
                    nextvalues = next_value
                else:
                    nextnonterminal = 1.0 - dones[t + 1]
                    nextvalues = values[t + 1]
                delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
                advantages[t] = lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
            returns = advantages + values

        # flatten the batch
        b_obs = obs.reshape((-1,) + envs.single_observation_space.shape)
        b_masks = masks.reshape((-1, envs.single_action_space.n))
        b_logprobs = logprobs.reshape(-1)
        b_actions = actions.reshape(-1)
        b_advantages = advantages.reshape(-1)
        b_returns = returns.reshape(-1)
        b_values = values.reshape(-1)

        # Optimizing the policy and value network
        b_inds = np.arange(args.batch_size)
        clipfracs = []
        for epoch in range(args.update_epochs):
            np.random.shuffle(b_inds)
            for start in range(0, args.batch_size, args.minibatch_size):
                end = start + args.minibatch_size
                mb_inds = b_inds[start:end]

                _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                    b_obs[mb_inds], b_masks[mb_inds], b_actions.long()[mb_inds]
                )
                logratio = newlogprob - b_logprobs[mb_inds]
                ratio = logratio.exp()

                with torch.no_grad():
                    # calculate approx_kl http://joschu.net/blog/kl-approx.html
                    approx_kl = ((ratio - 1) - logratio).mean()
                    clipfracs += [((ratio - 1.0).abs() > args.clip_coef).float().mean().item()]

                mb_advantages = b_advantages[mb_inds]
                if args.norm_adv:
                    mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)

                # Policy loss
                pg_loss1 = -mb_advantages * ratio
                pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)
                pg_loss = torch.max(pg_loss1, pg_loss2).mean()

                # Value loss
                newvalue = newvalue.view(-1)
                if args.clip_vloss:
                    v_loss_unclipped = (newvalue - b_returns[mb_inds]) ** 2
                    v_clipped = b_values[mb_inds] + torch.clamp(
                        newvalue - b_values[mb_inds], -args.clip_coef, args.clip_coef
                    )
                    v_loss_clipped = (v_clipped - b_returns[mb_inds]) ** 2
                    v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
                else:
                    v_loss = 0.5 * ((newvalue - b_returns[mb_inds]) ** 2).mean()

                entropy_loss = entropy.mean()
                loss = pg_loss - args.ent_coef * entropy_loss + v_loss * args.vf_coef

                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

            if args.target_kl is not None and approx_kl > args.target_kl:
                break

        recent = float(np.mean(episode_returns[-args.num_envs :])) if episode_returns else float("nan")
        history.append({"step": global_step, "episodes": len(episode_returns), "recent_return": recent})
        print(
            f"iteration {iteration} step {global_step} episodes {len(episode_returns)} "
            f"recent_return {recent:.3f} entropy {entropy_loss.item():.3f} approx_kl {approx_kl.item():.4f} "
            f"SPS {int(global_step / (time.time() - start_time))}",
            flush=True,
        )

    trained_return = evaluate(agent, args)
    envs.close()
    summary = {
        "iterations": args.num_iterations,
        "global_step": global_step,
        "episodes": len(episode_returns),
        "untrained_return": untrained_return,
        "trained_return": trained_return,
        "seconds": round(time.time() - start_time, 1),
        "history": history,
    }
    if args.save:  # the actor (observations -> logits) and its table: py:examples/policy_agent.py:make:PATH
        rules = make_rules(args)
        torch.save({"module": agent.actor, "rules": rules.to_dict(), "trained_by": "cleanrl-ppo"}, args.save)
        summary["saved"] = args.save
    print(json.dumps(summary))
