"""The learner's network: an actor and a critic over the observation, with masked logits.

Inputs are the observation (``handfoot_env/observation.py``), scaled per field by
statistics measured once on the warm-start data and saved with the model, and — with
``advisor`` — the compiled heuristic's choice in the same position as a one-hot over the
173 actions: the network starts from what the scripted player would do and learns where to
do better.  The advising heuristic is the default one or a variant found by ``handfoot
tune`` (``advisor_params``).  Illegal actions get ``-inf`` logits, so the policy never picks one.

    policy = Policy(arch=(256, 256), advisor=True)  # agents.policy
    logits, value = policy(torch.as_tensor(policy.inputs(obs, masks, rules)), masks)

A saved model (``save`` / ``load``) is one ``.pt`` file holding the weights, the scaling,
the advisor's numbers, the architecture and the rules it was trained on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.baselines.compiled import heuristic_actions
from handfoot_env.baselines.heuristic_params import DEFAULT_PARAMS, NAMES, params_from_names
from handfoot_env.observation import OBS_SIZE
from handfoot_env.rules import Rules

FORMAT = "handfoot-policy"
PRECISIONS = ("fp32", "bf16", "auto")


def cpu_has_bf16() -> bool:
    """Whether this CPU multiplies bfloat16 natively (AVX-512 BF16 or AMX); elsewhere bf16 is slow."""
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


def autocast(precision: str):
    """The context the network runs in: bf16 matrix products with float32 weights, or plain fp32."""
    use_bf16 = precision == "bf16" or (precision == "auto" and cpu_has_bf16())
    return torch.autocast("cpu", dtype=torch.bfloat16, enabled=use_bf16)


VERSION = 1


def advice(observations: np.ndarray, masks: np.ndarray, rules: Rules, params: np.ndarray | None = None) -> np.ndarray:
    """The heuristic's action in each position (compiled, a batch at a time); ``params`` a
    variant of it (``heuristic_params``), the default heuristic when None."""
    out = np.empty(len(masks), dtype=np.int64)
    params = DEFAULT_PARAMS if params is None else np.ascontiguousarray(params, dtype=np.float64)
    heuristic_actions(
        np.ascontiguousarray(observations, dtype=np.float32),
        np.ascontiguousarray(masks, dtype=bool),
        rules.kernel,
        params,
        out,
    )
    return out


def features(
    observations: np.ndarray, masks: np.ndarray, rules: Rules, advisor: bool, params: np.ndarray | None = None
) -> np.ndarray:
    """The network's input: the observation, then (with ``advisor``) the heuristic's choice
    (the variant ``params``, when given)."""
    if not advisor:
        return np.asarray(observations, dtype=np.float32)
    out = np.zeros((len(masks), OBS_SIZE + NUM_ACTIONS), dtype=np.float32)
    out[:, :OBS_SIZE] = observations
    out[np.arange(len(masks)), OBS_SIZE + advice(observations, masks, rules, params)] = 1.0
    return out


def mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.Tanh()]
    return nn.Sequential(*layers)


class Policy(nn.Module):
    """Separate actor and critic MLPs (as SB3's ``MlpPolicy`` with ``net_arch``)."""

    def __init__(
        self, arch: tuple[int, ...] = (256, 256), advisor: bool = True, advisor_params: np.ndarray | None = None
    ):
        super().__init__()
        self.arch = tuple(arch)
        self.advisor = advisor
        # Which heuristic advises (a tuned variant, or the default): a buffer, so it travels
        # with the weights into checkpoints, model files and Ray workers.
        self.register_buffer(
            "advisor_params",
            torch.as_tensor(
                DEFAULT_PARAMS if advisor_params is None else np.asarray(advisor_params), dtype=torch.float64
            ).clone(),
        )
        width = OBS_SIZE + (NUM_ACTIONS if advisor else 0)
        self.register_buffer("mean", torch.zeros(width))
        self.register_buffer("scale", torch.ones(width))
        self.actor = nn.Sequential(mlp([width, *arch]), nn.Linear(arch[-1], NUM_ACTIONS))
        self.critic = nn.Sequential(mlp([width, *arch]), nn.Linear(arch[-1], 1))
        for layer in self.modules():  # orthogonal initialisation, small final policy layer (CleanRL)
            if isinstance(layer, nn.Linear):
                nn.init.orthogonal_(layer.weight, np.sqrt(2))
                nn.init.zeros_(layer.bias)
        nn.init.orthogonal_(self.actor[-1].weight, 0.01)
        nn.init.orthogonal_(self.critic[-1].weight, 1.0)

    def set_scaling(self, inputs: np.ndarray) -> None:
        """Scale each input by its spread on ``inputs`` (the one-hot advice is left as it is)."""
        x = torch.as_tensor(inputs, dtype=torch.float32)
        mean, std = x.mean(0), x.std(0)
        keep = std < 1e-6
        mean[keep], std[keep] = 0.0, 1.0
        if self.advisor:
            mean[OBS_SIZE:], std[OBS_SIZE:] = 0.0, 1.0
        self.mean.copy_(mean)
        self.scale.copy_(1.0 / std)

    def inputs(self, observations: np.ndarray, masks: np.ndarray, rules: Rules) -> np.ndarray:
        """``features`` as this network reads them (with its advisor, if it has one)."""
        return features(observations, masks, rules, self.advisor, self.advisor_params.numpy())

    def forward(self, x: torch.Tensor, masks: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = (x - self.mean) * self.scale
        return self._logits(x, masks), self.critic(x).float().squeeze(-1)

    def _logits(self, scaled: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
        # float32 out, whatever precision the layers ran in (softmax and losses need it)
        return self.actor(scaled).float().masked_fill(~masks, -torch.inf)

    @torch.no_grad()
    def act(
        self, x: np.ndarray, masks: np.ndarray, deterministic: bool = True, generator: torch.Generator | None = None
    ) -> np.ndarray:
        """Actions for the inputs ``x`` (``inputs``); the actor alone runs (the critic's value is
        not needed to act: half the work of ``forward``, the same logits)."""
        logits = self._logits((torch.as_tensor(x) - self.mean) * self.scale, torch.as_tensor(masks))
        if deterministic:
            return logits.argmax(-1).numpy()
        return torch.multinomial(torch.softmax(logits, -1), 1, generator=generator).squeeze(-1).numpy()

    # ------------------------------------------------------------------ files
    def save(self, path: str | Path, rules: Rules, extra: dict[str, Any] | None = None) -> None:
        """One file: weights, scaling, architecture, the rules trained on, and ``extra`` facts."""
        torch.save(
            {
                "format": FORMAT,
                "version": VERSION,
                "arch": list(self.arch),
                "advisor": self.advisor,
                "advisor_param_names": list(NAMES),
                "rules": rules.to_dict(),
                "state_dict": self.state_dict(),
                "extra": extra or {},
            },
            path,
        )

    @staticmethod
    def load(path: str | Path) -> tuple[Policy, Rules, dict]:
        data = torch.load(path, map_location="cpu", weights_only=False)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"{path} is not a handfoot policy file")
        if data.get("version") != VERSION:
            raise ValueError(f"{path}: policy file version {data.get('version')!r} is not supported")
        policy = Policy(tuple(data["arch"]), advisor=data["advisor"])
        state = dict(data["state_dict"])
        if state["mean"].shape != policy.mean.shape:  # trained on another observation layout
            width = int(state["mean"].shape[0]) - (NUM_ACTIONS if policy.advisor else 0)
            raise ValueError(
                f"{path} was trained on observations of {width} numbers and this handfoot's have "
                f"{OBS_SIZE} (the layout changed: README, 'The observation'); train it again"
            )
        state.setdefault("advisor_params", policy.advisor_params)  # files from before tuned advisors
        try:
            state = with_advisor_by_name(state, data.get("advisor_param_names"))
        except ValueError as exc:  # a name this handfoot does not know: the file is from a newer one
            raise ValueError(f"{path}: its advising heuristic does not fit this handfoot's ({exc})") from None
        policy.load_state_dict(state)
        policy.eval()
        return policy, Rules.from_dict(data["rules"]), data.get("extra", {})


def with_advisor_by_name(state: dict, names: list[str] | None) -> dict:
    """A policy's ``state_dict`` with its advisor's numbers put in this handfoot's table order,
    read by the ``names`` saved beside them (none in files from before 0.4.0): the table may
    have grown since, and missing numbers take their defaults."""
    state = dict(state)
    if "advisor_params" in state:
        state["advisor_params"] = torch.as_tensor(params_from_names(names, state["advisor_params"].numpy()))
    return state


__all__ = ["Policy", "advice", "features", "with_advisor_by_name"]
