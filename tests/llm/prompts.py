"""Reading a rendered request back into a :class:`~magg_kg.llm.port.Prompt` (for fake servers).

The inverse of :func:`magg_kg.llm.deepseek.render`, up to what the messages do not carry (stage,
agent, domain, prompt version) and the neutralized delimiters.
"""

from __future__ import annotations

import json

from magg_kg.llm.deepseek import DATA_CLOSE, DATA_OPEN, DATA_RULE
from magg_kg.llm.port import Prompt
from tests.llm.fake_server import ChatRequest

__all__ = ["prompt_of"]


def prompt_of(request: ChatRequest) -> Prompt:
    """The prompt a request was rendered from (its first system and user messages)."""
    messages = request.messages
    system = next(m["content"] for m in messages if m["role"] == "system")
    user = next(m["content"] for m in messages if m["role"] == "user")
    head = system.split("\n\n" + DATA_RULE, 1)[0]
    instructions = head.split("\n\n", 1)[1] if "\n\n" in head else ""
    payload_text, rest = user.removeprefix("payload:\n").split("\n\n" + DATA_OPEN + "\n", 1)
    data = rest.rsplit("\n" + DATA_CLOSE, 1)[0]
    return Prompt(
        task=request.task,
        stage=request.task,
        agent=request.task,
        system=instructions,
        data=data,
        payload=json.loads(payload_text),
        prompt_version="fake",
    )
