"""The page may name only the agents it is offered: the built-in ones, and those the server
was started with (``handfoot serve --agent py:...``); never a file or code of its choosing."""

from __future__ import annotations

from starlette.testclient import TestClient

from agents import AGENT_NAMES
from handfoot_lab.web.app import create_app

FIRST_LEGAL = """
import numpy as np

def make():
    return lambda observation: int(np.flatnonzero(observation["action_mask"])[0])
"""


def test_a_page_names_a_py_agent_only_when_the_server_offers_it(tmp_path):
    (tmp_path / "mine.py").write_text(FIRST_LEGAL)
    mine = f"py:{tmp_path / 'mine.py'}:make"
    request = {"preset": "classic", "seed": 3, "opponents": mine}
    plain = TestClient(create_app(secret=1))
    refused = plain.post("/api/play", json=request)
    assert refused.status_code == 400 and "'opponents' must be one of" in refused.json()["error"]
    assert mine not in plain.get("/api/options").json()["agents"]

    offered = TestClient(create_app(secret=1, agents=(*AGENT_NAMES, mine)))
    assert offered.get("/api/options").json()["agents"] == [*AGENT_NAMES, mine]
    state = offered.post("/api/play", json=request).json()
    assert "error" not in state and state["over"] is False
    other = f"py:{tmp_path / 'other.py'}:make"
    assert offered.post("/api/watch", json={"agents": [mine, other]}).status_code == 400
