"""The JVM's registry columns of the line paths from Confluent's AvroConverter (rows for
ParquetFormat: :mod:`s3connect.sink.avro_rows`; checked datums for AvroFormat:
:mod:`s3connect.sink.avro_datums`): the driver's lookup of the schemas that get a column, the
wire prefix each column's function matches, and the task's pick of a batch's first column.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import pyarrow as pa

from s3connect.config.sink import SinkConfig
from s3connect.convert.avro_anything import is_anything
from s3connect.convert.registry.client import Registry, RetryPolicy, subject_name
from s3connect.sink.converters import shared_registry

__all__ = ["MOST_ROW_SCHEMAS", "first_framed", "latest_value_schemas", "wire_prefix"]

logger = logging.getLogger(__name__)


def first_framed(rows: pa.RecordBatch, prefix: str) -> tuple[str, int] | None:
    """Of the JVM's columns named ``prefix<schema id>``, the one holding the batch's first
    value (not null), and its index."""
    import pyarrow.compute as pc  # imports pandas: not at import time (the CLI's status)

    firsts = []
    for name in rows.schema.names:
        if name.startswith(prefix):
            at = pc.index(rows.column(name).is_valid(), True).as_py()
            if at >= 0:
                firsts.append((at, name))
    if not firsts:
        return None
    at, name = min(firsts)
    return name, at


def wire_prefix(schema_id: int) -> bytes:
    """The 5 bytes a Confluent-framed value of ``schema_id`` starts with (magic byte 0, id)."""
    return b"\x00" + schema_id.to_bytes(4, "big")


def latest_value_schemas(config: SinkConfig) -> list[tuple[int, str]]:
    """(id, Avro schema JSON) of the latest value schema of each topic the config reads
    (TopicNameStrategy's subjects: ``topics``, or the registry's ``<topic>-value`` subjects whose
    topic ``topics.regex`` matches), without references, at most :data:`MOST_ROW_SCHEMAS` of
    them (the newest). A topic without one is skipped; once the registry cannot be used (it
    does not answer within :data:`_HINT_TIMEOUT_S`, refuses the credentials) no other topic is
    asked: the records then go record by record, whose converters say what is wrong."""
    settings = config.registry.value
    if settings is None:
        return []
    registry = shared_registry(settings, RetryPolicy(), _hint_client)  # a hint: no retries
    found: dict[int, str] = {}
    for topic in _value_topics(config, registry):
        try:
            latest = registry.latest(subject_name(topic, False), topic)
        except ValueError:  # no schema registered for the topic's values
            continue
        except Exception as exc:  # the workers' converters say it, record by record
            logger.debug("no latest value schema of %s: %s", topic, exc)
            break
        schema = latest.schema
        plain = schema.schema_type in (None, "AVRO") and not schema.references
        if plain and not _anything(schema.schema_str):  # recursive: from_avro refuses it
            found[int(latest.schema_id)] = schema.schema_str
    return sorted(found.items())[-MOST_ROW_SCHEMAS:]


def _anything(schema_str: str) -> bool:
    try:
        return is_anything(json.loads(schema_str))
    except ValueError:
        return False


MOST_ROW_SCHEMAS = 4
"""Schemas given a column per micro-batch: each adds a column every record pays for."""


def _value_topics(config: SinkConfig, registry: Registry) -> list[str]:
    """The topics named, or those of the registry's value subjects ``topics.regex`` matches
    (as Kafka's pattern subscription: the whole name)."""
    if config.topics.regex is None:
        return list(config.topics.names)
    try:
        subjects = registry.subjects()
    except Exception as exc:
        logger.debug("no subjects listed: %s", exc)
        return []
    pattern = re.compile(config.topics.regex)
    suffix = subject_name("", False)
    topics = [s.removesuffix(suffix) for s in subjects if s.endswith(suffix)]
    return [t for t in topics if pattern.fullmatch(t)]


_HINT_TIMEOUT_S = 5


def _hint_client(conf: dict[str, Any]) -> Any:
    """A registry client that gives up after one request of at most 5 s (the client's own
    default waits forever on a registry that does not answer, holding up the micro-batch)."""
    from confluent_kafka.schema_registry import SchemaRegistryClient

    return SchemaRegistryClient({**conf, "timeout": _HINT_TIMEOUT_S, "max.retries": 0})
