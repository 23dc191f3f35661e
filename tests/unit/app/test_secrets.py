"""Where the connector's credentials come from outside Databricks (the secret scope inside)."""

from __future__ import annotations

import json

from s3connect.app.secrets import SCOPE_ENV, SECRET_KEYS, connector_secrets, secret_lookup
from s3connect.app.sink_notebook import declare_sink_widgets, sink_config_from_widgets
from s3connect.app.widgets import LocalWidgets


def test_locally_kafka_credentials_come_from_the_environment() -> None:
    env = {
        "S3CONNECT_KAFKA_API_KEY": "key-1",
        "S3CONNECT_KAFKA_API_SECRET": "secret-1",
        SCOPE_ENV: "s3connect",  # no dbutils: the scope is not read
    }
    assert connector_secrets(environ=env) == {
        "kafka.api.key": "key-1",
        "kafka.api.secret": "secret-1",
    }


def test_locally_s3_credentials_are_left_to_boto3s_chain() -> None:
    env = {"AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "s", "AWS_PROFILE": "p"}
    assert connector_secrets(environ=env) == {}  # boto3 reads these (and profiles, SSO) itself
    assert connector_secrets(environ={"S3CONNECT_KAFKA_API_KEY": ""}) == {}


def test_every_connector_key_has_a_scope_key() -> None:
    assert [(k, s) for k, s, _ in SECRET_KEYS] == [
        ("aws.access.key.id", "aws-access-key-id"),
        ("aws.secret.access.key", "aws-secret-access-key"),
        ("kafka.api.key", "kafka-api-key"),
        ("kafka.api.secret", "kafka-api-secret"),
        ("kafka.sasl.jaas.config", "kafka-sasl-jaas-config"),
    ]


class _Secrets:
    """``dbutils.secrets`` of a stand-in workspace with one scope."""

    def __init__(self, scope: dict[str, str]) -> None:
        self.scope = scope
        self.asked: list[tuple[str, str]] = []

    def get(self, scope: str, key: str) -> str:
        self.asked.append((scope, key))
        return self.scope[key]

    def list(self, scope: str) -> list[object]:
        return []


class _DbUtils:
    def __init__(self, scope: dict[str, str]) -> None:
        self.secrets = _Secrets(scope)


def test_secrets_references_read_the_workspace_scope_through_dbutils() -> None:
    dbutils = _DbUtils({"secret-key": "s3cr3t-SENTINEL", "access-key": "AKIA-SENTINEL"})
    widgets = LocalWidgets(
        [
            "connector.config="
            + json.dumps(
                {
                    "topics": "t",
                    "kafka.bootstrap.servers": "broker:9092",
                    "checkpoint.location": "/tmp/ck",
                    "s3.bucket.name": "b",
                    "format.class": "json",
                    "flush.size": "1",
                    "aws.access.key.id": "${secrets:aws/access-key}",
                    "aws.secret.access.key": "${secrets:aws/secret-key}",
                }
            )
        ]
    )
    declare_sink_widgets(widgets)
    config = sink_config_from_widgets(widgets, {}, secret_lookup(dbutils))
    assert config.s3.secret_access_key == "s3cr3t-SENTINEL"
    assert dbutils.secrets.asked == [("aws", "access-key"), ("aws", "secret-key")]
    shown = json.dumps(config.describe(masked=True))
    # As Confluent's config types: the secret key is a password, the key id is not.
    assert "s3cr3t-SENTINEL" not in shown and "AKIA-SENTINEL" in shown
    assert secret_lookup(None) is None
