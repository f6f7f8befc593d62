"""Configuration: built once at the entry point from the environment, then passed down (the
policy file is read only by the commands that decide under it: :attr:`Config.policy`).

Nothing reads the environment at import time; :func:`load_config` takes the mapping to read.
Secrets (the DeepSeek key, the gateway token, the D1 token) come from the environment only.
"""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Annotated, Literal, get_args
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
)

from magg_kg.errors import ConfigError
from magg_kg.policy import Policy, read_policy

__all__ = [
    "CAP_SETTINGS",
    "Config",
    "D1Config",
    "LLMConfig",
    "Policy",
    "header_safe",
    "is_http_url",
    "is_loopback",
    "is_yes",
    "load_config",
    "read_policy",
    "without_password",
    "yes_no_error",
]

GATEWAY_HOST = "gateway.ai.cloudflare.com"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


BUNDLE_ITEMS = 16
"""The most items one model call carries in a bundle (:mod:`magg_kg.llm.bundle`)."""
BUNDLE_TOKENS = 24_000
"""The most prompt tokens (estimated) one bundle carries."""
CAP_SETTINGS = ("MAGG_LLM_MAX_CALLS", "MAGG_LLM_MAX_TOKENS")
"""The settings of the spend cap on calls and on tokens, unless a command's options set them."""


Provider = Literal["offline", "deepseek"]
PROVIDERS: tuple[Provider, ...] = get_args(Provider)
"""The values of ``MAGG_LLM``, the default first."""
StoreKind = Literal["sqlite", "d1"]
STORES: tuple[StoreKind, ...] = get_args(StoreKind)
"""The values of ``MAGG_STORE``, the default first."""


class LLMConfig(_Frozen):
    provider: Provider = "offline"
    model: str = "deepseek-chat"
    base_url: str = ""
    api_key: SecretStr | None = None
    gateway_token: SecretStr | None = None
    allow_any_host: bool = False
    timeout_s: Annotated[float, Field(gt=0)] = 60.0
    http_attempts: Annotated[int, Field(ge=1, le=10)] = 3
    parse_attempts: Annotated[int, Field(ge=1, le=5)] = 2
    max_calls: Annotated[int, Field(ge=0)] | None = None
    max_tokens: Annotated[int, Field(ge=0)] | None = None
    bundle_items: Annotated[int, Field(ge=1, le=64)] = BUNDLE_ITEMS
    """The most items one bundle carries (1: every item asked alone)."""
    bundle_tokens: Annotated[int, Field(ge=500, le=100_000)] = BUNDLE_TOKENS
    """The most prompt tokens (estimated) one bundle carries."""
    cap_settings: tuple[str, str] = CAP_SETTINGS
    """Where ``max_calls`` and ``max_tokens`` were set, as the spend cap's refusal names them: the
    environment's variables, or the options of the command that set them (``--max-calls``)."""

    @field_validator("api_key", "gateway_token")
    @classmethod
    def _header_safe(cls, secret: SecretStr | None) -> SecretStr | None:
        return header_safe(secret)

    def checked(self) -> LLMConfig:
        """Refuses a deepseek configuration that cannot work or would leave the one gateway."""
        if self.provider != "deepseek":
            return self
        if self.api_key is None or not self.api_key.get_secret_value():
            raise ConfigError(
                "MAGG_LLM=deepseek needs DEEPSEEK_API_KEY in the environment "
                "(or leave MAGG_LLM unset for the offline provider, which needs no key)"
            )
        if not self.base_url:
            raise ConfigError(
                "MAGG_LLM=deepseek needs MAGG_LLM_BASE_URL, the Cloudflare AI Gateway URL "
                "https://gateway.ai.cloudflare.com/v1/{account}/{gateway}/deepseek"
            )
        if not is_http_url(self.base_url):
            raise ConfigError(f"MAGG_LLM_BASE_URL is not an http(s) URL: {without_password(self.base_url)!r}")
        parts = urlsplit(self.base_url)
        if not self.allow_any_host:
            segments = [s for s in parts.path.split("/") if s]
            is_gateway = (
                parts.scheme == "https"
                and parts.hostname == GATEWAY_HOST
                and len(segments) == 4
                and segments[0] == "v1"
                and segments[3] == "deepseek"
            )
            if not is_gateway:
                raise ConfigError(
                    f"MAGG_LLM_BASE_URL {without_password(self.base_url)!r} is not a Cloudflare AI Gateway "
                    "DeepSeek URL (expected https://gateway.ai.cloudflare.com/v1/{account}/{gateway}/"
                    "deepseek, the only egress); set MAGG_LLM_ALLOW_ANY_HOST=1 to use another "
                    "OpenAI-compatible server such as a local llama.cpp or vLLM"
                )
        return self


