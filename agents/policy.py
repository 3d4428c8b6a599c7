"""The learner's network: an actor and a critic over the observation, with masked logits.

    policy = Policy(arch=(256, 256), columns=compact_columns(rules))   # agents.policy
    logits, value = policy(torch.as_tensor(policy.inputs(obs, masks, rules)), torch.as_tensor(masks))

**Inputs.** The observation (``handfoot_env/observation.py``), or only its ``columns`` that
these rules can fill (``compact_columns``: a partnership table leaves 4 of 6 owner slots,
2 of 6 seat slots and the house block at zero; leaving them out halves the first layer's
work).  With ``advisor`` the compiled heuristic's choice in the same position follows as a
one-hot over the actions (the warm start's "advisor"; a from-scratch agent has none).
Each input is scaled by a mean and spread measured on positions spread over whole games
(``set_scaling``) and clipped to ``±clip`` spreads, so a position unlike the sample (a big
pile late in a game) cannot saturate the network.

With ``advisor_prior`` p (0 < p < 1) the actor's logits are a residual on a fixed prior: the
advisor's move gets chance p and the other legal moves share 1 - p evenly, and the actor's last
layer starts at zero, so the policy starts as that prior and keeps exploring every legal move
(docs/runs_past_the_teacher.md).

With ``mask_actions`` the legality of those actions is an input too (``rule_actions``: every
action these rules can allow), so the network sees what can be done now.

**Shape.** ``shared`` puts one trunk under both heads (half the work of two networks); else
the actor and the critic are separate MLPs, as SB3's ``MlpPolicy`` with ``net_arch``.  With
``critic_extra`` the critic also reads that many numbers only training has (every hand and
foot: ``handfoot_env.seating.learner.LearnerGames.hidden_cards``), the "perfect-information critic" of
PerfectDou (Yang et al. 2022); the actor never sees them.

**Precision.** ``precision`` (``fp32``, or ``bf16`` matrix products with float32 weights) is
the network's own, used by every caller: rollouts sample from exactly the logits that
evaluation plays the argmax of.

A saved model (``save`` / ``load``) is one ``.pt`` file: the weights, the scaling, the
shape, the advisor's numbers by name, and the rules it was trained on.  Files of version 1
(before 0.5.0) load as they played: every column, no clipping, fp32, separate networks.  A
file from before the action layout grew (it grows only by appending) is padded to it
(``pad_actions``) and chooses as it did wherever the new actions are not legal.
"""

from __future__ import annotations

import itertools
import math
from contextlib import nullcontext
from pathlib import Path
from typing import IO, Any, cast

import numpy as np
import torch
from torch import nn

from handfoot_env.actions import DISCARD_SUITED, NUM_ACTIONS, NUM_ACTIONS_BY_VERSION, TAKE_ONTO_TABLE
from handfoot_env.baselines.compiled.heuristic import heuristic_actions
from handfoot_env.baselines.heuristic_params import DEFAULT_PARAMS, NAMES, params_from_names
from handfoot_env.cards import NUM_KINDS
from handfoot_env.observation import (
    FIELDS,
    GAME_FIELDS,
    HOUSE,
    HOUSE_FIELDS,
    MAX_OWNERS,
    MAX_SEATS,
    OBS_SIZE,
    OBS_SIZE_BY_VERSION,
    OFFSETS,
    OWNER_FIELDS,
    OWNERS,
    SEAT_FIELDS,
    SEAT_KNOWN,
    SEATS,
)
from handfoot_env.rules import Rules

FORMAT = "handfoot-policy"
VERSION = 2
# A file whose network has a prior (``advisor_prior``) is version 3, so that a handfoot from
# before priors refuses it instead of playing its residual without the prior.
VERSION_WITH_PRIOR = 3
PRECISIONS = ("fp32", "bf16", "auto")
# What a model file says of the network's shape (``Policy.shape``).
SHAPE_KEYS = (
    "arch",
    "advisor",
    "columns",
    "mask_actions",
    "shared",
    "clip",
    "precision",
    "critic_extra",
    "advisor_prior",
)


