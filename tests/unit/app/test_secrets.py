"""Where the connector's credentials come from outside Databricks (the secret scope inside)."""

from __future__ import annotations

from s3connect.app.secrets import SCOPE_ENV, SECRET_KEYS, connector_secrets


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