def without_password(url: str) -> str:
    """The URL without any user:password part, fit for an error message.

    >>> without_password("https://me:secret@example.com/v1")
    'https://example.com/v1'
    """
    try:
        parts = urlsplit(url)
    except ValueError:  # "http://[::1": no URL, but it may still hold a password before an "@"
        return url.rsplit("@", 1)[-1] if "@" in url else url
    if "@" not in parts.netloc:
        return url
    return parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]).geturl()


class D1Config(_Frozen):
    url: str = ""
    """The Worker's URL (MAGG_D1_URL): empty, or an http(s) URL with a host (and a valid port)."""
    token: SecretStr | None = None
    """The write token (MAGG_D1_TOKEN): writes batches, and reads when no read token is set."""
    read_token: SecretStr | None = None
    """The read token (MAGG_D1_READ_TOKEN): named reads only."""
    timeout_s: Annotated[float, Field(gt=0)] = 30.0
    attempts: Annotated[int, Field(ge=1, le=10)] = 4

    @field_validator("token", "read_token")
    @classmethod
    def _header_safe(cls, secret: SecretStr | None) -> SecretStr | None:
        return header_safe(secret)

    @field_validator("url")
    @classmethod
    def _http_url(cls, url: str) -> str:
        if url and not is_http_url(url):
            raise ValueError("not an http(s) URL with a host (and a port from 1 to 65535, if any)")
        if url and urlsplit(url).username is not None:  # httpx would send it in place of the token
            raise ValueError(
                "holds a user name (left out of the URL shown here, with any password): the Worker "
                "takes MAGG_D1_TOKEN as a bearer token; remove the user name from MAGG_D1_URL"
            )
        return url


def header_safe(secret: SecretStr | None) -> SecretStr | None:
    """A key or token as an HTTP header can carry it: printable ASCII without spaces; else a
    ValueError that does not show it.

    >>> header_safe(SecretStr("a\\nb"))
    Traceback (most recent call last):
    ValueError: must be printable ASCII without spaces (an HTTP header carries it)
    """
    value = secret.get_secret_value() if secret is not None else ""
    if value and not (value.isascii() and value.isprintable() and value.split() == [value]):
        raise ValueError("must be printable ASCII without spaces (an HTTP header carries it)")
    return secret


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only.

    >>> [is_loopback(h) for h in ("127.0.0.1", "localhost", "::1", "0.0.0.0", "192.168.1.5")]
    [True, True, True, False, False]
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_http_url(url: str) -> bool:
    """Whether ``url`` is an http(s) URL with a host and, when it names one, a valid port, and
    without spaces or control characters (which the URL parser strips or keeps, but no request
    can carry).

    >>> is_http_url("http://127.0.0.1:8787"), is_http_url("notaurl"), is_http_url("http://h:99999")
    (True, False, False)
    >>> is_http_url(" http://127.0.0.1:8787"), is_http_url("http://127.0.0.1:8787/v1\tx")
    (False, False)
    """
    if any(c.isspace() or not c.isprintable() for c in url):
        return False
    try:
        parts = urlsplit(url)  # raises on a bracketed host left open ("http://[::1")
        port = parts.port  # raises on a port out of range or not a number
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname) and port != 0


