"""The window's fixtures (a plugin of tests/conftest.py): a local stand-in of Anthropic's
API, an ``app_for(home, factory)`` that opens MONET's window on a home, answered by the
stand-in through the real SDK, and ``display``: a virtual X screen (Xvfb) for the tests
that drive a real window."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from cms.settings import Settings
from monet_app.services.gateway import AnthropicModel, make_client
from monet_app.services.standin_server import StandInServer
from monet_app.window.app import AppController


@pytest.fixture
def server() -> Iterator[StandInServer]:
    with StandInServer(chunk_chars=6) as s:
        yield s


@pytest.fixture
def app_for(qtbot, tmp_path: Path, server: StandInServer):
    made: list[AppController] = []

    def make(home: Path | None = None, factory=None) -> AppController:
        def standin(settings: Settings) -> AnthropicModel:
            return AnthropicModel(make_client("sk-ant-test-key-123456", base_url=server.url,
                                              max_retries=0))

        controller = AppController(home or tmp_path / "home", model_factory=factory or standin)
        qtbot.addWidget(controller.window)
        controller.window.show()
        made.append(controller)
        return controller

    yield make
    for controller in made:
        controller.close()


@pytest.fixture
def display() -> Iterator[str]:
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        # -noreset: by default Xvfb resets when its last client leaves, and a window
        # started in that moment (the second start of a test) cannot connect.
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp",
         "-noreset"],
        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    os.close(write)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read, 16)
        if not chunk:
            break
        number += chunk
    os.close(read)
    if not number.strip():
        xvfb.kill()
        xvfb.wait(timeout=10)
        pytest.skip("Xvfb did not start a screen")
    try:
        yield f":{number.decode().strip()}"
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)
