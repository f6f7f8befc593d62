"""The LLM port and its providers.

Agents depend on :mod:`magg_kg.llm.port` only; the composition root builds the stack with
:func:`magg_kg.llm.provider.build_llm`, or with :func:`~magg_kg.llm.provider.open_llm`, which closes
the provider when a ``with`` block ends. The ``deepseek`` provider (LlamaIndex, seconds to import)
is imported only when configured.
"""

from magg_kg.llm.budget import SpendCap
from magg_kg.llm.cache import CachedLLM
from magg_kg.llm.offline import OfflineLLM
from magg_kg.llm.port import LLM, Answer, Failure, FailureKind, Prompt, Reply, parse_reply
from magg_kg.llm.provider import build_llm, open_llm
from magg_kg.llm.usage import Outbox, UsageLog

__all__ = [
    "LLM",
    "Answer",
    "CachedLLM",
    "Failure",
    "FailureKind",
    "OfflineLLM",
    "Outbox",
    "Prompt",
    "Reply",
    "SpendCap",
    "UsageLog",
    "build_llm",
    "open_llm",
    "parse_reply",
]