class Config(_Frozen):
    db: Path = Path("magg.sqlite")
    store: StoreKind = "sqlite"
    d1: D1Config = D1Config()
    llm: LLMConfig = LLMConfig()
    policy_file: Path | None = None
    """``MAGG_POLICY``: the TOML file of the governance policy; None: the defaults."""
    seed: int = 7

    @cached_property
    def policy(self) -> Policy:
        """The governance policy, read from :attr:`policy_file` when first asked for: a command that
        decides nothing never reads it, so a wrong file stops (in one line, a :class:`ConfigError`)
        only the commands that would decide under it."""
        return Policy() if self.policy_file is None else read_policy(self.policy_file)

    @property
    def where(self) -> str:
        """Where the graph is, as messages name it: the SQLite file, or D1 behind the Worker's URL."""
        if self.store == "d1":
            return f"D1 at {without_password(self.d1.url)}" if self.d1.url else "D1 (MAGG_D1_URL is not set)"
        return str(self.db)

    @property
    def db_option(self) -> str:
        """The ``--db`` that names this graph to another magg command ("" for D1, which the
        environment names)."""
        return "" if self.store == "d1" else f" --db {self.db}"


_TRUE, _FALSE = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")


def yes_no_error(env: Mapping[str, str], name: str) -> str | None:
    """Why a yes/no setting's value is refused, or None when it is one (or unset).

    >>> yes_no_error({"X": "maybe"}, "X"), yes_no_error({"X": " On "}, "X")
    ("X must be 1 or 0 (or true/false, yes/no, on/off), got 'maybe'", None)
    """
    if env.get(name, "").strip().lower() in _TRUE + _FALSE:
        return None
    return f"{name} must be 1 or 0 (or true/false, yes/no, on/off), got {env[name]!r}"


def is_yes(env: Mapping[str, str], name: str) -> bool:
    """Whether a yes/no setting says yes (a refused value says no: :func:`yes_no_error` tells it)."""
    return env.get(name, "").strip().lower() in _TRUE


def _flag(env: Mapping[str, str], name: str) -> bool:
    """A yes/no setting; anything but the usual words for yes and no is refused.

    >>> _flag({"X": "on"}, "X"), _flag({}, "X")
    (True, False)
    """
    wrong = yes_no_error(env, name)
    if wrong is not None:
        raise ConfigError(wrong)
    return is_yes(env, name)


def _choice(env: Mapping[str, str], name: str, choices: tuple[str, ...]) -> str:
    """An enumerated setting, read as a yes/no one is: in any case, blanks around it ignored; the
    first choice when unset or empty.

    >>> _choice({"X": " D1 "}, "X", ("sqlite", "d1")), _choice({}, "X", ("sqlite", "d1"))
    ('d1', 'sqlite')
    """
    value = env.get(name, "").strip()
    if value.lower() in choices:
        return value.lower()
    if not value:
        return choices[0]
    raise ConfigError(f"{name} must be {' or '.join(choices)} (in any case), got {value!r}")


def _int_or(env: Mapping[str, str], name: str, default: int) -> int:
    """A whole-number setting, ``default`` when unset (0 is a value, checked like any other)."""
    value = _optional_int(env, name)
    return default if value is None else value


def _optional_int(env: Mapping[str, str], name: str) -> int | None:
    value = env.get(name, "").strip()
    if not value:
        return None
    try:
        if not value.isascii():  # int() reads "٣" as 3
            raise ValueError(value)
        return int(value)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, got {value!r}") from None


def _seconds_or(env: Mapping[str, str], name: str, default: float) -> float:
    """A setting in seconds, ``default`` when unset; a finite number (its bounds are the field's)."""
    value = env.get(name, "").strip()
    if not value:
        return default
    try:
        seconds = float(value) if value.isascii() else math.nan
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds):
        raise ConfigError(f"{name} must be a number of seconds, got {value!r}")
    return seconds


