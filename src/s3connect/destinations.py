"""Destination topic checks of the S3 source, done on the driver before anything is published.

Each destination topic must have at least as many partitions as the highest source partition
number + 1 (records keep their partition number). A missing topic is created with exactly that
many partitions unless ``topic.creation.enable=false``; a topic with fewer partitions fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from confluent_kafka import KafkaException
from confluent_kafka.admin import AdminClient, NewTopic  # type: ignore[attr-defined]

from s3connect.errors import DestinationError
from s3connect.source_config import SourceConfig

__all__ = [
    "admin_client",
    "client_props",
    "create_topics",
    "ensure_destinations",
    "topic_metadata",
]

_TIMEOUT_S = 30.0
# Admin-client settings among the producer properties (security, client id); the rest are
# producer-only and librdkafka's admin client would warn about them.
_ADMIN_PREFIXES = ("security.", "sasl.", "ssl.", "client.", "socket.", "request.timeout")


def client_props(
    bootstrap_servers: str, options: Mapping[str, str]
) -> dict[str, str | int | float | bool]:
    """Settings for a confluent-kafka (librdkafka) admin client or producer: the bootstrap
    servers and the security / client properties among the ``kafka.*`` options (without
    ``sasl.jaas.config``, a Java-only property)."""
    props: dict[str, str | int | float | bool] = {"bootstrap.servers": bootstrap_servers}
    props.update(
        {
            k: v
            for k, v in options.items()
            if k.startswith(_ADMIN_PREFIXES) and k != "sasl.jaas.config"
        }
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
        return dict(admin.list_topics(timeout=_TIMEOUT_S).topics)
    except KafkaException as exc:
        raise DestinationError(f"cannot list Kafka topics: {exc}") from None


def create_topics(admin: AdminClient, new: list[NewTopic], what: str = "topic") -> None:
    """Create ``new`` topics; one that already exists (a concurrent creator) is fine.

    Raises:
        DestinationError: a creation failed; ``what`` names the topic's role in the message.
    """
    for name, future in admin.create_topics(new, request_timeout=_TIMEOUT_S).items():
        try:
            future.result(timeout=_TIMEOUT_S)
        except KafkaException as exc:
            if "TOPIC_ALREADY_EXISTS" not in str(exc):
                raise DestinationError(f"cannot create {what} {name!r}: {exc}") from None


def ensure_destinations(
    config: SourceConfig, needed: Mapping[str, tuple[str, int]]
) -> dict[str, int]:
    """Check (and create) destination topics; returns each one's partition count.

    Args:
        config: the source config (bootstrap servers, security, topic creation keys).
        needed: destination topic -> (source topic, partitions needed = max partition + 1).

    Raises:
        DestinationError: a missing topic with creation disabled, a topic with too few
            partitions (naming both counts), or a failed creation.
    """
    if not needed:
        return {}
    admin = admin_client(config.kafka_bootstrap_servers, config.kafka_options)
    topics = topic_metadata(admin)
    counts: dict[str, int] = {}
    missing: list[str] = []
    for dest, (source, partitions) in sorted(needed.items()):
        topic = topics.get(dest)
        if topic is None or topic.error is not None:
            missing.append(dest)
            continue
        have = len(topic.partitions)
        if have < partitions:
            raise DestinationError(
                f"destination topic {dest!r} has {have} partitions but source topic "
                f"{source!r} has partition {partitions - 1} (needs {partitions}): add partitions "
                "to the destination topic or route the records elsewhere"
            )
        counts[dest] = have
    if missing and not config.topic_creation_enable:
        names = ", ".join(f"{d} ({needed[d][1]} partitions)" for d in missing)
        raise DestinationError(
            f"destination topics missing and topic.creation.enable=false: create {names}"
        )
    if missing:
        create_topics(
            admin, [NewTopic(d, needed[d][1], config.topic_replication_factor) for d in missing]
        )
        counts.update({d: needed[d][1] for d in missing})
    return counts
