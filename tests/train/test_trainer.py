"""A tiny training run end to end: TensorBoard logs, checkpoints, resume, final evaluation,
the trained agent loadable by name, and the analysis notebook executed on the run."""

from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient

from agents import make_agent
from train.config import load_config
from train.loop import train

ROOT = Path(__file__).resolve().parents[2]
TINY = [
    "name=tiny",
    "env.num_envs=16",
    "ppo.n_steps=16",
    "ppo.batch_size=128",
    "ppo.n_epochs=1",
    "network.arch=[32]",
    "eval.every=256",
    "eval.pairs=2",
    "eval.final_pairs=2",
    "eval.opponents=[random, greedy]",
    "checkpoint_every=256",
    "league.snapshot_every=256",
    "league.opponents={random: 0.5, greedy: 0.5, self: 0.5}",
    "imitation.decisions=2000",
    "ppo.value_warmup_rollouts=1",
    "eval.keep_best_vs=greedy",
    "tune.generations=0",
    "eval.select_pairs=2",
    "network.scaling_positions=500",
]


def logged(run: Path):
    """The run's TensorBoard log, read."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(run / "tensorboard"))
    events.Reload()
    return events


def scalars(run: Path, tag: str) -> list[tuple[int, float]]:
    """(step, value) of a TensorBoard scalar the run logged."""
    return [(event.step, event.value) for event in logged(run).Scalars(tag)]


def started_at(run: Path) -> list[int]:
    """The step each segment of a run started at (``segments.json``)."""
    return [segment["start_step"] for segment in json.loads((run / "segments.json").read_text())]


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("runs")
    config = load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={run_dir}", "total_timesteps=512"])
    train(config)
    return config, run_dir


def test_a_run_writes_logs_checkpoints_and_a_final_evaluation(tiny_run):
    import torch

    config, _ = tiny_run
    run = config.path
    assert any((run / "tensorboard").rglob("events.out.tfevents.*"))
    assert (run / "checkpoint" / "trainer.pt").exists() and (run / "model.pt").exists()
    summary = json.loads((run / "final_eval.json").read_text())
    assert [r["vs"] for r in summary["final"]] == ["random", "greedy"]
    assert [e["step"] for e in summary["evals"]] == [0, 256, 512]
    # two updates (16 games x 16 steps each): the first the critic's alone (value_warmup_rollouts
    # 1), so its ratios stayed 1; in the second the actor moved
    kl = scalars(run, "train/approx_kl")
    assert [step for step, _ in kl] == [256, 512] and abs(kl[0][1]) < 1e-9 < kl[1][1]
    assert torch.load(run / "checkpoint" / "trainer.pt", weights_only=False)["algorithm"]["updates"] == 2
    assert summary["evals"][0]["step"] == 0  # the warm start is evaluated before any reinforcement
    assert summary["warm_start"]["imitation"]["decisions"] >= 2000
    assert set(summary["timing_shares"]) == {"simulation", "opponents", "inference", "update"}
    assert abs(sum(summary["timing_shares"].values()) - 1) < 1e-6
    # TensorBoard's shares are the summary's: the learning parts' shares of the learning time
    # (the warm start and the evaluations, outside it, have none)
    shares = {tag for tag in logged(run).Tags()["scalars"] if tag.startswith("time/share_")}
    assert shares == {f"time/share_{part}" for part in summary["timing_shares"]}
    last_shares = {part: scalars(run, f"time/share_{part}")[-1] for part in summary["timing_shares"]}
    assert {step for step, _ in last_shares.values()} == {512}
    assert sum(share for _, share in last_shares.values()) == pytest.approx(1, abs=1e-5)
    assert scalars(run, "time/train_steps_per_sec")[-1][0] == 512


def test_resume_continues_the_run(tiny_run):
    config, run_dir = tiny_run
    before = json.loads((config.path / "checkpoint" / "state.json").read_text())
    longer = load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={run_dir}", "total_timesteps=1024"])
    summary = train(longer, resume=True)
    assert summary["evals"][: len(before["evals"])] == before["evals"]  # history kept as it was
    assert len(summary["evals"]) > len(before["evals"])  # and extended
    assert [e["step"] for e in summary["evals"]] == sorted(e["step"] for e in summary["evals"])


def test_a_resumed_run_deals_new_games(tmp_path, monkeypatch):
    """The games in progress are not saved: each resumed segment deals from past every deal the
    run dealt before, its own starting games included (fails when a segment starts from the
    run's first deal, or counts only the first segment's starting games)."""
    from train import loop

    first_deals: list[int] = []

    class Recording(loop.RolloutCollector):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            first_deals.append(kwargs["seed"])

    monkeypatch.setattr(loop, "RolloutCollector", Recording)
    steps = []
    for total in (256, 512, 768):
        config = load_config(
            ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={tmp_path}", f"total_timesteps={total}"]
        )
        steps.append(train(config, resume=total > 256)["num_timesteps"])
    assert first_deals[0] == loop.training_seed(config, 0)
    # each segment dealt its 16 games, then at most one per 10 of its learner decisions
    assert first_deals[1] >= first_deals[0] + 16 + steps[0] // 10
    assert first_deals[2] >= first_deals[1] + 16 + (steps[1] - steps[0]) // 10


def test_a_moved_run_folder_resumes_with_its_own_snapshots(tmp_path):
    """A moved run folder resumes with its league's snapshots (fails when the checkpoint names
    them by the paths where they were first written, which a moved run no longer has)."""
    import shutil

    first = load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={tmp_path / 'a'}", "total_timesteps=512"])
    train(first)
    assert json.loads((first.path / "checkpoint" / "state.json").read_text())["snapshots"]  # there are some
    shutil.move(tmp_path / "a", tmp_path / "b")
    moved = load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={tmp_path / 'b'}", "total_timesteps=768"])
    assert train(moved, resume=True)["num_timesteps"] == 768
    assert started_at(tmp_path / "b" / "tiny") == [0, 512]  # resumed where it stopped, not afresh


def test_a_kill_after_the_checkpoints_file_resumes_from_it(tmp_path, monkeypatch):
    """The weights, the optimizer, the step count and the league are one file written at once;
    state.json, written after it, is a copy to read. A run killed between the two resumes from
    the file (fails when the state is read from state.json: the newer weights would resume at
    the older step count and the steps between them be trained twice)."""
    from train import loop

    def config(total: int):
        return load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={tmp_path}", f"total_timesteps={total}"])

    train(config(512))
    written = loop.write_json

    def killed_before_state_json(path, data):
        if path.name != "state.json":
            written(path, data)

    monkeypatch.setattr(loop, "write_json", killed_before_state_json)
    train(config(768), resume=True)  # every checkpoint of this segment stops before its state.json
    monkeypatch.undo()
    run = tmp_path / "tiny"
    assert json.loads((run / "checkpoint" / "state.json").read_text())["num_timesteps"] == 512  # the stale copy
    assert train(config(1024), resume=True)["num_timesteps"] == 1024
    assert started_at(run) == [0, 512, 768]


def test_a_kill_after_a_selection_keeps_its_best_policy(tmp_path, monkeypatch):
    """A selection writes best.pt at once, the checkpoint only later: a run killed between them
    resumes knowing the newer best, and a weaker policy after the resume does not overwrite it
    (fails when the rate to beat is the checkpoint's older one)."""
    from agents.evaluation.seeds import SELECTION_SEEDS
    from agents.policy import Policy
    from train import loop

    rates = iter([0.1, 0.3, 0.9, 0.5, 0.6, 0.7, 0.2])  # selections at 0, 256, 512 | 512, 768, 1024 | 1280
    played = loop.evaluate

    def scripted_selections(policy, rules, opponents, pairs, seeds, runners):
        if seeds is not SELECTION_SEEDS:
            return played(policy, rules, opponents, pairs, seeds, runners)
        rate = next(rates)
        return [{"vs": opponents[0], "win_rate": rate, "score_diff": 0.0, "ci95": [rate, rate]}]

    monkeypatch.setattr(loop, "evaluate", scripted_selections)
    saved = loop.Lab.save_checkpoint

    def killed_at_512(lab):
        if lab.state["num_timesteps"] >= 512:
            raise RuntimeError("killed")
        saved(lab)

    def config(total: int):
        return load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={tmp_path}", f"total_timesteps={total}"])

    monkeypatch.setattr(loop.Lab, "save_checkpoint", killed_at_512)
    with pytest.raises(RuntimeError, match="killed"):
        train(config(1024))  # the selection at 512 (0.9) wrote best.pt; its checkpoint never came
    monkeypatch.setattr(loop.Lab, "save_checkpoint", saved)
    summary = train(config(1024), resume=True)  # from 256: 0.5, 0.6 and 0.7 all fall short of 0.9
    best = tmp_path / "tiny" / "best.pt"
    policy, rules, extra = Policy.load(best)
    assert extra == {"steps": 512, "win_rate_vs": {"greedy": 0.9}}
    assert summary["kept_step"] == 512
    assert {"step": 512, "win_rate": 0.9, "ci95": None, "after_checkpoint": True} in summary["selections"]
    # A best.pt older than the checkpoint is one the checkpoint knows, or an earlier run's left
    # in the folder: never the mark to beat, however high its rate.
    policy.save(best, rules, {"steps": 5000, "win_rate_vs": {"greedy": 0.99}})
    before = (tmp_path / "tiny" / "checkpoint" / "trainer.pt").stat().st_mtime - 60
    os.utime(best, (before, before))
    assert train(config(1280), resume=True)["kept_step"] == 512
    assert next(rates, None) is None  # every scripted selection was played


def test_a_checkpoint_of_separate_files_still_resumes(tmp_path):
    """A checkpoint written before trainer.pt held everything (the state in state.json, each league
    snapshot a file in league/) resumes at its step with its snapshots, from a moved folder too."""
    import shutil

    import torch

    first = load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={tmp_path / 'a'}", "total_timesteps=512"])
    train(first)
    folder = first.path / "checkpoint"
    checkpoint = torch.load(folder / "trainer.pt", weights_only=False)
    state, league = checkpoint.pop("state"), checkpoint.pop("league")
    (folder / "league").mkdir()
    entries = []
    for i, (step, weights) in enumerate(league["snapshots"]):
        torch.save(weights, folder / "league" / f"snapshot_{i}.pt")
        entries.append({"file": f"snapshot_{i}.pt", "step": step, "sample": league["sample"]})
    assert entries  # the tiny run has snapshots to carry over
    torch.save(checkpoint, folder / "trainer.pt")
    (folder / "state.json").write_text(json.dumps(dict(state, snapshots=entries)))
    shutil.move(tmp_path / "a", tmp_path / "b")  # the entries name files within the folder
    longer = load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={tmp_path / 'b'}", "total_timesteps=768"])
    state_json = longer.path / "checkpoint" / "state.json"
    state_json.rename(state_json.with_name("aside.json"))  # such a run killed before its first state.json
    with pytest.raises(ValueError, match="has no state.json; start the run afresh without --resume"):
        train(longer, resume=True)
    state_json.with_name("aside.json").rename(state_json)
    trainer_pt = longer.path / "checkpoint" / "trainer.pt"
    kept = trainer_pt.read_bytes()
    trainer_pt.write_bytes(b"junk\n")  # a file broken outside the trainer
    with pytest.raises(ValueError, match="trainer.pt is corrupt .*; start the run afresh without --resume"):
        train(longer, resume=True)
    trainer_pt.write_bytes(kept)
    assert train(longer, resume=True)["num_timesteps"] == 768
    assert started_at(longer.path) == [0, 512]
    folder = longer.path / "checkpoint"
    assert not (folder / "league").exists()  # the one file holds them now
    resumed = torch.load(folder / "trainer.pt", weights_only=False)["league"]["snapshots"]
    assert [step for step, _ in resumed][: len(entries)] == [entry["step"] for entry in entries]
    for (_, weights), (_, before) in zip(resumed, league["snapshots"]):
        assert all(torch.equal(weights[name], before[name]) for name in before)


def test_a_checkpoint_from_before_0_4_resumes_and_a_foreign_one_is_one_line(tiny_run, tmp_path):
    """Checkpoints keep the advisor's numbers by name: one written by 0.3.0 (no names, the table
    without keep_wilds) resumes; one whose network does not fit is refused in one line."""
    import shutil

    import torch

    from handfoot_env.baselines.heuristic_params import (
        ADDED_IN_0_4,
        ADDED_IN_0_5,
        DEFAULT_PARAMS,
        NAMES,
        NAMES_BEFORE_0_4,
        read_params,
    )

    config, _ = tiny_run
    run_dir = tmp_path / "runs"
    shutil.copytree(config.path, run_dir / config.name)
    path = run_dir / config.name / "checkpoint" / "trainer.pt"
    checkpoint = torch.load(path, weights_only=False)
    saved_steps = json.loads((path.parent / "state.json").read_text())["num_timesteps"]
    # Numbers of its own (the tiny run kept the defaults, which a resume that ignored the file's
    # would also give): the searched partnership variant, in 0.3.0's order, without the
    # entries added since, which resume at their defaults.
    tuned, _ = read_params(ROOT / "agents" / "models" / "tuned_partnership.json")
    expected = tuned.copy()
    for name in ADDED_IN_0_4 + ADDED_IN_0_5:
        expected[NAMES.index(name)] = DEFAULT_PARAMS[NAMES.index(name)]
    assert not np.array_equal(expected, DEFAULT_PARAMS)
    old_order = [NAMES.index(n) for n in NAMES_BEFORE_0_4]
    for state in (checkpoint["policy"], checkpoint["algorithm"]["anchor"]):
        if state is not None:
            state["advisor_params"] = torch.as_tensor(tuned[old_order])
    del checkpoint["advisor_param_names"]
    torch.save(checkpoint, path)
    target = saved_steps + 256  # past what the run trained, however far earlier tests took it
    longer = load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={run_dir}", f"total_timesteps={target}"])
    assert train(longer, resume=True)["num_timesteps"] == target
    assert started_at(run_dir / config.name)[-1] == saved_steps  # it resumed, from the saved step
    resumed = torch.load(path, weights_only=False)  # written again by the resumed segment
    assert np.array_equal(resumed["policy"]["advisor_params"].numpy(), expected)  # mapped back by name
    assert resumed["advisor_param_names"] == list(NAMES)  # and written with their names again
    again = train(longer, resume=True)  # nothing left to train: the best evaluation so far is still kept
    assert again["kept_step"] in [e["step"] for e in again["evals"]]
    checkpoint = torch.load(path, weights_only=False)
    checkpoint["policy"]["mean"] = checkpoint["policy"]["mean"][:-1]  # as if observed by another layout
    torch.save(checkpoint, path)
    longest = load_config(
        ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={run_dir}", f"total_timesteps={target * 2}"]
    )
    with pytest.raises(ValueError, match="cannot resume from .*start afresh"):
        train(longest, resume=True)


def test_trained_model_is_an_agent(tiny_run):
    config, _ = tiny_run
    agent = make_agent(f"ppo:{config.path / 'model.pt'}")
    import numpy as np

    from handfoot_env import Rules
    from handfoot_env.vector import VectorEngine

    engine = VectorEngine(Rules.preset("partnership"), batch_size=4)
    masks = engine.legal_mask().copy()
    actions = agent.act(engine.observe().copy(), masks)
    assert masks[np.arange(4), actions].all()
    with pytest.raises(ValueError, match="no trained model"):
        make_agent("ppo:/nonexistent/model.zip")


def execute_notebook(run: Path) -> list[dict]:
    """``notebooks/results.ipynb`` executed as Jupyter would, with ``HANDFOOT_RUN=run``; its
    code cells' outputs, one list a cell."""
    notebook = nbformat.read(ROOT / "notebooks" / "results.ipynb", as_version=4)
    os.environ["HANDFOOT_RUN"] = str(run)
    try:
        NotebookClient(
            notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT / "notebooks")}}
        ).execute()
    finally:
        del os.environ["HANDFOOT_RUN"]
    return [cell["outputs"] for cell in notebook.cells if cell.cell_type == "code"]