def load_config(env: Mapping[str, str], *, db: str | None = None) -> Config:
    """Builds the configuration from an environment mapping (and a --db given on the command line).

    >>> load_config({}).llm.provider
    'offline'
    >>> load_config({"MAGG_DB": "x.sqlite"}).db.name
    'x.sqlite'
    """
    try:
        return Config(
            db=Path(db or env.get("MAGG_DB") or "magg.sqlite"),
            store=_choice(env, "MAGG_STORE", STORES),
            d1=D1Config(
                url=env.get("MAGG_D1_URL", ""),
                token=SecretStr(env["MAGG_D1_TOKEN"]) if env.get("MAGG_D1_TOKEN") else None,
                read_token=(SecretStr(env["MAGG_D1_READ_TOKEN"]) if env.get("MAGG_D1_READ_TOKEN") else None),
                timeout_s=_seconds_or(env, "MAGG_D1_TIMEOUT_S", D1Config.model_fields["timeout_s"].default),
                attempts=_int_or(env, "MAGG_D1_ATTEMPTS", D1Config.model_fields["attempts"].default),
            ),
            llm=LLMConfig(
                provider=_choice(env, "MAGG_LLM", PROVIDERS),
                model=env.get("MAGG_LLM_MODEL", "deepseek-chat") or "deepseek-chat",
                base_url=env.get("MAGG_LLM_BASE_URL", ""),
                api_key=SecretStr(env["DEEPSEEK_API_KEY"]) if env.get("DEEPSEEK_API_KEY") else None,
                gateway_token=(
                    SecretStr(env["MAGG_LLM_GATEWAY_TOKEN"]) if env.get("MAGG_LLM_GATEWAY_TOKEN") else None
                ),
                allow_any_host=_flag(env, "MAGG_LLM_ALLOW_ANY_HOST"),
                max_calls=_optional_int(env, "MAGG_LLM_MAX_CALLS"),
                max_tokens=_optional_int(env, "MAGG_LLM_MAX_TOKENS"),
                bundle_items=_int_or(env, "MAGG_LLM_BUNDLE_ITEMS", BUNDLE_ITEMS),
                bundle_tokens=_int_or(env, "MAGG_LLM_BUNDLE_TOKENS", BUNDLE_TOKENS),
            ),
            policy_file=Path(env["MAGG_POLICY"]) if env.get("MAGG_POLICY", "").strip() else None,
        )
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        name = _VARIABLES.get(where, where)
        given = first.get("input")
        shown = without_password(given) if isinstance(given, str) else given  # a URL's password stays out
        message = str(first["msg"]).removeprefix("Value error, ")
        if isinstance(given, SecretStr):  # a key is never shown, not even in part
            raise ConfigError(f"bad configuration: {name}: {message}") from None
        raise ConfigError(f"bad configuration: {name}={shown!r}: {message}") from None


_VARIABLES = {
    "store": "MAGG_STORE",
    "url": "MAGG_D1_URL",
    "token": "MAGG_D1_TOKEN",
    "read_token": "MAGG_D1_READ_TOKEN",
    "timeout_s": "MAGG_D1_TIMEOUT_S",
    "attempts": "MAGG_D1_ATTEMPTS",
    "api_key": "DEEPSEEK_API_KEY",
    "gateway_token": "MAGG_LLM_GATEWAY_TOKEN",
    "provider": "MAGG_LLM",
    "model": "MAGG_LLM_MODEL",
    "max_calls": "MAGG_LLM_MAX_CALLS",
    "max_tokens": "MAGG_LLM_MAX_TOKENS",
    "bundle_items": "MAGG_LLM_BUNDLE_ITEMS",
    "bundle_tokens": "MAGG_LLM_BUNDLE_TOKENS",
}
"""Configuration fields named by the environment variable that sets them, for error messages."""
