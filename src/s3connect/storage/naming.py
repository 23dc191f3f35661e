"""Confluent S3 sink object keys, and the parser the S3 source uses to read them back.

A committed object is named as ``TopicPartitionWriter.fileKeyToCommit`` / ``fileKey`` do::

    [<topics.dir><directory.delim>]<topic><directory.delim><encodedPartition><directory.delim>
    <topic><file.delim><kafkaPartition><file.delim><startOffset zero-padded><extension>

``<topic><directory.delim><encodedPartition>`` is ``Partitioner.generatePartitionedPath``; a blank
``topics.dir`` (empty or whitespace, ``StringUtils.isNotBlank``) drops the prefix; the offset is
``String.format("%0<width>d")`` so wider offsets print whole; ``extension`` is the record writer's
(``.avro``, ``.json.gz``, ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ObjectKey", "object_key", "parse_object_key"]


@dataclass(frozen=True, slots=True)
class ObjectKey:
    """The parts of a sink object key."""

    topic: str
    encoded_partition: str
    kafka_partition: int
    start_offset: int
    extension: str


def _extension(extension: str) -> str:
    return extension if not extension or extension.startswith(".") else "." + extension


def object_key(
    *,
    topics_dir: str,
    topic: str,
    encoded_partition: str,
    kafka_partition: int,
    start_offset: int,
    extension: str,
    directory_delim: str = "/",
    file_delim: str = "+",
    zero_pad_width: int = 10,
) -> str:
    """The S3 key Confluent's sink commits a file under.

    Args:
        topics_dir: ``topics.dir``; blank drops the prefix.
        topic: Kafka topic.
        encoded_partition: the partitioner's ``encodePartition`` result.
        kafka_partition: Kafka partition number.
        start_offset: offset of the file's first record.
        extension: the format's extension, with its dot (``.avro``); a missing dot is added.
        directory_delim: ``directory.delim``.
        file_delim: ``file.delim``.
        zero_pad_width: ``filename.offset.zero.pad.width`` (0 means no padding).

    Raises:
        ValueError: ``zero_pad_width`` is negative.
    """
    if zero_pad_width < 0:
        raise ValueError(f"zero_pad_width must be >= 0, got {zero_pad_width}")
    offset = f"{start_offset:0{zero_pad_width}d}" if zero_pad_width else str(start_offset)
    name = f"{topic}{file_delim}{kafka_partition}{file_delim}{offset}{_extension(extension)}"
    suffix = f"{topic}{directory_delim}{encoded_partition}{directory_delim}{name}"
    return f"{topics_dir}{directory_delim}{suffix}" if topics_dir.strip() else suffix


def parse_object_key(
    key: str,
    *,
    topics_dir: str,
    extension: str | None = None,
    directory_delim: str = "/",
    file_delim: str = "+",
    any_topic_folder: bool = False,
) -> ObjectKey:
    """Split a key made by :func:`object_key` back into its parts.

    Args:
        key: the S3 key.
        topics_dir: ``topics.dir`` the key must start with (blank: no prefix).
        extension: required extension (``.avro``); None accepts any text from the first ``.``
            after the offset (``""`` when there is none).
        directory_delim: ``directory.delim``.
        file_delim: ``file.delim``.
        any_topic_folder: accept a file in another topic's folder (Confluent's source reads it
            as its file name's topic's); its encoded partition is then the folder's.

    Raises:
        ValueError: the key does not have this shape.
    """
    rest = key
    if topics_dir.strip():
        prefix = topics_dir + directory_delim
        if not rest.startswith(prefix):
            raise ValueError(f"key {key!r} is not under topics.dir {topics_dir!r}")
        rest = rest[len(prefix) :]
    directory, sep, filename = rest.rpartition(directory_delim)
    if not sep:
        raise ValueError(f"key {key!r} has no directory part")
    fd = re.escape(file_delim)
    if extension is None:
        ext_re = r"(?P<ext>(?:\..*)?)"
    else:
        ext_re = f"(?P<ext>{re.escape(_extension(extension))})"
    m = re.fullmatch(rf"(?P<topic>.+){fd}(?P<part>[0-9]+){fd}(?P<off>-?[0-9]+){ext_re}", filename)
    if m is None:
        raise ValueError(f"key {key!r} does not end in <topic>{file_delim}<partition>...")
    topic = m.group("topic")
    topic_prefix = topic + directory_delim
    if directory.startswith(topic_prefix):
        encoded = directory[len(topic_prefix) :]
    elif any_topic_folder:
        encoded = directory.partition(directory_delim)[2]
    else:
        raise ValueError(f"key {key!r}: directory does not start with topic {topic!r}")
    return ObjectKey(
        topic=topic,
        encoded_partition=encoded,
        kafka_partition=int(m.group("part")),
        start_offset=int(m.group("off")),
        extension=m.group("ext"),
    )
