"""Kafka admin calls shared by the sink's dead letter queue and the source: client properties
from ``kafka.*`` options, topic metadata, topic creation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from confluent_kafka import KafkaException
from confluent_kafka.admin import AdminClient, NewTopic  # type: ignore[attr-defined]

from s3connect.errors import DestinationError
from s3connect.kafka.librdkafka import librdkafka_props

__all__ = [
    "admin_client",
    "client_props",
    "create_topics",
    "topic_metadata",
]


TIMEOUT_S = 30.0

# Admin-client settings among the producer properties (security, client id); the rest are
# producer-only and librdkafka's admin client would warn about them.
_ADMIN_PREFIXES = ("security.", "sasl.", "ssl.", "client.", "socket.", "request.timeout")


def client_props(
    bootstrap_servers: str, options: Mapping[str, str]
) -> dict[str, str | int | float | bool]:
    """Settings for a confluent-kafka (librdkafka) admin client or producer: the bootstrap
    servers and the security / client properties among the ``kafka.*`` options, as librdkafka
    names them (:func:`~s3connect.kafka.librdkafka.librdkafka_props`).

    Raises:
        ConfigError: a trust or key store librdkafka cannot read.
    """
    props: dict[str, str | int | float | bool] = {"bootstrap.servers": bootstrap_servers}
    props.update(
        {k: v for k, v in librdkafka_props(options).items() if k.startswith(_ADMIN_PREFIXES)}
    )
    return props


def admin_client(bootstrap_servers: str, options: Mapping[str, str]) -> AdminClient:
    """A confluent-kafka admin client with :func:`client_props`."""
    return AdminClient(client_props(bootstrap_servers, options))


def topic_metadata(admin: AdminClient) -> dict[str, Any]:
    """The cluster's topics (name -> metadata).

    Raises:
        DestinationError: the topics cannot be listed.
    """
    try:
        return dict(admin.list_topics(timeout=TIMEOUT_S).topics)
    except KafkaException as exc:
        raise DestinationError(f"cannot list Kafka topics: {exc}") from None


def create_topics(admin: AdminClient, new: list[NewTopic], what: str = "topic") -> None:
    """Create ``new`` topics; one that already exists (a concurrent creator) is fine.

    Raises:
        DestinationError: a creation failed; ``what`` names the topic's role in the message.
    """
    for name, future in admin.create_topics(new, request_timeout=TIMEOUT_S).items():
        try:
            future.result(timeout=TIMEOUT_S)
        except KafkaException as exc:
            if "TOPIC_ALREADY_EXISTS" not in str(exc):
                raise DestinationError(f"cannot create {what} {name!r}: {exc}") from None