def inline_pictures(outputs: list[dict]) -> int:
    return sum("image/png" in output.get("data", {}) for output in outputs)


def test_notebook_executes_on_the_run(tiny_run):
    config, _ = tiny_run
    cells = execute_notebook(config.path)
    assert (config.path / "learning_curves.png").exists() and (config.path / "final_eval.png").exists()
    assert [inline_pictures(outputs) for outputs in cells[1:]] == [1, 1, 1]  # shown in the notebook too


def test_notebook_executes_on_a_fresh_clone(tmp_path):
    """With no run folder (a fresh clone has no runs/) it says what to run and shows the run
    summary the repository ships, its plots inline."""
    cells = execute_notebook(tmp_path / "runs" / "quick")
    said = "".join(output.get("text", "") for output in cells[0])
    assert "bash scripts/main.sh" in said and "scratch_long_seed0.json" in said
    assert [inline_pictures(outputs) for outputs in cells[1:]] == [0, 1, 1]
    assert not (tmp_path / "runs").exists()  # nothing written where no run is


def test_house_trains_in_teams(tmp_path):
    """The lab trains on house too (4 players in teams), through to the final evaluation."""
    overrides = TINY + [
        f"run_dir={tmp_path}",
        "total_timesteps=256",
        "name=house",
        "preset=house",
        "rules={num_players: 4, num_deals: 1}",
        "eval.every=0",
        "eval.final_pairs=1",
        "eval.opponents=[random]",
        "eval.keep_best_vs=",
        "league.opponents={random: 1.0}",
        "league.snapshot_every=0",
    ]
    config = load_config(ROOT / "configs" / "quick.yaml", overrides)
    train(config)
    summary = json.loads((config.path / "final_eval.json").read_text())
    assert [r["vs"] for r in summary["final"]] == ["random"] and summary["final"][0]["games"] == 2


