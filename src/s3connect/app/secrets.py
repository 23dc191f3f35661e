"""Connector credentials: a Databricks secret scope in a workspace, the environment elsewhere.

Credentials never go in widgets, job parameters or bundle YAML. On Databricks they are read with
``dbutils.secrets.get(scope, key)`` from the scope the job names (the cluster's
``S3CONNECT_SECRET_SCOPE`` environment variable, set by the bundle); only the secrets present
in the scope are used. Locally, S3 credentials are left to boto3's own chain (environment
variables, ``~/.aws``, SSO, instance metadata) and Kafka's come from environment variables::

    from s3connect.app.secrets import connector_secrets
    secrets = connector_secrets(globals().get("dbutils"))
    config = SinkConfig.from_mapping(base, overrides={**widget_values, **secrets})
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from s3connect.config.providers import SecretLookup

__all__ = ["SCOPE_ENV", "SECRET_KEYS", "connector_secrets", "secret_lookup"]

SCOPE_ENV = "S3CONNECT_SECRET_SCOPE"
"""Environment variable naming the secret scope (set on the job clusters by the bundle)."""

# (connector key, key in the secret scope, local environment variable or None for boto3's chain)
SECRET_KEYS: tuple[tuple[str, str, str | None], ...] = (
    ("aws.access.key.id", "aws-access-key-id", None),
    ("aws.secret.access.key", "aws-secret-access-key", None),
    ("kafka.api.key", "kafka-api-key", "S3CONNECT_KAFKA_API_KEY"),
    ("kafka.api.secret", "kafka-api-secret", "S3CONNECT_KAFKA_API_SECRET"),
    ("kafka.sasl.jaas.config", "kafka-sasl-jaas-config", "S3CONNECT_KAFKA_SASL_JAAS_CONFIG"),
)


def connector_secrets(
    dbutils: Any | None = None,
    scope: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The credential keys of the connector config, from where this process can read them.

    Args:
        dbutils: The notebook's ``dbutils`` on Databricks; ``None`` elsewhere.
        scope: The secret scope; default: the ``S3CONNECT_SECRET_SCOPE`` environment variable.
        environ: Environment to read (default ``os.environ``).

    Returns:
        Connector keys (``aws.access.key.id``, ``kafka.api.key``, ...) mapped to their values;
        empty when there is nothing to add (S3 credentials then come from boto3's chain).
    """
    env = os.environ if environ is None else environ
    if dbutils is None:
        return {key: env[var] for key, _, var in SECRET_KEYS if var is not None and env.get(var)}
    scope = scope or env.get(SCOPE_ENV)
    if not scope:
        return {}
    present = {entry.key for entry in dbutils.secrets.list(scope)}
    return {
        key: str(dbutils.secrets.get(scope=scope, key=name))
        for key, name, _ in SECRET_KEYS
        if name in present
    }


def secret_lookup(dbutils: Any | None = None) -> SecretLookup | None:
    """What ``${secrets:<scope>/<key>}`` config values are read with: ``dbutils.secrets.get`` on
    Databricks; None elsewhere (the config then reads the local places, see
    :mod:`s3connect.config.providers`)."""
    if dbutils is None:
        return None

    def lookup(scope: str, key: str) -> str:
        return str(dbutils.secrets.get(scope=scope, key=key))

    return lookup
