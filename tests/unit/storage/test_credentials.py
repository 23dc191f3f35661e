"""Where the S3 clients' credentials come from without aws.access.key.id (boto3's chain, and
the Java SDK's alternate environment names Confluent's connectors read)."""

from __future__ import annotations

import pytest

from s3connect.storage.s3 import S3Settings, _session

NAMES = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY", "AWS_SECRET_KEY")


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"AWS_ACCESS_KEY": "alt-id", "AWS_SECRET_KEY": "alt-secret"}, ("alt-id", "alt-secret")),
        ({"AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_KEY": "alt-secret"}, ("id", "alt-secret")),
        ({"AWS_ACCESS_KEY": "alt-id", "AWS_SECRET_ACCESS_KEY": "secret"}, ("alt-id", "secret")),
        ({"AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "secret"}, ("id", "secret")),
    ],
)
def test_the_java_sdks_environment_names_are_read(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: tuple[str, str]
) -> None:
    for name in (*NAMES, "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    credentials = _session(S3Settings(bucket="b")).get_credentials()
    assert (credentials.access_key, credentials.secret_key) == expected


def test_config_keys_come_before_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY", "alt-id")
    monkeypatch.setenv("AWS_SECRET_KEY", "alt-secret")
    settings = S3Settings(bucket="b", access_key_id="cfg-id", secret_access_key="cfg-secret")
    credentials = _session(settings).get_credentials()
    assert (credentials.access_key, credentials.secret_key) == ("cfg-id", "cfg-secret")
