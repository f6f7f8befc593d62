"""The composition of the LLM stack: the one place a provider and its wrappers are assembled.

Innermost first: provider -> spend cap -> cache -> usage log -> bundler.

- The cache sits outside the spend cap, so a cache hit neither counts against the cap nor is
  refused once the cap is reached (re-running paid-for work stays free).
- The usage log is outermost, so it records every call: answered, cached, over budget, failed,
  with the provider's HTTP attempts and tokens carried on the reply.
- The offline provider gets no cache: it is deterministic and free, and caching it would only let
  an outdated reply outlive a change to its role logic. It does get the spend cap and the usage
  log, so ``--max-calls`` and ``magg usage`` mean the same with either provider.

- The bundler (:mod:`magg_kg.llm.bundle`) is outside them all, so a bundle of items is one call for
  the cache, the cap and the log alike; it bundles only the roles named in ``bundled``.

The deepseek provider holds an HTTP client (a pool of connections): :func:`open_llm` builds the
stack for a ``with`` block and closes the provider when the block ends, however it ends, which is
how the command line builds it.

Nothing here touches LlamaIndex's global ``Settings``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager

from magg_kg.clock import Clock
from magg_kg.config import LLMConfig
from magg_kg.llm.budget import SpendCap
from magg_kg.llm.bundle import Bundler
from magg_kg.llm.cache import CachedLLM
from magg_kg.llm.offline import Handler, OfflineLLM
from magg_kg.llm.port import LLM
from magg_kg.llm.usage import Outbox, UsageLog
from magg_kg.store import Store

__all__ = ["build_llm", "open_llm"]


def build_llm(
    config: LLMConfig,
    store: Store,
    clock: Clock,
    offline_handlers: Mapping[str, Handler],
    *,
    bundled: Sequence[str] = (),
    sleep: Callable[[float], None] = time.sleep,
    timer: Callable[[], float] = time.monotonic,
    closing: ExitStack | None = None,
) -> tuple[LLM, UsageLog]:
    """The LLM to hand to agents, and its usage log (the outermost wrapper but the bundler).

    The deepseek provider's ``close`` is pushed on ``closing`` when given (:func:`open_llm` does);
    without it, the provider's HTTP client lives as long as the provider.

    Raises :class:`~magg_kg.errors.ConfigError` for a deepseek configuration that cannot work
    (no key, a host other than the gateway).
    """
    outbox = Outbox()
    inner: LLM
    if config.provider == "deepseek":
        from magg_kg.llm.deepseek import DeepSeekLLM  # imports LlamaIndex (seconds): only when used

        provider = DeepSeekLLM(config.checked(), sleep=sleep, timer=timer)
        if closing is not None:
            closing.callback(provider.close)
        capped = SpendCap(
            provider, max_calls=config.max_calls, max_tokens=config.max_tokens, settings=config.cap_settings
        )
        inner = CachedLLM(capped, store, clock, params=provider.params, outbox=outbox)
    else:
        inner = SpendCap(
            OfflineLLM(offline_handlers),
            max_calls=config.max_calls,
            max_tokens=config.max_tokens,
            settings=config.cap_settings,
        )
    log = UsageLog(inner, clock, timer, outbox)
    if not bundled or config.bundle_items <= 1:
        return log, log
    bundler = Bundler(log, bundled, max_items=config.bundle_items, max_tokens=config.bundle_tokens)
    return bundler, log


@contextmanager
def open_llm(
    config: LLMConfig,
    store: Store,
    clock: Clock,
    offline_handlers: Mapping[str, Handler],
    *,
    bundled: Sequence[str] = (),
    sleep: Callable[[float], None] = time.sleep,
    timer: Callable[[], float] = time.monotonic,
) -> Iterator[tuple[LLM, UsageLog]]:
    """:func:`build_llm` for the length of a ``with`` block: the provider's HTTP client (deepseek's)
    is closed when the block ends, with an error or without."""
    with ExitStack() as closing:
        yield build_llm(
            config, store, clock, offline_handlers, bundled=bundled, sleep=sleep, timer=timer, closing=closing
        )