def test_resume_records_changed_settings_and_refuses_fixed_ones(tiny_run):
    config, run_dir = tiny_run
    changed = load_config(
        ROOT / "configs" / "quick.yaml",
        TINY + [f"run_dir={run_dir}", "total_timesteps=1536", "ppo.learning_rate=0.001", "ppo.ent_coef=0.02"],
    )
    train(changed, resume=True)
    used = json.loads((config.path / "config.json").read_text())
    assert used["ppo"]["learning_rate"] == 0.001 and used["ppo"]["ent_coef"] == 0.02  # what was really used
    segments = json.loads((config.path / "segments.json").read_text())
    assert segments[-1]["changes"]["ppo.learning_rate"] == [0.0001, 0.001]
    assert not list(config.path.rglob("*.tmp"))  # every file written whole
    for fixed in ("network.arch=[64]", "env.reward_mode=game", "env.num_envs=8", "preset=classic"):
        other = load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={run_dir}", fixed])
        with pytest.raises(ValueError, match=f"cannot resume .* with other {fixed.split('=')[0]}"):
            train(other, resume=True)


def test_a_second_live_run_in_the_same_folder_is_refused(tmp_path):
    from train.run import RunFolder

    config = load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={tmp_path}"])
    first = RunFolder(config)
    first.open()
    try:
        with pytest.raises(ValueError, match="in use by a live training run"):
            RunFolder(config).open()
    finally:
        first.close()
    RunFolder(config).open()  # free again once the first run is gone


