"""Batched calls: a reply that drops, repeats, invents or fails is handled like any invalid or
failed reply, spend is counted once, and the lockstep of :class:`Bundler` is ordered and stops
cleanly."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from agents.cost import Cost, ask
from magg_kg.llm.budget import SpendCap
from magg_kg.llm.bundle import BUNDLE_TASK, Bundler, ask_many, bundle_prompt, items_of
from magg_kg.llm.offline import OfflineLLM
from magg_kg.llm.port import Answer, Failure, Prompt, parse_reply

T = TypeVar("T", bound=BaseModel)


class Echo(BaseModel):
    text: str


def prompt(text: str, task: str = "echo", agent: str = "owner:a") -> Prompt:
    return Prompt(
        task=task,
        stage="review",
        agent=agent,
        system="Echo the text.",
        data=text,
        payload={"n": len(text)},
        prompt_version="v1",
    )


def echo(p: Prompt) -> Mapping[str, object]:
    return {"text": p.data.upper()}


class Scripted:
    """A model whose bundle replies are rewritten by ``mangle``; single prompts are echoed."""

    def __init__(
        self,
        mangle: Callable[[list[dict[str, object]]], list[dict[str, object]]] | None = None,
        fail: Failure | None = None,
    ) -> None:
        self.mangle = mangle or (lambda items: items)
        self.fail = fail
        self.prompts: list[Prompt] = []

    @property
    def model(self) -> str:
        return "scripted"

    def ask(self, prompt: Prompt, schema: type[T]) -> Answer[T] | Failure:
        self.prompts.append(prompt)
        if prompt.task == BUNDLE_TASK:
            if self.fail is not None:
                return self.fail
            items = [{"id": item_id, "reply": echo(item)} for item_id, item in items_of(prompt)]
            body: Mapping[str, object] = {"items": self.mangle(items)}
        else:
            body = echo(prompt)
        parsed = parse_reply(json.dumps(body), schema)
        if isinstance(parsed, str):
            return Failure("invalid", parsed, self.model, prompt_tokens=10)
        return Answer(parsed, self.model, prompt_tokens=10, completion_tokens=5, attempts=1)


def texts(replies: list[Answer[Echo] | Failure]) -> list[str]:
    return [reply.value.text if isinstance(reply, Answer) else reply.kind for reply in replies]


def test_a_bundle_is_one_call_answering_every_item_and_its_spend_is_counted_once() -> None:
    model = Scripted()
    replies = ask_many(model, [prompt(t) for t in "abc"], Echo)
    assert texts(replies) == ["A", "B", "C"] and len(model.prompts) == 1
    assert [r.calls for r in replies] == [1, 0, 0]
    assert sum(r.prompt_tokens for r in replies) == 10


def test_an_item_left_out_is_asked_alone() -> None:
    model = Scripted(lambda items: items[:1] + items[2:])
    replies = ask_many(model, [prompt(t) for t in "abc"], Echo)
    assert texts(replies) == ["A", "B", "C"]
    assert [p.task for p in model.prompts] == [BUNDLE_TASK, "echo"] and model.prompts[1].data == "b"


@pytest.mark.parametrize(
    "mangle",
    [
        lambda items: [*items, items[0]],  # an id twice
        lambda items: [*items[:-1], {**items[-1], "id": "item-99"}],  # an id nobody asked for
        lambda items: [{**items[0], "id": items[1]["id"]}, {**items[1], "id": items[0]["id"]}, *items[2:]],
    ],
    ids=["repeated", "invented", "swapped"],
)
def test_a_reply_that_repeats_or_invents_an_id_is_unusable_and_every_item_is_asked_alone(
    mangle: Callable[[list[dict[str, object]]], list[dict[str, object]]],
) -> None:
    model = Scripted(mangle)
    replies = ask_many(model, [prompt(t) for t in "abc"], Echo)
    if len(model.prompts) == 1:  # swapped ids are well formed: the items' answers are what it said
        assert texts(replies) == ["B", "A", "C"]
        return
    assert texts(replies) == ["A", "B", "C"] and len(model.prompts) == 4
    assert replies[0].calls == 2 and replies[0].prompt_tokens == 20  # the unusable bundle, counted


def test_a_bundle_that_fails_fails_every_item_at_the_cost_of_one_call() -> None:
    model = Scripted(fail=Failure("unavailable", "503 three times", "scripted", attempts=3))
    replies = ask_many(model, [prompt(t) for t in "abc"], Echo)
    assert texts(replies) == ["unavailable"] * 3 and len(model.prompts) == 1
    cost = Cost()
    for reply in replies:  # what a stage counts, reply by reply
        cost.calls += reply.calls
    assert cost.calls == 1


def test_a_spend_cap_reached_by_a_bundle_refuses_all_its_items_and_nothing_is_asked() -> None:
    inner = OfflineLLM({"echo": echo})
    capped = SpendCap(inner, max_calls=1)
    first = ask_many(capped, [prompt("a")], Echo)
    rest = ask_many(capped, [prompt(t) for t in "bcd"], Echo)
    assert texts(first) == ["A"] and texts(rest) == ["over_budget"] * 3
    cost = Cost()
    for reply in rest:
        ask_cost = Cost()
        ask(_Fixed(reply), prompt("x"), Echo, ask_cost)
        cost.add(ask_cost)
    assert cost.calls == cost.failures == 0 and cost.capped == 3  # no call was made, so none failed


class _Fixed:
    def __init__(self, reply: Answer[Echo] | Failure) -> None:
        self.reply = reply

    @property
    def model(self) -> str:
        return "fixed"

    def ask(self, prompt: Prompt, schema: type[T]) -> Answer[T] | Failure:
        return self.reply  # type: ignore[return-value]


def sizes(prompts: list[Prompt]) -> list[int]:
    return [len(items_of(p)) if p.task == BUNDLE_TASK else 1 for p in prompts]


def test_bundles_are_bounded_by_items_and_by_tokens() -> None:
    model = Scripted()
    ask_many(model, [prompt(t) for t in "abcdefg"], Echo, max_items=3)
    assert sizes(model.prompts) == [3, 3, 1]
    model = Scripted()
    ask_many(model, [prompt("x" * 4_000) for _ in range(5)], Echo, max_tokens=2_500)
    assert sizes(model.prompts) == [2, 2, 1]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(max_size=40), min_size=1, max_size=12))
def test_the_offline_provider_answers_each_item_of_a_bundle_as_it_answers_it_alone(items: list[str]) -> None:
    llm = OfflineLLM({"echo": echo})
    prompts = [prompt(text) for text in items]
    bundled = ask_many(llm, prompts, Echo)
    alone = [llm.ask(p, Echo) for p in prompts]
    assert texts(bundled) == texts(alone)
    assert [item for _, item in items_of(bundle_prompt(prompts))] == prompts


def test_lockstep_gathers_each_role_in_one_call_and_keeps_the_items_in_order() -> None:
    model = Scripted()
    bundler = Bundler(model, ("echo", "check"))
    seen: list[str] = []

    def pipeline(text: str) -> None:
        first = bundler.ask(prompt(text, agent="owner:a" if text < "c" else "owner:b"), Echo)
        assert isinstance(first, Answer)
        seen.append(f"{text}:{first.value.text}")
        second = bundler.ask(prompt(text * 2, task="check"), Echo)
        assert isinstance(second, Answer)
        seen.append(f"{text}:{second.value.text}")
        bundler.ask(prompt(text, task="alone"), Echo)  # not bundled: straight through

    bundler.each(["a", "b", "c", "d"], pipeline)
    assert seen == ["a:A", "b:B", "c:C", "d:D", "a:AA", "b:BB", "c:CC", "d:DD"]
    roles = [(p.task, p.agent, size) for p, size in zip(model.prompts, sizes(model.prompts), strict=True)]
    assert roles[:3] == [
        (BUNDLE_TASK, "owner:a", 2),
        (BUNDLE_TASK, "owner:b", 2),
        (BUNDLE_TASK, "owner:a", 4),
    ]
    assert [task for task, _, _ in roles[3:]] == ["alone"] * 4


def test_an_exception_in_one_item_stops_the_others_and_is_raised() -> None:
    model = Scripted()
    bundler = Bundler(model, ("echo",))
    finished: list[str] = []

    def pipeline(text: str) -> None:
        bundler.ask(prompt(text), Echo)
        if text == "b":
            raise ValueError("item b broke")
        bundler.ask(prompt(text), Echo)
        finished.append(text)

    with pytest.raises(ValueError, match="item b broke"):
        bundler.each(["a", "b", "c"], pipeline)
    assert finished == [] and len(model.prompts) == 1  # no call after the failure
    bundler.each(["d"], pipeline)  # the bundler is usable again
    assert finished == ["d"]


def test_outside_each_and_with_one_item_per_call_nothing_is_bundled() -> None:
    model = Scripted()
    assert texts([Bundler(model, ("echo",)).ask(prompt("a"), Echo)]) == ["A"]
    one = Bundler(model, ("echo",), max_items=1)
    one.each(["b", "c"], lambda text: one.ask(prompt(text), Echo))
    assert [p.task for p in model.prompts] == ["echo"] * 3


def test_an_item_that_skips_a_step_waits_for_the_others_at_the_next_role() -> None:
    model = Scripted()
    bundler = Bundler(model, ("echo", "check"))

    def pipeline(text: str) -> None:
        if text != "a":  # "a" skips the first role, as a proposal that needs no vote
            bundler.ask(prompt(text), Echo)
        bundler.ask(prompt(text, task="check"), Echo)

    bundler.each(["a", "b", "c"], pipeline)
    assert [(p.task, len(items_of(p))) for p in model.prompts] == [(BUNDLE_TASK, 2), (BUNDLE_TASK, 3)]
    assert [item.task for _, item in items_of(model.prompts[1])] == ["check"] * 3


def test_what_every_item_shares_is_stated_once_and_each_item_gets_it_back() -> None:
    card = {"facts": [["a", "prerequisite", f"c{k}"] for k in range(200)]}
    prompts = [prompt(t).model_copy(update={"payload": {"card": card, "n": k}}) for k, t in enumerate("abc")]
    bundle = bundle_prompt(prompts)
    assert bundle.payload["shared"] == {"card": card}
    assert json.dumps(bundle.payload).count('"c199"') == 1
    assert [item for _, item in items_of(bundle)] == prompts
    model = Scripted()
    ask_many(model, prompts, Echo, max_tokens=2_000)  # the card counts once: one bundle
    assert sizes(model.prompts) == [3]
