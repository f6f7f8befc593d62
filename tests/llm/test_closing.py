"""The deepseek provider's HTTP client is closed when the command that built it ends, however it ends:
``open_llm`` closes it, and every command of ``magg`` that asks a model builds its LLM that way."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from magg_kg.clock import StepClock
from magg_kg.config import LLMConfig
from magg_kg.errors import RunError
from magg_kg.llm.deepseek import DeepSeekLLM
from magg_kg.llm.provider import open_llm
from magg_kg.store import Store
from tests.cli import magg
from tests.llm.fake_server import FakeServer, serve
from tests.llm.test_end_to_end import LESSON, offline_replies


@dataclass
class Providers:
    """The deepseek providers built while a test ran, and those closed (each once)."""

    built: list[DeepSeekLLM] = field(default_factory=list)
    closed: list[DeepSeekLLM] = field(default_factory=list)

    def all_closed(self) -> bool:
        return bool(self.built) and [id(p) for p in self.closed] == [id(p) for p in self.built]


@pytest.fixture
def providers(monkeypatch: pytest.MonkeyPatch) -> Providers:
    seen = Providers()
    build, close = DeepSeekLLM.__init__, DeepSeekLLM.close

    def built(self: DeepSeekLLM, *args: Any, **kwargs: Any) -> None:
        build(self, *args, **kwargs)
        seen.built.append(self)

    def closed(self: DeepSeekLLM) -> None:
        seen.closed.append(self)
        close(self)

    monkeypatch.setattr(DeepSeekLLM, "__init__", built)
    monkeypatch.setattr(DeepSeekLLM, "close", closed)
    return seen


@pytest.fixture
def gateway(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServer]:
    """A local gateway answering as the offline roles, and MAGG_LLM=deepseek pointed at it."""
    with serve(offline_replies()) as server:
        for name in [name for name in os.environ if name.startswith(("MAGG_", "DEEPSEEK_"))]:
            monkeypatch.delenv(name)
        monkeypatch.setenv("MAGG_LLM", "deepseek")
        monkeypatch.setenv("DEEPSEEK_API_KEY", "test")
        monkeypatch.setenv("MAGG_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("MAGG_LLM_ALLOW_ANY_HOST", "1")
        monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
        yield server


def deepseek() -> LLMConfig:
    key = SecretStr("sk-test")
    return LLMConfig(provider="deepseek", base_url="http://127.0.0.1:9/v1", api_key=key, allow_any_host=True)


def test_open_llm_closes_the_provider_when_the_block_ends(
    providers: Providers, store: Store, clock: StepClock
) -> None:
    with open_llm(deepseek(), store, clock, {}):
        assert providers.built and not providers.closed
    assert providers.all_closed()
    with pytest.raises(RuntimeError, match="the command failed"), open_llm(deepseek(), store, clock, {}):
        raise RuntimeError("the command failed")
    assert len(providers.built) == 2 and providers.all_closed()
    with open_llm(LLMConfig(), store, clock, {}) as (offline, _):  # nothing to close: nothing built
        assert offline.model == "offline-1"
    assert len(providers.built) == 2


def lessons(tmp_path: Path) -> Path:
    folder = tmp_path / "lessons"
    folder.mkdir()
    shutil.copy(LESSON, folder / LESSON.name)
    return folder


def test_every_command_that_asks_a_model_closes_its_provider(
    providers: Providers, gateway: FakeServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The httpx client of DeepSeekLLM was never closed: its connections lived as long as the process.
    db = str(tmp_path / "g.sqlite")
    commands = [
        ["ingest", str(lessons(tmp_path))],
        ["ask", "What should I learn before gradient descent?"],
        ["recheck"],
        ["reconsider"],
        ["discover"],
    ]
    for command in commands:
        before = len(providers.built)
        code, _, err = magg([*command, "--db", db], capsys)
        assert code in (0, 1) and "Traceback" not in err, (command, err)
        assert len(providers.built) > before and providers.all_closed(), command
    assert gateway.requests


def test_a_command_that_fails_still_closes_its_provider(
    providers: Providers,
    gateway: FakeServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = str(tmp_path / "g.sqlite")
    assert magg(["ingest", str(lessons(tmp_path)), "--db", db], capsys)[0] == 0
    built = len(providers.built)

    def failing(*_args: object, **_kwargs: object) -> object:
        raise RunError("the answer failed mid-question")

    monkeypatch.setattr("governance.qa.answer_routed", failing)
    code, _, err = magg(["ask", "What is gradient descent?", "--db", db], capsys)
    assert code == 1 and err == "error: the answer failed mid-question\n"
    assert len(providers.built) == built + 1 and providers.all_closed()