def test_ctrl_c_saves_a_checkpoint_and_says_how_to_resume(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    args = [sys.executable, "-m", "handfoot_lab.cli", "train", "--config", str(ROOT / "configs" / "quick.yaml")]
    for item in TINY + [f"run_dir={tmp_path}", "total_timesteps=100000000", "eval.every=0", "eval.keep_best_vs="]:
        args += ["--set", item]
    proc = subprocess.Popen(args, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    for line in proc.stderr:  # the progress bar: the warm start is done, training goes on
        if line.startswith("tiny:") or "\rtiny:" in line:
            break
    time.sleep(2)
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "resume with: handfoot train --config" in err
    assert (tmp_path / "tiny" / "checkpoint" / "trainer.pt").exists()
    state = json.loads((tmp_path / "tiny" / "checkpoint" / "state.json").read_text())
    assert state["num_timesteps"] > 0


def test_the_anchor_holds_fine_tuning_near_the_warm_start(tmp_path):
    """anchor_coef: the KL term to the frozen warm-start policy keeps PPO's updates near it."""
    import torch

    from handfoot_env.baselines import make_baseline
    from handfoot_env.seating.learner import LearnerGames
    from train.loop import make_policy

    def finish(coef: float):
        overrides = TINY + [
            f"run_dir={tmp_path}",
            f"name=anchor{coef:g}",
            "total_timesteps=3072",
            f"ppo.anchor_coef={coef}",
            "ppo.learning_rate=0.01",
            "eval.every=0",
            "eval.final_pairs=1",
            "league.snapshot_every=0",
            "eval.keep_best_vs=",
            "league.opponents={greedy: 1.0}",
        ]
        config = load_config(ROOT / "configs" / "quick.yaml", overrides)
        train(config)
        return config, torch.load(config.path / "checkpoint" / "trainer.pt", weights_only=False)

    config, anchored = finish(50.0)
    _, free = finish(0.0)
    assert free["algorithm"]["anchor"] is None and anchored["algorithm"]["anchor"] is not None
    rules = config.make_rules()
    games = LearnerGames(rules, 256, [make_baseline("greedy", rules=rules)], seed=7)
    masks = torch.as_tensor(games.action_masks())
    policy = make_policy(config, rules)
    x = torch.as_tensor(policy.inputs(games.observe(), games.action_masks(), rules))

    def log_probs(state_dict) -> torch.Tensor:
        policy.load_state_dict(state_dict)
        with torch.no_grad():
            return torch.log_softmax(policy.logits(x, masks), -1)

    start = log_probs(anchored["algorithm"]["anchor"])

    def kl_from_start(state_dict) -> float:
        return float(torch.where(masks, start.exp() * (start - log_probs(state_dict)), 0.0).sum(-1).mean())

    assert kl_from_start(anchored["policy"]) < 0.5 * kl_from_start(free["policy"])


def test_a_run_can_tune_its_teacher_and_advisor_first(tmp_path):
    """tune_generations: the heuristic search runs before the warm start; the variant it finds
    is saved in the run folder, taught by imitation, and advises the saved model."""
    from agents.policy import Policy
    from handfoot_env.baselines.heuristic_params import load_params

    overrides = TINY + [
        f"run_dir={tmp_path}",
        "name=tuned",
        "total_timesteps=256",
        "tune.generations=1",
        "tune.population=3",
        "tune.elite=1",
        "tune.pairs=2",
        "seed=5",
    ]
    summary = train(load_config(ROOT / "configs" / "quick.yaml", overrides))
    run = tmp_path / "tuned"
    tuned = load_params(run / "tuned.json")
    model, _, _ = Policy.load(run / "model.pt")
    assert np.array_equal(model.advisor_params.numpy(), tuned)
    tuned_summary = summary["warm_start"]["tuned"]
    assert tuned_summary["final"]["vs"] == "heuristic" and tuned_summary["final"]["games"] == 4
    assert "tuning" in summary["timing"]


def test_a_second_algorithm_runs_through_the_same_loop(tmp_path):
    """Deep Monte-Carlo (algorithm: dmc) behind the same config, league, evaluations,
    checkpoints, resume and model file as PPO."""
    overrides = [
        f"run_dir={tmp_path}",
        "name=dmc",
        "total_timesteps=1024",
        "env.num_envs=16",
        "dmc.n_steps=32",
        "dmc.batch_size=128",
        "dmc.horizon=deal",
        "network.arch=[32]",
        "network.scaling_positions=500",
        "env.win_prob_games=200",
        "eval.every=512",
        "eval.pairs=2",
        "eval.select_pairs=2",
        "eval.final_pairs=2",
        "eval.opponents=[random, greedy]",
        "eval.keep_best_vs=greedy",
        "league.snapshot_every=512",
        "league.opponents={random: 0.5, greedy: 0.5, self: 0.5}",
        "checkpoint_every=512",
    ]
    summary = train(load_config(ROOT / "configs" / "experiments" / "scratch_dmc.yaml", overrides))
    assert summary["config"]["algorithm"] == "dmc" and summary["num_timesteps"] == 1024
    assert [e["step"] for e in summary["evals"]][:2] == [0, 512]
    agent = make_agent(f"ppo:{tmp_path / 'dmc' / 'model.pt'}")
    assert agent.policy.shared
    longer = load_config(ROOT / "configs" / "experiments" / "scratch_dmc.yaml", overrides + ["total_timesteps=2048"])
    assert train(longer, resume=True)["num_timesteps"] == 2048
    assert started_at(tmp_path / "dmc") == [0, 1024]


def test_a_time_limit_stops_learning_and_still_gives_the_final_table(tmp_path):
    overrides = TINY + [
        f"run_dir={tmp_path}",
        "name=timed",
        "total_timesteps=100000000",
        "time_limit_minutes=0.001",
        "eval.every=0",
        "eval.keep_best_vs=",
        "imitation.decisions=0",
        "league.snapshot_every=0",
        "league.opponents={random: 1.0}",
    ]
    summary = train(load_config(ROOT / "configs" / "quick.yaml", overrides))
    assert summary["stopped_by_time"] and not summary["interrupted"]
    assert 0 < summary["num_timesteps"] < 100000000 and summary["final"][0]["games"] == 4


def test_a_run_from_before_a_setting_existed_resumes_with_its_default(tiny_run, tmp_path):
    """config.json written before a setting was added (here network.mask_input, time_limit_minutes)
    resumes: the run had the default then."""
    import shutil

    config, _ = tiny_run
    run_dir = tmp_path / "runs"
    shutil.copytree(config.path, run_dir / config.name)
    saved = json.loads((run_dir / config.name / "config.json").read_text())
    del saved["network"]["mask_input"], saved["time_limit_minutes"]
    (run_dir / config.name / "config.json").write_text(json.dumps(saved))
    longer = load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={run_dir}", "total_timesteps=1024"])
    saved_steps = json.loads((run_dir / config.name / "checkpoint" / "state.json").read_text())["num_timesteps"]
    assert train(longer, resume=True)["num_timesteps"] == max(saved_steps, 1024)
    assert started_at(run_dir / config.name)[-1] == saved_steps  # the old config resumed
    changed = load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={run_dir}", "network.mask_input=true"])
    with pytest.raises(ValueError, match="with other network.mask_input"):
        train(changed, resume=True)


def test_an_evaluation_plays_the_policys_most_likely_move():
    """The curves, the selection and the final table judge the policy by its most likely legal
    move: the same games as a match of the policy's deterministic agent (fails when evaluations
    sample, which blurs the selection with luck)."""
    import torch

    from agents.evaluation.matches import play_match
    from agents.trained import PPOAgent
    from train.loop import evaluate, make_policy

    config = load_config(None, ["preset=classic", "rules={num_players: 2, num_deals: 1}", "network.arch=[16]"])
    rules = config.make_rules()
    torch.manual_seed(3)
    policy = make_policy(config, rules)
    (found,) = evaluate(policy, rules, ["random"], pairs=6, seed=11)
    best_moves = PPOAgent(policy, rules, deterministic=True)
    expected = play_match(rules, best_moves, make_agent("random", seed=11, rules=rules), 6, seed=11, progress=False)
    keys = ("games", "wins", "draws", "losses", "score_diff", "mean_actions")
    assert {key: found[key] for key in keys} == {key: getattr(expected, key) for key in keys}