def cpu_has_bf16() -> bool:
    """Whether this CPU multiplies bfloat16 natively (AVX-512 BF16 or AMX); elsewhere bf16 is slow."""
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


def resolve_precision(precision: str) -> str:
    """``auto`` -> ``bf16`` where the CPU has it, else ``fp32``."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    if precision == "auto":
        return "bf16" if cpu_has_bf16() else "fp32"
    return precision


def autocast(precision: str, device: torch.device | str = "cpu"):
    """The context a network of this precision runs in (on ``device``'s kind: cpu or cuda)."""
    if resolve_precision(precision) == "bf16":
        return torch.autocast(torch.device(device).type, dtype=torch.bfloat16)
    return nullcontext()


def resolve_device(device: str) -> torch.device:
    """``auto`` -> cuda where a GPU is there, else cpu; ``cuda`` without one is refused in one line."""
    if device not in ("auto", "cpu", "cuda"):
        raise ValueError(f"device must be auto, cpu or cuda, got {device!r}")
    if device == "cuda" and not torch.cuda.is_available():
        raise ValueError("device cuda: this machine has no CUDA GPU that torch can use (use cpu or auto)")
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(device)


def device_label(device: torch.device) -> str:
    """``cpu``, or ``cuda (NVIDIA H200)``: the kind and, for a GPU, its name."""
    return device.type if device.type != "cuda" else f"cuda ({torch.cuda.get_device_name(device)})"


# ---------------------------------------------------------------------------- inputs
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


def compact_columns(rules: Rules) -> np.ndarray:
    """The observation columns these rules can fill: the seat and owner slots of the table's
    players and sides, and the house block only where runs or books of 2s are played."""
    keep = np.ones(OBS_SIZE, dtype=bool)
    keep[SEATS + rules.num_players * SEAT_FIELDS : SEATS + MAX_SEATS * SEAT_FIELDS] = False
    keep[SEAT_KNOWN + rules.num_players * NUM_KINDS : SEAT_KNOWN + MAX_SEATS * NUM_KINDS] = False
    keep[OWNERS + rules.num_owners * OWNER_FIELDS : OWNERS + MAX_OWNERS * OWNER_FIELDS] = False
    if not (rules.runs or rules.books_of_twos):
        keep[HOUSE : HOUSE + HOUSE_FIELDS] = False
    assert dict(FIELDS)["game"] == GAME_FIELDS and OFFSETS["house"] == HOUSE
    return np.flatnonzero(keep)


def rule_actions(rules: Rules) -> np.ndarray:
    """The actions these rules can ever allow (the house actions only where runs or books of
    2s are played, the variations' actions of layout version 2 only where a variation is
    played): the legal-action inputs a network reads (``mask_actions``)."""
    first = np.arange(NUM_ACTIONS_BY_VERSION[1] if (rules.runs or rules.books_of_twos) else DISCARD_SUITED)
    if not rules.plays_variations:
        return first
    return np.concatenate([first, np.arange(TAKE_ONTO_TABLE, NUM_ACTIONS)])


def features(
    observations: np.ndarray,
    masks: np.ndarray,
    rules: Rules,
    advisor: bool,
    params: np.ndarray | None = None,
    columns: np.ndarray | None = None,
    mask_actions: np.ndarray | None = None,
) -> np.ndarray:
    """The network's input: the observation's ``columns`` (all when None); then whether each
    of ``mask_actions`` is legal (none when None: what can be done now, which a from-scratch
    network otherwise has to work out from the cards); then (with ``advisor``) the
    heuristic's choice (the variant ``params``, when given) as a one-hot."""
    observations = np.asarray(observations, dtype=np.float32)
    parts = [observations if columns is None else observations[:, columns]]
    if mask_actions is not None and len(mask_actions):
        parts.append(np.asarray(masks)[:, mask_actions].astype(np.float32))
    if advisor:
        one_hot = np.zeros((len(masks), NUM_ACTIONS), dtype=np.float32)
        one_hot[np.arange(len(masks)), advice(observations, masks, rules, params)] = 1.0
        parts.append(one_hot)
    return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)


def mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in itertools.pairwise(sizes):
        layers += [nn.Linear(a, b), nn.Tanh()]
    return nn.Sequential(*layers)


# ---------------------------------------------------------------------------- the network
class Policy(nn.Module):
    """Masked actor and critic; see the module docstring for every option."""

    # buffers (saved with the weights) and layers, declared for readers and type checkers
    advisor_params: torch.Tensor
    columns: torch.Tensor
    mask_actions: torch.Tensor
    mean: torch.Tensor
    scale: torch.Tensor
    extra_mean: torch.Tensor
    extra_scale: torch.Tensor
    actor: nn.Sequential
    critic: nn.Sequential
    trunk: nn.Sequential
    actor_head: nn.Linear
    critic_head: nn.Linear

    def __init__(
        self,
        arch: tuple[int, ...] = (256, 256),
        advisor: bool = False,
        advisor_params: np.ndarray | None = None,
        columns: np.ndarray | None = None,
        mask_actions: np.ndarray | None = None,
        shared: bool = False,
        clip: float = 5.0,
        precision: str = "fp32",
        critic_extra: int = 0,
        advisor_prior: float = 0.0,
    ):
        super().__init__()
        if not 0 <= advisor_prior < 1 or (advisor_prior and not advisor):
            raise ValueError(
                f"advisor_prior is the advisor's chance under the prior, in [0, 1) with advisor=True: {advisor_prior}"
            )
        if shared and critic_extra:
            raise ValueError("a shared trunk cannot give the critic inputs the actor must not see: use shared=False")
        self.arch = tuple(arch)
        self.advisor = advisor
        self.shared = shared
        self.clip = float(clip)  # 0: no clipping (models of version 1)
        self.precision = resolve_precision(precision)
        self.critic_extra = critic_extra
        self.advisor_prior = float(advisor_prior)
        # Which heuristic advises (a tuned variant, or the default): a buffer, so it travels
        # with the weights into checkpoints, model files and Ray workers.
        self.register_buffer(
            "advisor_params",
            torch.as_tensor(
                DEFAULT_PARAMS if advisor_params is None else np.asarray(advisor_params), dtype=torch.float64
            ).clone(),
        )
        columns = np.arange(OBS_SIZE) if columns is None else np.asarray(columns, dtype=np.int64)
        self.register_buffer("columns", torch.as_tensor(columns, dtype=torch.int64))
        mask_actions = np.zeros(0, dtype=np.int64) if mask_actions is None else np.asarray(mask_actions, np.int64)
        self.register_buffer("mask_actions", torch.as_tensor(mask_actions, dtype=torch.int64))
        width = len(columns) + len(mask_actions) + (NUM_ACTIONS if advisor else 0)
        self.register_buffer("mean", torch.zeros(width))
        self.register_buffer("scale", torch.ones(width))
        self.register_buffer("extra_mean", torch.zeros(critic_extra))
        self.register_buffer("extra_scale", torch.ones(critic_extra))
        if shared:
            self.trunk = mlp([width, *arch])
            self.actor_head = nn.Linear(arch[-1], NUM_ACTIONS)
            self.critic_head = nn.Linear(arch[-1], 1)
        else:
            self.actor = nn.Sequential(mlp([width, *arch]), nn.Linear(arch[-1], NUM_ACTIONS))
            self.critic = nn.Sequential(mlp([width + critic_extra, *arch]), nn.Linear(arch[-1], 1))
        for layer in self.modules():  # orthogonal initialisation, small final policy layer (CleanRL)
            if isinstance(layer, nn.Linear):
                nn.init.orthogonal_(layer.weight, np.sqrt(2))
                nn.init.zeros_(layer.bias)
        nn.init.orthogonal_(self.actor_layer.weight, 0.01)
        nn.init.orthogonal_(self.critic_layer.weight, 1.0)
        if self.advisor_prior:  # a residual that starts at zero: the policy starts as the prior
            nn.init.zeros_(self.actor_layer.weight)

    @property
    def actor_layer(self) -> nn.Linear:
        return self.actor_head if self.shared else cast(nn.Linear, self.actor[-1])

    @property
    def critic_layer(self) -> nn.Linear:
        return self.critic_head if self.shared else cast(nn.Linear, self.critic[-1])

    def actor_parameters(self) -> list[nn.Parameter]:
        """The parameters the policy loss moves (the shared trunk's included: the value loss moves
        it too, and its gradient is clipped with the actor's, so with ``shared`` a large value
        loss can still shrink the policy's step; the from-scratch config keeps them apart)."""
        if self.shared:
            return [*self.trunk.parameters(), *self.actor_head.parameters()]
        return list(self.actor.parameters())

    def critic_parameters(self) -> list[nn.Parameter]:
        """The parameters only the value loss moves."""
        return list(self.critic_head.parameters()) if self.shared else list(self.critic.parameters())

    # ------------------------------------------------------------------ inputs
    @property
    def device(self) -> torch.device:
        return self.mean.device

    @property
    def width(self) -> int:
        return int(self.mean.shape[0])

    def inputs(self, observations: np.ndarray, masks: np.ndarray, rules: Rules) -> np.ndarray:
        """``features`` as this network reads them (its columns, and its advisor if it has one)."""
        columns = None if len(self.columns) == OBS_SIZE else self.columns.cpu().numpy()
        params = self.advisor_params.cpu().numpy()
        return features(observations, masks, rules, self.advisor, params, columns, self.mask_actions.cpu().numpy())

    def set_scaling(self, inputs: np.ndarray, extra: np.ndarray | None = None) -> None:
        """Scale each input by its mean and spread on ``inputs`` (positions from whole games;
        the legal-action inputs and the one-hot advice are left as they are); ``extra``
        likewise for the critic's extra inputs."""

        def fit(data: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
            x = torch.as_tensor(data, dtype=torch.float32)
            mean, std = x.mean(0), x.std(0)
            constant = std < 1e-6
            mean[constant], std[constant] = 0.0, 1.0
            return mean, 1.0 / std

        mean, scale = fit(inputs)
        # the legal actions and the advice are 0 / 1 already: left as they are
        unscaled = slice(len(self.columns), None)
        mean[unscaled], scale[unscaled] = 0.0, 1.0
        self.mean.copy_(mean)
        self.scale.copy_(scale)
        if self.critic_extra and extra is not None:
            extra_mean, extra_scale = fit(extra)
            self.extra_mean.copy_(extra_mean)
            self.extra_scale.copy_(extra_scale)

    def _scaled(self, x: torch.Tensor, mean: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
        x = (x - mean) * scale
        return x.clamp(-self.clip, self.clip) if self.clip > 0 else x

    # ------------------------------------------------------------------ the forward pass
    def forward(
        self, x: torch.Tensor, masks: torch.Tensor, extra: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(masked logits, value), float32, computed in the network's own precision.
        ``extra``: the critic's extra inputs (required when it has them)."""
        raw = x
        x = self._scaled(x, self.mean, self.scale)
        with autocast(self.precision, self.device):
            if self.shared:
                hidden = self.trunk(x)
                logits, value = self.actor_head(hidden), self.critic_head(hidden)
            else:
                logits = self.actor(x)
                if self.critic_extra:
                    if extra is None:
                        raise ValueError("this policy's critic reads the hidden cards: pass extra=")
                    x = torch.cat([x, self._scaled(extra, self.extra_mean, self.extra_scale)], dim=1)
                value = self.critic(x)
        # float32 out, whatever precision the layers ran in (softmax and losses need it)
        logits = self._with_prior(logits.float(), raw, masks)
        return logits.masked_fill(~masks, -torch.inf), value.float().squeeze(-1)

    def logits(self, x: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
        """The masked logits alone (no critic: what acting needs)."""
        raw = x
        x = self._scaled(x, self.mean, self.scale)
        with autocast(self.precision, self.device):
            out = self.actor_head(self.trunk(x)) if self.shared else self.actor(x)
        return self._with_prior(out.float(), raw, masks).masked_fill(~masks, -torch.inf)

    def _with_prior(self, logits: torch.Tensor, x: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
        """``logits`` plus the log of the fixed prior (``advisor_prior``), up to a constant per row:
        the advisor's move (the inputs' last block, a one-hot) gets log(p / (1 - p) * (n - 1))
        more than the other n - 1 legal moves, so with a zero residual it has chance p."""
        if not self.advisor_prior:
            return logits
        others = (masks.sum(-1, keepdim=True) - 1).clamp(min=1).float()
        boost = math.log(self.advisor_prior / (1 - self.advisor_prior)) + torch.log(others)
        return logits + x[:, -NUM_ACTIONS:] * boost

    @torch.no_grad()
    def act(
        self, x: np.ndarray, masks: np.ndarray, deterministic: bool = True, generator: torch.Generator | None = None
    ) -> np.ndarray:
        logits = self.logits(torch.as_tensor(x, device=self.device), torch.as_tensor(masks, device=self.device)).cpu()
        if deterministic:
            return logits.argmax(-1).numpy()
        return torch.multinomial(torch.softmax(logits, -1), 1, generator=generator).squeeze(-1).numpy()

    # ------------------------------------------------------------------ files
    def shape(self) -> dict[str, Any]:
        """What rebuilds this network (``Policy(**shape)``), weights aside."""
        shape = {
            "arch": list(self.arch),
            "advisor": self.advisor,
            "columns": self.columns.tolist(),
            "mask_actions": self.mask_actions.tolist(),
            "shared": self.shared,
            "clip": self.clip,
            "precision": self.precision,
            "critic_extra": self.critic_extra,
            "advisor_prior": self.advisor_prior,
        }
        assert tuple(shape) == SHAPE_KEYS
        return shape

    def save(self, path: str | Path | IO[bytes], rules: Rules, extra: dict[str, Any] | None = None) -> None:
        """One file: weights, scaling, shape, the rules trained on, and ``extra`` facts."""
        torch.save(
            {
                "format": FORMAT,
                "version": VERSION_WITH_PRIOR if self.advisor_prior else VERSION,
                **self.shape(),
                "num_actions": NUM_ACTIONS,
                "advisor_param_names": list(NAMES),
                "rules": rules.to_dict(),
                "state_dict": self.state_dict(),
                "extra": extra or {},
            },
            path,
        )

    @staticmethod
    def load(path: str | Path | IO[bytes]) -> tuple[Policy, Rules, dict]:
        data = torch.load(path, map_location="cpu", weights_only=False)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"{path} is not a handfoot policy file")
        if data.get("version") not in (1, VERSION, VERSION_WITH_PRIOR):
            raise ValueError(f"{path}: policy file version {data.get('version')!r} is not supported")
        state = dict(data["state_dict"])
        saved_actions = int(data.get("num_actions", 173))  # 173 until the layout grew
        if saved_actions > NUM_ACTIONS:
            raise ValueError(
                f"{path} knows {saved_actions} actions and this handfoot {NUM_ACTIONS}: it is from a newer one"
            )
        if data["version"] == 1:  # every column, separate networks, no clipping, fp32: as it played
            # Files of version 1 read the whole observation of layout version 1 (599 numbers); the
            # layout only grew by appending since, so those are its first 599 columns.
            width = int(state["mean"].shape[0]) - (saved_actions if data["advisor"] else 0)
            if width != OBS_SIZE_BY_VERSION[1]:
                raise ValueError(
                    f"{path} was trained on observations of {width} numbers and this handfoot reads "
                    f"files of version 1 with {OBS_SIZE_BY_VERSION[1]} (the layout changed: docs/env.md, "
                    "'The observation'); train it again"
                )
            shape = {
                "arch": data["arch"],
                "advisor": data["advisor"],
                "clip": 0.0,
                "precision": "fp32",
                "columns": list(range(width)),
            }
            state["columns"] = torch.arange(width)
        else:
            shape = {key: data[key] for key in SHAPE_KEYS if key in data}  # mask_actions came in 0.5 too
        state.setdefault("mask_actions", torch.zeros(0, dtype=torch.int64))
        if max(shape.get("columns") or [0]) >= OBS_SIZE:
            raise ValueError(f"{path} reads observation columns this handfoot does not have: it is from a newer one")
        policy = Policy(**shape)
        if saved_actions < NUM_ACTIONS:
            state = pad_actions(state, policy, saved_actions)
        state.setdefault("advisor_params", policy.advisor_params)  # files from before tuned advisors
        state.setdefault("extra_mean", policy.extra_mean)
        state.setdefault("extra_scale", policy.extra_scale)
        try:
            state = with_advisor_by_name(state, data.get("advisor_param_names"))
        except ValueError as exc:  # a name this handfoot does not know: the file is from a newer one
            raise ValueError(f"{path}: its advising heuristic does not fit this handfoot's ({exc})") from None
        policy.load_state_dict(state)
        policy.eval()
        return policy, Rules.from_dict(data["rules"]), data.get("extra", {})


def pad_actions(state: dict, policy: Policy, saved_actions: int) -> dict:
    """A ``state_dict`` trained when the action layout had ``saved_actions`` actions, grown to
    this layout's (it only ever grows by appending): the new actions get zero weights in the
    output layer (a logit of 0 where the new rule makes them legal; masked everywhere else)
    and, with an advisor, zero weights for their new one-hot inputs, so the network chooses
    exactly as it did wherever the new actions are not legal."""
    grow = NUM_ACTIONS - saved_actions
    state = dict(state)
    out = "actor_head" if policy.shared else "actor.1"
    state[f"{out}.weight"] = torch.cat(
        [state[f"{out}.weight"], state[f"{out}.weight"].new_zeros(grow, policy.arch[-1])]
    )
    state[f"{out}.bias"] = torch.cat([state[f"{out}.bias"], state[f"{out}.bias"].new_zeros(grow)])
    if policy.advisor:  # the advice one-hot is the last block of the inputs: it grows at its end
        old_width = int(state["mean"].shape[0])
        state["mean"] = torch.cat([state["mean"], state["mean"].new_zeros(grow)])
        state["scale"] = torch.cat([state["scale"], state["scale"].new_ones(grow)])
        firsts = ["trunk.0.weight"] if policy.shared else ["actor.0.0.weight", "critic.0.0.weight"]
        for key in firsts:
            weight = state[key]
            state[key] = torch.cat(
                [weight[:, :old_width], weight.new_zeros(weight.shape[0], grow), weight[:, old_width:]], dim=1
            )
    return state


def with_advisor_by_name(state: dict, names: list[str] | None) -> dict:
    """A policy's ``state_dict`` with its advisor's numbers put in this handfoot's table order,
    read by the ``names`` saved beside them (none in files from before 0.4.0): the table may
    have grown since, and missing numbers take their defaults."""
    state = dict(state)
    if "advisor_params" in state:
        state["advisor_params"] = torch.as_tensor(params_from_names(names, state["advisor_params"].numpy()))
    return state


__all__ = [
    "Policy",
    "advice",
    "autocast",
    "compact_columns",
    "device_label",
    "features",
    "pad_actions",
    "resolve_device",
    "resolve_precision",
    "rule_actions",
    "with_advisor_by_name",
]
