"""Destination topic checks of the S3 source, done on the driver before anything is published.

Each destination topic must have at least as many partitions as the highest source partition
number + 1 (records keep their partition number). A missing topic is created with exactly that
many partitions unless ``topic.creation.enable=false``; a topic with fewer partitions fails.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from s3connect.config.source import SourceConfig
from s3connect.errors import DestinationError
from s3connect.kafka.admin import admin_client, create_topics, topic_metadata
from s3connect.source.reader import (
    Listing,
)

if TYPE_CHECKING:
    pass

from collections.abc import Mapping

from confluent_kafka.admin import NewTopic  # type: ignore[attr-defined]

__all__ = [
    "check_destinations",
    "check_not_source",
    "ensure_destinations",
]


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
    admin = admin_client(config.kafka.bootstrap_servers, config.kafka.options)
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
    if missing and not config.destinations.creation_enable:
        names = ", ".join(f"{d} ({needed[d][1]} partitions)" for d in missing)
        raise DestinationError(
            f"destination topics missing and topic.creation.enable=false: create {names}"
        )
    if missing:
        create_topics(
            admin,
            [NewTopic(d, needed[d][1], config.destinations.replication_factor) for d in missing],
        )
        counts.update({d: needed[d][1] for d in missing})
    return counts


def check_not_source(config: SourceConfig, topic: str, destination: str) -> None:
    """Refuse publishing ``topic``'s records back into ``topic`` (a feedback loop with the
    sink) unless ``source.allow.same.topic``.

    Raises:
        DestinationError: naming the topic and the keys to change.
    """
    if destination == topic and not config.destinations.allow_same_topic:
        raise DestinationError(
            f"source topic {topic!r} would be written back into itself (a feedback loop "
            "with the sink): rename it with topic.prefix or transforms, or set "
            "source.allow.same.topic=true"
        )


def check_destinations(config: SourceConfig, listing: Listing) -> dict[str, tuple[str, int]]:
    """Refuse feedback loops and check/create the destination topics of ``listing``.

    Returns destination -> (source topic, partitions needed).

    Raises:
        DestinationError: a source topic routed onto itself (unless ``source.allow.same.topic``),
            or a destination topic that is missing/too small (see ensure_destinations).
    """
    needed: dict[str, tuple[str, int]] = {}
    for topic, partition in listing.objects:
        dest = config.destination(topic)
        if dest is None:  # chosen record by record: checked where the records are read
            continue
        check_not_source(config, topic, dest)
        previous = needed.get(dest, (topic, 0))
        if partition + 1 > previous[1]:
            needed[dest] = (topic, partition + 1)
    ensure_destinations(config, needed)
    return needed
