"""The deepseek configuration: one gateway, a key, and clear refusals otherwise."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from magg_kg.cli.context import debug_setting_error, debugging
from magg_kg.config import Config, LLMConfig, load_config
from magg_kg.errors import ConfigError

GATEWAY = "https://gateway.ai.cloudflare.com/v1/acct/gw/deepseek"


def deepseek_env(**changes: str) -> dict[str, str]:
    env = {"MAGG_LLM": "deepseek", "DEEPSEEK_API_KEY": "sk-test", "MAGG_LLM_BASE_URL": GATEWAY}
    env.update(changes)
    return {key: value for key, value in env.items() if value}


def test_the_gateway_url_is_accepted_with_its_secrets_kept_secret() -> None:
    llm = load_config(deepseek_env(MAGG_LLM_GATEWAY_TOKEN="gw")).llm.checked()

    assert llm.provider == "deepseek" and llm.base_url == GATEWAY
    assert "sk-test" not in repr(llm) and "gw" not in repr(llm.gateway_token)


@pytest.mark.parametrize(
    "url",
    [
        "https://api.deepseek.com",
        "https://gateway.ai.cloudflare.com.evil.example/v1/acct/gw/deepseek",
        "http://gateway.ai.cloudflare.com/v1/acct/gw/deepseek",
        "https://gateway.ai.cloudflare.com/v1/acct/gw/openai",
        "https://gateway.ai.cloudflare.com/v1/acct/deepseek",
        "https://gateway.ai.cloudflare.com/v1/acct/gw/deepseek/chat/completions",
        "http://127.0.0.1:8080",
    ],
)
def test_any_other_host_is_refused_with_a_clear_message(url: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_config(deepseek_env(MAGG_LLM_BASE_URL=url)).llm.checked()

    message = str(refused.value)
    assert "is not a Cloudflare AI Gateway DeepSeek URL" in message
    assert "https://gateway.ai.cloudflare.com/v1/{account}/{gateway}/deepseek" in message
    assert "MAGG_LLM_ALLOW_ANY_HOST=1" in message


def test_allow_any_host_admits_a_local_server() -> None:
    env = deepseek_env(MAGG_LLM_BASE_URL="http://127.0.0.1:8080/v1", MAGG_LLM_ALLOW_ANY_HOST="1")

    assert load_config(env).llm.checked().base_url == "http://127.0.0.1:8080/v1"


def test_credentials_in_a_refused_url_are_not_echoed() -> None:
    with pytest.raises(ConfigError) as refused:
        load_config(deepseek_env(MAGG_LLM_BASE_URL="https://me:hunter2@example.com/v1")).llm.checked()

    assert "hunter2" not in str(refused.value) and "example.com" in str(refused.value)


def test_a_missing_key_is_refused_with_a_clear_message() -> None:
    with pytest.raises(ConfigError, match="MAGG_LLM=deepseek needs DEEPSEEK_API_KEY"):
        load_config(deepseek_env(DEEPSEEK_API_KEY="")).llm.checked()


def test_a_missing_base_url_is_refused() -> None:
    with pytest.raises(ConfigError, match="needs MAGG_LLM_BASE_URL"):
        load_config(deepseek_env(MAGG_LLM_BASE_URL="")).llm.checked()


def test_offline_needs_nothing() -> None:
    assert LLMConfig().checked().provider == "offline"


def test_spend_caps_are_read_from_the_environment() -> None:
    llm = load_config({"MAGG_LLM_MAX_CALLS": "5", "MAGG_LLM_MAX_TOKENS": "1000"}).llm

    assert (llm.max_calls, llm.max_tokens) == (5, 1000)
    with pytest.raises(ConfigError, match="MAGG_LLM_MAX_CALLS must be a whole number"):
        load_config({"MAGG_LLM_MAX_CALLS": "lots"})


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("MAGG_D1_URL", "notaurl", "MAGG_D1_URL='notaurl': not an http(s) URL"),
        ("MAGG_D1_URL", "ftp://127.0.0.1/", "MAGG_D1_URL='ftp://127.0.0.1/': not an http(s) URL"),
        ("MAGG_D1_URL", "http://127.0.0.1:99999", "a port from 1 to 65535"),
        ("MAGG_D1_URL", "https://me:secret@example.com:0/", "MAGG_D1_URL='https://example.com:0/'"),
        ("MAGG_LLM_BUNDLE_ITEMS", "0", "MAGG_LLM_BUNDLE_ITEMS=0: Input should be greater than or equal to 1"),
        ("MAGG_LLM_BUNDLE_TOKENS", "0", "MAGG_LLM_BUNDLE_TOKENS=0"),
        ("MAGG_LLM_ALLOW_ANY_HOST", "maybe", "MAGG_LLM_ALLOW_ANY_HOST must be 1 or 0"),
        ("MAGG_D1_TIMEOUT_S", "nan", "MAGG_D1_TIMEOUT_S must be a number of seconds"),
        ("MAGG_D1_TIMEOUT_S", "0", "MAGG_D1_TIMEOUT_S=0.0: Input should be greater than 0"),
        ("MAGG_D1_ATTEMPTS", "11", "MAGG_D1_ATTEMPTS=11: Input should be less than or equal to 10"),
        ("MAGG_D1_ATTEMPTS", "two", "MAGG_D1_ATTEMPTS must be a whole number"),
    ],
)
def test_a_malformed_setting_is_refused_by_name(name: str, value: str, said: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_config({name: value})

    assert said in str(refused.value)
    assert "secret" not in str(refused.value)


def test_well_formed_settings_are_taken_as_written() -> None:
    worker = "http://127.0.0.1:8787"
    env = {"MAGG_D1_URL": worker, "MAGG_LLM_BUNDLE_ITEMS": "1", "MAGG_LLM_ALLOW_ANY_HOST": "off"}
    config = load_config(env)

    assert config.d1.url == worker
    assert config.llm.bundle_items == 1 and config.llm.allow_any_host is False
    assert load_config({"MAGG_LLM_ALLOW_ANY_HOST": "Yes"}).llm.allow_any_host is True
    d1 = load_config({"MAGG_D1_TIMEOUT_S": "2.5", "MAGG_D1_ATTEMPTS": "2"}).d1  # they were never read
    assert (d1.timeout_s, d1.attempts) == (2.5, 2)


# An enumerated setting is read as the yes/no ones always were: in any case, blanks around it
# ignored; `MAGG_STORE=D1` and `MAGG_LLM=DeepSeek` were refused ("Input should be 'sqlite' or 'd1'")
# while `MAGG_LLM_ALLOW_ANY_HOST=Yes` was read.
@pytest.mark.parametrize(
    ("name", "value", "read"),
    [
        ("MAGG_STORE", "D1", lambda config: config.store == "d1"),
        ("MAGG_STORE", " SQLite ", lambda config: config.store == "sqlite"),
        ("MAGG_LLM", "DeepSeek", lambda config: config.llm.provider == "deepseek"),
        ("MAGG_LLM", "OFFLINE", lambda config: config.llm.provider == "offline"),
        ("MAGG_LLM", "Offline\n", lambda config: config.llm.provider == "offline"),
        ("MAGG_LLM_ALLOW_ANY_HOST", "TRUE", lambda config: config.llm.allow_any_host is True),
        ("MAGG_LLM_ALLOW_ANY_HOST", " Off ", lambda config: config.llm.allow_any_host is False),
    ],
)
def test_an_enumerated_setting_is_read_in_any_case(
    name: str, value: str, read: Callable[[Config], bool]
) -> None:
    assert read(load_config({name: value}))


@pytest.mark.parametrize(("value", "read"), [("YES", True), (" On ", True), ("FALSE", False)])
def test_magg_debug_is_a_yes_no_setting_in_any_case(
    value: str, read: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAGG_DEBUG", value)

    assert debug_setting_error() is None and debugging() is read


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("MAGG_STORE", "SQLite3", "MAGG_STORE must be sqlite or d1 (in any case), got 'SQLite3'"),
        ("MAGG_LLM", "OpenAI", "MAGG_LLM must be offline or deepseek (in any case), got 'OpenAI'"),
        ("MAGG_LLM_ALLOW_ANY_HOST", "Maybe", "MAGG_LLM_ALLOW_ANY_HOST must be 1 or 0"),
    ],
)
def test_an_enumerated_setting_refused_names_the_values_it_takes(name: str, value: str, said: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_config({name: value})

    assert str(refused.value).startswith(said)
