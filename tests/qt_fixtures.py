"""The window's fixtures (a plugin of tests/conftest.py): a local stand-in of Anthropic's
API and an ``app_for(home, factory)`` that opens MONET's window on a home, answered by
the stand-in through the real SDK."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cms.settings import Settings
from monet_app.app import AppController
from monet_app.gateway import AnthropicModel, make_client
from monet_app.standin_server import StandInServer


@pytest.fixture
def server() -> Iterator[StandInServer]:
    with StandInServer(chunk_chars=6) as s:
        yield s


@pytest.fixture
def app_for(qtbot, tmp_path: Path, server: StandInServer):  # type: ignore[no-untyped-def]
    made: list[AppController] = []

    def make(home: Path | None = None, factory=None) -> AppController:  # type: ignore[no-untyped-def]
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
