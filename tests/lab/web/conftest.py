"""A live ``handfoot serve`` and the system Chromium for the browser tests.

Playwright cannot download browsers here, so the tests drive the Chromium of the system
packages (``HANDFOOT_CHROMIUM``, else ``chromium`` on the PATH).  Without one the browser
tests are skipped, except where ``HANDFOOT_REQUIRE_BROWSER=1`` (CI) makes that a failure.
"""

from __future__ import annotations

import os
import shutil
import threading
import time

import pytest
import uvicorn

from handfoot_lab.web.app import Limits, create_app


def chromium_path() -> str | None:
    return os.environ.get("HANDFOOT_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    path = chromium_path()
    if path is None:
        if os.environ.get("HANDFOOT_REQUIRE_BROWSER") == "1":
            pytest.fail("no system Chromium: install it (apt-get install chromium) or set HANDFOOT_CHROMIUM")
        pytest.skip("no system Chromium (apt-get install chromium, or set HANDFOOT_CHROMIUM)")
    flags = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
    return {**browser_type_launch_args, "executable_path": path, "args": [*flags, "--disable-sync"]}


@pytest.fixture(scope="session")
def web_app():
    """The app the browser tests talk to (tests may set a table's position through it)."""
    return create_app(limits=Limits(per_client=64))  # every page of the tests comes from 127.0.0.1


@pytest.fixture(scope="session")
def server_url(web_app):
    """The app on a free port of 127.0.0.1, in a thread, for the whole session."""
    server = uvicorn.Server(uvicorn.Config(web_app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the web server did not start")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
