"""The sink's ``s3.proxy.*`` and ``enable.conditional.writes`` keys: read, checked, described and
turned into the storage's settings as Confluent's ``S3SinkConnectorConfig`` does."""

from __future__ import annotations

import pytest

from s3connect.config.masking import HIDDEN
from s3connect.config.sink import SinkConfig
from s3connect.errors import ConfigError
from s3connect.sink.context import build_storage
from s3connect.storage.s3 import S3Storage

MINIMAL = {
    "topics": "orders",
    "kafka.bootstrap.servers": "localhost:9092",
    "checkpoint.location": "/tmp/ckpt",
    "s3.bucket.name": "bucket",
    "format.class": "json",
    "flush.size": "3",
}


def config(**keys: str) -> SinkConfig:
    return SinkConfig.from_mapping({**MINIMAL, **keys})


def problems(**keys: str) -> str:
    with pytest.raises(ConfigError) as info:
        config(**keys)
    return str(info.value)


# --------------------------------------------------------------------------- proxy


def test_no_proxy_by_default() -> None:
    c = config()
    assert c.s3.proxy is None
    assert not any(k.startswith("s3.proxy") for k in c.describe())


def test_proxy_keys_override_the_url_user_info() -> None:
    c = SinkConfig.from_mapping(
        {
            **MINIMAL,
            "s3.proxy.url": "http://user:pass@localhost:8080/current",
            "s3.proxy.user": "realuser",
            "s3.proxy.password": "realpass",
        }
    )
    p = c.s3.proxy
    assert p is not None
    assert (p.scheme, p.host, p.port, p.user, p.password) == (
        "http",
        "localhost",
        8080,
        "realuser",
        "realpass",
    )


def test_password_is_hidden_everywhere_and_the_config_round_trips() -> None:
    c = SinkConfig.from_mapping(
        {**MINIMAL, "s3.proxy.url": "https://proxy:3128", "s3.proxy.password": "TOPSECRET"}
    )
    d = c.describe()
    assert d["s3.proxy.url"] == "https://proxy:3128"
    assert d["s3.proxy.password"] == HIDDEN
    assert "s3.proxy.user" not in d
    for text in (repr(c), str(c), str(d)):
        assert "TOPSECRET" not in text
    assert SinkConfig.from_mapping(c.describe(masked=False)) == c


def test_a_password_in_the_url_is_moved_out_of_it() -> None:
    c = SinkConfig.from_mapping({**MINIMAL, "s3.proxy.url": "http://joe:URLSECRET@proxy:3128"})
    assert c.s3.proxy_url == "http://joe:@proxy:3128"
    assert c.s3.proxy is not None
    assert (c.s3.proxy.user, c.s3.proxy.password) == ("joe", "URLSECRET")
    assert c.describe()["s3.proxy.password"] == HIDDEN
    assert "URLSECRET" not in repr(c)
    assert SinkConfig.from_mapping(c.describe(masked=False)) == c


def test_user_and_password_without_a_url_have_no_effect() -> None:
    c = SinkConfig.from_mapping({**MINIMAL, "s3.proxy.user": "u", "s3.proxy.password": "p"})
    assert c.s3.proxy is None
    assert {"s3.proxy.user", "s3.proxy.password"} <= set(c.ignored_keys)
    blank = SinkConfig.from_mapping({**MINIMAL, "s3.proxy.url": " "})
    assert blank.s3.proxy is None


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("localhost", "no protocol: localhost"),
        ("unknown://localhost", "unknown protocol: unknown"),
        ("http://", "no host"),
        ("http://:8080", "no host"),
    ],
)
def test_a_url_java_refuses_is_a_problem_naming_the_key(url: str, why: str) -> None:
    msg = problems(**{"s3.proxy.url": url})
    assert f"s3.proxy.url={url} is invalid: must be a proxy URL" in msg
    assert why in msg


def test_a_refused_url_never_shows_its_password() -> None:
    msg = problems(**{"s3.proxy.url": "unknown://joe:URLSECRET@proxy", "s3.proxy.password": "K"})
    assert "URLSECRET" not in msg
    assert "s3.proxy.url=unknown://[hidden]@proxy is invalid" in msg


def test_non_ascii_credentials_are_refused_without_showing_the_password() -> None:
    msg = problems(**{"s3.proxy.url": "http://proxy", "s3.proxy.password": "pässword"})
    assert "s3.proxy.password=[hidden] is invalid: must be ASCII" in msg
    assert "pässword" not in msg


def test_the_storage_gets_the_proxy() -> None:
    c = SinkConfig.from_mapping(
        {**MINIMAL, "store.url": "http://127.0.0.1:1", "s3.proxy.url": "http://u:p@proxy:3128"}
    )
    storage = build_storage(c)
    assert isinstance(storage, S3Storage)
    assert storage.settings.proxy == c.s3.proxy
    assert storage.client.meta.config.proxies["http"] == "http://u:p@proxy:3128"


# --------------------------------------------------------------------------- conditional writes


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        # S3SinkConnectorConfigTest.testConditionalWritesEnabledConfig
        ({}, False),
        ({"enable.conditional.writes": "true"}, False),
        ({"enable.conditional.writes": "true", "rotate.schedule.interval.ms": "100"}, True),
        ({"rotate.schedule.interval.ms": "100"}, True),  # the flag defaults to true
        (
            {"rotate.schedule.interval.ms": "100", "store.kafka.headers": "true"},
            False,
        ),
        ({"rotate.schedule.interval.ms": "100", "store.kafka.keys": "true"}, False),
        ({"enable.conditional.writes": "false", "rotate.schedule.interval.ms": "100"}, False),
        # Confluent tests != -1, not > 0: a schedule of 0 (no scheduled rotation) turns it on.
        ({"rotate.schedule.interval.ms": "0"}, True),
        ({"rotate.schedule.interval.ms": "-1"}, False),
    ],
)
def test_conditional_writes_enabled_config(keys: dict[str, str], expected: bool) -> None:
    c = SinkConfig.from_mapping({**MINIMAL, "timezone": "UTC", **keys})
    assert c.conditional_writes is expected
    assert c.s3.enable_conditional_writes is (keys.get("enable.conditional.writes") != "false")


def test_conditional_writes_described_checked_and_passed_to_the_storage() -> None:
    c = SinkConfig.from_mapping(
        {
            **MINIMAL,
            "store.url": "http://127.0.0.1:1",
            "rotate.schedule.interval.ms": "60000",
            "timezone": "UTC",
        }
    )
    assert c.describe()["enable.conditional.writes"] == "true"
    assert SinkConfig.from_mapping(c.describe(masked=False)) == c
    storage = build_storage(c)
    assert isinstance(storage, S3Storage) and storage.settings.conditional_writes
    off = build_storage(config())
    assert isinstance(off, S3Storage) and not off.settings.conditional_writes
    assert (
        "enable.conditional.writes=maybe is invalid: Expected value to be either true or false"
        in problems(**{"enable.conditional.writes": "maybe"})
    )
